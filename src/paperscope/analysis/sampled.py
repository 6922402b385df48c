"""Topics and map for collections too large to fit twice in memory: sample, then assign.

`analysis.topics.fit_topics` sorts and normalises a copy of the whole matrix, and the t-SNE
layout keeps several n-sized arrays besides the matrix; for 1 M papers (1.5 GB of float32
vectors) that is the whole matrix twice or more. Here the fit sees only a seeded sample
(chosen by a hash of each paper id, so the sample does not depend on input order), with the
topic count of the whole collection; then every paper joins its nearest centroid, and every
paper outside the sample is placed on the map among its nearest sample papers, `chunk` rows
at a time. Extra memory: the sample plus one chunk, whatever n is. The quality cost against
the full fit on 26 k papers is measured by benchmarks/build_scale.py (--topics)."""
from __future__ import annotations

import hashlib
from typing import Callable

import numpy as np

from .layout import layout, place_new
from .topics import SEED, TopicFit, assign_new, fit_topics, topic_count

SAMPLE = 20_000
CHUNK = 20_000


def sample_rows(ids: list[str], size: int, seed: int = SEED) -> np.ndarray:
    """Row numbers of a seeded sample of `size` ids (all of them when there are fewer),
    independent of their order: the ids with the smallest salted hashes, in row order."""
    if len(ids) <= size:
        return np.arange(len(ids))
    salt = str(seed).encode()
    keys = np.array([int.from_bytes(hashlib.blake2b(salt + i.encode(), digest_size=8).digest(), "big")
                     for i in ids], dtype=np.uint64)
    return np.sort(np.argpartition(keys, size - 1)[:size])


def sampled_topics(ids: list[str], texts: Callable[[np.ndarray], list[str]] | list[str], matrix: np.ndarray, *,
                   level: str | int = "coarse", sample: int = SAMPLE, chunk: int = CHUNK,
                   seed: int = SEED) -> TopicFit:
    """Topics of every paper from a fit on a sample. `texts` is the list of texts or a
    function giving the texts of some rows (so a store can read only the sample's). Returns a
    `TopicFit` over all ids (sorted), as `fit_topics` does; equal to it when n <= sample."""
    n = len(ids)
    rows = sample_rows(ids, sample, seed)
    picked = texts(rows) if callable(texts) else [texts[i] for i in rows]
    if len(rows) == n:
        return fit_topics(ids, picked, matrix, level=level, seed=seed)
    fit = fit_topics([ids[i] for i in rows], picked, matrix[rows], level=topic_count(n, level), seed=seed)
    order = sorted(range(n), key=lambda i: ids[i])
    assign = np.empty(n, np.int64)
    similarity = np.empty(n, np.float32)
    for start in range(0, n, chunk):
        part = np.asarray(order[start:start + chunk])
        assign[start:start + len(part)], similarity[start:start + len(part)] = assign_new(fit.model, matrix[part])
    return TopicFit(fit.model, [ids[i] for i in order], assign, similarity)


def sampled_layout(ids: list[str], matrix: np.ndarray, *, sample: int = SAMPLE, chunk: int = 2_000,
                   seed: int = SEED) -> np.ndarray:
    """(n, 2) map coordinates: t-SNE on the sample, every other paper placed among its nearest
    sample papers (`analysis.layout.place_new`), `chunk` rows at a time."""
    rows = sample_rows(ids, sample, seed)
    if len(rows) == len(ids):
        return layout(matrix, seed=seed)
    fitted = np.asarray(matrix[rows], dtype=np.float32)
    coords = layout(fitted, seed=seed)
    out = np.empty((len(ids), 2), np.float32)
    out[rows] = coords
    rest = np.setdiff1d(np.arange(len(ids)), rows)
    for start in range(0, len(rest), chunk):
        part = rest[start:start + chunk]
        out[part] = place_new(fitted, coords, matrix[part])
    return out
