"""Which papers an export holds (a tag, a search, a collection, ids or the whole library), as
paper dicts with user fields and source titles, plus library-wide citation keys."""
from __future__ import annotations

from typing import Any, Callable

from ..filters import Filter
from ..model import InputError
from ..userdata import resolve_ids, tagged_ids
from . import render
from .entry import MissingReport, assign_keys, without_untitled
from ..store.protocol import Store

QUERY_LIMIT = 500


def select_ids(store: Store, search: Callable[[str, int], list[str]], *, tag: str | None = None,
               query: str | None = None, collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None) -> list[str]:
    """The ids to export; `search(query, limit)` answers a query with paper ids."""
    chosen = [x for x in (tag, query, collection, ids) if x]
    if len(chosen) > 1:
        raise InputError("choose one of --tag, --query, --collection, --ids")
    if tag:
        out = tagged_ids(store, tag)
        if not out:
            raise InputError(f"no papers tagged {tag!r} (see `paperscope tags`)")
    elif query:
        out = search(query, limit or QUERY_LIMIT)
    elif collection:
        out = store.ordered_ids(Filter(collection=collection))
        if not out:
            names = ", ".join(c["name"] for c in store.collection_stats()) or "none"
            raise InputError(f"no collection named {collection!r} (collections: {names})")
    elif ids:
        out = resolve_ids(store, ids)
    else:
        out = store.all_ids()
    return out[:limit] if limit else out


def paper_dicts(store: Store, ids: list[str]) -> list[dict[str, Any]]:
    """Paper JSON (stored fields, facts, user fields, `title_source`, and `generated` for a paper
    without a real title that `relabel` gave one) in the order of `ids`."""
    objects = store.papers_by_id(ids)
    fields = store.user_fields([i for i in ids if i in objects])
    generated = store.generated_labels([i for i in ids if i in objects and not objects[i].title])
    out = []
    for pid in ids:
        if pid in objects:
            d = objects[pid].to_dict()
            d["title_source"] = objects[pid].title_source
            d.update(fields[pid])
            if pid in generated:
                d["generated"] = generated[pid]
            out.append(d)
    return out


def export(store: Store, search: Callable[[str, int], list[str]], fmt: str, *, tag: str | None = None,
           query: str | None = None, collection: str | None = None, ids: list[str] | None = None,
           limit: int | None = None, skip_untitled: bool = False,
           on_missing: Callable[[str], None] | None = None,
           on_report: Callable[[MissingReport], None] | None = None) -> str:
    """The export text; `on_missing` hears one line on entries without a real title or
    authors (and on entries left out by `skip_untitled`); `on_report` gets the same as counts
    (a `MissingReport`), whether anything is missing or not."""
    pids = select_ids(store, search, tag=tag, query=query, collection=collection, ids=ids, limit=limit)
    papers = paper_dicts(store, pids)
    title = (f"Reading list: {tag}" if tag else f"Reading list: {query}" if query
             else f"Reading list: {collection}" if collection else "Reading list")
    kept = without_untitled(papers) if skip_untitled else papers
    report = MissingReport.of(papers, skip_untitled=skip_untitled)
    if on_missing:
        for line in report.lines(kept):
            on_missing(line)
    if on_report:
        on_report(report)
    return render(fmt, kept, assign_keys(store.citation_rows()), title=title)
