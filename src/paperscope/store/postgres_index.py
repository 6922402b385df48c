"""What the search indexes keep in the PostgreSQL store (the SQLite store's `sqlite_index.py`
in PostgreSQL's dialect): postings and vocabulary, saved index arrays tagged with the generation
of their inputs (`library_state`), and embeddings as pgvector columns, with nearest-neighbour
queries that use the HNSW index or scan exactly."""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from .host import Host
from .shared import snapshot_rows

FETCH = 2000  # rows per round trip of a server-side cursor


class IndexData(Host):
    conn: Any

    def index_fields(self, rowids: Sequence[int]) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT rowid, title, label, abstract, authors, keywords FROM papers WHERE rowid = ANY(%s) "
            "ORDER BY rowid", ([int(r) for r in rowids],))
        return [{"rowid": r[0], "title": r[1], "label": r[2], "abstract": r[3], "authors": r[4], "keywords": r[5]}
                for r in rows]

    def term_vocabulary(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT term, id FROM search_terms").fetchall())

    def add_terms(self, terms: Sequence[str]) -> dict[str, int]:
        self.conn.execute("INSERT INTO search_terms(term) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING",
                          (list(terms),))
        return self.term_ids(terms)

    def save_postings(self, rows: Iterable[tuple[int, str, bytes, bytes]],
                      words: Iterable[tuple[str, int]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany("INSERT INTO search_words(word, term_id) VALUES (%s, %s) "
                            "ON CONFLICT (word) DO UPDATE SET term_id = EXCLUDED.term_id", list(words))
            cur.executemany(
                "INSERT INTO paper_terms(paper_rowid, tokenizer, lengths, postings) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (paper_rowid) DO UPDATE SET tokenizer = EXCLUDED.tokenizer, "
                "lengths = EXCLUDED.lengths, postings = EXCLUDED.postings", list(rows))

    def postings_rows(self, tokenizer: str, chunk: int) -> Iterator[tuple[int, bytes, bytes]]:
        with self.conn.transaction(), self.conn.cursor(name="postings") as cur:
            cur.itersize = max(chunk, FETCH)
            cur.execute("SELECT t.paper_rowid, t.lengths, t.postings FROM paper_terms t "
                        "JOIN papers p ON p.rowid = t.paper_rowid WHERE t.tokenizer = %s "
                        "ORDER BY t.paper_rowid", (tokenizer,))
            for rowid, lengths, blob in cur:
                yield rowid, bytes(lengths), bytes(blob)

    def term_ids(self, words: Iterable[str]) -> dict[str, int]:
        return dict(self.conn.execute("SELECT term, id FROM search_terms WHERE term = ANY(%s)",
                                      (sorted(set(words)),)).fetchall())

    def prefix_term_ids(self, prefix: str, limit: int = 20000) -> set[int]:
        span = (prefix, prefix + "\U0010ffff", int(limit))
        found = {r[0] for r in self.conn.execute(
            "SELECT DISTINCT term_id FROM search_words WHERE word COLLATE \"C\" >= %s AND word COLLATE \"C\" < %s "
            "LIMIT %s", span)}
        return found | {r[0] for r in self.conn.execute(
            "SELECT id FROM search_terms WHERE term COLLATE \"C\" >= %s AND term COLLATE \"C\" < %s LIMIT %s", span)}

    def generation(self, key: str) -> int | None:
        row = self.conn.execute("SELECT value FROM library_state WHERE key = %s", (key,)).fetchone()
        return int(row[0]) if row else None

    # ------------------------------------------------------------------ snapshots
    def save_snapshot(self, name: str, gen: int, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        rows = snapshot_rows(name, gen, meta, arrays)
        with self.transaction() as conn, conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"snapshot:{name}",))  # one writer at a time
            cur.execute("DELETE FROM search_snapshots WHERE name LIKE %s", (name + "/%",))
            cur.executemany("INSERT INTO search_snapshots(name, part, generation, data) VALUES (%s, %s, %s, %s)", rows)

    # ------------------------------------------------------------------ embeddings
    def save_embeddings(self, model: str, dim: int, rows: Iterable[tuple[str, bytes]]) -> None:
        """(text hash, float16 vector bytes) rows; stored as float32 pgvector values (the same
        numbers the SQLite store keeps as float16)."""
        with self.conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO embeddings(model, text_hash, dim, embedding) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (model, text_hash) DO UPDATE SET embedding = EXCLUDED.embedding, dim = EXCLUDED.dim",
                [(model, h, dim, np.frombuffer(v, dtype="<f2").astype(np.float32)) for h, v in rows])

    def embedding_rows(self, model: str) -> list[tuple[int, str, bytes]]:
        out = []
        with self.conn.transaction(), self.conn.cursor(name="vectors") as cur:
            cur.itersize = FETCH
            cur.execute("SELECT p.rowid, p.id, e.embedding FROM papers p JOIN embeddings e "
                        "ON e.model = %s AND e.text_hash = p.text_hash ORDER BY p.rowid", (model,))
            for rowid, pid, vec in cur:
                out.append((rowid, pid, np.asarray(vec, dtype=np.float32).astype("<f2").tobytes()))
        return out

    def nearest(self, model: str, query: np.ndarray, k: int, *, exact: bool = False,
                ef_search: int = 100) -> list[tuple[int, float]]:
        """(row number, cosine) of the k papers nearest to `query`: through the HNSW index
        (approximate; `ef_search` candidates) or, with `exact`, by a full scan."""
        q = np.asarray(query, dtype=np.float32)
        with self.conn.transaction():
            if exact:
                self.conn.execute("SET LOCAL enable_indexscan = off")
            else:
                self.conn.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
            rows = self.conn.execute(
                "SELECT p.rowid, 1 - near.d FROM (SELECT text_hash, embedding <=> %s AS d FROM embeddings "
                "WHERE model = %s ORDER BY embedding <=> %s LIMIT %s) near "
                "JOIN papers p ON p.text_hash = near.text_hash ORDER BY near.d, p.rowid", (q, model, q, int(k))).fetchall()
        return [(int(r), float(c)) for r, c in rows]
