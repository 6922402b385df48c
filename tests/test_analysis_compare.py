"""Venue comparison statistics: weighted log-odds with an informative Dirichlet prior."""
from __future__ import annotations

import numpy as np

from paperscope.analysis.compare import distinctive_terms, log_odds, paper_type


def test_log_odds_sign_symmetry_and_shrinkage():
    a = np.array([50, 10, 10, 0])
    b = np.array([10, 10, 50, 3])
    prior = a + b
    delta, z = log_odds(a, b, prior)
    assert z[0] > 0 and z[2] < 0  # word 0 belongs to a, word 2 to b
    assert abs(z[1]) < abs(z[0])  # equally used word is not distinctive
    d2, z2 = log_odds(b, a, prior)
    assert np.allclose(z2, -z) and np.allclose(d2, -delta)
    # same ratio, ten times the evidence -> larger z: counts matter, not just ratios
    _, z_big = log_odds(a * 10, b * 10, prior * 10)
    assert z_big[0] > z[0]


def test_rare_words_need_evidence_to_rank():
    # "zebra" is a few times more frequent in a (4 vs 1), "graph" 40 vs 5: graph must outrank it
    texts_a = ["graph neural network on nodes"] * 40 + ["zebra zebra stripes"] * 2
    texts_b = ["diffusion model for images"] * 40 + ["graph neural network"] * 5 + ["zebra"]
    out = distinctive_terms(texts_a, texts_b, n=30)
    ranked_a = [t["term"] for t in out["a"]]
    assert "zebra" not in ranked_a  # two papers of a repeat it: no evidence about the venue
    assert "graph" in ranked_a
    assert ranked_a[0] in ("node", "nodes", "graph", "graph neural", "neural network", "network")
    assert out["b"][0]["term"] in ("diffusion", "diffusion model", "model", "images", "model image")
    assert all(t["z"] > 0 for t in out["a"]) and all(t["z"] < 0 for t in out["b"])


def test_paper_type_accepts_strings_dicts_and_absence():
    assert paper_type({"paper_type": "theory"}) == "theory"
    assert paper_type({"paper_type": {"type": "benchmark", "confidence": 0.8}}) == "benchmark"
    assert paper_type({"paper_type": {"label": "survey"}}) == "survey"
    assert paper_type({}) == "unknown"


def test_generic_words_that_lean_one_way_by_chance_are_not_distinctive():
    """Two samples of one population: a word a few papers of one side use more often is not
    listed unless its z-score is significant and several papers of that side use it."""
    base = ["we study optimisation of neural networks with different data",
            "a model of learning from data with quality guarantees"]
    texts_a = base * 20 + ["quality quality point point different"] * 2
    texts_b = base * 20
    out = distinctive_terms(texts_a, texts_b)
    assert [t["term"] for t in out["a"]] == [] and out["b"] == []
    real = distinctive_terms(base * 20 + ["diffusion models for images"] * 30, base * 20 + ["graph networks"] * 30)
    assert real["a"][0]["term"].startswith("diffusion") or real["a"][0]["term"] in ("images", "model image")
    assert all(t["z"] >= 1.96 and t["papers_a"] >= 3 for t in real["a"])
