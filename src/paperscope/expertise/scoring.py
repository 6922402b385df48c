"""How well a body of work (a profile: several papers) fits a paper, as pure array functions.

A pair similarity mixes two cosines: the embedding cosine after subtracting the library's mean
vector (the direction every ML abstract shares) and the cosine of tf-idf term vectors (shared
method and dataset names). A profile's fit to a candidate aggregates the pair similarities of
its papers: the mean of the `k` best (max is k = 1, a centroid-like mean is k = all), or a
softmax-weighted mean ("facets": each candidate meets the profile papers closest to it), or the
profile as one centroid (`centroid_scores`), or both rankings fused (`fuse`). `match` ranks
papers for a profile by facets (with adjacent-term-pair cosines among the words:
MATCH_RECIPE); `reviewers` ranks authors (each author's papers a profile) by facets too
(fused with the centroid when one-paper authors are candidates), chosen on the tuning data of
both development benchmarks, author leave-one-out and topical expertise (service.AGGREGATES,
service.author_aggregate); `experts` by facets over search scores (topic.py).

`RECIPE` was chosen on ICLR 2020 and ICML 2016 author leave-one-out (benchmarks/expertise_eval.py,
`--grid`: 0.2 x centred cosine + 0.8 x term cosine, mean of the 3 best with padding, hubness 0.5
led the mean of the four tuning MRRs, 0.183; the next recipes, e.g. 0.4 / best 2, were within
0.003); ICML 2024, UAI 2024 and COLT 2024 were held out. It differs from `related` (0.4
semantic plus adjacent-term pairs, no hubness, one paper): for a person the words weigh more,
and a candidate close to everything is discounted. An author with fewer than k papers has the
missing ones counted as 0 in facets (`pad`): with one-paper authors among the candidates (`--min-papers 2` in the
benchmark) this doubled the reviewers MRR on both tuning corpora (ICLR 2020 0.039 -> 0.084,
ICML 2016 0.076 -> 0.141), where averaging only what an author has let single papers crowd
the list; with two papers or more it changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


# Term-vector field weights (title, label, abstract, authors, keywords): as `related`'s but
# without the authors, whose shared names measure who wrote with whom, not what they know (and
# would carry a paper's own authors into its reviewer list).
FIELD_WEIGHTS = (2.0, 1.0, 1.0, 0.0, 1.0)


@dataclass(frozen=True)
class Recipe:
    semantic_weight: float = 0.2  # weight of the centred embedding cosine; the rest is lexical
    aggregate: str = "topk"  # topk | softmax
    k: int = 3  # topk: mean of the k best pair similarities (1 = max; a big k = mean)
    temperature: float = 0.05  # softmax: weights exp(sim / temperature)
    hub: float = 0.5  # match: minus hub x a candidate's mean similarity to its 10 nearest papers
    pad: bool = True  # authors: fewer than k papers count the missing ones as 0 (sum of best / k)
    fuse_k: float = 60.0  # reciprocal rank fusion constant (reviewers: facets + centroid)
    pair_weight: float = 0.0  # share of the lexical side given to the adjacent-term-pair cosine


    def but(self, **changes) -> "Recipe":
        return replace(self, **changes)


RECIPE = Recipe()
# `match` (a person's profile against a venue's papers): the same, with a quarter of the words'
# share from the cosine of adjacent term pairs ("graph neural", "policy gradient"; as in
# `related`, idf over the scope) and a light hubness discount (0.1). The pairs were chosen on
# the authorship tuning corpora (expertise_eval.py --match-grid and --min-papers 2
# --tuning-only: pooled MRR +0.009, CI [+0.004, +0.015] with 2-paper authors). The hubness was
# 0.5 there (authorship MRR pooled over ICLR 2020 / ICML 2016: hub 0 0.107, 0.1 0.109, 0.25
# 0.118, 0.5 0.129), but on topical expertise (expertise_topical.py, tuning half, the gold
# standard's loss, lower is better) a hub of 0.5 put match behind the bare MiniLM top-3 cosine
# (0.302 against 0.293, CI of the difference [+0.003, +0.015]) while 0.1 led it (0.275, CI
# [-0.023, -0.014]; 0: 0.276, 0.25: 0.281): discounting papers close to everything finds a
# person's own paper but not the papers they can judge. With 0.1 match stays ahead of the bare
# cosine on authorship (pooled tuning MRR difference CI [0.000, +0.033]).
MATCH_RECIPE = RECIPE.but(pair_weight=0.25, hub=0.1)


def mix(semantic: np.ndarray, lexical: np.ndarray, weight: float) -> np.ndarray:
    """weight * semantic + (1 - weight) * lexical; where a paper has no vector (NaN) the lexical
    cosine stands alone."""
    semantic = np.asarray(semantic, dtype=np.float32)
    lexical = np.asarray(lexical, dtype=np.float32)
    out = weight * semantic + (1.0 - weight) * lexical
    return np.where(np.isnan(semantic), lexical, out).astype(np.float32)


def centred_unit(matrix: np.ndarray, mean: np.ndarray | None) -> np.ndarray:
    """Rows minus the mean, L2-normalised (the centred cosine is then a dot product)."""
    m = np.asarray(matrix, dtype=np.float32)
    if mean is not None:
        m = m - mean
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)


def centred_against(queries: np.ndarray, matrix: np.ndarray, mean: np.ndarray | None) -> np.ndarray:
    """Centred cosines (len(queries), len(matrix)) of unit `queries` with the unit rows of
    `matrix`, without copying `matrix`: |m - mu|^2 = 1 - 2 m.mu + |mu|^2."""
    q = centred_unit(queries, mean)
    dots = q @ matrix.T
    if mean is None:
        return dots
    m_mu = matrix @ mean
    q_mu = q @ mean
    norms = np.sqrt(np.maximum(1.0 - 2.0 * m_mu + float(mean @ mean), 1e-12))
    return ((dots - q_mu[:, None]) / norms[None, :]).astype(np.float32)


def profile_scores(sims: np.ndarray, recipe: Recipe = RECIPE) -> np.ndarray:
    """Aggregate (profile papers, candidates) similarities into one score per candidate."""
    sims = np.asarray(sims, dtype=np.float32)
    p = sims.shape[0]
    if p == 0:
        return np.zeros(sims.shape[1], np.float32)
    if recipe.aggregate == "softmax":
        w = np.exp((sims - sims.max(axis=0, keepdims=True)) / recipe.temperature)
        return (w * sims).sum(axis=0) / w.sum(axis=0)
    k = max(1, min(recipe.k, p))
    if k == p:
        return sims.mean(axis=0)
    if k == 1:
        return sims.max(axis=0)
    return -np.partition(-sims, k - 1, axis=0)[:k].mean(axis=0)


def hubness(sims: np.ndarray, k: int = 10) -> np.ndarray:
    """Each row's mean similarity to its `k` most similar other columns of a square (candidates x
    candidates) matrix: a paper close to everything ("hub") gets a high value, and subtracting
    it keeps hubs from topping every profile's list."""
    sims = np.array(sims, dtype=np.float32)
    n = sims.shape[0]
    if n < 2:
        return np.zeros(n, np.float32)
    np.fill_diagonal(sims, -np.inf)
    k = min(k, n - 1)
    return -np.partition(-sims, k - 1, axis=1)[:, :k].mean(axis=1)


