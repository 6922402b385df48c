"""Read queries of the PostgreSQL store beyond whole papers (the SQLite store's
`sqlite_browse.py` in PostgreSQL's dialect): filtered id lists, facets, lookups, full-text
phrase matches on tsvector columns, citation rows, the facts refresh queries."""
from __future__ import annotations

import json
from typing import Any, Iterator

import numpy as np

from ..filters import Filter
from .filter_sql import POSTGRES, ordered_sql

_STALE_FACTS = "(facts_hash IS NULL OR facts_hash != text_hash || %s)"
TEXT_COLUMNS = ("title", "label", "abstract", "authors", "keywords")


class BrowseQueries:
    conn: Any

    def ordered_ids(self, f: Filter, sort: str = "list") -> list[str]:
        if f.ids is not None and not f.ids:
            return []
        sql, args = ordered_sql(f, POSTGRES, sort)
        return [r[0] for r in self.conn.execute(sql, args)]

    def ordered_rowids(self, f: Filter, sort: str = "list") -> np.ndarray:
        if f.ids is not None and not f.ids:
            return np.zeros(0, np.int64)
        sql, args = ordered_sql(f, POSTGRES, sort, select="p.rowid")
        return np.fromiter((r[0] for r in self.conn.execute(sql, args)), dtype=np.int64)

    def facet_counts(self, f: Filter) -> dict[str, dict[str, int]]:
        sql, args = ordered_sql(f, POSTGRES, "rowid", select=f"{POSTGRES.paper_type()} AS t, p.status AS s")
        out: dict[str, dict[str, int]] = {}
        for name, col in (("paper_type", "t"), ("status", "s")):
            rows = self.conn.execute(f"SELECT {col}, COUNT(*) FROM ({sql}) q GROUP BY 1 ORDER BY 2 DESC, 1", args)
            out[name] = {str(v): n for v, n in rows if v is not None}
        return out

    def matches_text(self, expression: str, column: str | None = None) -> np.ndarray:
        """Row numbers of the papers whose text holds a phrase, given as the quoted string
        `search.query.fts_phrase` builds (PostgreSQL's English stemming stands in for FTS5's
        porter tokenizer; authors match word for word)."""
        if column is not None and column not in TEXT_COLUMNS:
            raise ValueError(f"unknown text column {column!r}")
        phrase = expression[1:-1].replace('""', '"') if expression.startswith('"') else expression
        if column == "authors":
            sql = "SELECT rowid FROM papers WHERE authors_fts @@ phraseto_tsquery('simple', fold_diacritics(%s))"
        elif column:
            sql = (f"SELECT rowid FROM papers WHERE to_tsvector('english', fold_diacritics(coalesce({column}, ''))) "
                   "@@ phraseto_tsquery('english', fold_diacritics(%s))")
        else:
            sql = "SELECT rowid FROM papers WHERE fts @@ phraseto_tsquery('english', fold_diacritics(%s))"
        return np.fromiter((r[0] for r in self.conn.execute(sql, (phrase,))), dtype=np.int64)

    def passes(self, f: Filter) -> np.ndarray:
        return np.sort(self.ordered_rowids(f, "rowid"))

    def has_paper(self, paper_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM papers WHERE id = %s", (paper_id,)).fetchone() is not None

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM papers WHERE id LIKE %s ORDER BY id LIMIT %s", (like, int(limit)))]

    def rowid_of(self, paper_id: str) -> int | None:
        row = self.conn.execute("SELECT rowid FROM papers WHERE id = %s", (paper_id,)).fetchone()
        return int(row[0]) if row else None

    def ids_of_rowids(self, rowids: list[int]) -> dict[int, str]:
        return dict(self.conn.execute("SELECT rowid, id FROM papers WHERE rowid = ANY(%s)",
                                      ([int(r) for r in rowids],)).fetchall())

    def rowids_of_ids(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT id, rowid FROM papers").fetchall())

    def texts_of_rowids(self, rowids: list[int]) -> dict[int, tuple[str, str]]:
        return {r[0]: (r[1] or "", r[2] or "") for r in self.conn.execute(
            "SELECT rowid, title, abstract FROM papers WHERE rowid = ANY(%s)", ([int(r) for r in rowids],))}

    def display_titles(self, ids: list[str]) -> dict[str, str]:
        return {pid: title or label or pid for pid, title, label in self.conn.execute(
            "SELECT id, title, label FROM papers WHERE id = ANY(%s)", (list(ids),))}

    def all_ids(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT id FROM papers ORDER BY rowid")]

    def paper_texts(self) -> Iterator[tuple[str, str | None, str | None, str]]:
        yield from self.conn.execute("SELECT id, title, label, abstract FROM papers ORDER BY rowid")

    def papers_stamp(self) -> tuple:
        return tuple(self.conn.execute("SELECT COUNT(*), MAX(updated_at), MAX(rowid) FROM papers").fetchone())

    def citation_rows(self) -> Iterator[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT p.id, p.title, p.label, substr(p.abstract, 1, 300), p.authors, c.venue, c.year "
            "FROM papers p LEFT JOIN (SELECT m.paper_id, MIN(m.collection_id) AS cid FROM memberships m "
            "GROUP BY m.paper_id) first ON first.paper_id = p.id LEFT JOIN collections c ON c.id = first.cid "
            "ORDER BY p.rowid")
        for r in rows:
            yield {"id": r[0], "title": r[1], "label": r[2], "abstract": r[3],
                   "authors": json.loads(r[4] or "[]"), "venue": r[5], "year": r[6]}

    def author_lists(self) -> Iterator[tuple[int, str, list[str]]]:
        """(row number, id, author names as written) of every paper with authors, oldest first."""
        rows = self.conn.execute("SELECT rowid, id, authors FROM papers WHERE authors <> '[]' ORDER BY rowid")
        for rowid, pid, authors in rows:
            try:
                names = json.loads(authors or "[]")
            except ValueError:
                continue
            if isinstance(names, list):
                yield int(rowid), pid, [str(n) for n in names if isinstance(n, str) and n.strip()]

    # ------------------------------------------------------------------ derived facts
    def stale_facts_count(self, version: str) -> int:
        return self.conn.execute(f"SELECT COUNT(*) FROM papers WHERE {_STALE_FACTS}", (version,)).fetchone()[0]

    def stale_facts(self, version: str, after: int, limit: int) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            f"SELECT rowid, id, title, abstract, text_hash FROM papers WHERE {_STALE_FACTS} AND rowid > %s "
            "ORDER BY rowid LIMIT %s", (version, after, limit))
        return [{"rowid": r[0], "id": r[1], "title": r[2], "abstract": r[3], "text_hash": r[4]} for r in rows]

    def save_facts(self, updates: list[tuple[str, str | None, str, str]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany("UPDATE papers SET facts = %s, label = %s, facts_hash = %s WHERE id = %s", updates)
