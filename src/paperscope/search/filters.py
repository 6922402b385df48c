"""Which papers a query allows: filters (venue, year, status, has, author), required phrases
and exclusions, as a boolean mask over the lexical index positions. Every value reaches SQL
as a bound parameter; phrase and author text reaches FTS5 only as a quoted string."""
from __future__ import annotations

import sqlite3

import numpy as np

from . import lexical, tokens
from .query import Query, fts_phrase

# has:<kind> -> a SQL condition on papers p (fixed strings: never built from user text)
HAS = {
    "code": "(json_extract(p.urls, '$.code') IS NOT NULL "
            "OR json_array_length(json_extract(p.facts, '$.code_urls')) > 0)",
    "pdf": "json_extract(p.urls, '$.pdf') IS NOT NULL",
    "openreview": "json_extract(p.urls, '$.openreview') IS NOT NULL",
    "url": "p.urls NOT IN ('{}', '')",
    "title": "p.title IS NOT NULL AND p.title != ''",
    "authors": "p.authors NOT IN ('[]', '')",
    "keywords": "p.keywords NOT IN ('[]', '')",
}
MASK_CACHE = "search.masks"


def allowed_mask(lib, index: lexical.LexicalIndex, q: Query) -> np.ndarray | None:
    """Boolean mask over `index` positions, or None when the query restricts nothing."""
    conn = lib.store.conn
    mask: np.ndarray | None = None

    def restrict(rowids: np.ndarray, keep: bool = True) -> None:
        nonlocal mask
        pos = index.positions(rowids)
        sel = np.zeros(index.size, dtype=bool)
        sel[pos[pos >= 0]] = True
        if mask is None:
            mask = np.ones(index.size, dtype=bool)
        mask &= sel if keep else ~sel

    unknown = [kind for kind in q.has if kind not in HAS]
    if unknown:
        q.warnings.append(f"ignored has:{', has:'.join(unknown)} (known: {', '.join(sorted(HAS))})")
        q.has = [kind for kind in q.has if kind in HAS]
    if q.venues or q.years or q.statuses or q.has:
        restrict(_cached_filter(lib, q))
    for name in q.authors:
        restrict(fts_rowids(conn, fts_phrase(name), column="authors", q=q))
    for phrase in q.phrases:
        restrict(fts_rowids(conn, fts_phrase(phrase), q=q))
    for phrase in q.excluded_phrases:
        restrict(fts_rowids(conn, fts_phrase(phrase), q=q), keep=False)
    if q.excluded_words:
        words = [t for w in q.excluded_words for t in tokens.terms(w)]
        ids = lexical.term_ids(conn, index, words)
        if ids:
            if mask is None:
                mask = np.ones(index.size, dtype=bool)
            mask[index.containing(list(ids.values()))] = False
    return mask


def _cached_filter(lib, q: Query) -> np.ndarray:
    key = (tuple(sorted(v.lower() for v in q.venues)), q.years, tuple(sorted(q.statuses)),
           tuple(sorted(q.has)))
    cache = lib._cache.setdefault(MASK_CACHE, {})
    if key not in cache:
        if len(cache) > 64:
            cache.clear()
        cache[key] = filter_rowids(lib.store.conn, q)
    return cache[key]


def filter_rowids(conn: sqlite3.Connection, q: Query) -> np.ndarray:
    """papers.rowid of the papers passing venue/year/status/has filters."""
    where, args = [], []
    member = []
    if q.venues:
        member.append("(" + " OR ".join("c.venue = ? COLLATE NOCASE OR c.name = ? COLLATE NOCASE"
                                        for _ in q.venues) + ")")
        for v in q.venues:
            args += [v, v]
    if q.years:
        member.append("c.year BETWEEN ? AND ?")
        args += list(q.years)
    if member:
        where.append("p.id IN (SELECT m.paper_id FROM memberships m JOIN collections c "
                     f"ON c.id = m.collection_id WHERE {' AND '.join(member)})")
    if q.statuses:
        marks = ",".join("?" for _ in q.statuses)
        where.append(f"(lower(p.status) IN ({marks}) OR p.id IN (SELECT paper_id FROM memberships "
                     f"WHERE lower(status) IN ({marks})))")
        args += list(q.statuses) * 2
    where += [HAS[kind] for kind in q.has if kind in HAS]
    sql = "SELECT p.rowid FROM papers p" + (" WHERE " + " AND ".join(where) if where else "")
    return np.fromiter((r[0] for r in conn.execute(sql, args)), dtype=np.int64)


def fts_rowids(conn: sqlite3.Connection, expression: str, column: str | None = None,
               q: Query | None = None) -> np.ndarray:
    """Rowids matching one FTS5 string (optionally within one column)."""
    if not any(ch.isalnum() for ch in expression):
        return np.zeros(0, np.int64)
    match = f"{column} : {expression}" if column else expression
    try:
        rows = conn.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?", (match,))
        return np.fromiter((r[0] for r in rows), dtype=np.int64)
    except sqlite3.OperationalError as exc:  # defensive: an FTS5 message, never a crash
        if q is not None:
            q.warnings.append(f"could not match {expression}: {exc}")
        return np.zeros(0, np.int64)