def grouped_scores(values: np.ndarray, owner: np.ndarray, n_owners: int,
                   recipe: Recipe = RECIPE) -> np.ndarray:
    """The same aggregation per owner over flat (owner, similarity) pairs: `values[i]` is the
    similarity of one paper of `owner[i]`; with `recipe.pad`, an owner with fewer than k pairs
    has the missing ones counted as 0. Owners without pairs score -inf."""
    values = np.asarray(values, dtype=np.float64)
    owner = np.asarray(owner, dtype=np.int64)
    out = np.full(n_owners, -np.inf)
    if not len(values):
        return out
    counts = np.bincount(owner, minlength=n_owners)
    has = counts > 0
    if recipe.aggregate == "softmax":
        top = np.full(n_owners, -np.inf)
        np.maximum.at(top, owner, values)
        w = np.exp((values - top[owner]) / recipe.temperature)
        num = np.bincount(owner, weights=w * values, minlength=n_owners)
        den = np.bincount(owner, weights=w, minlength=n_owners)
        out[has] = num[has] / den[has]
        return out
    order = np.lexsort((-values, owner))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(len(order)) - starts[owner[order]]
    keep = order[rank < recipe.k]
    sums = np.bincount(owner[keep], weights=values[keep], minlength=n_owners)
    out[has] = sums[has] / (recipe.k if recipe.pad else np.minimum(counts[has], recipe.k))
    return out


