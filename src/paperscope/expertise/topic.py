"""Topic words against the library's papers, for `experts`: each paper's weight comes from the
search ranking for the words, and a paper that holds a word of the topic only as a different
word of the same stem ("conformer" or "conformation" for "conformal", "generative" for
"generalization") counts less, since the search index, which stems, cannot tell them apart.

A written word of a paper agrees with one of the query when one is a prefix of the other once a
final plural "s" is dropped ("prediction" and "predictions", "graph" and "graphs", "conformal"
and "conformalized"); "conformer" and "conformal" do not. A query term the paper holds only in
words that disagree is a near miss; the paper's weight is multiplied by (1 - the idf share of
the query's terms that are near misses) ** NEAR_MISS_POWER. Terms the paper does not hold at
all are left to the search (its semantic side may have found a paper that says it otherwise).
"""
from __future__ import annotations

import numpy as np

from ..filters import Filter
from ..search import tokens, vectors
from ..store.protocol import Store
from .scoring import RECIPE

SEARCH_POOL = 300  # papers of the topic search that count
NEAR_MISS_POWER = 2.0
# `experts`: a paper's weight for topic words is its search score over the best one, to the
# power SHARPNESS, discounted when it holds a topic word only as another word of the same stem
# (below); an author's fit is the mean of their 3 best weights, missing ones as 0
# (EXPERTS_RECIPE). Chosen on the tuning half of benchmarks/expertise_topical.py (ICLR 2020
# keywords as topic words, reviewers graded by how many of their papers carry it): power 1 over
# the earlier 4, loss among related authors 0.269 -> 0.234 (CI of the difference [-0.071,
# -0.019]), nDCG@10 0.584 -> 0.595 (within noise); the near-miss discount within noise there
# (few keywords share a stem with another word) and it keeps "conformer" papers from carrying
# authors for "conformal prediction".
SHARPNESS = 1
EXPERTS_RECIPE = RECIPE


def written_forms(text: str) -> dict[str, set[str]]:
    """term -> the folded words of `text` it came from."""
    surface: dict[str, str] = {}
    tokens.terms(text, surface)
    out: dict[str, set[str]] = {}
    for word, term in surface.items():
        out.setdefault(term, set()).add(word)
    return out


def _base(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def agrees(a: str, b: str) -> bool:
    """Two written words of one stem agree when one is a prefix of the other (plural s dropped)."""
    a, b = _base(a), _base(b)
    return a.startswith(b) or b.startswith(a)


def near_miss_factor(query: dict[str, set[str]], paper_text: str, idf: dict[str, float]) -> float:
    """(1 - idf share of the query's terms that `paper_text` holds only as disagreeing words)
    ** NEAR_MISS_POWER; 1 when there is no such term."""
    total = sum(idf.get(t, 0.0) for t in query)
    if total <= 0:
        return 1.0
    paper = written_forms(paper_text)
    missed = sum(idf.get(t, 0.0) for t, words in query.items()
                 if t in paper and not any(agrees(q, p) for q in words for p in paper[t]))
    return float(max(0.0, 1.0 - missed / total) ** NEAR_MISS_POWER)


def topic_weights(engine, store: Store, tv: vectors.TermVectors, text: str, scope: Filter, sharpness: float,
                  near_miss: bool = True) -> np.ndarray:
    """Each lexical position's weight for topic words: its search score over the best one, to
    the power `sharpness`, within the first SEARCH_POOL results that are not weak matches (0
    elsewhere); with `near_miss`, times near_miss_factor."""
    from ..search.query import parse

    index = engine.lexical()
    ranked = engine.rank(parse(text), scope=scope, limit=SEARCH_POOL)
    out = np.zeros(index.size, np.float32)
    keep = ~ranked.weak if ranked.weak is not None else np.ones(len(ranked.positions), bool)
    scores = np.asarray(ranked.scores, np.float64)[keep]
    positions = np.asarray(ranked.positions)[keep]
    if not len(scores):
        return out
    top = scores.max()
    weights = (np.clip(scores, 0, None) / top if top > 0 else 1.0 - np.arange(len(scores)) / len(scores)) ** sharpness
    if near_miss:
        query = written_forms(text)
        ids = vectors.term_ids(store, index, sorted(query))
        known = [t for t in query if t in ids]
        idf = dict(zip(known, tv.idf_of(np.array([ids[t] for t in known], np.int64)).tolist())) if known else {}
        texts = store.texts_of_rowids([int(index.rowids[p]) for p in positions])
        weights = weights * np.array([near_miss_factor(query, " ".join(texts.get(int(index.rowids[p]), ("", ""))), idf)
                                      for p in positions])
    out[positions] = weights
    return out
