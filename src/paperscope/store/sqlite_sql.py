"""SQL fragments of the SQLite store that several queries share: a `Filter` as a WHERE clause
over `papers p`, the list order, "has code". Written once here; every value is a bound
parameter and every fragment a fixed string."""
from __future__ import annotations

import json
from typing import Any

from ..filters import Filter

TYPE_EXPR = "json_extract(p.facts, '$.paper_type')"
CODE_EXPR = ("(json_extract(p.urls, '$.code') IS NOT NULL "
             "OR COALESCE(json_array_length(json_extract(p.facts, '$.code_urls')), 0) > 0)")
# has:<kind> -> a condition on papers p
HAS = {
    "code": CODE_EXPR,
    "pdf": "json_extract(p.urls, '$.pdf') IS NOT NULL",
    "openreview": "json_extract(p.urls, '$.openreview') IS NOT NULL",
    "url": "p.urls NOT IN ('{}', '')",
    "title": "p.title IS NOT NULL AND p.title != ''",
    "authors": "p.authors NOT IN ('[]', '')",
    "keywords": "p.keywords NOT IN ('[]', '')",
}
# A paper's place in its lists: collection order, then position in the list. Browsing a
# collection orders by its position there (the memberships the filter keeps).
LIST_KEY = "MIN(m.collection_id * 1000000 + m.position)"
SORTS = {
    "list": "mem.pos, p.rowid",
    "type": f"COALESCE({TYPE_EXPR}, 'zzz'), mem.pos, p.rowid",
    "title": "COALESCE(p.title, p.label, '') COLLATE NOCASE, p.rowid",
    "recent": "p.rowid DESC",
    "rowid": "p.rowid",
}


def membership_where(f: Filter) -> tuple[list[str], list[Any]]:
    """Conditions over collections `c` for the collection / venue / year parts of a filter."""
    where: list[str] = []
    args: list[Any] = []
    if f.collection:
        where.append("c.name = ? COLLATE NOCASE")
        args.append(f.collection)
    if f.venues:
        where.append("(" + " OR ".join("c.venue = ? COLLATE NOCASE OR c.name = ? COLLATE NOCASE"
                                       for _ in f.venues) + ")")
        for v in f.venues:
            args += [v, v]
    if f.years:
        where.append("c.year BETWEEN ? AND ?")
        args += list(f.years)
    return where, args


def paper_where(f: Filter) -> tuple[list[str], list[Any]]:
    """Conditions over papers `p` for the rest of a filter (status, has, type, topic, ids)."""
    where: list[str] = []
    args: list[Any] = []
    if f.statuses:
        marks = ",".join("?" for _ in f.statuses)
        where.append(f"(lower(p.status) IN ({marks}) OR p.id IN (SELECT paper_id FROM memberships "
                     f"WHERE lower(status) IN ({marks})))")
        args += list(f.statuses) * 2
    where += [HAS[kind] for kind in f.has if kind in HAS]
    if f.paper_type:
        where.append(f"{TYPE_EXPR} = ?")
        args.append(f.paper_type)
    if f.exclude_type:
        where.append(f"COALESCE({TYPE_EXPR}, '') != ?")
        args.append(f.exclude_type)
    if f.topic is not None:
        where.append("p.id IN (SELECT pt.paper_id FROM analysis_points pt JOIN analysis_runs r "
                     "ON r.id = pt.run_id WHERE r.kind = 'topics' AND r.scope = ? "
                     "AND r.level = 'coarse' AND pt.topic = ?)")
        args += [f.topic_scope or "", int(f.topic)]
    if f.ids is not None:
        where.append("p.id IN (SELECT value FROM json_each(?))")
        args.append(json.dumps(list(f.ids)))
    return where, args


def ordered_sql(f: Filter, sort: str = "list", select: str = "p.id") -> tuple[str, list[Any]]:
    """SELECT `select` of every paper passing `f`, in `sort` order."""
    if sort not in SORTS:
        raise ValueError(f"unknown sort {sort!r}: choose one of {', '.join(s for s in SORTS if s != 'rowid')}")
    member, args = membership_where(f)
    rest, rest_args = paper_where(f)
    join = "JOIN" if member else "LEFT JOIN"
    sql = (
        f"WITH mem AS (SELECT m.paper_id AS id, {LIST_KEY} AS pos FROM memberships m "
        f"JOIN collections c ON c.id = m.collection_id {'WHERE ' + ' AND '.join(member) if member else ''} "
        "GROUP BY m.paper_id) "
        f"SELECT {select} FROM papers p {join} mem ON mem.id = p.id "
        f"{'WHERE ' + ' AND '.join(rest) if rest else ''} ORDER BY {SORTS[sort]}"
    )
    return sql, args + rest_args
