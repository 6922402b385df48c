"""What the search indexes keep in the SQLite store: per-paper postings and the term
vocabulary (`paper_terms`, `search_terms`, `search_words`), saved index arrays
(`search_snapshots`, each tagged with the generation of its inputs from `search_state`), and
embeddings keyed by model and text hash. Mixed into `SQLiteStore`."""
from __future__ import annotations

import itertools
import sqlite3
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from .host import Host
from .shared import snapshot_rows



class IndexData(Host):
    conn: sqlite3.Connection

    # ------------------------------------------------------------------ postings
    def index_fields(self, rowids: Sequence[int]) -> list[dict[str, Any]]:
        """The indexed fields (title, label, abstract, authors/keywords JSON) by row number."""
        out: list[dict[str, Any]] = []
        for i in range(0, len(rowids), 500):
            part = [int(r) for r in rowids[i:i + 500]]
            marks = ",".join("?" for _ in part)
            out += [{"rowid": r[0], "title": r[1], "label": r[2], "abstract": r[3], "authors": r[4],
                     "keywords": r[5]} for r in self.conn.execute(
                "SELECT rowid, title, label, abstract, authors, keywords FROM papers "
                f"WHERE rowid IN ({marks}) ORDER BY rowid", part)]
        return out

    def term_vocabulary(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT term, id FROM search_terms"))

    def add_terms(self, terms: Sequence[str]) -> dict[str, int]:
        """Ids of `terms`, adding the new ones (inside a transaction)."""
        self.conn.executemany("INSERT OR IGNORE INTO search_terms(term) VALUES (?)", [(t,) for t in terms])
        return self.term_ids(terms)

    def save_postings(self, rows: Iterable[tuple[int, str, bytes, bytes]],
                      words: Iterable[tuple[str, int]]) -> None:
        """(row number, tokenizer, field lengths, packed postings) rows and (surface word,
        term id) pairs, inside a transaction."""
        self.conn.executemany("INSERT OR REPLACE INTO search_words(word, term_id) VALUES (?, ?)", list(words))
        self.conn.executemany("INSERT OR REPLACE INTO paper_terms(paper_rowid, tokenizer, lengths, postings) "
                              "VALUES (?, ?, ?, ?)", list(rows))

    def postings_rows(self, tokenizer: str, chunk: int) -> Iterator[tuple[int, bytes, bytes]]:
        """(row number, lengths, postings) of every paper with current postings, by row number."""
        cur = self.conn.execute("SELECT t.paper_rowid, t.lengths, t.postings FROM paper_terms t "
                                "JOIN papers p ON p.rowid = t.paper_rowid WHERE t.tokenizer = ? "
                                "ORDER BY t.paper_rowid", (tokenizer,))
        return itertools.chain.from_iterable(iter(lambda: cur.fetchmany(chunk), []))

    def term_ids(self, words: Iterable[str]) -> dict[str, int]:
        uniq = sorted(set(words))
        out: dict[str, int] = {}
        for i in range(0, len(uniq), 500):
            part = uniq[i:i + 500]
            marks = ",".join("?" for _ in part)
            out.update(self.conn.execute(f"SELECT term, id FROM search_terms WHERE term IN ({marks})", part))
        return out

    def prefix_term_ids(self, prefix: str, limit: int = 20000) -> set[int]:
        """Ids of the terms whose surface word or stemmed term starts with `prefix`."""
        span = (prefix, prefix + "\U0010ffff", int(limit))
        try:
            found = {r[0] for r in self.conn.execute(
                "SELECT DISTINCT term_id FROM search_words WHERE word >= ? AND word < ? LIMIT ?", span)}
        except sqlite3.OperationalError:  # a library from before migration 0006, opened read-only
            found = set()
        return found | {r[0] for r in self.conn.execute(
            "SELECT id FROM search_terms WHERE term >= ? AND term < ? LIMIT ?", span)}

    def generation(self, key: str) -> int | None:
        """Generation counter of an index input (`postings_generation`, `vectors_generation`),
        bumped by triggers on every change."""
        row = self.conn.execute("SELECT value FROM search_state WHERE key = ?", (key,)).fetchone()
        return int(row[0]) if row else None

    # ------------------------------------------------------------------ snapshots
    def save_snapshot(self, name: str, gen: int, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        """Replace snapshot `name` (meta + arrays) in one transaction."""
        rows = snapshot_rows(name, gen, meta, arrays)
        with self.transaction() as conn:
            conn.execute("DELETE FROM search_snapshots WHERE name LIKE ?", (name + "/%",))
            conn.executemany("INSERT INTO search_snapshots(name, part, generation, data) VALUES (?, ?, ?, ?)", rows)

    # ------------------------------------------------------------------ embeddings
    def save_embeddings(self, model: str, dim: int, rows: Iterable[tuple[str, bytes]]) -> None:
        """(text hash, float16 vector bytes) rows, inside a transaction."""
        self.conn.executemany("INSERT OR REPLACE INTO embeddings(model, text_hash, dim, vector) VALUES (?, ?, ?, ?)",
                              [(model, h, dim, v) for h, v in rows])

    def embedding_rows(self, model: str) -> list[tuple[int, str, bytes]]:
        """(row number, paper id, float16 vector bytes) of every paper with a `model` vector."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT p.rowid, p.id, e.vector FROM papers p JOIN embeddings e "
            "ON e.model = ? AND e.text_hash = p.text_hash ORDER BY p.rowid", (model,))]
