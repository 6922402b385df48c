"""Which papers an export holds (a tag, a search, a collection, ids or the whole library), as
paper dicts with user fields and source titles, plus library-wide citation keys."""
from __future__ import annotations

import json
from typing import Any

from ..model import InputError
from ..userdata import resolve_ids, tagged_ids, user_fields_many
from . import render
from .entry import assign_keys

QUERY_LIMIT = 500


def select_ids(lib, *, tag: str | None = None, query: str | None = None,
               collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None) -> list[str]:
    chosen = [x for x in (tag, query, collection, ids) if x]
    if len(chosen) > 1:
        raise InputError("choose one of --tag, --query, --collection, --ids")
    if tag:
        out = tagged_ids(lib.store, tag)
        if not out:
            raise InputError(f"no papers tagged {tag!r} (see `paperscope tags`)")
    elif query:
        out = [r["id"] for r in lib.search(query, limit=limit or QUERY_LIMIT)]
    elif collection:
        out = [p.id for p in lib.store.papers(collection=collection)]
        if not out:
            names = ", ".join(c["name"] for c in lib.collections()) or "none"
            raise InputError(f"no collection named {collection!r} (collections: {names})")
    elif ids:
        out = resolve_ids(lib.store, ids)
    else:
        out = [r[0] for r in lib.store.conn.execute("SELECT id FROM papers ORDER BY rowid")]
    return out[:limit] if limit else out


def paper_dicts(lib, ids: list[str]) -> list[dict[str, Any]]:
    """Paper JSON (stored fields, facts, user fields, `title_source`) in the order of `ids`."""
    objects = {p.id: p for p in lib.paper_objects(ids)}
    fields = user_fields_many(lib.store, [i for i in ids if i in objects])
    out = []
    for pid in ids:
        if pid in objects:
            d = objects[pid].to_dict()
            d["title_source"] = objects[pid].title_source
            d.update(fields[pid])
            out.append(d)
    return out


def library_keys(lib) -> dict[str, str]:
    """Citation keys for the whole library, oldest paper first (stable across exports)."""
    rows = lib.store.conn.execute(
        "SELECT p.id, p.title, p.label, substr(p.abstract, 1, 300), p.authors, "
        "(SELECT c.venue FROM memberships m JOIN collections c ON c.id = m.collection_id "
        " WHERE m.paper_id = p.id ORDER BY c.id LIMIT 1), "
        "(SELECT c.year FROM memberships m JOIN collections c ON c.id = m.collection_id "
        " WHERE m.paper_id = p.id ORDER BY c.id LIMIT 1) "
        "FROM papers p ORDER BY p.rowid")
    return assign_keys({"id": r[0], "title": r[1], "label": r[2], "abstract": r[3],
                        "authors": json.loads(r[4] or "[]"), "venue": r[5], "year": r[6]} for r in rows)


def export(lib, fmt: str, *, tag: str | None = None, query: str | None = None,
           collection: str | None = None, ids: list[str] | None = None,
           limit: int | None = None) -> str:
    pids = select_ids(lib, tag=tag, query=query, collection=collection, ids=ids, limit=limit)
    papers = paper_dicts(lib, pids)
    title = (f"Reading list: {tag}" if tag else f"Reading list: {query}" if query
             else f"Reading list: {collection}" if collection else "Reading list")
    return render(fmt, papers, library_keys(lib), title=title)
