"""Derived facts about a paper: label, method names, TL;DR, links, type, keyphrases and the
benchmarks/datasets it names. Pure functions of (title, abstract): no I/O, no model, no
randomness, so the facts are reproducible and can be cached by the text's hash.

Modules:

    text.py         sentences, markup, name-shaped tokens (`Doc`)
    acronyms.py     abbreviations the abstract defines, written out
    cues.py         cue phrases that introduce a name ("we propose X", "called X")
    methods.py      the method names a paper introduces or builds on
    name_shape.py   the shape of a name at the start of a text (quoted, coined, capitalised words)
    describe.py     what the text says a named thing is
    named.py        what the sentence that introduces a name says it is, for the headline
    voice.py        where the authors say what the paper offers, and the objects of those sentences
    phrases.py      shallow phrase structure: objects of "we propose ...", clause cuts
    rules.py        what a reader accepts as a label or a TL;DR, as checks
    headline.py     the title-less label from the contribution sentence: "Name: what it is" or
                    the object of "we propose / study ...", cut only at phrase boundaries
    noun_phrase.py  where a noun phrase ends, cut to fit at a phrase boundary, leaning back
    label.py        the title-less label: the headline first, else candidates, their score,
                    the best one
    compose.py      a descriptive label in place of a bare topic
    label_words.py  the label's word model: content words and the odds a title names them
    problem.py      the problem a paper works on, and a label extended with it
    question.py     the question a paper asks ("How X affects Y", "Can X do Y?"), its label when it
                    names no method of its own
    position.py     does an abstract argue rather than report (position papers); their label
    specific.py     a short label said in full from the TL;DR's own object
    tldr.py         the sentence that says what the paper does
    tldr_score.py   the sentence scores behind the TL;DR
    spelled.py      the TL;DR as shown: abbreviations written out, the opening problem in front
    standalone.py   a sentence rewritten to stand alone (no opening clause that leans back)
    links.py        code and project links
    paper_type.py   method, benchmark, survey, theory, empirical or position paper
    keyphrases.py   keyphrases of one abstract
    artifacts.py    the benchmarks and datasets a paper names
    vocab.py        enrich's own word lists (common names, verbs); stop and filler words are
                    the shared ones of paperscope/words.py
    evaluation.py   scoring against the hand-labelled set
    refresh.py      keeps the stored facts current (recomputed when the text or
                    FACTS_VERSION changes)
"""
from __future__ import annotations

from typing import Any

from .artifacts import find_artifacts
from .keyphrases import keyphrases
from .label import make_label
from .links import find_links
from .methods import find_mentions
from .paper_type import classify
from .text import Doc
from .spelled import framed, spelled_out
from .tldr import pick, with_topic

# Bump when the derivation changes, so stored facts can be recomputed (see enrich/refresh.py).
FACTS_VERSION = "133"

FACT_KEYS = ("label", "methods", "tldr", "code_urls", "links", "paper_type",
             "paper_type_confidence", "keyphrases", "artifacts")


def derive_facts(title: str | None, abstract: str) -> dict[str, Any]:
    """Facts for one paper. `abstract` is the plain-text rendering; `title` may be None
    (title-less lists). Every value is JSON-serialisable."""
    title = (title or "").strip() or None
    doc = Doc.of(abstract or "")
    mentions = find_mentions(doc, title)
    methods = [m.name for m in mentions]
    picked = pick(doc, methods)
    tldr = picked.text
    code_urls, links = find_links(doc.raw)
    paper_type, confidence = classify(doc.text, title)
    phrases = keyphrases(doc, exclude=methods)
    return {
        "label": make_label(title, doc, mentions, tldr, paper_type=paper_type, keyphrases=phrases),
        "methods": methods,
        "tldr": spelled_out(framed(with_topic(doc, picked), doc), doc),
        "code_urls": code_urls,
        "links": links,
        "paper_type": paper_type,
        "paper_type_confidence": confidence,
        "keyphrases": phrases,
        "artifacts": find_artifacts(doc),
    }
