"""A Markdown reading list: one checkbox per paper (ticked when read), title linked to the
paper page, authors and venue, tags, the user's note as a quote, the citation key. A derived
title and unknown authors are marked, and the list opens with what it lacks."""
from __future__ import annotations

import re
from typing import Any

from .entry import display_title, has_title, links, missing_summary

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def _url(url: str) -> str:
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def entry(paper: dict[str, Any], key: str) -> str:
    title = md_escape(display_title(paper))
    urls = links(paper)
    head = f"[{title}]({_url(urls[0])})" if urls else title
    star = " ★" if paper.get("starred") else ""
    derived = "" if has_title(paper) else " _(derived title: the source list has none)_"
    lines = [f"- [{'x' if paper.get('read') else ' '}] **{head}**{star}{derived}"]
    meta = []
    if paper.get("authors"):
        names = paper["authors"]
        meta.append(md_escape(", ".join(names[:6]) + (" et al." if len(names) > 6 else "")))
    else:
        meta.append("_authors unknown_")
    where = " ".join(str(x) for x in (paper.get("venue"), paper.get("year"), paper.get("status")) if x)
    if where:
        meta.append(md_escape(where))
    meta.append(f"`{key}`")
    lines.append("  " + " · ".join(meta))
    if paper.get("tags"):
        lines.append("  tags: " + ", ".join(md_escape(t) for t in paper["tags"]))
    if paper.get("note"):
        lines.append("  > " + md_escape(paper["note"]))
    return "\n".join(lines)


def render(papers: list[dict[str, Any]], keys: dict[str, str], title: str = "Reading list") -> str:
    read = sum(1 for p in papers if p.get("read"))
    out = [f"# {md_escape(title)}", "", f"{len(papers)} papers, {read} read.", ""]
    if (summary := missing_summary(papers)):
        out += [f"> {md_escape(summary)}", ""]
    out += [entry(p, keys[p["id"]]) for p in papers]
    return "\n".join(out) + "\n"
