"""Read queries of the SQLite store beyond whole papers: filtered id lists in display order,
facet counts, id and text lookups by row, full-text matches, citation rows, and the facts
refresh queries. Mixed into `SQLiteStore`; `self.conn` is its connection."""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterator

import numpy as np

from ..filters import Filter
from .filter_sql import SQLITE, ordered_sql

_STALE_FACTS = "(facts_hash IS NULL OR facts_hash != text_hash || ?)"


class BrowseQueries:
    conn: sqlite3.Connection
    backend = "sqlite"

    # ------------------------------------------------------------------ filtered lists
    def ordered_ids(self, f: Filter, sort: str = "list") -> list[str]:
        """Ids of every paper passing `f`, in display order (sort: list, type, title, recent)."""
        if f.ids is not None and not f.ids:
            return []
        sql, args = ordered_sql(f, SQLITE, sort)
        return [r[0] for r in self.conn.execute(sql, args)]

    def ordered_rowids(self, f: Filter, sort: str = "list") -> np.ndarray:
        """Row numbers (the search indexes' key) of the papers passing `f`, in `sort` order."""
        if f.ids is not None and not f.ids:
            return np.zeros(0, np.int64)
        sql, args = ordered_sql(f, SQLITE, sort, select="p.rowid")
        return np.fromiter((r[0] for r in self.conn.execute(sql, args)), dtype=np.int64)

    def facet_counts(self, f: Filter) -> dict[str, dict[str, int]]:
        """Counts by paper type and status of the papers passing `f` (filter menus)."""
        sql, args = ordered_sql(f, SQLITE, "rowid", select=f"{SQLITE.paper_type()} AS t, p.status AS s")
        out: dict[str, dict[str, int]] = {"paper_type": {}, "status": {}}
        for name, col in (("paper_type", "t"), ("status", "s")):
            rows = self.conn.execute(f"SELECT {col}, COUNT(*) FROM ({sql}) GROUP BY 1 ORDER BY 2 DESC, 1", args)
            out[name] = {str(v): n for v, n in rows if v is not None}
        return out

    def matches_text(self, expression: str, column: str | None = None) -> np.ndarray:
        """Row numbers of the papers whose text matches one FTS5 string token (a quoted phrase
        built by `search.query.fts_phrase`), optionally in one column (title, label, abstract,
        authors, keywords). Raises ValueError when FTS5 refuses the expression."""
        if column is not None and column not in ("title", "label", "abstract", "authors", "keywords"):
            raise ValueError(f"unknown text column {column!r}")
        match = f"{column} : {expression}" if column else expression
        try:
            rows = self.conn.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?", (match,))
            return np.fromiter((r[0] for r in rows), dtype=np.int64)
        except sqlite3.OperationalError as exc:
            raise ValueError(str(exc)) from exc

    def passes(self, f: Filter) -> np.ndarray:
        """Row numbers of the papers passing `f`, ascending."""
        return np.sort(self.ordered_rowids(f, "rowid"))

    # ------------------------------------------------------------------ lookups
    def has_paper(self, paper_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone() is not None

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM papers WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?", (like, int(limit)))]

    def rowid_of(self, paper_id: str) -> int | None:
        row = self.conn.execute("SELECT rowid FROM papers WHERE id = ?", (paper_id,)).fetchone()
        return int(row[0]) if row else None

    def ids_of_rowids(self, rowids: list[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for part in _chunks(rowids, 500):
            marks = ",".join("?" for _ in part)
            out.update(self.conn.execute(f"SELECT rowid, id FROM papers WHERE rowid IN ({marks})", part))
        return out

    def rowids_of_ids(self) -> dict[str, int]:
        """{paper id: row number} of the whole library."""
        return dict(self.conn.execute("SELECT id, rowid FROM papers"))

    def texts_of_rowids(self, rowids: list[int]) -> dict[int, tuple[str, str]]:
        """{row number: (title, abstract)}."""
        out: dict[int, tuple[str, str]] = {}
        for part in _chunks(rowids, 500):
            marks = ",".join("?" for _ in part)
            for r in self.conn.execute(f"SELECT rowid, title, abstract FROM papers WHERE rowid IN ({marks})", part):
                out[r[0]] = (r[1] or "", r[2] or "")
        return out

    def display_titles(self, ids: list[str]) -> dict[str, str]:
        """{id: title, else derived label, else id}."""
        out: dict[str, str] = {}
        for part in _chunks(ids, 500):
            marks = ",".join("?" for _ in part)
            for pid, title, label in self.conn.execute(
                    f"SELECT id, title, label FROM papers WHERE id IN ({marks})", part):
                out[pid] = title or label or pid
        return out

    def all_ids(self) -> list[str]:
        """Every paper id, oldest first."""
        return [r[0] for r in self.conn.execute("SELECT id FROM papers ORDER BY rowid")]

    def paper_texts(self) -> Iterator[tuple[str, str | None, str | None, str]]:
        """(id, title, label, abstract) of every paper, oldest first."""
        yield from self.conn.execute("SELECT id, title, label, abstract FROM papers ORDER BY rowid")

    def papers_stamp(self) -> tuple:
        """Changes whenever a paper is added, changed or removed."""
        return tuple(self.conn.execute("SELECT COUNT(*), MAX(updated_at), MAX(rowid) FROM papers").fetchone())

    def citation_rows(self) -> Iterator[dict[str, Any]]:
        """What citation keys are made from, for every paper, oldest first."""
        rows = self.conn.execute(
            "SELECT p.id, p.title, p.label, substr(p.abstract, 1, 300), p.authors, c.venue, c.year "
            "FROM papers p LEFT JOIN (SELECT m.paper_id, MIN(m.collection_id) AS cid FROM memberships m "
            "GROUP BY m.paper_id) first ON first.paper_id = p.id LEFT JOIN collections c ON c.id = first.cid "
            "ORDER BY p.rowid")
        for r in rows:
            yield {"id": r[0], "title": r[1], "label": r[2], "abstract": r[3],
                   "authors": json.loads(r[4] or "[]"), "venue": r[5], "year": r[6]}

    def author_lists(self) -> Iterator[tuple[int, str, list[str]]]:
        """(row number, id, author names as written) of every paper with authors, oldest first
        (the expertise component's author index)."""
        rows = self.conn.execute("SELECT rowid, id, authors FROM papers WHERE authors != '[]' ORDER BY rowid")
        for rowid, pid, authors in rows:
            try:
                names = json.loads(authors or "[]")
            except ValueError:
                continue
            if isinstance(names, list):
                yield int(rowid), pid, [str(n) for n in names if isinstance(n, str) and n.strip()]

    def data_version(self) -> int:
        """A number that moves whenever another connection commits a change."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # ------------------------------------------------------------------ derived facts
    def stale_facts_count(self, version: str) -> int:
        return self.conn.execute(f"SELECT COUNT(*) FROM papers WHERE {_STALE_FACTS}", (version,)).fetchone()[0]

    def stale_facts(self, version: str, after: int, limit: int) -> list[dict[str, Any]]:
        """Papers whose facts are older than their text or than `version`, by row number."""
        rows = self.conn.execute(
            f"SELECT rowid, id, title, abstract, text_hash FROM papers WHERE {_STALE_FACTS} AND rowid > ? "
            "ORDER BY rowid LIMIT ?", (version, after, limit))
        return [{"rowid": r[0], "id": r[1], "title": r[2], "abstract": r[3], "text_hash": r[4]} for r in rows]

    def save_facts(self, updates: list[tuple[str, str | None, str, str]]) -> None:
        """(facts JSON, label, facts hash, paper id) rows; call inside a transaction."""
        self.conn.executemany("UPDATE papers SET facts = ?, label = ?, facts_hash = ? WHERE id = ?", updates)


def _chunks(items: list, n: int) -> Iterator[list]:
    for i in range(0, len(items), n):
        yield items[i:i + n]

