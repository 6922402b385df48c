"""Topics as pure functions over (ids, texts, vectors): every paper assigned, readable labels,
identical output across runs and input order, new papers joining existing topics."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from paperscope.analysis.layout import layout, place_new
from paperscope.analysis.terms import Terms, label_from_terms
from paperscope.analysis.topics import assign_new, fit_topics, topic_count, topic_table

THEMES = [
    ("graph", "graph neural networks message passing over nodes and edges"),
    ("diffusion", "diffusion models denoising score matching for image generation"),
    ("bandit", "multi-armed bandit regret bounds for online exploration"),
    ("privacy", "differential privacy guarantees for private federated clients"),
    ("protein", "protein structure prediction and molecular docking of ligands"),
    ("forecast", "time series forecasting of temporal sequences with seasonality"),
]
FILLER = "we study this setting carefully and report results on several benchmarks".split()


def corpus(per_theme: int = 25, seed: int = 1):
    """Synthetic papers: six themes, each a cluster of vectors around its own centre and
    abstracts that use the theme's vocabulary."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(len(THEMES), 384))
    ids, texts, rows, truth = [], [], [], []
    for t, (name, words) in enumerate(THEMES):
        for j in range(per_theme):
            w = words.split()
            picked = [w[i] for i in rng.choice(len(w), size=6, replace=False)]
            texts.append(f"{words}. " + " ".join(picked + list(rng.choice(FILLER, size=5))))
            rows.append(centres[t] + rng.normal(scale=0.35, size=384))
            ids.append(f"p{rng.integers(10**9):09d}-{name}-{j}")
            truth.append(t)
    m = np.array(rows, dtype=np.float32)
    return ids, texts, m / np.linalg.norm(m, axis=1, keepdims=True), np.array(truth), centres


def table(fit, texts_by_id=None):
    return topic_table(fit.model, fit.ids, fit.assign, fit.similarity, texts_by_id or {})


def test_every_paper_lands_in_exactly_one_topic_and_themes_are_recovered():
    ids, texts, m, truth, _ = corpus()
    fit = fit_topics(ids, texts, m, level=6)
    topics = table(fit)
    members = [pid for t in topics for pid in t["papers"]]
    assert sorted(members) == sorted(ids)  # none unassigned, none twice
    assert sum(t["size"] for t in topics) == len(ids)
    theme_of = dict(zip(ids, truth))
    for t in topics:
        assert len({theme_of[pid] for pid in t["papers"]}) == 1  # each topic is one theme
    for t in topics:
        theme = THEMES[theme_of[t["papers"][0]]][1]
        assert any(word in theme for word in t["label"].replace(",", " ").split()), t["label"]
        assert t["representative"]["id"] in t["papers"]
        assert {"id", "label", "size", "papers"} <= set(t)


def test_identical_output_across_runs_and_input_order():
    ids, texts, m, _, _ = corpus()
    first = json.dumps(table(fit_topics(ids, texts, m, level=5)))
    again = json.dumps(table(fit_topics(ids, texts, m, level=5)))
    order = list(range(len(ids)))
    random.Random(7).shuffle(order)
    shuffled = fit_topics([ids[i] for i in order], [texts[i] for i in order], m[order], level=5)
    assert first == again
    assert first == json.dumps(table(shuffled))


def test_new_papers_join_the_nearest_existing_topic_without_refitting():
    ids, texts, m, truth, centres = corpus()
    fit = fit_topics(ids, texts, m, level=6)
    before = fit.model.centroids.copy()
    rng = np.random.default_rng(99)
    new = centres[[2, 4]] + rng.normal(scale=0.35, size=(2, 384))
    topics, sims = assign_new(fit.model, new.astype(np.float32))
    topic_of_theme = {int(truth[ids.index(pid)]): int(t) for pid, t in zip(fit.ids, fit.assign)}
    assert topics.tolist() == [topic_of_theme[2], topic_of_theme[4]]
    assert np.all(sims > 0.5)
    assert np.array_equal(before, fit.model.centroids)  # the model did not move


def test_topic_counts_follow_the_two_levels():
    assert 10 <= topic_count(2600, "coarse") <= 20
    assert 50 <= topic_count(2600, "fine") <= 100
    assert topic_count(2600, 40) == 40
    assert topic_count(5, "fine") == 1
    with pytest.raises(ValueError):
        topic_count(100, "medium")


def test_no_topic_is_left_empty_when_asking_for_many():
    ids, texts, m, _, _ = corpus(per_theme=5)
    fit = fit_topics(ids, texts, m, level=10)
    sizes = [t["size"] for t in table(fit)]
    assert len(sizes) == 10 and min(sizes) >= 1 and sum(sizes) == len(ids)


def test_labels_merge_overlapping_phrases_and_skip_repeats():
    assert label_from_terms(["neural networks", "deep neural", "neural", "neurons"]) == \
        "deep neural networks, neurons"
    assert label_from_terms(["graph", "graph neural", "nodes", "gnns"]) == "graph neural, nodes, gnns"


def test_terms_fold_plurals_and_never_bridge_punctuation():
    terms = Terms(["Graph networks (GNNs) learn.", "A graph network, trained."], min_df=1)
    assert "graph network" in terms.vocab
    assert "network gnn" not in terms.vocab  # "networks (GNNs)" crosses a parenthesis
    assert "network" in terms.vocab and "networks" not in terms.vocab


def test_layout_is_deterministic_and_keeps_clusters_apart():
    ids, texts, m, truth, _ = corpus(per_theme=15)
    a, b = layout(m), layout(m)
    assert np.array_equal(a, b)
    assert np.isfinite(a).all()
    centre = np.array([a[truth == t].mean(axis=0) for t in range(len(THEMES))])
    spread = np.mean([np.linalg.norm(a[truth == t] - centre[t], axis=1).mean() for t in range(len(THEMES))])
    gaps = [np.linalg.norm(centre[i] - centre[j]) for i in range(len(THEMES)) for j in range(i)]
    assert min(gaps) > 2 * spread  # themes form separate islands


def test_new_points_are_placed_among_their_neighbours():
    ids, texts, m, truth, _ = corpus(per_theme=15)
    xy = layout(m)
    near = place_new(m, xy, m[[3, 40]] * 0.999)
    assert np.linalg.norm(near[0] - xy[3]) < np.linalg.norm(near[0] - xy[40])
    assert np.linalg.norm(near[1] - xy[40]) < np.linalg.norm(near[1] - xy[3])
