"""Lexical ranking: BM25F over title, label, abstract, authors and keywords.

The per-paper postings (`postings.py`) are folded into one term-major sparse matrix of
precomputed BM25F weights, so a query is a few column slices summed with `np.bincount` (the
bm25s approach): milliseconds at 260 k papers, where FTS5's per-row bm25() takes 100-300 ms for
common terms (benchmarks/search_speed.py). The matrix is saved in the library after each ingest
(`search_snapshots`) and a process maps it back in one read. FTS5 (`papers_fts`) remains the
positional index for quoted phrases and author filters.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from . import postings, snapshots, tokens
from ..store.protocol import Store

# BM25F parameters: title, label, abstract, authors, keywords. k1 and the abstract's b were
# grid-searched on ICLR 2020 + NIPS 2013-18 known-item search (benchmarks/search_tune.py): flat
# within 0.3 pt of MRR@10, so the textbook values stay. Field weights are a judgment call: a
# title word counts three abstract words, a keyword one and a half.
FIELD_WEIGHTS = (3.0, 1.0, 1.0, 1.0, 1.5)
FIELD_B = (0.5, 0.5, 0.75, 0.3, 0.3)
K1 = 1.2
SNAPSHOT = "lexical"
CHUNK = 2000  # papers per step of the index build: ~20 MB of working memory on real abstracts
# beside the index itself (benchmarks/lexical_build_memory.py)


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
                k1: float = K1, chunk: int = CHUNK) -> LexicalIndex:
    """BM25F matrix from postings given in `rowids` order."""
    rowids = np.asarray(rowids, dtype=np.int64)

    def chunks() -> Iterator[_Chunk]:
        for i in range(0, len(rowids), chunk):
            yield rowids[i:i + chunk], lengths[i:i + chunk], keys[i:i + chunk]

    return _build(chunks, field_weights=field_weights, field_b=field_b, k1=k1)


def build_from_store(store: Store, *, chunk: int = CHUNK, **params) -> LexicalIndex:
    """Index from stored postings plus, tokenised on the fly and not written, any paper that
    has none yet (so a read-only library still searches everything). Postings are read
    `chunk` papers at a time, twice, so memory stays that of a chunk plus the index."""
    stale = store.index_fields(store.stale_posting_rowids(tokens.VERSION))
    extra: list[tuple[int, bytes, bytes]] = []  # (rowid, lengths, packed postings) of stale papers
    memory_terms = None
    if stale:
        vocab = store.term_vocabulary()
        next_id = max(vocab.values(), default=0) + 1
        for r in stale:
            ln, counts = postings.row_postings(r)
            for t, _ in counts:
                if t not in vocab:
                    vocab[t] = next_id
                    next_id += 1
            extra.append((r["rowid"], ln.tobytes(), postings.pack(counts, vocab)))
        memory_terms = vocab
    del stale

    def chunks() -> Iterator[_Chunk]:
        rows: Iterator = store.postings_rows(tokens.VERSION, chunk)
        if extra:
            rows = heapq.merge(rows, extra, key=lambda r: r[0])
        while batch := list(itertools.islice(rows, chunk)):
            yield (np.fromiter((r[0] for r in batch), np.int64, len(batch)), [r[1] for r in batch],
                   [postings.unpack(r[2]) for r in batch])

    index = _build(chunks, **params)
    index.memory_terms = memory_terms
    return index


# A chunk of papers in rowid order: rowids, field lengths (uint16 bytes), (keys, counts) each.
_Chunk = tuple[np.ndarray, Sequence[bytes], Sequence[tuple[np.ndarray, np.ndarray]]]


class _PostingsChanged(Exception):
    """The two passes over the postings did not see the same papers (a concurrent write)."""


def _build(chunks: Callable[[], Iterable[_Chunk]], **params) -> LexicalIndex:
    for _ in range(3):
        try:
            return _two_passes(chunks, **params)
        except _PostingsChanged:
            continue
    raise RuntimeError("the library's postings kept changing while the search index was built")


def _unpack_chunk(lengths: Sequence[bytes], keys: Sequence[tuple[np.ndarray, np.ndarray]]):
    """(field lengths float32 (m, fields), paper of each posting, term, field, count, first
    posting of each (paper, term)). Postings are sorted by (term, field) within a paper."""
    m = len(keys)
    field_len = np.frombuffer(b"".join(lengths), dtype=np.uint16).reshape(m, len(postings.FIELDS))
    sizes = np.fromiter((len(k) for k, _ in keys), dtype=np.int64, count=m)
    packed = np.concatenate([k for k, _ in keys])
    doc = np.repeat(np.arange(m, dtype=np.int32), sizes)
    term = (packed >> 3).astype(np.int32)
    first = np.ones(len(term), dtype=bool)
    first[1:] = (term[1:] != term[:-1]) | (doc[1:] != doc[:-1])
    counts = np.concatenate([c for _, c in keys])
    return field_len.astype(np.float32), doc, term, (packed & 7).astype(np.intp), counts, first


def _two_passes(chunks: Callable[[], Iterable[_Chunk]], *, field_weights: Sequence[float] = FIELD_WEIGHTS,
                field_b: Sequence[float] = FIELD_B, k1: float = K1) -> LexicalIndex:
    """Pass 1: paper count, average field lengths and document frequencies. Pass 2: each
    chunk's BM25F weights, written straight into their columns of the preallocated matrix.
    The arithmetic (dtypes, order of the float32 length sums) is that of a whole-library
    build, so the arrays are bit-identical to it (tests/test_lexical_build.py)."""
    nf = len(postings.FIELDS)
    len_sum, with_field = np.zeros(nf, np.float32), np.zeros(nf, np.int64)
    df = np.zeros(0, np.int64)
    rowid_parts = []
    for rowids, lengths, keys in chunks():
        rowid_parts.append(rowids)
        if not len(rowids):
            continue
        field_len, _, term, _, _, first = _unpack_chunk(lengths, keys)
        # float32 sum in paper order, carried across chunks: the whole-library sum exactly
        len_sum = np.vstack([len_sum, field_len]).sum(0)
        with_field += (field_len > 0).sum(0)
        part = np.bincount(term[first])
        if len(part) > len(df):
            df = np.concatenate([df, np.zeros(len(part) - len(df), np.int64)])
        df[:len(part)] += part
    all_rowids = np.concatenate(rowid_parts) if rowid_parts else np.zeros(0, np.int64)
    del rowid_parts
    n = len(all_rowids)
    if n == 0:
        return LexicalIndex(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int32),
                            np.zeros(0, np.float32))
    avg = np.where(with_field > 0, len_sum / np.maximum(with_field, 1), 1.0)
    idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
    indptr = np.zeros(len(df) + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    del df
    indices = np.empty(int(indptr[-1]), dtype=np.int32)
    data = np.empty(int(indptr[-1]), dtype=np.float32)
    fill = indptr[:-1].copy()  # next free slot of each column
    b = np.asarray(field_b, dtype=np.float32)
    fw = np.asarray(field_weights, dtype=np.float32)
    base = 0
    for rowids, lengths, keys in chunks():
        m = len(rowids)
        if not np.array_equal(rowids, all_rowids[base:base + m]):
            raise _PostingsChanged
        if m:
            term, doc, weight = _chunk_weights(lengths, keys, avg, idf, b, fw, k1)
            _scatter(term, doc + base, weight, fill, indptr, indices, data)
        base += m
    if base != n or not np.array_equal(fill, indptr[1:]):
        raise _PostingsChanged
    return LexicalIndex(all_rowids, indptr, indices, data)


def _chunk_weights(lengths, keys, avg: np.ndarray, idf: np.ndarray, b: np.ndarray, fw: np.ndarray,
                   k1: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(term, paper in chunk, BM25F weight) of each (paper, term) of a chunk."""
    field_len, doc, term, field, counts, first = _unpack_chunk(lengths, keys)
    # 1 - b + b * len / avg, then weight * count / norm, as the whole-library build computed
    # them (float32 products, float64 from the division by avg on)
    bf = b[field]
    wtf = bf * field_len[doc, field] / avg[field]
    wtf += 1.0 - bf
    np.divide(fw[field] * counts.astype(np.float32), wtf, out=wtf)
    del bf, field, field_len, counts
    starts = np.flatnonzero(first)
    summed = np.add.reduceat(wtf, starts) if len(starts) else np.zeros(0)
    del wtf
    term, doc = term[starts], doc[starts]
    if len(term) and int(term.max()) >= len(idf):
        raise _PostingsChanged
    return term, doc, (summed * (k1 + 1.0) / (k1 + summed) * idf[term]).astype(np.float32)


