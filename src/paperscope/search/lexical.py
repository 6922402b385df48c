"""Lexical ranking: BM25F over title, label, abstract, authors and keywords.

The per-paper postings (`postings.py`) are folded into one term-major sparse matrix of
precomputed BM25F weights, so a query is a few column slices summed with `np.bincount` (the
bm25s approach): milliseconds at 260 k papers, where FTS5's per-row bm25() takes 100-300 ms for
common terms (benchmarks/search_speed.py). The matrix is saved in the library after each ingest
(`search_snapshots`) and a process maps it back in one read. FTS5 (`papers_fts`) remains the
positional index for quoted phrases and author filters.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from . import postings, snapshots, tokens

# BM25F parameters: title, label, abstract, authors, keywords. k1 and the abstract's b were
# grid-searched on ICLR 2020 + NIPS 2013-18 known-item search (benchmarks/search_tune.py): flat
# within 0.3 pt of MRR@10, so the textbook values stay. Field weights are a judgment call: a
# title word counts three abstract words, a keyword one and a half.
FIELD_WEIGHTS = (3.0, 1.0, 1.0, 1.0, 1.5)
FIELD_B = (0.5, 0.5, 0.75, 0.3, 0.3)
K1 = 1.2
SNAPSHOT = "lexical"


@dataclass
class LexicalIndex:
    """BM25F weights of every paper, term-major: column t holds the papers with term t."""

    rowids: np.ndarray  # int64, sorted: position -> papers.rowid
    indptr: np.ndarray  # int64 per term id: slice into indices/data
    indices: np.ndarray  # int32 paper positions, ascending within a column
    data: np.ndarray  # float32 BM25F weight (idf included)
    memory_terms: dict[str, int] | None = None  # term ids not in search_terms (read-only libraries)

    @property
    def size(self) -> int:
        return len(self.rowids)

    def df(self, term_id: int) -> int:
        if term_id < 0 or term_id + 1 >= len(self.indptr):
            return 0
        return int(self.indptr[term_id + 1] - self.indptr[term_id])

    def column(self, term_id: int) -> tuple[np.ndarray, np.ndarray]:
        if term_id < 0 or term_id + 1 >= len(self.indptr):
            return np.zeros(0, np.int32), np.zeros(0, np.float32)
        a, b = self.indptr[term_id], self.indptr[term_id + 1]
        return self.indices[a:b], self.data[a:b]

    def scores(self, groups: Iterable[tuple[Sequence[int], float]]) -> np.ndarray:
        """Dense BM25F scores for a query given as weighted groups of term ids: a plain term
        is a group of one, a prefix the terms it expands to (scored by their best member)."""
        total = np.zeros(self.size, dtype=np.float32)
        idx_parts, val_parts = [], []
        for term_ids, weight in groups:
            if len(term_ids) == 1:
                idx, val = self.column(term_ids[0])
                idx_parts.append(idx)
                val_parts.append(val * np.float32(weight))
            elif term_ids:
                best = np.zeros(self.size, dtype=np.float32)
                for t in term_ids:
                    idx, val = self.column(t)
                    np.maximum.at(best, idx, val * np.float32(weight))
                total += best
        if idx_parts:
            total += np.bincount(np.concatenate(idx_parts), weights=np.concatenate(val_parts),
                                 minlength=self.size).astype(np.float32)
        return total

    def containing(self, term_ids: Sequence[int]) -> np.ndarray:
        """Positions of the papers holding any of the terms."""
        parts = [self.column(t)[0] for t in term_ids]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int32)

    def positions(self, rowids: np.ndarray) -> np.ndarray:
        """Positions of the given papers.rowid values (-1 where absent)."""
        return snapshots.positions_in(self.rowids, rowids)


def build_index(rowids: np.ndarray, lengths: list[bytes], keys: list[tuple[np.ndarray, np.ndarray]],
                *, field_weights: Sequence[float] = FIELD_WEIGHTS, field_b: Sequence[float] = FIELD_B,
                k1: float = K1) -> LexicalIndex:
    """BM25F matrix from postings given in `rowids` order."""
    n = len(rowids)
    nf = len(postings.FIELDS)
    if n == 0:
        return LexicalIndex(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int32),
                            np.zeros(0, np.float32))
    from scipy import sparse

    field_len = np.frombuffer(b"".join(lengths), dtype=np.uint16).reshape(n, nf).astype(np.float32)
    sizes = np.fromiter((len(k) for k, _ in keys), dtype=np.int64, count=n)
    packed = np.concatenate([k for k, _ in keys])
    counts = np.concatenate([c for _, c in keys]).astype(np.float32)
    doc = np.repeat(np.arange(n, dtype=np.int64), sizes)
    term = (packed >> 3).astype(np.int64)
    field = (packed & 7).astype(np.int64)
    present = field_len > 0
    avg = np.where(present.any(0), field_len.sum(0) / np.maximum(present.sum(0), 1), 1.0)
    b = np.asarray(field_b, dtype=np.float32)
    norm = 1.0 - b[field] + b[field] * field_len[doc, field] / avg[field]
    wtf = np.asarray(field_weights, dtype=np.float32)[field] * counts / norm
    # Postings are sorted by (term, field) within a paper: fold a term's fields together.
    first = np.ones(len(term), dtype=bool)
    first[1:] = (term[1:] != term[:-1]) | (doc[1:] != doc[:-1])
    starts = np.flatnonzero(first)
    summed = np.add.reduceat(wtf, starts)
    uterm, udoc = term[starts], doc[starts]
    n_terms = int(uterm.max()) + 1
    df = np.bincount(uterm, minlength=n_terms)
    idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
    weight = (summed * (k1 + 1.0) / (k1 + summed) * idf[uterm]).astype(np.float32)
    doc_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(udoc, minlength=n), out=doc_ptr[1:])
    by_term = sparse.csr_matrix((weight, uterm.astype(np.int32), doc_ptr), shape=(n, n_terms)).tocsc()
    return LexicalIndex(np.asarray(rowids, dtype=np.int64), by_term.indptr.astype(np.int64),
                        by_term.indices.astype(np.int32), by_term.data.astype(np.float32))


def build_from_store(conn: sqlite3.Connection, **params) -> LexicalIndex:
    """Index from stored postings plus, tokenised on the fly and not written, any paper that
    has none yet (so a read-only library still searches everything)."""
    rows = conn.execute("SELECT t.paper_rowid, t.lengths, t.postings FROM paper_terms t "
                        "JOIN papers p ON p.rowid = t.paper_rowid WHERE t.tokenizer = ? "
                        "ORDER BY t.paper_rowid", (tokens.VERSION,)).fetchall()
    rowids = [r[0] for r in rows]
    lengths = [r[1] for r in rows]
    keys = [postings.unpack(r[2]) for r in rows]
    stale = postings.stale_rows(conn)
    memory_terms = None
    if stale:
        vocab = dict(conn.execute("SELECT term, id FROM search_terms"))
        next_id = max(vocab.values(), default=0) + 1
        for r in stale:
            ln, counts = postings.row_postings(r)
            for t, _ in counts:
                if t not in vocab:
                    vocab[t] = next_id
                    next_id += 1
            rowids.append(r["rowid"])
            lengths.append(ln.tobytes())
            keys.append(postings.unpack(postings.pack(counts, vocab)))
        order = np.argsort(np.asarray(rowids, dtype=np.int64), kind="stable")
        rowids = [rowids[i] for i in order]
        lengths = [lengths[i] for i in order]
        keys = [keys[i] for i in order]
        memory_terms = vocab
    index = build_index(np.asarray(rowids, dtype=np.int64), lengths, keys, **params)
    index.memory_terms = memory_terms
    return index


# --------------------------------------------------------------------------- snapshot

_ARRAYS = (("rowids", np.int64), ("indptr", np.int64), ("indices", np.int32), ("data", np.float32))


def _params() -> dict:
    return {"tokenizer": tokens.VERSION, "weights": list(FIELD_WEIGHTS), "b": list(FIELD_B), "k1": K1}


def generation(conn: sqlite3.Connection) -> int:
    gen = snapshots.generation(conn, "postings_generation")
    return -1 if gen is None else gen


def _complete(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT (SELECT COUNT(*) FROM papers) = (SELECT COUNT(*) FROM paper_terms)").fetchone()[0] == 1


def save_snapshot(store, index: LexicalIndex, gen: int) -> None:
    snapshots.save(store, SNAPSHOT, gen, {**_params(), "size": index.size},
                   {name: np.asarray(getattr(index, name), dtype=dtype) for name, dtype in _ARRAYS})


def _current_meta(conn: sqlite3.Connection) -> dict | None:
    """The saved snapshot's meta when it matches the postings and parameters."""
    meta = snapshots.meta(conn, SNAPSHOT)
    if meta is None or meta.get("generation") != generation(conn):
        return None
    if {k: meta.get(k) for k in _params()} != _params() or not _complete(conn):
        return None
    return meta


