"""Read queries of the SQLite store written its own way: full-text matches through FTS5,
lookups of many ids in chunks, the data version; the rest of browsing is shared with
PostgreSQL (`shared.py`). Mixed into `SQLiteStore`; `self.conn` is its connection."""
from __future__ import annotations

import sqlite3
from typing import Iterator

import numpy as np
from .host import Host



class BrowseQueries(Host):
    conn: sqlite3.Connection
    backend = "sqlite"

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

    # ------------------------------------------------------------------ lookups
    def ids_of_rowids(self, rowids: list[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for part in _chunks(rowids, 500):
            marks = ",".join("?" for _ in part)
            out.update(self.conn.execute(f"SELECT rowid, id FROM papers WHERE rowid IN ({marks})", part))
        return out

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

    def data_version(self) -> int:
        """A number that moves whenever another connection commits a change."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])


def _chunks(items: list, n: int) -> Iterator[list]:
    for i in range(0, len(items), n):
        yield items[i:i + n]

