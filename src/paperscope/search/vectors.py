"""Term vectors for paper-to-paper similarity (`related`): sublinear tf x smoothed idf,
L2-normalised, the same recipe for every paper and for a user's draft, so the cosine is
symmetric (unlike a BM25 query against BM25F document weights).

    weight(t, d) = (1 + ln tf(t, d)) * (ln((1 + n) / (1 + df(t))) + 1)

tf sums a term's counts over the paper's fields, the title counted twice. Built once per
process from the postings stored in `paper_terms` (papers without postings yet are tokenised
on the fly), aligned with the lexical index's paper positions. Choices were made on ICLR 2018
keyword labels (benchmarks/search_related.py): sublinear tf and the +1 smoothed idf beat raw,
binary and BM25-saturated tf and the plain / BM25 idf; title x2 was level with x1 and x3.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from . import postings, tokens
from .lexical import LexicalIndex, term_ids
from ..store.protocol import Store

# title, label, abstract, authors, keywords (postings.FIELDS order); authors left out: a shared
# name is not a shared topic (ICLR 2020, the one labelled year with authors: kNN 68.6 -> 69.4 %)
FIELD_WEIGHTS = (2.0, 1.0, 1.0, 0.0, 1.0)
DRAFT_FIELD = 2  # a user's text counts as an abstract
CHUNK = 20_000  # papers per read


@dataclass
class TermVectors:
    """Unit-length tf-idf vectors of every paper, term-major (column t: papers with term t)."""

    size: int  # papers, in lexical-index position order
    indptr: np.ndarray  # int64 per term id
    indices: np.ndarray  # int32 paper positions
    data: np.ndarray  # float32 normalised weights
    idf: np.ndarray  # float32 per term id

    def idf_of(self, term_ids: np.ndarray) -> np.ndarray:
        """idf of term ids; a term no paper holds counts as df = 0."""
        unseen = np.float32(np.log1p(self.size) + 1.0)
        ok = term_ids < len(self.idf)
        return np.where(ok, self.idf[np.where(ok, term_ids, 0)], unseen).astype(np.float32)

    def vector(self, term_ids: np.ndarray, tf: np.ndarray,
               unknown_tf: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(term ids, unit weights) of a text with these (field-weighted) term counts; terms
        the library has never seen (`unknown_tf`) still count in the norm."""
        w = (1.0 + np.log(np.maximum(tf, 1e-9))).astype(np.float32) * self.idf_of(term_ids)
        norm2 = float(np.dot(w, w))
        if unknown_tf is not None and len(unknown_tf):
            u = (1.0 + np.log(np.maximum(unknown_tf, 1e-9))) * (np.log1p(self.size) + 1.0)
            norm2 += float(np.dot(u, u))
        return term_ids, (w / np.sqrt(norm2) if norm2 > 0 else w).astype(np.float32)

    def cosines(self, term_ids: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Cosine of a unit vector with every paper (dense, position order)."""
        idx, val = [], []
        for t, w in zip(term_ids.tolist(), weights.tolist()):
            if 0 <= t < len(self.indptr) - 1:
                a, b = self.indptr[t], self.indptr[t + 1]
                idx.append(self.indices[a:b])
                val.append(self.data[a:b] * np.float32(w))
        if not idx:
            return np.zeros(self.size, np.float32)
        return np.bincount(np.concatenate(idx), weights=np.concatenate(val),
                           minlength=self.size).astype(np.float32)


def fold(keys: np.ndarray, counts: np.ndarray, weights=FIELD_WEIGHTS) -> tuple[np.ndarray, np.ndarray]:
    """Postings (term id << 3 | field, count) -> (sorted term ids, field-weighted tf); terms
    only in fields of weight 0 are left out."""
    term = (keys >> 3).astype(np.int64)
    tf = np.asarray(weights, np.float32)[(keys & 7).astype(np.int64)] * counts.astype(np.float32)
    uniq, inverse = np.unique(term, return_inverse=True)
    tf = np.bincount(inverse, weights=tf, minlength=len(uniq)).astype(np.float32)
    return uniq[tf > 0], tf[tf > 0]


def build(store: Store, index: LexicalIndex, chunk: int = CHUNK, weights=FIELD_WEIGHTS) -> TermVectors:
    """Vectors for the papers of `index` (same positions); `weights` per field (postings.FIELDS
    order; a field of weight 0 is left out, e.g. authors for expertise matching). Postings are read `chunk` papers
    at a time and folded to (position, term, tf) triples; a second pass weights them and
    places them term-major, so the transient memory stays near the size of the result."""
    n = index.size
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    covered = np.zeros(n, dtype=bool)
    stored = store.postings_rows(tokens.VERSION, chunk)
    while rows := list(itertools.islice(stored, chunk)):
        pos = index.positions(np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)))
        ok = pos >= 0
        covered[pos[ok]] = True
        parts.append(_stored_tf(pos[ok], [r[2] for r, keep in zip(rows, ok.tolist()) if keep], weights))
    missing = np.flatnonzero(~covered)
    if len(missing):  # papers without current postings: tokenised here, not stored
        fresh = _tokenise(store, index, [int(index.rowids[p]) for p in missing], weights)
        extra = [(int(p), *fresh.get(int(index.rowids[p]), _EMPTY)) for p in missing]
        parts.append((np.concatenate([np.full(len(t), p, np.int32) for p, t, _ in extra]),
                      np.concatenate([t for _, t, _ in extra]).astype(np.int32),
                      np.concatenate([f for _, _, f in extra]).astype(np.float32)))
    n_terms = max((int(t.max()) + 1 for _, t, _ in parts if len(t)), default=0)
    df = np.zeros(n_terms, np.int64)
    for _, t, _ in parts:
        df += np.bincount(t, minlength=n_terms)
    idf = (np.log((1.0 + n) / (1.0 + df)) + 1.0).astype(np.float32)
    indptr = np.zeros(n_terms + 1, np.int64)
    np.cumsum(df, out=indptr[1:])
    indices = np.empty(int(indptr[-1]), np.int32)
    data = np.empty(int(indptr[-1]), np.float32)
    fill = indptr[:-1].copy()
    from scipy import sparse

    while parts:
        doc, term, tf = parts.pop(0)
        w = (1.0 + np.log(np.maximum(tf, 1e-9))) * idf[term]
        if len(doc):
            low = int(doc.min())
            norm = np.sqrt(np.bincount(doc - low, weights=w.astype(np.float64) ** 2))
            w = w / np.maximum(norm[doc - low], 1e-12)
        # entries are grouped by paper: CSR -> CSC (a counting sort) gives them term-major
        first = np.flatnonzero(np.r_[True, doc[1:] != doc[:-1]]) if len(doc) else np.zeros(0, np.int64)
        by_term = sparse.csr_matrix((w.astype(np.float32), term, np.r_[first, len(doc)]),
                                    shape=(len(first), n_terms)).tocsc()
        counts = np.diff(by_term.indptr)
        term = np.repeat(np.arange(n_terms), counts)
        dest = fill[term] + (np.arange(len(term)) - by_term.indptr[term])
        indices[dest] = doc[first][by_term.indices]
        data[dest] = by_term.data
        fill += counts
    return TermVectors(n, indptr, indices, data, idf)


_EMPTY = (np.zeros(0, np.int64), np.zeros(0, np.float32))


def _stored_tf(pos: np.ndarray, blobs: list[bytes], weights=FIELD_WEIGHTS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(position, term id, field-weighted tf) of every (paper, term) in stored postings, parsed
    in one pass: each blob is k uint32 keys (term id << 3 | field) then k uint16 counts."""
    k = np.fromiter((len(b) // 6 for b in blobs), dtype=np.int64, count=len(blobs))
    u16 = np.frombuffer(b"".join(blobs), dtype=np.uint16)
    runs = np.stack([2 * k, k], axis=1).ravel()  # per paper: 2k key halves, then k counts
    is_count = np.repeat(np.tile(np.array([False, True]), len(k)), runs)
    keys = np.ascontiguousarray(u16[~is_count]).view(np.uint32)
    counts = u16[is_count]
    doc = np.repeat(pos.astype(np.int32), k)
    term = (keys >> 3).astype(np.int32)
    tf = np.asarray(weights, np.float32)[keys & 7] * counts
    # a paper's postings are sorted by (term, field): fold a term's fields together
    first = np.ones(len(term), dtype=bool)
    first[1:] = (term[1:] != term[:-1]) | (doc[1:] != doc[:-1])
    starts = np.flatnonzero(first)
    if not len(starts):
        return doc, term, tf
    doc, term, tf = doc[starts], term[starts], np.add.reduceat(tf, starts)
    keep = tf > 0  # terms only in fields of weight 0
    return (doc, term, tf) if keep.all() else (doc[keep], term[keep], tf[keep])


def _tokenise(store: Store, index: LexicalIndex, rowids: list[int], weights=FIELD_WEIGHTS) -> dict:
    """(term ids, tf) of papers that have no current postings (read-only or mid-ingest)."""
    out = {}
    for r in store.index_fields(rowids):
        _, counts = postings.row_postings(r)
        out[int(r["rowid"])] = _counts_to_tf(store, index, counts.items(), weights)
    return out


def _counts_to_tf(store: Store, index: LexicalIndex, counts: Iterable[tuple[tuple[str, int], int]],
                  weights=FIELD_WEIGHTS) -> tuple[np.ndarray, np.ndarray]:
    counts = list(counts)
    ids = term_ids(store, index, (t for (t, _), _ in counts))
    tf: dict[int, float] = {}
    for (t, f), c in counts:
        if t in ids and weights[f] > 0:
            tf[ids[t]] = tf.get(ids[t], 0.0) + weights[f] * c
    keys = np.array(sorted(tf), dtype=np.int64)
    return keys, np.array([tf[k] for k in keys.tolist()], dtype=np.float32)


def paper_vector(store: Store, index: LexicalIndex, tv: TermVectors, rowid: int,
                 weights=FIELD_WEIGHTS) -> tuple[np.ndarray, np.ndarray]:
    """A paper's own stored vector (what every other paper is compared with)."""
    blob = store.paper_postings(rowid, tokens.VERSION)
    if blob is not None:
        return tv.vector(*fold(*postings.unpack(blob), weights))
    return tv.vector(*_tokenise(store, index, [rowid], weights).get(rowid, _EMPTY))


def text_vector(store: Store, index: LexicalIndex, tv: TermVectors, text: str) -> tuple[np.ndarray, np.ndarray]:
    """A user's text as the same kind of vector (counted as an abstract)."""
    counts: dict[str, int] = {}
    for t in tokens.terms(text):
        counts[t] = counts.get(t, 0) + 1
    ids = term_ids(store, index, counts)
    known = sorted(ids, key=ids.get)
    tid = np.array([ids[t] for t in known], dtype=np.int64)
    tf = np.array([FIELD_WEIGHTS[DRAFT_FIELD] * counts[t] for t in known], dtype=np.float32)
    unknown = np.array([FIELD_WEIGHTS[DRAFT_FIELD] * c for t, c in counts.items() if t not in ids],
                       dtype=np.float32)
    return tv.vector(tid, tf, unknown)
