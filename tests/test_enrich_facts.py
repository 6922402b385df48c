"""The other facts (label, TL;DR, links, paper type, keyphrases, artifacts) and the
`derive_facts` contract that enrich/refresh.py relies on."""
from __future__ import annotations

import json

import pytest

from paperscope.enrich import FACT_KEYS, derive_facts
from paperscope.enrich.artifacts import find_artifacts
from paperscope.enrich.keyphrases import keyphrases
from paperscope.enrich.links import clean_url, find_links
from paperscope.enrich.paper_type import TYPES, classify
from paperscope.enrich.rules import MAX_LABEL_CHARS, label_breaks
from paperscope.enrich.text import Doc

MAESTRO = (
    "Deep Neural Networks (DNNs) have been a large driver for AI breakthroughs. However, these "
    "models have been getting increasingly large. Factorization methods have been leveraged "
    "for low-rank compression of DNNs. We take a further step in designing efficient low-rank "
    "models and propose Maestro, a framework for trainable low-rank layers. The low-rank "
    "structure is baked into the training process through LoD, a low-rank ordered "
    "decomposition. Applied to DNNs, Maestro enables the extraction of lower footprint models "
    "that preserve performance. Our code is available at https://github.com/x/maestro.")


# --------------------------------------------------------------------------- contract

def test_derive_facts_returns_every_key_as_json():
    facts = derive_facts(None, MAESTRO)
    assert set(FACT_KEYS) <= set(facts)
    assert json.loads(json.dumps(facts)) == facts
    assert facts["paper_type"] in TYPES
    assert 0.0 <= facts["paper_type_confidence"] <= 1.0
    assert 3 <= len(facts["keyphrases"]) <= 8


def test_derive_facts_is_deterministic_and_handles_empty_input():
    assert derive_facts(None, MAESTRO) == derive_facts(None, MAESTRO)
    empty = derive_facts(None, "")
    assert empty["methods"] == [] and empty["label"] == "" and empty["keyphrases"] == []


# --------------------------------------------------------------------------- label and TL;DR

def test_real_title_is_the_label():
    title = "Maestro: Uncovering Low-Rank Structures via Trainable Decomposition"
    assert derive_facts(title, MAESTRO)["label"] == title


def test_title_less_label_is_name_and_what_it_is():
    assert derive_facts(None, MAESTRO)["label"] == "Maestro: framework for trainable low-rank layers"
    assert derive_facts("  ", MAESTRO)["label"] == "Maestro: framework for trainable low-rank layers"


def test_title_less_label_without_a_name_compresses_the_contribution():
    text = ("This problem has been studied. We investigate the low rank matrix completion "
            "problem in an online setting with M users, N items and T rounds, and give "
            "algorithms with near-optimal regret.")
    label = derive_facts(None, text)["label"]
    assert label == "Low rank matrix completion problem in an online setting with M users, N items and T rounds"


def test_labels_stay_short():
    text = ("In this paper we propose " + "a very long and winding description " * 10 + ".")
    label = derive_facts(None, text)["label"]
    assert len(label) <= MAX_LABEL_CHARS and not label_breaks(label)


def test_tldr_is_the_contribution_sentence():
    assert derive_facts(None, MAESTRO)["tldr"].endswith(
        "We take a further step in designing efficient low-rank models and propose Maestro, a "
        "framework for trainable low-rank layers.")


def test_tldr_never_picks_the_code_sentence():
    text = "We introduce a benchmark. Our code is available at https://github.com/a/b."
    assert derive_facts(None, text)["tldr"] == "We introduce a benchmark."


# --------------------------------------------------------------------------- links

@pytest.mark.parametrize("raw,clean", [
    ("https://github.com/Chilie/DiffFPR.", "https://github.com/Chilie/DiffFPR"),
    ("https://github.com/OpenGVLab/OmniQuant}.", "https://github.com/OpenGVLab/OmniQuant"),
    ("https://noa-cohen.github.io/MeaningfulDiversityInIR/).", "https://noa-cohen.github.io/MeaningfulDiversityInIR/"),
    ("https://github.com/x/CA-TRIDE.*", "https://github.com/x/CA-TRIDE"),
    ("https://en.wikipedia.org/wiki/Foo_(bar)", "https://en.wikipedia.org/wiki/Foo_(bar)"),
    ("https: //tactile-vlm.github.io.", "https://tactile-vlm.github.io"),
    ("github.com/buyeah1109/KEN.", "https://github.com/buyeah1109/KEN"),
])
def test_clean_url(raw, clean):
    assert clean_url(raw) == clean


def test_links_split_code_from_other_urls_and_deduplicate():
    text = ("Code: [https://github.com/a/b](https://github.com/a/b). Project page at "
            "<https://x.github.io/demo/>. Details in [arXiv](https://arxiv.org/abs/2404.1). "
            "Our code and data are available at https://example.org/tool. "
            "Audio samples at https://bit.ly/llark, enjoy.")
    code, other = find_links(text)
    assert code == ["https://github.com/a/b", "https://x.github.io/demo/",
                    "https://example.org/tool"]
    assert other == ["https://arxiv.org/abs/2404.1", "https://bit.ly/llark"]


# --------------------------------------------------------------------------- paper type

def test_paper_types_from_their_cue_phrases():
    assert classify("In this position paper, we argue that the community should adopt "
                    "licences. We call for standardization.")[0] == "position"
    assert classify("We prove a minimax lower bound on the regret and give an algorithm "
                    "whose regret upper bound matches it up to logarithmic factors.")[0] == "theory"
    assert classify("We introduce GAIA, a benchmark for general AI assistants, and evaluate "
                    "several state-of-the-art models on its 466 questions.")[0] == "benchmark"
    assert classify("We conduct a large-scale empirical study of fine-tuning. We find that "
                    "many metrics fail, and our findings suggest caution.")[0] == "empirical"
    assert classify("This survey reviews the literature and proposes a taxonomy of existing "
                    "methods.")[0] == "survey"
    assert classify("We propose a novel method that outperforms state-of-the-art baselines "
                    "in extensive experiments on three datasets.")[0] == "method"


def test_position_title_decides_the_type():
    kind, confidence = classify("We discuss video generation.", "Position: Video as Language")
    assert kind == "position" and confidence > 0.5


# --------------------------------------------------------------------------- keyphrases

def test_keyphrases_are_topical_phrases_not_filler():
    phrases = keyphrases(Doc.of(MAESTRO), exclude=["Maestro", "LoD"])
    assert 3 <= len(phrases) <= 8
    assert any("low-rank" in p for p in phrases)
    for p in phrases:
        assert p.lower() not in {"method", "framework", "propose", "results", "code", "maestro"}


# --------------------------------------------------------------------------- artifacts

def test_artifacts_from_gazetteer_and_patterns():
    text = ("We showcase generalization over ViTs on MiniGrid and Procgen RL benchmarks, and "
            "sample efficiency on Atari 100k and CIFAR10. We also evaluate on the FooBar-3D "
            "benchmark and release a dataset named PPBench2024.")
    found = find_artifacts(Doc.of(text))
    assert found[:4] == ["MiniGrid", "Procgen", "Atari 100k", "CIFAR-10"]
    assert "FooBar-3D" in found and "PPBench2024" in found
    assert "ViTs" not in found and "RL" not in found


def test_no_artifacts_in_a_theory_abstract():
    assert find_artifacts(Doc.of("We prove a regret bound for linear bandits.")) == []
