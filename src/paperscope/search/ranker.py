"""Learned second stage and relevance grades for hybrid search.

Every hybrid candidate (the union of each side's top `fusion.POOL`) gets a row of features:

    z_lexical, z_semantic   its BM25F and cosine standardised against each side's top scores
    coverage                idf-weighted share of the query's distinct terms it contains
    term_share              plain share of the query's distinct terms it contains
    cosine, cosine_gap      its cosine, and its cosine minus the query's best cosine
    bm25_share              its BM25F over the best BM25F among the candidates
    lexical_rr, semantic_rr 1 / rank on each side (0 outside that side's pool)
    bigrams                 share of the query's adjacent term pairs adjacent in its title or
                            abstract; needs the text, so only the `depth` best candidates by
                            the other features get it (0 elsewhere)

A linear model (pairwise logistic regression, benchmarks/train_ranker.py, trained on the
development corpora only) scores `w . (x - mean) / scale`; `--explain` lists each feature's
contribution. The model ships in `data/ranker.json`; when that file says `"use": false` (it did
not beat the hand-set stage held out across corpora and on the reported set) the hand-set
stage (rerank.py) ranks and only the relevance grade below is read from the file.

Relevance grade: a result is *weak* when its cosine is below `weak.cosine` and its coverage
below `weak.coverage` (lexical mode: coverage only; semantic mode: cosine only). Both thresholds
were calibrated on the development corpora with queries from other fields (all their results
should be weak) against known-item targets (which should not be).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np

from . import rerank
from ..store.protocol import Store

FEATURES = ("z_lexical", "z_semantic", "coverage", "term_share", "cosine", "cosine_gap",
            "bm25_share", "lexical_rr", "semantic_rr", "bigrams")
BIGRAMS = FEATURES.index("bigrams")
DEFAULT_WEAK = {"cosine": 0.4, "coverage": 0.6}


@dataclass(frozen=True)
class Model:
    weights: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    depth: int = 10
    use: bool = False
    weak: dict = field(default_factory=lambda: dict(DEFAULT_WEAK))

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Per-feature share of the score (rows: candidates)."""
        return (np.asarray(x, np.float64) - self.mean) / self.scale * self.weights

    def score(self, x: np.ndarray) -> np.ndarray:
        return self.contributions(x).sum(axis=1)

    def to_json(self) -> dict:
        return {"features": list(FEATURES), "weights": [round(float(w), 6) for w in self.weights],
                "mean": [round(float(m), 6) for m in self.mean],
                "scale": [round(float(s), 6) for s in self.scale], "depth": self.depth,
                "use": self.use, "weak": self.weak}

    @classmethod
    def from_json(cls, d: dict) -> "Model":
        if list(d.get("features", [])) != list(FEATURES):
            raise ValueError("ranker.json was trained on other features")
        return cls(np.array(d["weights"], np.float64), np.array(d["mean"], np.float64),
                   np.array(d["scale"], np.float64), int(d.get("depth", 10)), bool(d.get("use")),
                   dict(d.get("weak") or DEFAULT_WEAK))


@lru_cache(maxsize=1)
def shipped() -> Model:
    """The packaged model (hand-set weights and default thresholds when the file is absent)."""
    try:
        text = resources.files("paperscope.search").joinpath("data/ranker.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        n = len(FEATURES)
        return Model(np.zeros(n), np.zeros(n), np.ones(n))
    return Model.from_json(json.loads(text))


def coverages(index, term_ids: dict[str, int], qterms: list[str], cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(idf-weighted, plain) share of the distinct query terms each candidate contains."""
    weighted = rerank.coverage(index, term_ids, qterms, cand)
    plain = np.zeros(len(cand), dtype=np.float64)
    distinct = sorted(set(qterms))
    for term in distinct:
        tid = term_ids.get(term)
        if tid is not None and index.df(tid):
            column = index.column(tid)[0]
            at = np.minimum(np.searchsorted(column, cand), len(column) - 1)
            plain += column[at] == cand
    return weighted, (plain / len(distinct) if distinct else plain)


def features(index, q, cand: np.ndarray, z_lex: np.ndarray, z_sem: np.ndarray, bm25: np.ndarray,
             cosine: np.ndarray, lex_rank: np.ndarray, sem_rank: np.ndarray,
             term_ids: dict[str, int]) -> np.ndarray:
    """Feature rows of the candidates (bigrams left at 0: see `add_bigrams`)."""
    qterms = rerank.query_terms(q)
    cov, share = coverages(index, term_ids, qterms, cand)
    cos = np.nan_to_num(np.asarray(cosine, np.float64), nan=0.0)
    has_cos = not np.isnan(cosine).all() if len(cand) else False
    gap = cos - cos.max() if has_cos else np.zeros(len(cand))
    best_bm25 = float(np.max(bm25)) if len(cand) else 0.0
    x = np.zeros((len(cand), len(FEATURES)))
    x[:, 0] = z_lex
    x[:, 1] = z_sem
    x[:, 2] = cov
    x[:, 3] = share
    x[:, 4] = cos
    x[:, 5] = gap
    x[:, 6] = bm25 / best_bm25 if best_bm25 > 0 else 0.0
    x[:, 7] = np.where(lex_rank > 0, 1.0 / np.maximum(lex_rank, 1), 0.0)
    x[:, 8] = np.where(sem_rank > 0, 1.0 / np.maximum(sem_rank, 1), 0.0)
    return x


def add_bigrams(store: Store, index, q, cand: np.ndarray, x: np.ndarray, prescore: np.ndarray, depth: int) -> np.ndarray:
    """Fill the bigram feature for the `depth` best candidates by `prescore`; their indices."""
    qterms = rerank.query_terms(q)
    if not len(cand) or len(qterms) < 2:
        return np.zeros(0, np.int64)
    top = np.lexsort((cand, -prescore))[:depth]
    rowids = [int(index.rowids[cand[i]]) for i in top]
    texts = {r: f"{t}\n{a}" for r, (t, a) in store.texts_of_rowids(rowids).items()}
    for i, r in zip(top, rowids):
        x[i, BIGRAMS] = rerank.bigram_share(qterms, texts.get(r, ""))
    return top


def learned(store: Store, index, q, cand: np.ndarray, x: np.ndarray, model: Model) -> np.ndarray:
    """Scores by the learned model: every candidate without bigrams, then the best `depth`
    with them (the bigram weight is >= 0 in a shipped model, so the top stays consistent)."""
    base = model.score(x)
    top = add_bigrams(store, index, q, cand, x, base, model.depth)
    out = base.copy()
    if len(top):
        out[top] = model.score(x[top])
    return out


def weak(cosine: np.ndarray, coverage: np.ndarray, mode: str, model: Model | None = None) -> np.ndarray:
    """True where a result is a weak match (see the module docstring)."""
    t = (model or shipped()).weak
    cos = np.asarray(cosine, np.float64)
    low_cos = np.where(np.isnan(cos), True, cos < t["cosine"])
    low_cov = np.asarray(coverage, np.float64) < t["coverage"]
    if mode == "lexical":
        return low_cov
    if mode == "semantic":
        return low_cos
    return low_cos & low_cov


def explain(x_row: np.ndarray, model: Model) -> dict:
    contrib = model.contributions(x_row[None, :])[0]
    return {"features": {f: round(float(v), 4) for f, v in zip(FEATURES, x_row)},
            "contributions": {f: round(float(c), 4) for f, c in zip(FEATURES, contrib)},
            "model": "pairwise logistic (data/ranker.json)"}


