"""CSL JSON (Zotero, Pandoc, citeproc): `paper-conference` items with `container-title`."""
from __future__ import annotations

import json
from typing import Any

from .entry import booktitle, display_title, identifiers, keywords, links, split_name, untitled_note


def item(paper: dict[str, Any], key: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": key, "type": "paper-conference" if paper.get("venue") else "article",
                           "title": display_title(paper)}
    authors = []
    for name in paper.get("authors") or []:
        n = split_name(name)
        authors.append({"family": n.family, "given": n.given, **({"suffix": n.suffix} if n.suffix else {})}
                       if n.given else {"literal": n.family})
    if authors:
        out["author"] = authors
    if (bt := booktitle(paper)):
        out["container-title"] = bt
        out["event-title"] = bt
    if paper.get("venue"):
        out["container-title-short"] = f"{paper['venue']} {paper.get('year') or ''}".strip()
    if paper.get("year"):
        out["issued"] = {"date-parts": [[int(paper["year"])]]}
    ids = identifiers(paper)
    if ids.get("doi"):
        out["DOI"] = ids["doi"]
    urls = links(paper)
    if urls:
        out["URL"] = urls[0]
    if paper.get("abstract"):
        out["abstract"] = paper["abstract"]
    if (kw := keywords(paper)):
        out["keyword"] = ", ".join(kw)
    notes = [n for n in (paper.get("note"), untitled_note(paper)) if n]
    if notes:
        out["note"] = "\n".join(notes)
    out["custom"] = {"paperscope_id": paper["id"], "tags": list(paper.get("tags") or []),
                     "starred": bool(paper.get("starred")), "read": bool(paper.get("read"))}
    return out


def render(papers: list[dict[str, Any]], keys: dict[str, str]) -> str:
    return json.dumps([item(p, keys[p["id"]]) for p in papers], ensure_ascii=False, indent=2) + "\n"
