"""Deterministic spherical k-means over L2-normalised embeddings.

Every paper lands in a cluster (no outlier bin). The result depends only on the rows of the
matrix and the seed: the caller sorts papers by id first, k-means++ seeding uses a seeded
generator, ties are broken by the lowest index, and clusters are renumbered canonically
(largest first, then by the first row they contain), so two runs give the same numbers.
"""
from __future__ import annotations

import numpy as np


def normalise(matrix: np.ndarray) -> np.ndarray:
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.maximum(norms, 1e-12)


def _plus_plus(x: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k-means++ seeding on cosine distance (1 - similarity)."""
    n = x.shape[0]
    chosen = [int(rng.integers(n))]
    dist = np.maximum(1.0 - x @ x[chosen[0]], 0.0).astype(np.float64)
    for _ in range(1, k):
        total = dist.sum()
        if total <= 0:  # fewer distinct points than k: take the first unused rows
            unused = np.setdiff1d(np.arange(n), chosen)
            chosen.append(int(unused[0]))
        else:
            r = rng.random() * total
            chosen.append(int(min(np.searchsorted(np.cumsum(dist), r, side="right"), n - 1)))
        dist = np.minimum(dist, np.maximum(1.0 - x @ x[chosen[-1]], 0.0))
    return x[chosen].copy()


def _centroids(x: np.ndarray, assign: np.ndarray, k: int, previous: np.ndarray) -> np.ndarray:
    from scipy import sparse  # only a fit needs it (a stored run is read without scipy)

    onehot = sparse.csr_matrix((np.ones(len(assign), dtype=np.float64), (assign, np.arange(len(assign)))),
                               shape=(k, len(assign)))
    sums = np.asarray(onehot @ x.astype(np.float64))
    norms = np.linalg.norm(sums, axis=1)
    empty = norms == 0
    sums[empty] = previous[empty]  # an emptied cluster keeps its old centre (refilled below)
    return normalise(sums)


def _refill_empty(x: np.ndarray, sim: np.ndarray, assign: np.ndarray, k: int) -> np.ndarray:
    """Give every empty cluster the point that fits its own cluster worst."""
    counts = np.bincount(assign, minlength=k)
    for c in np.flatnonzero(counts == 0):
        fit = sim[np.arange(len(assign)), assign]
        movable = counts[assign] > 1
        fit = np.where(movable, fit, np.inf)
        worst = int(np.argmin(fit))
        counts[assign[worst]] -= 1
        assign[worst] = c
        counts[c] = 1
    return assign


def spherical_kmeans(matrix: np.ndarray, k: int, *, seed: int = 0, n_init: int = 3,
                     max_iter: int = 100, tol: float = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """Cluster rows into k groups by cosine similarity. Returns (assignments (n,), centroids
    (k, d) L2-normalised), canonically numbered."""
    x = normalise(matrix)
    n = x.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, x.shape[1]), dtype=np.float32)
    k = max(1, min(int(k), n))
    rng = np.random.default_rng(seed)
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for _ in range(max(1, n_init)):
        centres = _plus_plus(x, k, rng)
        assign = np.full(n, -1, dtype=np.int64)
        for _ in range(max_iter):
            sim = x @ centres.T
            new = np.argmax(sim, axis=1)
            new = _refill_empty(x, sim, new, k)
            moved = int(np.count_nonzero(new != assign))
            assign = new
            centres = _centroids(x, assign, k, centres)
            if moved <= tol * n:  # converged (a handful of border papers may still swap)
                break
        score = float((x * centres[assign]).sum())  # total cosine similarity to own centre
        if best is None or score > best[0] + 1e-9:
            best = (score, assign, centres)
    assert best is not None
    return canonical(best[1], best[2])


def canonical(assign: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Renumber clusters: largest first, ties by the first row they contain; drop empties."""
    k = centres.shape[0]
    sizes = np.bincount(assign, minlength=k)
    first = np.full(k, len(assign), dtype=np.int64)
    np.minimum.at(first, assign, np.arange(len(assign)))
    order = [c for c in sorted(range(k), key=lambda c: (-sizes[c], first[c])) if sizes[c] > 0]
    remap = np.full(k, -1, dtype=np.int64)
    remap[order] = np.arange(len(order))
    return remap[assign], centres[order]


def nearest(centres: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Index of the most similar centroid for each row (new papers, no refit)."""
    if len(matrix) == 0 or len(centres) == 0:
        return np.zeros(len(matrix), dtype=np.int64)
    return np.argmax(normalise(matrix) @ normalise(centres).T, axis=1)
