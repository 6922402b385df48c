"""Read queries of the PostgreSQL store written its own way (the SQLite store's
`sqlite_browse.py` in PostgreSQL's dialect): full-text phrase matches on tsvector columns and
lookups of many ids with ANY; the rest of browsing is shared (`shared.py`)."""
from __future__ import annotations

from typing import Any

import numpy as np
from .host import Host

TEXT_COLUMNS = ("title", "label", "abstract", "authors", "keywords")


class BrowseQueries(Host):
    conn: Any

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

    def ids_of_rowids(self, rowids: list[int]) -> dict[int, str]:
        return dict(self.conn.execute("SELECT rowid, id FROM papers WHERE rowid = ANY(%s)",
                                      ([int(r) for r in rowids],)).fetchall())

    def texts_of_rowids(self, rowids: list[int]) -> dict[int, tuple[str, str]]:
        return {r[0]: (r[1] or "", r[2] or "") for r in self.conn.execute(
            "SELECT rowid, title, abstract FROM papers WHERE rowid = ANY(%s)", ([int(r) for r in rowids],))}

    def display_titles(self, ids: list[str]) -> dict[str, str]:
        return {pid: title or label or pid for pid, title, label in self.conn.execute(
            "SELECT id, title, label FROM papers WHERE id = ANY(%s)", (list(ids),))}