def _scatter(term: np.ndarray, pos: np.ndarray, weight: np.ndarray, fill: np.ndarray,
             indptr: np.ndarray, indices: np.ndarray, data: np.ndarray) -> None:
    """Append a chunk's (term, paper position, weight) entries to their columns; positions
    ascend across chunks and a stable sort keeps them ascending within one."""
    if not len(term):
        return
    order = np.argsort(term, kind="stable")
    sorted_terms = term[order]
    first_at = np.flatnonzero(np.diff(sorted_terms, prepend=-1))
    uniq = sorted_terms[first_at]
    per_term = np.diff(first_at, append=len(order))
    if np.any(fill[uniq] + per_term > indptr[uniq + 1]):
        raise _PostingsChanged
    slot = fill[sorted_terms] + (np.arange(len(order)) - np.repeat(first_at, per_term))
    indices[slot] = pos[order]
    data[slot] = weight[order]
    fill[uniq] += per_term


# --------------------------------------------------------------------------- snapshot

_ARRAYS = (("rowids", np.int64), ("indptr", np.int64), ("indices", np.int32), ("data", np.float32))


def _params() -> dict:
    return {"tokenizer": tokens.VERSION, "weights": list(FIELD_WEIGHTS), "b": list(FIELD_B), "k1": K1}


