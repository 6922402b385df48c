"""Keyphrases name what a paper is about, without filler: no praise or hype ("remarkable
success", "invaluable tool"), no story of the field ("recent years", "significant attention"),
no verb phrase ("mastering Atari games"), while topical phrases that look like filler stay
("critical points", "information gain", "feature importance", "normalizing flows")."""
from __future__ import annotations

import re

from paperscope.enrich import derive_facts
from paperscope.enrich.keyphrases import keyphrases
from paperscope.enrich.text import Doc

HYPE = ("Graph neural networks have gained considerable popularity in recent years and have become "
        "an invaluable tool for molecular property prediction. Despite their empirical success and "
        "the significant attention they receive, message passing suffers from oversquashing on long "
        "molecular chains, a popular concern with vast implications. We propose CurvRewire, a "
        "rewiring scheme for message passing that adds edges where the discrete Ricci curvature of "
        "the molecular graph is most negative. Extensive experiments on molecular property "
        "prediction show promising results, better classification performance and "
        "state-of-the-art performance across a wide range of molecular graph benchmarks; the "
        "empirical success of the rewiring scheme holds great potential for drug discovery.")

VERBS = ("Deep reinforcement learning agents showcase remarkable generalization when mastering Atari "
         "games, yet policy optimization facilitates overfitting to the training levels. We study "
         "policy optimization with data augmentation, deriving tight generalization bounds for "
         "augmented policy optimization. The augmentation scheme enjoys linear-time inference, "
         "and the resulting agents generalizes to unseen Atari games and Procgen levels.")

TOPICAL = ("We study critical points of the loss landscape of deep linear networks and the "
           "information gain of each gradient step. Critical points of the loss landscape are "
           "counted with normalizing flows and sparse Gaussian processes with inducing points. "
           "Feature importance and positional encoding explain sequential decision making; "
           "information gain and feature importance agree, and normalizing flows fit the inducing "
           "points of the loss landscape. Decision making under positional encoding is studied.")

EVALUATIVE = re.compile(r"\b(?:popularity|invaluable|remarkable|significant|promising|extensive|"
                        r"state-of-the-art|wide|great|potential|recent|years|success|considerable|"
                        r"attention|performance|results|popular|vast|concern|adds)\b", re.I)


def test_hype_and_background_are_no_keyphrases():
    phrases = keyphrases(Doc.of(HYPE), exclude=["CurvRewire"], k=10)
    assert phrases, phrases
    for p in phrases:
        assert not EVALUATIVE.search(p), (p, phrases)
    # the topics of the paper are still there
    lower = [p.lower() for p in phrases]
    assert any("property prediction" in p for p in lower), phrases
    assert any("message passing" in p for p in lower), phrases
    assert any("ricci curvature" in p for p in lower), phrases


def test_the_issue_phrases_never_come_back_even_when_repeated():
    text = ("Transformers gained considerable popularity. Transformers gained considerable "
            "popularity as an invaluable tool, an invaluable tool for protein folding. We fit "
            "protein folding with equivariant transformers, an invaluable tool with remarkable "
            "success, remarkable success in protein folding, for the recent years.")
    phrases = [p.lower() for p in keyphrases(Doc.of(text), k=12)]
    for bad in ("gained considerable popularity", "considerable popularity", "popularity",
                "invaluable tool", "tool", "remarkable success", "success", "recent years", "years"):
        assert bad not in phrases, (bad, phrases)
    assert "protein folding" in phrases, phrases


def test_verb_phrases_are_no_keyphrases():
    phrases = keyphrases(Doc.of(VERBS), k=10)
    verbs = {"showcase", "mastering", "facilitates", "study", "deriving", "enjoys", "generalizes",
             "resulting"}
    for p in phrases:
        assert not verbs & set(p.lower().split()), (p, phrases)
    lower = [p.lower() for p in phrases]
    assert "policy optimization" in lower or "augmented policy optimization" in lower, phrases
    assert any("atari games" in p for p in lower), phrases
    assert any("generalization" in p for p in lower), phrases


def test_topical_phrases_that_look_like_filler_stay():
    phrases = [p.lower() for p in keyphrases(Doc.of(TOPICAL), k=12)]
    for kept in ("critical points", "information gain", "feature importance", "normalizing flows",
                 "positional encoding"):
        assert any(kept in p for p in phrases), (kept, phrases)
    assert any("loss landscape" in p for p in phrases), phrases


def test_the_number_of_keyphrases_stays_reasonable():
    for text in (HYPE, VERBS, TOPICAL):
        facts = derive_facts(None, text)
        assert 3 <= len(facts["keyphrases"]) <= 8, facts["keyphrases"]
        assert facts["label"], facts


def test_a_keyphrase_never_stops_on_the_adjective_of_a_longer_term():
    text = ("Score-based diffusion models sample by solving reverse stochastic differential equations. We study "
            "stochastic differential equations whose drift is learned, and we learn permutation invariant set functions "
            "with polynomial layers. Stochastic differential equations and permutation invariant functions recur.")
    for p in keyphrases(Doc.of(text), k=10):
        assert p.lower().split()[-1] not in ("differential", "invariant", "polynomial"), p
