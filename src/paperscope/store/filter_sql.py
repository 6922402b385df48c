"""A `Filter` as SQL, written once for both backends: the clauses are the same, the few
dialect differences (placeholders, case-insensitive equality, JSON field access, lists) come
from a `Dialect`. Every value is a bound parameter and every fragment a fixed string."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ..filters import Filter


@dataclass(frozen=True)
class Dialect:
    mark: str  # parameter placeholder
    ci_equal: Callable[[str], str]  # "<column> equals a parameter, ignoring case"
    json_text: Callable[[str, str], str]  # text of a key of a JSON (text) column
    json_length: Callable[[str, str], str]  # length of a JSON array under a key (0 when absent)
    any_of: Callable[[str, list], tuple[str, list]]  # "<expr> is one of these values" + args
    ids_in: Callable[[list], tuple[str, list]]  # "p.id is one of these ids" + args
    title_order: str  # case-insensitive title sort key
    ci_order: Callable[[str], str]  # "<column>" as a case-insensitive sort key

    def has(self) -> dict[str, str]:
        """has:<kind> -> a condition on papers p."""
        return {
            "code": f"({self.json_text('p.urls', 'code')} IS NOT NULL OR {self.json_length('p.facts', 'code_urls')} > 0)",
            "pdf": f"{self.json_text('p.urls', 'pdf')} IS NOT NULL",
            "openreview": f"{self.json_text('p.urls', 'openreview')} IS NOT NULL",
            "url": "p.urls NOT IN ('{}', '')",
            "title": "p.title IS NOT NULL AND p.title != ''",
            "authors": "p.authors NOT IN ('[]', '')",
            "keywords": "p.keywords NOT IN ('[]', '')",
        }

    def paper_type(self) -> str:
        return self.json_text("p.facts", "paper_type")

    def sorts(self) -> dict[str, str]:
        return {"list": "mem.pos, p.rowid",
                "type": f"COALESCE({self.paper_type()}, 'zzz'), mem.pos, p.rowid",
                "title": f"{self.title_order}, p.rowid",
                "recent": "p.rowid DESC",
                "rowid": "p.rowid"}


SQLITE = Dialect(
    mark="?",
    ci_equal=lambda col: f"{col} = ? COLLATE NOCASE",
    json_text=lambda col, key: f"json_extract({col}, '$.{key}')",
    json_length=lambda col, key: f"COALESCE(json_array_length(json_extract({col}, '$.{key}')), 0)",
    any_of=lambda expr, values: (f"{expr} IN ({','.join('?' for _ in values)})", list(values)),
    ids_in=lambda ids: ("p.id IN (SELECT value FROM json_each(?))", [json.dumps(list(ids))]),
    title_order="COALESCE(p.title, p.label, '') COLLATE NOCASE",
    ci_order=lambda col: f"{col} COLLATE NOCASE",
)

POSTGRES = Dialect(
    mark="%s",
    ci_equal=lambda col: f"lower({col}) = lower(%s)",
    json_text=lambda col, key: f"({col}::jsonb ->> '{key}')",
    json_length=lambda col, key: (f"COALESCE(jsonb_array_length(CASE WHEN jsonb_typeof({col}::jsonb -> '{key}') = "
                                  f"'array' THEN {col}::jsonb -> '{key}' END), 0)"),
    any_of=lambda expr, values: (f"{expr} = ANY(%s)", [list(values)]),
    ids_in=lambda ids: ("p.id = ANY(%s)", [list(ids)]),
    title_order="lower(COALESCE(p.title, p.label, ''))",
    ci_order=lambda col: f"lower({col})",
)

LIST_KEY = "MIN(m.collection_id * 1000000 + m.position)"  # collection order, then list position


def membership_where(f: Filter, d: Dialect) -> tuple[list[str], list[Any]]:
    """Conditions over collections `c` for the collection / venue / year parts of a filter."""
    where: list[str] = []
    args: list[Any] = []
    if f.collection:
        where.append(d.ci_equal("c.name"))
        args.append(f.collection)
    if f.venues:
        where.append("(" + " OR ".join(f"{d.ci_equal('c.venue')} OR {d.ci_equal('c.name')}" for _ in f.venues) + ")")
        for v in f.venues:
            args += [v, v]
    if f.years:
        where.append(f"c.year BETWEEN {d.mark} AND {d.mark}")
        args += list(f.years)
    return where, args


def paper_where(f: Filter, d: Dialect) -> tuple[list[str], list[Any]]:
    """Conditions over papers `p` for the rest of a filter (status, has, type, topic, ids)."""
    where: list[str] = []
    args: list[Any] = []
    if f.statuses:
        own, own_args = d.any_of("lower(p.status)", list(f.statuses))
        member, member_args = d.any_of("lower(status)", list(f.statuses))
        where.append(f"({own} OR p.id IN (SELECT paper_id FROM memberships WHERE {member}))")
        args += own_args + member_args
    has = d.has()
    where += [has[kind] for kind in f.has if kind in has]
    if f.paper_type:
        where.append(f"{d.paper_type()} = {d.mark}")
        args.append(f.paper_type)
    if f.exclude_type:
        where.append(f"COALESCE({d.paper_type()}, '') != {d.mark}")
        args.append(f.exclude_type)
    if f.topic is not None:
        where.append("p.id IN (SELECT pt.paper_id FROM analysis_points pt JOIN analysis_runs r "
                     f"ON r.id = pt.run_id WHERE r.kind = 'topics' AND r.scope = {d.mark} "
                     f"AND r.level = 'coarse' AND pt.topic = {d.mark})")
        args += [f.topic_scope or "", int(f.topic)]
    if f.ids is not None:
        clause, ids_args = d.ids_in(list(f.ids))
        where.append(clause)
        args += ids_args
    return where, args


def ordered_sql(f: Filter, d: Dialect, sort: str = "list", select: str = "p.id") -> tuple[str, list[Any]]:
    """SELECT `select` of every paper passing `f`, in `sort` order (browsing a collection orders
    by its position there: the memberships the filter keeps)."""
    sorts = d.sorts()
    if sort not in sorts:
        raise ValueError(f"unknown sort {sort!r}: choose one of {', '.join(s for s in sorts if s != 'rowid')}")
    member, args = membership_where(f, d)
    rest, rest_args = paper_where(f, d)
    join = "JOIN" if member else "LEFT JOIN"
    sql = (
        f"WITH mem AS (SELECT m.paper_id AS id, {LIST_KEY} AS pos FROM memberships m "
        f"JOIN collections c ON c.id = m.collection_id {'WHERE ' + ' AND '.join(member) if member else ''} "
        "GROUP BY m.paper_id) "
        f"SELECT {select} FROM papers p {join} mem ON mem.id = p.id "
        f"{'WHERE ' + ' AND '.join(rest) if rest else ''} ORDER BY {sorts[sort]}"
    )
    return sql, args + rest_args