def load_snapshot(conn: sqlite3.Connection) -> LexicalIndex | None:
    """The saved index when it is current, else None."""
    meta = _current_meta(conn)
    if meta is None:
        return None
    arrays = snapshots.load(conn, SNAPSHOT, meta["generation"], _ARRAYS)
    if len(arrays["rowids"]) != meta.get("size"):
        return None
    return LexicalIndex(**arrays)


def refresh(store, progress=None) -> int:
    """Index papers without postings, then save a fresh snapshot when it is stale. Returns
    how many papers were (re)tokenised."""
    done = postings.index_missing(store, progress=progress)
    if done or _current_meta(store.conn) is None:
        gen = generation(store.conn)
        save_snapshot(store, build_from_store(store.conn), gen)
    return done


def load(store) -> LexicalIndex:
    """The current index: the snapshot, else rebuilt (and saved when the library is writable)."""
    snap = load_snapshot(store.conn)
    if snap is not None:
        return snap
    try:
        refresh(store)
    except sqlite3.OperationalError:  # read-only library: build in memory only
        return build_from_store(store.conn)
    return load_snapshot(store.conn) or build_from_store(store.conn)


# --------------------------------------------------------------------------- vocabulary


def term_ids(conn: sqlite3.Connection, index: LexicalIndex, words: Iterable[str]) -> dict[str, int]:
    """Ids of tokenised terms (terms the library has never seen are absent)."""
    uniq = sorted(set(words))
    if index.memory_terms is not None:
        return {w: index.memory_terms[w] for w in uniq if w in index.memory_terms}
    out: dict[str, int] = {}
    for i in range(0, len(uniq), 500):
        part = uniq[i:i + 500]
        marks = ",".join("?" for _ in part)
        out.update(conn.execute(f"SELECT term, id FROM search_terms WHERE term IN ({marks})", part))
    return out


def prefix_ids(conn: sqlite3.Connection, index: LexicalIndex, prefix: str, limit: int = 64) -> list[int]:
    """Ids of the terms starting with `prefix` (folded, unstemmed), most frequent first."""
    if index.memory_terms is not None:
        found = [i for t, i in index.memory_terms.items() if t.startswith(prefix)]
    else:
        found = [r[0] for r in conn.execute(
            "SELECT id FROM search_terms WHERE term >= ? AND term < ? LIMIT 20000",
            (prefix, prefix + "\U0010ffff"))]
    found = [i for i in found if index.df(i) > 0]
    found.sort(key=lambda i: -index.df(i))
    return found[:limit]
