"""Extractive TL;DR: the one sentence of the abstract that best states the contribution.

Each sentence is scored on cues a reader uses: the authors speaking ("we propose", "this
paper introduces"), the paper's own method names, contribution words, and its place in the
abstract; background ("Recently, ...", "However, existing ...") and housekeeping ("Code is
available at ...") sentences are pushed down.
"""
from __future__ import annotations

import re

from .text import Doc

_CONTRIB = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:paper|work))\b[^.;]{0,150}?\b(?:propose|introduce|"
    r"present|develop|design|devise|build|construct|establish|create|release|formulate|"
    r"put forward|offer)s?\b", re.I)
_FINDING = re.compile(r"\b(?:we|this (?:paper|work))\s+(?:\w+\s+)?(?:show|prove|demonstrate|find|"
                      r"argue|establish|derive|study|investigate|analy[sz]e|explore|examine|"
                      r"identify|characteri[sz]e|reveal|address|tackle)s?\b", re.I)
_OPENERS = re.compile(r"^(?:in this (?:paper|work)|here,? we|this (?:paper|work)|to (?:address|"
                      r"tackle|overcome|fill|bridge|solve|mitigate|this end)|we )", re.I)
_NOVEL = re.compile(r"\b(?:novel|new|first|simple|principled|unified|general)\b", re.I)
_BACKGROUND = re.compile(r"^(?:however|recently|although|while|despite|existing|current|"
                         r"traditional|conventional|previous|prior|many|most|despite)\b|"
                         r"\b(?:has|have) (?:been|become|shown|gained|emerged|attracted)\b|"
                         r"\bremains? (?:a |an |largely |poorly )?(?:challenge|open|unclear|"
                         r"unexplored|elusive)", re.I)
_RESULTS = re.compile(r"\b(?:experiments?|empirical(?:ly)?|results?|evaluations?) "
                      r"(?:on|show|demonstrate|indicate|confirm|validate|verify|suggest)\w*\b|"
                      r"^(?:extensive|empirical|experimental|finally|furthermore|moreover)\b", re.I)
_HOUSEKEEPING = re.compile(r"https?:|www\.|\bcode (?:is|and|will be)\b|\bavailable (?:at|on)\b|"
                           r"\bgithub\b|\bopen-?source[sd]?\b", re.I)
MAX_CHARS = 360


def sentence_scores(doc: Doc, method_names: list[str]) -> list[float]:
    n = len(doc.sentences)
    scores = []
    names = [re.compile(r"(?<![\w-])" + re.escape(m) + r"(?![\w-])") for m in method_names[:3]]
    for i, s in enumerate(doc.sentences):
        words = len(s.split())
        score = 0.0
        if _CONTRIB.search(s):
            score += 3.0
        elif _FINDING.search(s):
            score += 1.5
        if _OPENERS.search(s):
            score += 0.8
        if any(rx.search(s) for rx in names):
            score += 1.5
        if _NOVEL.search(s):
            score += 0.4
        if _BACKGROUND.search(s):
            score -= 1.5
        if _RESULTS.search(s):
            score -= 0.7
        if _HOUSEKEEPING.search(s):
            score -= 4.0
        if i < doc.own_start:
            score -= 1.0
        # contributions sit in the first half more often than at the very end
        score -= 1.0 * (i / max(n - 1, 1))
        if words < 7:
            score -= 1.5
        elif words > 70:
            score -= 1.0
        scores.append(score)
    return scores


def shorten(sentence: str, limit: int = MAX_CHARS) -> str:
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


def best_sentence(doc: Doc, method_names: list[str]) -> str:
    """The contribution sentence (display text, markup removed)."""
    if not doc.sentences:
        return ""
    scores = sentence_scores(doc, method_names)
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return shorten(doc.sentences[best])
