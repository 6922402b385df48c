"""Sample-then-assign topics and map for collections too large to fit twice in memory."""
from __future__ import annotations

import numpy as np

from paperscope.analysis.topics import fit_topics
from paperscope.analysis.sampled import sample_rows, sampled_layout, sampled_topics


def _blobs(n_per: int = 120, k: int = 4, seed: int = 3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, 16))
    rows, texts, truth = [], [], []
    words = ["graph", "vision", "language", "bandit"]
    for c in range(k):
        x = centres[c] + rng.normal(scale=0.15, size=(n_per, 16))
        rows.append(x)
        texts += [f"{words[c]} {words[c]} model study {i}" for i in range(n_per)]
        truth += [c] * n_per
    m = np.vstack(rows).astype(np.float32)
    return [f"p{i:05d}" for i in range(len(m))], texts, m / np.linalg.norm(m, axis=1, keepdims=True), np.array(truth)


def test_small_collections_get_the_full_fit():
    ids, texts, m, _ = _blobs()
    full = fit_topics(ids, texts, m, level=4)
    same = sampled_topics(ids, texts, m, level=4, sample=len(ids))
    assert same.ids == full.ids and (same.assign == full.assign).all()


def test_a_sample_fit_assigns_every_paper_and_finds_the_same_groups():
    ids, texts, m, truth = _blobs()
    fit = sampled_topics(ids, texts, m, level=4, sample=100, chunk=64)
    assert len(fit.ids) == len(ids) == len(fit.assign)
    by_id = dict(zip(fit.ids, fit.assign))
    got = np.array([by_id[i] for i in ids])
    for c in range(4):  # each true group lands in one topic, and groups do not share one
        assert len(set(got[truth == c])) == 1
    assert len(set(got)) == 4
    assert sorted(fit.model.labels) != [] and all(fit.model.labels)


def test_the_sample_does_not_depend_on_input_order():
    ids, texts, m, _ = _blobs()
    order = np.random.default_rng(0).permutation(len(ids))
    a = {ids[i] for i in sample_rows(ids, 50)}
    shuffled = [ids[i] for i in order]
    b = {shuffled[i] for i in sample_rows(shuffled, 50)}
    assert a == b and len(a) == 50
    one = sampled_topics(ids, texts, m, level=4, sample=100)
    two = sampled_topics(shuffled, [texts[i] for i in order], m[order], level=4, sample=100)
    assert one.ids == two.ids and (one.assign == two.assign).all()


def test_sampled_map_places_every_paper_near_its_group():
    ids, _, m, truth = _blobs(n_per=40)
    coords = sampled_layout(ids, m, sample=80, chunk=25)
    assert coords.shape == (len(ids), 2) and np.isfinite(coords).all()
    centre = np.array([coords[truth == c].mean(axis=0) for c in range(4)])
    nearest = np.argmin(((coords[:, None, :] - centre[None]) ** 2).sum(axis=2), axis=1)
    assert (nearest == truth).mean() > 0.95
