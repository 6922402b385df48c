"""Export papers as reading lists and bibliographies, and import a user's own library.

`render(fmt, papers, keys)` turns paper dicts (with user fields) into text; citation keys come
from `entry.assign_keys` over the whole library so they are stable across exports.
"""
from __future__ import annotations

from typing import Any

from ..model import InputError
from . import bibtex, csljson, markdown, ris, tables
from .entry import MissingReport, assign_keys, missing_summary, without_untitled

FORMATS = {
    "bibtex": ("bib", bibtex.render),
    "ris": ("ris", ris.render),
    "csljson": ("json", csljson.render),
    "csv": ("csv", tables.render_csv),
    "jsonl": ("jsonl", tables.render_jsonl),
    "markdown": ("md", markdown.render),
}
ALIASES = {"bib": "bibtex", "csl": "csljson", "csl-json": "csljson", "md": "markdown", "json": "csljson"}


def normalise_format(fmt: str) -> str:
    name = ALIASES.get(fmt.lower(), fmt.lower())
    if name not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    return name


def render(fmt: str, papers: list[dict[str, Any]], keys: dict[str, str], *, title: str | None = None,
           skip_untitled: bool = False) -> str:
    """`skip_untitled` leaves out papers whose source gave no title (their shown title is a
    derived label); the others carry a note saying what is derived or missing."""
    name = normalise_format(fmt)
    renderer = FORMATS[name][1]
    if skip_untitled:
        papers = without_untitled(papers)
    if name == "markdown" and title:
        return markdown.render(papers, keys, title=title)
    return renderer(papers, keys)


__all__ = ["FORMATS", "MissingReport", "assign_keys", "missing_summary", "normalise_format", "render", "without_untitled"]
