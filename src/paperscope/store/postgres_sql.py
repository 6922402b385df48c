"""SQL fragments of the PostgreSQL store: a `Filter` as a WHERE clause over `papers p`, the
list order, "has code" (the SQLite store's `sqlite_sql.py` in PostgreSQL's dialect; the JSON
fields are text, read with `::jsonb`)."""
from __future__ import annotations

from typing import Any

from ..filters import Filter

TYPE_EXPR = "(p.facts::jsonb ->> 'paper_type')"
CODE_EXPR = ("((p.urls::jsonb ->> 'code') IS NOT NULL "
             "OR COALESCE(jsonb_array_length(CASE WHEN jsonb_typeof(p.facts::jsonb -> 'code_urls') = 'array' "
             "THEN p.facts::jsonb -> 'code_urls' END), 0) > 0)")
HAS = {
    "code": CODE_EXPR,
    "pdf": "(p.urls::jsonb ->> 'pdf') IS NOT NULL",
    "openreview": "(p.urls::jsonb ->> 'openreview') IS NOT NULL",
    "url": "p.urls NOT IN ('{}', '')",
    "title": "p.title IS NOT NULL AND p.title != ''",
    "authors": "p.authors NOT IN ('[]', '')",
    "keywords": "p.keywords NOT IN ('[]', '')",
}
LIST_KEY = "MIN(m.collection_id * 1000000 + m.position)"
SORTS = {
    "list": "mem.pos, p.rowid",
    "type": f"COALESCE({TYPE_EXPR}, 'zzz'), mem.pos, p.rowid",
    "title": "lower(COALESCE(p.title, p.label, '')), p.rowid",
    "recent": "p.rowid DESC",
    "rowid": "p.rowid",
}


def membership_where(f: Filter) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if f.collection:
        where.append("lower(c.name) = lower(%s)")
        args.append(f.collection)
    if f.venues:
        where.append("(lower(c.venue) = ANY(%s) OR lower(c.name) = ANY(%s))")
        folded = [v.lower() for v in f.venues]
        args += [folded, folded]
    if f.years:
        where.append("c.year BETWEEN %s AND %s")
        args += list(f.years)
    return where, args


def paper_where(f: Filter) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if f.statuses:
        where.append("(lower(p.status) = ANY(%s) OR p.id IN (SELECT paper_id FROM memberships "
                     "WHERE lower(status) = ANY(%s)))")
        args += [list(f.statuses), list(f.statuses)]
    where += [HAS[kind] for kind in f.has if kind in HAS]
    if f.paper_type:
        where.append(f"{TYPE_EXPR} = %s")
        args.append(f.paper_type)
    if f.exclude_type:
        where.append(f"COALESCE({TYPE_EXPR}, '') != %s")
        args.append(f.exclude_type)
    if f.topic is not None:
        where.append("p.id IN (SELECT pt.paper_id FROM analysis_points pt JOIN analysis_runs r "
                     "ON r.id = pt.run_id WHERE r.kind = 'topics' AND r.scope = %s "
                     "AND r.level = 'coarse' AND pt.topic = %s)")
        args += [f.topic_scope or "", int(f.topic)]
    if f.ids is not None:
        where.append("p.id = ANY(%s)")
        args.append(list(f.ids))
    return where, args


def ordered_sql(f: Filter, sort: str = "list", select: str = "p.id") -> tuple[str, list[Any]]:
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
