"""`experts` for some topic words: the authors of several papers on the topic come before an
author whose one paper only shares a stem with the words ("conformer" for "conformal"), and
each suggestion keeps its evidence (the papers that carry it)."""
from __future__ import annotations

import json

import pytest

ON_TOPIC = [  # two authors, each with two papers where conformal prediction is one part of the work
    (["Bo Lee", "Mina Kang"], "Certifiably Byzantine-Robust Federated Conformal Prediction", "ICML", 2024,
     "Conformal prediction gives prediction sets with coverage guarantees, but in federated learning "
     "malicious clients can send corrupted statistics; we detect Byzantine clients and keep the coverage "
     "of federated conformal prediction under attack."),
    (["Bo Lee", "Mina Kang"], "C-RAG: Certified Generation Risks for Retrieval-Augmented Language Models", "ICML",
     2024,
     "We certify the generation risk of retrieval-augmented language models with conformal risk analysis: "
     "an upper confidence bound on the risk that holds for any retrieval model, tighter than without retrieval."),
]
ONE_PAPER = [  # authors with one paper on the topic each (and one elsewhere)
    (["Ana Reg"], "Conformal Prediction via Regression-as-Classification", "ICML", 2024,
     "Conformal prediction for regression is hard when the output distribution is multimodal; we turn "
     "regression into classification over bins and build prediction intervals from the class scores."),
    (["Ana Reg"], "Sparse Attention for Long Documents", "ICLR", 2024,
     "Transformers with sparse attention patterns summarise long documents with linear memory."),
]
NEAR_MISS = [  # one paper that only shares a stem with the topic ("conformer"), the rest elsewhere
    (["Josh Suss", "Miguel Baut", "Yu Wang"], "Swallowing the Bitter Pill: Simplified Scalable Conformer Generation",
     "ICML", 2024,
     "We present a scalable method for molecular conformer generation: a diffusion model predicts the 3D "
     "conformers of a molecule from its graph without torsional priors, and improves conformer prediction "
     "benchmarks while being simpler than previous conformer generation methods."),
    (["Josh Suss", "Yu Wang"], "Diffusion Probabilistic Fields", "ICLR", 2023,
     "Denoising diffusion models over fields defined on arbitrary metric spaces generate images, shapes and "
     "weather maps with one architecture."),
    (["Miguel Baut"], "Generative Novel View Synthesis with 3D-Aware Diffusion Models", "ICLR", 2024,
     "A diffusion model conditioned on one image renders novel views of a 3D scene with a geometry prior."),
]
OTHER = [
    (["Rosa Plain"], "Retrieval Augmented Question Answering", "ICML", 2023,
     "A retriever over a large corpus feeds passages to a reader that answers open-domain questions."),
    (["Rosa Plain"], "Calibrated Language Model Answers", "ICLR", 2024,
     "Temperature scaling of a language model's token probabilities calibrates its confidence in answers."),
    (["Sam Other"], "Policy Gradients with Learned Baselines", "ICML", 2024,
     "Variance reduction for policy gradient reinforcement learning with a baseline learned per state."),
    (["Sam Other"], "Offline Reinforcement Learning from Suboptimal Data", "NeurIPS", 2023,
     "Conservative value estimates let an agent learn from logged trajectories of a poor policy."),
]


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    from paperscope.library import Library

    folder = tmp_path_factory.mktemp("experts")
    path = folder / "papers.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for authors, title, venue, year, abstract in ON_TOPIC + ONE_PAPER + NEAR_MISS + OTHER:
            f.write(json.dumps({"title": title, "venue": venue, "year": year, "authors": authors,
                                "abstract": abstract}) + "\n")
    library = Library.open(folder / "lib.db")
    library.ingest([path], embed=True)
    yield library
    library.close()


def test_authors_of_several_on_topic_papers_come_before_a_stem_near_miss(lib):
    found = lib.experts("conformal prediction", limit=10)
    rank = {name: a.rank for a in found for name in [a.name, *a.also]}
    assert {"Bo Lee", "Mina Kang"} <= set(rank), [a.name for a in found]
    for near in ("Josh Suss", "Miguel Baut", "Yu Wang"):
        assert rank.get(near, len(found) + 1) > rank["Bo Lee"], [(a.name, a.score) for a in found]


def test_each_expert_shows_the_papers_that_carry_the_topic(lib):
    found = lib.experts("conformal prediction", limit=10)
    papers = {}
    for authors, title, *_ in ON_TOPIC + ONE_PAPER + NEAR_MISS + OTHER:
        for name in authors:
            papers.setdefault(name, set()).add(title)
    for a in found:
        assert a.evidence, a.name
        assert {e["title"] for e in a.evidence} <= papers[a.name]
        assert all(0 < e["similarity"] <= 1 for e in a.evidence)
    bo = next(a for a in found if "Bo Lee" in [a.name, *a.also])
    assert bo.evidence[0]["title"] == ON_TOPIC[0][1]


def test_words_of_one_stem_agree_only_as_inflections_or_extensions():
    from paperscope.expertise.topic import agrees, near_miss_factor, written_forms

    assert agrees("prediction", "predictions") and agrees("graph", "graphs") and agrees("conformal", "conformalized")
    assert not agrees("conformal", "conformer") and not agrees("conformal", "conformation")
    query = written_forms("conformal prediction")
    idf = {t: 1.0 for t in query}
    assert near_miss_factor(query, "Conformal prediction sets with coverage.", idf) == 1.0
    assert near_miss_factor(query, "Bayesian optimisation of hyperparameters.", idf) == 1.0  # nothing shared
    assert near_miss_factor(query, "Conformer generation predicts molecular conformers.", idf) < 1.0