def centroid_scores(values: np.ndarray, owner: np.ndarray, n_owners: int, gram: np.ndarray,
                    drop: tuple[list[int], float, float] | None = None) -> np.ndarray:
    """Each owner's papers as one centroid: the cosine of the query with the (weighted) sum of
    the owner's paper vectors, sum_p w_p s(q, p) / |sum_p w_p v_p|, from flat (owner, weighted
    similarity) pairs and `gram[o]` = |sum_p w_p v_p|^2 over the owner's papers. `drop` =
    (owners, w_q, s(q, q)) takes the query paper itself out of those owners' sums when `gram`
    still counts it (it must not be among `values`). Owners without pairs score -inf. Unlike
    the mean of the k best, a big body of work is not favoured or penalised for its size."""
    values = np.asarray(values, dtype=np.float64)
    owner = np.asarray(owner, dtype=np.int64)
    sums = np.bincount(owner, weights=values, minlength=n_owners)
    g = np.asarray(gram, dtype=np.float64).copy()
    if drop is not None:
        owners, wq, sqq = drop
        owners = np.asarray(owners, np.int64)
        g[owners] -= 2.0 * wq * sums[owners] + wq * wq * sqq
    out = sums / np.sqrt(np.maximum(g, 1e-12))
    out[np.bincount(owner, minlength=n_owners) == 0] = -np.inf
    return out


def top_indices(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k best finite scores, best first (ties: lower index first)."""
    scores = np.asarray(scores)
    ok = np.flatnonzero(np.isfinite(scores))
    if not len(ok) or k <= 0:
        return np.zeros(0, np.int64)
    if k < len(ok):
        ok = ok[np.argpartition(-scores[ok], k - 1)[:k]]
    return ok[np.lexsort((ok, -scores[ok]))]


def fuse(*scores: np.ndarray, k: float = 60.0) -> np.ndarray:
    """Reciprocal rank fusion: each score array ranks the candidates (1 = best; equal scores
    share the better rank, so equal candidates stay equal) and a candidate gets the sum of
    1 / (k + rank); one that any array leaves out (-inf) is left out."""
    scores = [np.asarray(s, np.float64) for s in scores]
    out = np.zeros(len(scores[0]))
    ok = np.ones(len(out), bool)
    for s in scores:
        ok &= np.isfinite(s)
    for s in scores:
        neg = -s[ok]
        rank = 1 + np.searchsorted(np.sort(neg), neg, side="left")  # 1 + how many score higher
        out[ok] += 1.0 / (k + rank)
    out[~ok] = -np.inf
    return out


def recency_weights(years: np.ndarray, half_life: float | None, reference: int) -> np.ndarray:
    """0.5 ** (age / half_life) with age = reference - year (never negative): a paper
    `half_life` years older than the reference counts half. Unknown years (0) count fully;
    no half-life: all 1."""
    years = np.asarray(years, dtype=np.float64)
    if not half_life:
        return np.ones(len(years))
    if half_life < 0:
        raise ValueError("the recency half-life must be positive")
    w = 0.5 ** (np.maximum(reference - years, 0.0) / float(half_life))
    return np.where(years > 0, w, 1.0)
