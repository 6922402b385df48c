"""2-D map of papers: t-SNE (openTSNE) over the embeddings, seeded and deterministic.

Exact cosine neighbours (no approximate index whose build order could vary), a PCA
initialisation computed here with fixed signs, and a fixed seed: the same rows in the same
order give the same coordinates. The caller sorts rows by paper id. Papers added later are
placed among their nearest fitted neighbours without re-running the layout (`place_new`).
"""
from __future__ import annotations

import os

import numpy as np

from .clustering import normalise

SEED = 20240
FFT_FROM = 8000  # FFT-interpolated gradients from this many points (Barnes-Hut below)
# One thread: the same result on every machine, and openTSNE's worker threads slow down ten-fold
# when the cores are busy (measured: 4 s with 1 thread vs 48 s with 2 on a loaded 2-core box).
N_JOBS = int(os.environ.get("PAPERSCOPE_TSNE_JOBS", "1"))


def _pca_init(x: np.ndarray) -> np.ndarray:
    centred = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    comps = vt[:2]
    signs = np.sign(comps[np.arange(2), np.argmax(np.abs(comps), axis=1)])
    y = centred @ (comps * signs[:, None]).T
    std = y[:, 0].std() or 1.0
    return (y / std * 1e-4).astype(np.float64)


def _scale(y: np.ndarray) -> np.ndarray:
    """Centre on the median and scale so that the 99th-percentile radius is 1."""
    y = y - np.median(y, axis=0)
    r = np.percentile(np.linalg.norm(y, axis=1), 99) if len(y) > 1 else 1.0
    return (y / (r or 1.0)).astype(np.float32)


def layout(matrix: np.ndarray, *, seed: int = SEED, n_jobs: int | None = None,
           n_iter: int = 500) -> np.ndarray:
    """(n, 2) float32 coordinates, roughly within the unit disc."""
    x = normalise(matrix)
    n = len(x)
    if n == 0:
        return np.zeros((0, 2), np.float32)
    if n < 8:  # too few points for t-SNE: their first two principal components
        if n == 1:
            return np.zeros((1, 2), np.float32)
        return _scale(_pca_init(x) * 1e4)
    from openTSNE import TSNE

    tsne = TSNE(
        n_components=2,
        perplexity=float(min(30.0, max(2.0, (n - 1) / 3.5))),
        metric="cosine",
        neighbors="exact",
        negative_gradient_method="fft" if n >= FFT_FROM else "bh",
        initialization=_pca_init(x),
        n_iter=n_iter,
        n_jobs=n_jobs or N_JOBS,
        random_state=seed,
        verbose=False,
    )
    return _scale(np.asarray(tsne.fit(x)))


def place_new(fitted: np.ndarray, coords: np.ndarray, new: np.ndarray, k: int = 10,
              temperature: float = 0.03) -> np.ndarray:
    """Coordinates for new rows without re-running the layout: a weighted mean of their k most
    similar fitted rows, weights exp((sim - best sim) / temperature), so a near-duplicate sits on
    its twin and a paper between neighbours lands among the closest of them."""
    if len(new) == 0:
        return np.zeros((0, 2), np.float32)
    if len(fitted) == 0:
        return np.zeros((len(new), 2), np.float32)
    sim = normalise(new) @ normalise(fitted).T
    k = min(k, len(fitted))
    top = np.argsort(-sim, axis=1, kind="stable")[:, :k]
    s = np.take_along_axis(sim, top, axis=1)
    w = np.exp((s - s[:, :1]) / temperature)
    return ((coords[top] * w[..., None]).sum(axis=1) / w.sum(axis=1, keepdims=True)).astype(np.float32)
