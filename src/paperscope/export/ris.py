"""RIS (Zotero, EndNote, Mendeley): conference papers as `TY  - CPAPER` with the venue in `T2`,
authors `Family, Given` one per `AU` line, tags and keywords as `KW`, the user's note as `N1`."""
from __future__ import annotations

from typing import Any

from .entry import booktitle, display_title, identifiers, keywords, links, split_name, untitled_note


def _line(tag: str, value: Any) -> str:
    text = " ".join(str(value).split())  # RIS values are single lines
    return f"{tag}  - {text}"


def entry(paper: dict[str, Any], key: str) -> str:
    lines = [_line("TY", "CPAPER" if paper.get("venue") else "GEN"), _line("ID", key),
             _line("TI", display_title(paper))]
    for name in paper.get("authors") or []:
        n = split_name(name)
        lines.append(_line("AU", f"{n.family}, {n.given}" + (f", {n.suffix}" if n.suffix else "")
                           if n.given else n.family))
    if (bt := booktitle(paper)):
        lines.append(_line("T2", bt))
    if paper.get("year"):
        lines.append(_line("PY", paper["year"]))
    ids = identifiers(paper)
    if ids.get("doi"):
        lines.append(_line("DO", ids["doi"]))
    for url in links(paper):
        lines.append(_line("UR", url))
    if paper.get("abstract"):
        lines.append(_line("AB", paper["abstract"]))
    for kw in keywords(paper):
        lines.append(_line("KW", kw))
    for note in (paper.get("note"), untitled_note(paper)):
        if note:
            lines.append(_line("N1", note))
    lines.append(_line("M1", f"paperscope:{paper['id']}"))
    lines.append("ER  - ")
    return "\n".join(lines) + "\n"


def render(papers: list[dict[str, Any]], keys: dict[str, str]) -> str:
    return "\n".join(entry(p, keys[p["id"]]) for p in papers)
