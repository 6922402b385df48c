"""What the search indexes keep in the SQLite store: per-paper postings and the term
vocabulary (`paper_terms`, `search_terms`, `search_words`), saved index arrays
(`search_snapshots`, each tagged with the generation of its inputs from `search_state`), and
embeddings keyed by model and text hash. Mixed into `SQLiteStore`."""
from __future__ import annotations

import itertools
import json
import sqlite3
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

PART_BYTES = 64 << 20  # SQLite blobs stay well under their 1 GB limit


class IndexData:
    conn: sqlite3.Connection

    # ------------------------------------------------------------------ postings
    def stale_posting_rowids(self, tokenizer: str) -> list[int]:
        """Papers without current postings (new, changed, or made by an older tokenizer)."""
        return [r[0] for r in self.conn.execute(
            "SELECT p.rowid FROM papers p LEFT JOIN paper_terms t ON t.paper_rowid = p.rowid "
            "WHERE t.paper_rowid IS NULL OR t.tokenizer != ? ORDER BY p.rowid", (tokenizer,))]

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

    def paper_postings(self, rowid: int, tokenizer: str) -> bytes | None:
        row = self.conn.execute("SELECT postings FROM paper_terms WHERE paper_rowid = ? AND tokenizer = ?",
                                (int(rowid), tokenizer)).fetchone()
        return row[0] if row else None

    def postings_complete(self) -> bool:
        """Every paper has postings (of some tokenizer)."""
        return self.conn.execute(
            "SELECT (SELECT COUNT(*) FROM papers) = (SELECT COUNT(*) FROM paper_terms)").fetchone()[0] == 1

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
        rows = [(f"{name}/meta", 0, gen, json.dumps({**meta, "generation": gen}).encode())]
        for key, arr in arrays.items():
            raw = np.ascontiguousarray(arr).tobytes()
            for part, at in enumerate(range(0, max(len(raw), 1), PART_BYTES)):
                rows.append((f"{name}/{key}", part, gen, raw[at:at + PART_BYTES]))
        with self.transaction() as conn:  # type: ignore[attr-defined]
            conn.execute("DELETE FROM search_snapshots WHERE name LIKE ?", (name + "/%",))
            conn.executemany("INSERT INTO search_snapshots(name, part, generation, data) VALUES (?, ?, ?, ?)", rows)

    def snapshot_meta(self, name: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT data FROM search_snapshots WHERE name = ? AND part = 0",
                                (f"{name}/meta",)).fetchone()
        return json.loads(row[0]) if row else None

    def load_snapshot(self, name: str, gen: int, dtypes: Sequence[tuple[str, Any]]) -> dict[str, np.ndarray]:
        out = {}
        for key, dtype in dtypes:
            parts = self.conn.execute("SELECT data FROM search_snapshots WHERE name = ? AND generation = ? "
                                      "ORDER BY part", (f"{name}/{key}", gen)).fetchall()
            buf = bytearray()  # writable, so callers get ordinary arrays
            for p in parts:
                buf += p[0]
            out[key] = np.frombuffer(buf, dtype=dtype)
        return out

    # ------------------------------------------------------------------ embeddings
    def texts_to_embed(self, model: str) -> list[tuple[str, str | None, str]]:
        """(text hash, title, abstract) of every paper text without a `model` vector."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT p.text_hash, MIN(p.title), MIN(p.abstract) FROM papers p "
            "LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = p.text_hash "
            "WHERE e.text_hash IS NULL GROUP BY p.text_hash ORDER BY MIN(p.rowid)", (model,))]

    def save_embeddings(self, model: str, dim: int, rows: Iterable[tuple[str, bytes]]) -> None:
        """(text hash, float16 vector bytes) rows, inside a transaction."""
        self.conn.executemany("INSERT OR REPLACE INTO embeddings(model, text_hash, dim, vector) VALUES (?, ?, ?, ?)",
                              [(model, h, dim, v) for h, v in rows])

    def embedding_rows(self, model: str) -> list[tuple[int, str, bytes]]:
        """(row number, paper id, float16 vector bytes) of every paper with a `model` vector."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT p.rowid, p.id, e.vector FROM papers p JOIN embeddings e "
            "ON e.model = ? AND e.text_hash = p.text_hash ORDER BY p.rowid", (model,))]