def generation(store: Store) -> int:
    gen = store.generation("postings_generation")
    return -1 if gen is None else gen


def save_snapshot(store: Store, index: LexicalIndex, gen: int) -> None:
    store.save_snapshot(SNAPSHOT, gen, {**_params(), "size": index.size},
                        {name: np.asarray(getattr(index, name), dtype=dtype) for name, dtype in _ARRAYS})


def _current_meta(store: Store) -> dict | None:
    """The saved snapshot's meta when it matches the postings and parameters."""
    meta = store.snapshot_meta(SNAPSHOT)
    if meta is None or meta.get("generation") != generation(store):
        return None
    if {k: meta.get(k) for k in _params()} != _params() or not store.postings_complete():
        return None
    return meta


def load_snapshot(store: Store) -> LexicalIndex | None:
    """The saved index when it is current, else None."""
    meta = _current_meta(store)
    if meta is None:
        return None
    arrays = store.load_snapshot(SNAPSHOT, meta["generation"], _ARRAYS)
    if len(arrays["rowids"]) != meta.get("size"):
        return None
    return LexicalIndex(**arrays)


def refresh(store: Store, progress=None) -> int:
    """Index papers without postings, then save a fresh snapshot when it is stale. Returns
    how many papers were (re)tokenised."""
    done = postings.index_missing(store, progress=progress)
    if done or _current_meta(store) is None:
        gen = generation(store)
        save_snapshot(store, build_from_store(store), gen)
    return done


def load(store: Store) -> LexicalIndex:
    """The current index: the snapshot, else rebuilt (and saved when the library is writable)."""
    snap = load_snapshot(store)
    if snap is not None:
        return snap
    if store.readonly:  # build in memory only
        return build_from_store(store)
    refresh(store)
    return load_snapshot(store) or build_from_store(store)


# --------------------------------------------------------------------------- vocabulary


def term_ids(store: Store, index: LexicalIndex, words: Iterable[str]) -> dict[str, int]:
    """Ids of tokenised terms (terms the library has never seen are absent)."""
    if index.memory_terms is not None:
        return {w: index.memory_terms[w] for w in set(words) if w in index.memory_terms}
    return store.term_ids(words)


def prefix_ids(store: Store, index: LexicalIndex, prefix: str, limit: int = 64) -> list[int]:
    """Ids of the terms starting with `prefix` (folded, unstemmed), most frequent first.
    Surface words count ("generaliz" -> "generalization", stored under "general")."""
    if index.memory_terms is not None:
        found = [i for t, i in index.memory_terms.items() if t.startswith(prefix)]
    else:
        found = list(store.prefix_term_ids(prefix))
    found = [i for i in found if index.df(i) > 0]
    found.sort(key=lambda i: -index.df(i))
    return found[:limit]
