"""Second stage of hybrid search: three signals the z-score fusion does not see.

- coverage: the idf-weighted share of the query's distinct terms that the paper contains. BM25
  rewards a paper for repeating one rare word; a known paper usually holds most of the words
  its searcher remembers.
- cosine gap: the paper's cosine minus the best cosine of the query (<= 0). The z-score says how
  far a paper stands out from the semantic pool; the gap says how close it is to the top in
  absolute terms, which matters when the pool is flat.
- bigrams: the share of the query's adjacent term pairs that occur adjacently in the paper's
  title or abstract ("flow matching", "gradient descent"). It needs the paper's text, so it is
  computed only for the `DEPTH` best candidates after the first two signals.

Every candidate gets `fused + W_COVERAGE * coverage + W_GAP * gap`; the best `DEPTH` of those
then add `W_BIGRAMS * bigrams` (>= 0, so the order stays consistent with the scores). Weights by
coordinate ascent on ICLR 2020 + NIPS 2013-18 known-item search (benchmarks/search_tune.py);
ICML 2024, which search_quality.py reports, is never used for tuning. Held out across the two
tuning sets (fit on one, score the other) the gain holds: +0.2 pt MRR@10 on ICLR 2020, +0.8 pt
on NIPS.

A learned replacement over more features (ranker.py, benchmarks/train_ranker.py) tied with these
weights held out across the development corpora, so this stage still ranks; the learned model's
file also holds the weak-match thresholds.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import tokens
from ..store.protocol import Store

DEPTH = 5  # 5, 10 and 20 score the same on the tuning sets (within 0.0003); 5 costs least
W_COVERAGE = 4.0
W_GAP = 4.0
W_BIGRAMS = 2.0


@dataclass
class Features:
    coverage: np.ndarray
    gap: np.ndarray
    bigrams: np.ndarray  # NaN outside the re-ranked top


def query_terms(q) -> list[str]:
    """The query's terms in order (words, then phrase words), as the index tokenises them."""
    return [t for w in q.words + q.phrases for t in tokens.terms(w)]


def idf(n: int, df: int) -> float:
    return float(np.log1p((n - df + 0.5) / (df + 0.5)))


def coverage(index, term_ids: dict[str, int], qterms: list[str], cand: np.ndarray) -> np.ndarray:
    """Idf-weighted share of the distinct query terms each candidate contains (terms the
    library has never seen count in the total with df = 0)."""
    out = np.zeros(len(cand), dtype=np.float64)
    total = 0.0
    for term in sorted(set(qterms)):
        tid = term_ids.get(term)
        df = index.df(tid) if tid is not None else 0
        weight = idf(index.size, df)
        total += weight
        if df:
            column = index.column(tid)[0]
            at = np.searchsorted(column, cand)
            at = np.minimum(at, len(column) - 1)
            out += weight * (column[at] == cand)
    return out / total if total > 0 else out


def bigram_share(qterms: list[str], text: str) -> float:
    pairs = set(zip(qterms, qterms[1:]))
    if not pairs:
        return 0.0
    doc = tokens.terms(text)
    return len(pairs & set(zip(doc, doc[1:]))) / len(pairs)


def apply(store: Store, index, q, cand: np.ndarray, fused: np.ndarray, cosine: np.ndarray,
          term_ids: dict[str, int]) -> tuple[np.ndarray, Features]:
    """Final scores of the candidates (positions in the lexical index) and the features."""
    qterms = query_terms(q)
    cov = coverage(index, term_ids, qterms, cand)
    best = np.nanmax(cosine) if len(cosine) and not np.isnan(cosine).all() else np.nan
    gap = np.nan_to_num(cosine - best, nan=-1.0) if not np.isnan(best) else np.zeros(len(cand))
    scores = np.asarray(fused, dtype=np.float64) + W_COVERAGE * cov + W_GAP * gap
    bigrams = np.full(len(cand), np.nan)
    if len(cand) and len(qterms) > 1:
        top = np.lexsort((cand, -scores))[:DEPTH]
        texts = {r: f"{t}\n{a}" for r, (t, a) in store.texts_of_rowids([int(index.rowids[cand[i]]) for i in top]).items()}
        for i in top:
            bigrams[i] = bigram_share(qterms, texts.get(int(index.rowids[cand[i]]), ""))
        scores[top] += W_BIGRAMS * bigrams[top]
    return scores, Features(cov, gap, bigrams)
