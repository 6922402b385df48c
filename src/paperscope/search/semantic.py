"""Semantic side of search: paper embeddings (computed at ingest for new texts only, stored in
`embeddings`, keyed by `papers.text_hash`), the per-process vector matrix, and nearest-neighbour
scoring over it (`VectorIndex`)."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np

from . import snapshots
from .embedder import DIM, MODEL_ID
from ..store.protocol import Store

CHUNK = 256  # texts per transaction
# From this many papers, a PCA-reduced first pass (see VectorIndex). At 26 k papers the exact
# scan reads 40 MB per query (memory-bound: ~5 ms of a ~19 ms search under load); the reduced
# pass cut search CPU by ~2.5 ms/query and kept recall@100 at 0.997, the top 10 identical for
# 98 % of 900 unique queries and the top hit for 99.8 % (benchmarks/search_profile.py, notes).
COARSE_MIN = 20_000
COARSE_DIMS = 96


_blas_lock = threading.Lock()
_blas_users = 0
_blas_limit = None
_blas_pinned = None


def pin_single_threaded_blas() -> None:
    """BLAS on one thread for the rest of this process (a server worker: many short queries,
    one core each). Switching the limit on and off around every query, as the context below
    does, let the BLAS threads of the restored setting spin between queries: with one query
    at a time per worker that doubled the server CPU per search (43 vs 21 ms, benchmarks/web_load.py)."""
    global _blas_pinned
    with _blas_lock:
        if _blas_pinned is None:
            try:
                _blas_pinned = _controller().limit(limits=1, user_api="blas")
            except Exception:  # threadpoolctl missing or no BLAS found: nothing to limit
                _blas_pinned = False


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """BLAS on one thread while a query runs. A query's matrix-vector products are memory-bound:
    a second OpenBLAS thread only spins (twice the CPU per query, slower under load; see
    benchmarks/search_speed.py). Reference-counted so concurrent queries restore it once."""
    global _blas_users, _blas_limit
    if _blas_pinned is not None:
        yield
        return
    with _blas_lock:
        if _blas_users == 0:
            try:
                _blas_limit = _controller().limit(limits=1, user_api="blas")
            except Exception:  # threadpoolctl missing or no BLAS found: nothing to limit
                _blas_limit = None
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0 and _blas_limit is not None:
                _blas_limit.restore_original_limits()
                _blas_limit = None


@lru_cache(maxsize=1)
def _controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def paper_text(title: str | None, abstract: str | None) -> str:
    """What is embedded: the same inputs as papers.text_hash (title, abstract)."""
    title = (title or "").strip()
    abstract = (abstract or "").strip()
    if title and abstract:
        return f"{title}. {abstract}"
    return title or abstract


def embed_missing(store: Store, embedder, progress: Callable[[str, int, int], None] | None = None) -> int:
    """Embed every paper text that has no vector for the current model. Texts are sorted by
    length and embedded in small batches; every `CHUNK` texts are stored in one transaction,
    so an interrupted run keeps what it finished. Returns how many texts were embedded."""
    rows = store.texts_to_embed(MODEL_ID)
    total = len(rows)
    if not total:
        save_vector_snapshot(store)  # papers may have come or gone with known texts
        return 0
    texts = [paper_text(title, abstract) for _, title, abstract in rows]
    lengths = embedder.token_counts(texts)
    order = sorted(range(total), key=lambda i: lengths[i])
    done = 0
    if progress:
        progress("embed", 0, total)
    for start in range(0, total, CHUNK):
        chunk = order[start:start + CHUNK]
        vecs = embedder.embed([texts[i] for i in chunk])
        with store.transaction():
            store.save_embeddings(MODEL_ID, DIM, [(rows[i][0], v.astype("<f2").tobytes()) for i, v in zip(chunk, vecs)])
        done += len(chunk)
        if progress:
            progress("embed", done, total)
    save_vector_snapshot(store)
    return total


# --------------------------------------------------------------------------- vectors


@dataclass
class VectorIndex:
    """Paper vectors in one contiguous float32 matrix, rows in papers.rowid order."""

    ids: list[str]
    rowids: np.ndarray  # int64, ascending
    matrix: np.ndarray  # float32 (n, 384), L2-normalised
    _coarse: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        return len(self.ids)

    def positions(self, rowids: np.ndarray) -> np.ndarray:
        """Row of each papers.rowid (-1 where the paper has no vector)."""
        return snapshots.positions_in(self.rowids, rowids)

    def top(self, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(rows, cosines) of the k nearest papers, best first; `allowed` is a boolean row mask.
        Exact below `COARSE_MIN` papers; above, a PCA-reduced pass picks 20*k candidates (at
        least 2,000) that are then scored exactly (recall measured in benchmarks/search_speed.py)."""
        if not self.size or k <= 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if self.size >= COARSE_MIN:
            proj, reduced = self._reduced()
            approx = reduced @ (q @ proj)
            if allowed is not None:
                approx = np.where(allowed, approx, -np.inf)
            pool = _top_k(approx, max(20 * k, 2000))
            pool = pool[np.isfinite(approx[pool])]
            exact = self.matrix[pool] @ q
            best = np.argsort(-exact, kind="stable")[:k]
            return pool[best], exact[best]
        scores = self.matrix @ q
        if allowed is not None:
            scores = np.where(allowed, scores, -np.inf)
        rows = _top_k(scores, k)
        rows = rows[np.isfinite(scores[rows])]
        return rows, scores[rows]

    def _reduced(self) -> tuple[np.ndarray, np.ndarray]:
        if self._coarse is None:
            rng = np.random.default_rng(0)
            sample = self.matrix[rng.choice(self.size, size=min(self.size, 20_000), replace=False)]
            _, _, vt = np.linalg.svd(sample - sample.mean(0), full_matrices=False)
            proj = np.ascontiguousarray(vt[:COARSE_DIMS].T, dtype=np.float32)
            self._coarse = (proj, np.ascontiguousarray(self.matrix @ proj))
        return self._coarse


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest scores, best first (ties: lower index first). On large arrays a
    threshold estimated from a strided sample cuts the array to a few k entries first, which
    is several times faster than a full argpartition; the exact path runs when it undershoots."""
    n = len(scores)
    k = min(k, n)
    if k <= 0:
        return np.zeros(0, np.int64)
    cand = None
    if n > 50_000 and k * 20 < n:
        step = max(1, n // 8192)
        sample = scores[::step]
        q = 1.0 - min(1.0, 3.0 * k / n)
        threshold = np.quantile(sample[np.isfinite(sample)], q) if np.isfinite(sample).any() else -np.inf
        cand = np.flatnonzero(scores >= threshold)
        if len(cand) < k:
            cand = None
    if cand is None:
        cand = np.arange(n)
    if k < len(cand):
        cand = cand[np.argpartition(-scores[cand], k - 1)[:k]]
    return cand[np.lexsort((cand, -scores[cand]))]


VECTORS = "vectors"
# The snapshot keeps the ready float32 matrix (twice the bytes of the float16 rows, but a
# cold process then maps it without converting or renormalising 10 M numbers).
_VECTOR_ARRAYS = (("rowids", np.int64), ("matrix", "<f4"), ("ids", np.uint8))


def _index_from(ids: list[str], rowids: np.ndarray, matrix16: np.ndarray) -> VectorIndex:
    matrix = matrix16.reshape(len(ids), DIM).astype(np.float32)
    matrix /= np.clip(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12, None)
    return VectorIndex(ids, rowids, matrix)


def _load_rows(store: Store) -> VectorIndex:
    rows = store.embedding_rows(MODEL_ID)
    if not rows:
        return VectorIndex([], np.zeros(0, np.int64), np.zeros((0, DIM), np.float32))
    return _index_from([r[1] for r in rows], np.fromiter((r[0] for r in rows), np.int64, len(rows)),
                       np.frombuffer(b"".join(r[2] for r in rows), dtype="<f2"))


def _snapshot_generation(store: Store) -> int | None:
    """The vector-set generation when the saved snapshot matches it, else None."""
    gen = store.generation("vectors_generation")
    meta = store.snapshot_meta(VECTORS) if gen is not None else None
    if meta and meta.get("generation") == gen and meta.get("model") == MODEL_ID and meta.get("dtype") == "<f4":
        return gen
    return None


def save_vector_snapshot(store: Store, index: VectorIndex | None = None) -> None:
    """Save the vector set as one contiguous snapshot (after embedding)."""
    gen = store.generation("vectors_generation")
    if gen is None or store.readonly or _snapshot_generation(store) == gen:
        return
    index = index or _load_rows(store)
    store.save_snapshot(VECTORS, gen, {"model": MODEL_ID, "size": index.size, "dtype": "<f4"}, {
        "rowids": index.rowids, "matrix": index.matrix.astype("<f4"),
        "ids": np.frombuffer("\n".join(index.ids).encode("utf-8"), dtype=np.uint8)})


def load_vectors(store: Store) -> VectorIndex:
    """The library's vectors: the snapshot when current (saving one when it is stale and the
    library writable), else joined row by row."""
    gen = _snapshot_generation(store)
    if gen is not None:
        arrays = store.load_snapshot(VECTORS, gen, _VECTOR_ARRAYS)
        raw = arrays["ids"].tobytes().decode("utf-8")
        ids = raw.split("\n") if raw else []
        if len(ids) == len(arrays["rowids"]) and len(arrays["matrix"]) == len(ids) * DIM:
            return VectorIndex(ids, arrays["rowids"], arrays["matrix"].reshape(len(ids), DIM))
    index = _load_rows(store)
    if index.size:
        save_vector_snapshot(store, index)  # for the next process
    return index
