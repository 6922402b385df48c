"""The sentences of an abstract that answer a question.

An abstract is split into sentences (abbreviations, decimals, "et al." and LaTeX kept whole);
each sentence is scored by the idf-weighted share of the question's terms it holds (terms as
the index tokenises them, so "diffusion" meets "diffusions" and "LoRA-GA" meets "LoRA GA"),
with a small bonus for the sentences that say what a paper does ("we propose", "we show").
The best one or two are kept, in the abstract's order. A paper none of whose sentences holds a
question term (it was found by meaning alone) gets the sentence nearest to the question by
embedding, chosen by the caller (`nearest`).
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

MAX_SENTENCES = 2  # per paper
MAX_CHARS = 600  # a "sentence" longer than this (a list without full stops) is cut
SECOND_SHARE = 0.5  # a second sentence needs half the best one's score
CLAIM_BONUS = 0.15
_ABBREV = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "fig.", "eq.", "sec.", "approx.", "resp.", "w.r.t.",
           "no.", "dr.", "prof.", "st.", "al.", "fig.", "tab.", "ref.")
_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(\[\\$])")
_CLAIM = re.compile(r"\b(?:we|this (?:paper|work)|our (?:method|approach|work|results?))\s+"
                    r"(?:propose|introduce|present|show|develop|find|demonstrate|prove|design|study)", re.I)


def split(abstract: str) -> list[str]:
    """Sentences of an abstract, in order, whitespace folded."""
    text = " ".join(str(abstract or "").split())
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _SPLIT.finditer(text):
        head = text[start:m.start() + 1]
        last = head.rsplit(" ", 1)[-1].casefold()
        if last in _ABBREV or re.fullmatch(r"(?:[a-z]\.){1,3}|[A-Z]\.", head.rsplit(" ", 1)[-1]):
            continue  # "e.g. Adam", "J. Smith": not a sentence end
        out.append(text[start:m.end()].strip())
        start = m.end()
    out.append(text[start:].strip())
    return [_cut(s) for s in out if s]


def _cut(sentence: str) -> str:
    if len(sentence) <= MAX_CHARS:
        return sentence
    return sentence[:MAX_CHARS].rsplit(" ", 1)[0] + " …"


def weights(question_terms: Sequence[str], idf: Callable[[str], float]) -> dict[str, float]:
    """Question term -> its weight (idf in the library; unknown terms weigh like rare ones)."""
    return {t: idf(t) for t in dict.fromkeys(question_terms)}


def score(sentence: str, weight: dict[str, float]) -> float:
    """Share of the question's term weight the sentence holds, plus the claim bonus when it
    holds any."""
    from ..search import tokens

    total = sum(weight.values())
    if not total:
        return 0.0
    held = set(tokens.terms(sentence)) & weight.keys()
    share = sum(weight[t] for t in held) / total
    return share + (CLAIM_BONUS if share and _CLAIM.search(sentence) else 0.0)


def best(sentences: list[str], weight: dict[str, float], limit: int = MAX_SENTENCES) -> list[int]:
    """Indexes (in abstract order) of the sentences to quote; [] when none holds a question term."""
    scored = sorted(((score(s, weight), i) for i, s in enumerate(sentences)), key=lambda x: (-x[0], x[1]))
    if not scored or scored[0][0] <= 0:
        return []
    top = scored[0][0]
    keep = [i for s, i in scored[:limit] if s > 0 and s >= SECOND_SHARE * top]
    return sorted(keep)
