"""Filtered, sorted listing of a library's papers as one SQL query returning ids only (the
facade caches the list and loads one page of papers at a time), and facet counts for filter
menus. Every value is a bound parameter; sort keys come from a fixed table."""
from __future__ import annotations

import json
from typing import Any

from .sqlite import collection_filter

TYPE_EXPR = "json_extract(p.facts, '$.paper_type')"
CODE_EXPR = ("(COALESCE(json_array_length(json_extract(p.facts, '$.code_urls')), 0) > 0 "
             "OR json_extract(p.urls, '$.code') IS NOT NULL)")
SORTS = {
    "list": "mem.pos, p.rowid",
    "type": f"COALESCE({TYPE_EXPR}, 'zzz'), mem.pos, p.rowid",
    "title": "COALESCE(p.title, p.label, '') COLLATE NOCASE, p.rowid",
    "recent": "p.rowid DESC",
}


def ordered_ids(store: Any, *, collection: str | None = None, venue: str | None = None,
                year: int | None = None, sort: str = "list", paper_type: str | None = None,
                exclude_type: str | None = None, has_code: bool | None = None,
                status: str | None = None, ids: list[str] | None = None) -> list[str]:
    """Ids of every matching paper, in display order (`ids` restricts to a given set, e.g. a
    topic or a tag). The facade caches this list and pages through it."""
    if sort not in SORTS:  # ("topic" is ordered by the facade, from the topic model)
        raise ValueError(f"unknown sort {sort!r}: choose one of {', '.join(SORTS)}")
    member_where, args = collection_filter(collection=collection, venue=venue, year=year)
    where = []
    if paper_type:
        where.append(f"{TYPE_EXPR} = ?")
        args.append(paper_type)
    if exclude_type:
        where.append(f"COALESCE({TYPE_EXPR}, '') != ?")
        args.append(exclude_type)
    if has_code is not None:
        where.append(CODE_EXPR if has_code else f"NOT {CODE_EXPR}")
    if status:
        where.append("COALESCE(p.status, mem.status) = ? COLLATE NOCASE")
        args.append(status)
    if ids is not None:
        if not ids:
            return []
        where.append("p.id IN (SELECT value FROM json_each(?))")
        args.append(json.dumps(list(ids)))
    sql = (
        "WITH mem AS (SELECT m.paper_id AS id, MIN(m.collection_id * 1000000 + m.position) AS pos, "
        "MAX(m.status) AS status FROM memberships m JOIN collections c ON c.id = m.collection_id "
        f"WHERE {' AND '.join(member_where)} GROUP BY m.paper_id) "
        "SELECT p.id FROM mem JOIN papers p ON p.id = mem.id "
        f"{'WHERE ' + ' AND '.join(where) if where else ''} ORDER BY {SORTS[sort]}"
    )
    return [r[0] for r in store.conn.execute(sql, args)]


def facet_counts(store: Any, *, collection: str | None = None) -> dict[str, dict[str, int]]:
    """Counts by paper type and status within a collection (for filter menus)."""
    args: list[Any] = []
    join = ""
    if collection:
        join = ("WHERE p.id IN (SELECT m.paper_id FROM memberships m JOIN collections c "
                "ON c.id = m.collection_id WHERE c.name = ? COLLATE NOCASE)")
        args.append(collection)
    out: dict[str, dict[str, int]] = {"paper_type": {}, "status": {}}
    for r in store.conn.execute(f"SELECT {TYPE_EXPR}, COUNT(*) FROM papers p {join} GROUP BY 1 ORDER BY 2 DESC", args):
        if r[0] is not None:
            out["paper_type"][str(r[0])] = r[1]
    for r in store.conn.execute(f"SELECT p.status, COUNT(*) FROM papers p {join} GROUP BY 1 ORDER BY 2 DESC", args):
        if r[0] is not None:
            out["status"][str(r[0])] = r[1]
    return out


def stored_topic(store: Any, paper_id: str, scope: str, level: str = "coarse") -> dict[str, Any] | None:
    """The topic a paper was given by an already computed topic run of `scope` (analysis
    tables), or None when that run does not exist yet. Never triggers a fit."""
    row = store.conn.execute(
        "SELECT pt.topic, r.model FROM analysis_points pt JOIN analysis_runs r ON r.id = pt.run_id "
        "WHERE r.kind = 'topics' AND r.scope = ? AND r.level = ? AND pt.paper_id = ?",
        (scope, level, paper_id)).fetchone()
    if row is None or row[0] is None:
        return None
    labels = json.loads(row[1] or "{}").get("labels") or []
    topic = int(row[0])
    return {"id": topic, "label": labels[topic] if 0 <= topic < len(labels) else str(topic)}
