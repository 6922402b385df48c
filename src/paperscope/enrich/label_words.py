"""The word model behind title-less labels: the content words of a text (stop and filler words
left out, plurals folded: paperscope.words), how topical each is in an abstract, and the odds
that a title names a word (a small logistic model over WORD_FEATURES, fitted on development
data by benchmarks/label_scorer_fit.py)."""
from __future__ import annotations

import math

from ..words import FILLER_WORDS, STOP_WORDS, prose_words, singular
from .acronyms import expand


def content_words(text: str) -> set[str]:
    return {singular(w.lower()) for w in prose_words(text) if len(w) > 2 and w.lower() not in STOP_WORDS
            and w.lower() not in FILLER_WORDS}


def weights_of(sentences: list[str]) -> dict[str, float]:
    """How topical each content word is: the share of sentences that use it, the abstract's
    most spread word scoring 1."""
    df: dict[str, int] = {}
    for s in sentences:
        for w in content_words(s):
            df[w] = df.get(w, 0) + 1
    top = max(df.values(), default=1)
    return {w: n / top for w, n in df.items() if n >= 2}


WORD_FEATURES = ("spread", "sentences", "count", "first_at", "opening", "own", "tldr",
                 "key_first", "key_next", "named", "hyphen", "length")


def word_features(spelled: list[str], own_start: int, tldr: str, keyphrases: list[str],
                   named: str, forms: dict[str, str]) -> dict[str, list[float]]:
    """Per content word of the abstract, what hints that a title would name it: how widely
    the sentences use it, where it first appears, whether the TL;DR sentence, the first
    keyphrases or the description of the introduced name hold it, its shape."""
    where: dict[str, list[int]] = {}
    count: dict[str, int] = {}
    hyphen: set[str] = set()
    for i, s in enumerate(spelled):
        for w in prose_words(s):
            if len(w) <= 2 or w.lower() in STOP_WORDS or w.lower() in FILLER_WORDS:
                continue
            k = singular(w.lower())
            count[k] = count.get(k, 0) + 1
            seen = where.setdefault(k, [])
            if not seen or seen[-1] != i:
                seen.append(i)
            if "-" in w:
                hyphen.add(k)
    n = max(1, len(spelled) - 1)
    top = max((len(v) for v in where.values()), default=1)
    tl = content_words(expand(tldr, forms)) if tldr else set()
    k0 = content_words(expand(keyphrases[0], forms)) if keyphrases else set()
    k12 = content_words(expand(" ".join(keyphrases[1:3]), forms)) if keyphrases else set()
    nm = content_words(expand(named, forms)) if named else set()
    return {w: [len(v) / top, min(len(v), 5) / 5, min(count[w], 8) / 8, v[0] / n,
                float(v[0] == 0), float(v[-1] >= own_start), float(w in tl), float(w in k0),
                float(w in k12), float(w in nm), float(w in hyphen), min(len(w), 15) / 10]
            for w, v in where.items()}


# logistic model of "a title names this word" over WORD_FEATURES, fitted on development data
# by benchmarks/label_scorer_fit.py (rerun it after changing the features)
WORD_W = {'intercept': -4.72, 'spread': 0.98, 'sentences': 0.39, 'count': 1.91, 'first_at': -0.83,
          'opening': 0.43, 'own': 0.73, 'tldr': 0.65, 'key_first': 1.13, 'key_next': 0.84,
          'named': 0.95, 'hyphen': 0.19, 'length': 0.54}


def title_odds(words: set[str], features: dict[str, list[float]]) -> float:
    """Log-odds that a label with these content words shares one with the paper's title."""
    miss = 1.0
    for w in words:
        x = features.get(w)
        z = WORD_W.get("intercept", 0.0) + (sum(WORD_W.get(k, 0.0) * v for k, v in
                                                 zip(WORD_FEATURES, x)) if x else -1.0)
        miss *= 1.0 - 1.0 / (1.0 + math.exp(-z))
    hit = min(max(1.0 - miss, 1e-4), 1.0 - 1e-4)
    return math.log(hit / (1.0 - hit))
