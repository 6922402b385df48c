"""The expertise scoring functions against brute force: an author's centroid, rank fusion,
recency weights."""
from __future__ import annotations

import numpy as np
import pytest

from paperscope.expertise.scoring import RECIPE, centroid_scores, fuse, grouped_scores, recency_weights


def _unit(rng, n, d=8):
    v = rng.normal(size=(n, d))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_centroid_scores_are_the_cosine_with_each_authors_summed_vectors():
    rng = np.random.default_rng(1)
    papers, query = _unit(rng, 7), _unit(rng, 1)[0]
    owner = np.array([0, 0, 0, 1, 1, 2, 0])
    position = np.array([0, 1, 2, 3, 4, 5, 6])
    w = np.array([1.0, 0.5, 1.0, 1.0, 0.25, 1.0, 1.0])
    sims = papers @ query
    gram = np.zeros(4)
    for a in range(3):
        v = (w[owner == a, None] * papers[position[owner == a]]).sum(axis=0)
        gram[a] = v @ v
    got = centroid_scores(w * sims, owner, 4, gram)
    for a in range(3):
        v = (w[owner == a, None] * papers[position[owner == a]]).sum(axis=0)
        assert got[a] == pytest.approx(v @ query / np.linalg.norm(v))
    assert got[3] == -np.inf  # no papers


def test_dropping_the_query_paper_equals_leaving_it_out_of_the_gram():
    rng = np.random.default_rng(2)
    papers = _unit(rng, 5)
    owner = np.array([0, 0, 0, 1, 1])
    q = 2  # author 0's own paper is the query
    sims = papers @ papers[q]
    full = np.array([sum(papers[i] @ papers[j] for i in np.flatnonzero(owner == a) for j in np.flatnonzero(owner == a))
                     for a in range(2)])
    keep = np.arange(5) != q
    got = centroid_scores(sims[keep], owner[keep], 2, full, drop=([0], 1.0, float(sims[q])))
    v = papers[[0, 1]].sum(axis=0)
    assert got[0] == pytest.approx(v @ papers[q] / np.linalg.norm(v))
    assert got[1] == pytest.approx(papers[[3, 4]].sum(axis=0) @ papers[q] / np.linalg.norm(papers[[3, 4]].sum(axis=0)))


def test_a_centroid_does_not_grow_with_the_number_of_similar_papers():
    # author 0: one paper at similarity 0.6; author 1: the same paper written up three times
    sims = np.array([0.6, 0.6, 0.6, 0.6])
    owner = np.array([0, 1, 1, 1])
    gram = np.array([1.0, 9.0])  # three identical unit vectors sum to length 3
    cen = centroid_scores(sims, owner, 2, gram)
    assert cen[0] == pytest.approx(cen[1]) == pytest.approx(0.6)
    padded = grouped_scores(sims, owner, 2, RECIPE)
    assert padded[1] > padded[0]  # the mean of the best 3 (padded) favours the bigger body of work


def test_fuse_sums_reciprocal_ranks_and_keeps_ties_and_exclusions():
    a = np.array([0.9, 0.5, 0.5, 0.1, -np.inf])
    b = np.array([0.1, 0.8, 0.8, 0.9, 0.7])
    got = fuse(a, b, k=1.0)
    # ranks in a: 1, 2, 2, 4; in b: 4, 2, 2, 1 (candidate 4 is out)
    assert got[:4] == pytest.approx([1 / 2 + 1 / 5, 1 / 3 + 1 / 3, 1 / 3 + 1 / 3, 1 / 5 + 1 / 2])
    assert got[1] == got[2] and got[4] == -np.inf


def test_recency_weights_halve_per_half_life_and_leave_unknown_years_alone():
    years = np.array([2024, 2022, 2020, 0, 2026])
    w = recency_weights(years, 2.0, 2024)
    assert w == pytest.approx([1.0, 0.5, 0.25, 1.0, 1.0])
    assert recency_weights(years, None, 2024) == pytest.approx(np.ones(5))
    with pytest.raises(ValueError):
        recency_weights(years, -1.0, 2024)
