"""Recommendations from a user's tags: rank the papers not yet tagged by a model trained on the
tag's papers (positives), the papers marked "not relevant" (explicit negatives, weighted up)
and everything else (implicit negatives).

Model (chosen by `benchmarks/recommend_quality.py`, which also runs the arxiv-sanity-lite
recipe as the baseline): two class-balanced linear SVMs, one over TF-IDF 1-2-grams and one over
the MiniLM embeddings, their decision values z-normalised and fused (1 : 0.5). Without
embeddings the TF-IDF SVM ranks alone.

Every result explains itself: the terms that push its TF-IDF score up (SVM weight x tf-idf),
the tagged papers nearest to it, and the per-feature scores and fusion weights.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from scipy import sparse

from .filters import Filter
from .model import InputError, Recommendation
from .store.protocol import Store

SVM_C = 0.01  # TF-IDF SVM (as arxiv-sanity-lite)
EMBEDDING_C = 0.1  # embedding SVM (dense 384-d rows need a looser margin)
NEGATIVE_WEIGHT = 10.0  # an explicit "not relevant" weighs this much more than an untagged paper
SEMANTIC_WEIGHT = 0.5  # fusion weight of the embedding score (TF-IDF SVM weight is 1)
TOKEN_PATTERN = r"(?u)\b[^\W\d_][\w\-]*[^\W_]\b"


@dataclass
class Features:
    ids: list[str]
    tfidf: sparse.csr_matrix  # (n, V), rows L2-normalised
    terms: np.ndarray  # (V,) vocabulary
    emb: np.ndarray | None = None  # (n, 384) L2-normalised; None when no vectors
    has_emb: np.ndarray | None = None  # (n,) bool: rows with a real vector
    index: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {pid: i for i, pid in enumerate(self.ids)}


def vectorize(texts: list[str], *, min_df: int | None = None, max_df: float = 0.5):
    """TF-IDF 1-2-grams (sublinear tf, English stop words). A term must occur in `min_df`
    papers: 5 (as arxiv-sanity-lite) from 500 papers, fewer in smaller libraries, 1 if nothing
    else is left. Returns (matrix, terms)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    if min_df is None:
        min_df = min(5, max(2, len(texts) // 100))
    for low in (min_df, 1):
        vec = TfidfVectorizer(strip_accents="unicode", lowercase=True, stop_words="english",
                              token_pattern=TOKEN_PATTERN, ngram_range=(1, 2), min_df=low,
                              max_df=max_df if len(texts) >= 20 else 1.0, sublinear_tf=True,
                              max_features=100_000, dtype=np.float32)
        try:
            matrix = vec.fit_transform(texts)
        except ValueError:  # empty vocabulary
            continue
        return matrix.tocsr(), np.asarray(vec.get_feature_names_out())
    return sparse.csr_matrix((len(texts), 0), dtype=np.float32), np.asarray([], dtype=object)


def build_features(ids: list[str], texts: list[str], emb_ids: list[str] | None = None,
                   emb: np.ndarray | None = None) -> Features:
    tfidf, terms = vectorize(texts)
    aligned, present = None, None
    if emb is not None and emb_ids and len(emb_ids):
        pos = {pid: i for i, pid in enumerate(emb_ids)}
        aligned = np.zeros((len(ids), emb.shape[1]), dtype=np.float32)
        present = np.zeros(len(ids), dtype=bool)
        for i, pid in enumerate(ids):
            j = pos.get(pid)
            if j is not None:
                aligned[i] = emb[j]
                present[i] = True
        if not present.any():
            aligned, present = None, None
    return Features(ids, tfidf, terms, aligned, present)


# --------------------------------------------------------------------------- the model

def _z(scores: np.ndarray) -> np.ndarray:
    sd = float(scores.std())
    return (scores - scores.mean()) / (sd if sd > 1e-12 else 1.0)


def svm_scores(X, pos: np.ndarray, neg: np.ndarray, *, C: float = SVM_C,
               negative_weight: float = NEGATIVE_WEIGHT) -> tuple[np.ndarray, np.ndarray]:
    """Decision values of a class-balanced linear SVM (positives vs everything else, explicit
    negatives weighted up) over X; returns (scores, coefficients)."""
    from sklearn.svm import LinearSVC

    n = X.shape[0]
    y = np.zeros(n, dtype=np.int8)
    y[pos] = 1
    if y.sum() == n or X.shape[1] == 0:  # nothing to contrast with
        return np.zeros(n, dtype=np.float64), np.zeros(X.shape[1])
    weight = np.ones(n)
    weight[neg] = negative_weight
    # sparse TF-IDF (features >> papers): the dual solver; dense embeddings (papers >> 384
    # dims): the primal one, ~5x faster at the same ranking quality
    dual = sparse.issparse(X)
    model = LinearSVC(C=C, class_weight="balanced", dual=dual, tol=1e-6 if dual else 1e-4,
                      max_iter=10_000, random_state=0)
    model.fit(X, y, sample_weight=weight)
    return model.decision_function(X).astype(np.float64), model.coef_.ravel()


@dataclass
class Ranking:
    scores: np.ndarray  # fused score per paper
    parts: dict[str, np.ndarray]  # per-feature z-scores ("tfidf", "semantic")
    weights: dict[str, float]
    coef: np.ndarray  # SVM weights over the TF-IDF vocabulary


def rank(feats: Features, pos: np.ndarray, neg: np.ndarray, *,
         semantic_weight: float = SEMANTIC_WEIGHT, negative_weight: float = NEGATIVE_WEIGHT) -> Ranking:
    """Score every paper of `feats` for the positives `pos` and negatives `neg` (row indices)."""
    lexical, coef = svm_scores(feats.tfidf, pos, neg, negative_weight=negative_weight)
    parts = {"tfidf": _z(lexical)}
    weights = {"tfidf": 1.0}
    if feats.emb is not None and semantic_weight > 0 and feats.has_emb[pos].any():
        rows = np.flatnonzero(feats.has_emb)  # train and score on papers that have a vector
        remap = np.full(len(feats.ids), -1)
        remap[rows] = np.arange(len(rows))
        sub_pos, sub_neg = remap[pos], remap[neg] if len(neg) else neg
        dense, _ = svm_scores(feats.emb[rows], sub_pos[sub_pos >= 0], sub_neg[sub_neg >= 0],
                              C=EMBEDDING_C, negative_weight=negative_weight)
        sem = np.full(len(feats.ids), float(np.median(dense)))  # no vector: neutral
        sem[rows] = dense
        parts["semantic"] = _z(sem)
        weights["semantic"] = semantic_weight
    fused = sum(weights[k] * parts[k] for k in parts)
    return Ranking(fused, parts, weights, coef)


# --------------------------------------------------------------------------- explanations

def top_terms(feats: Features, coef: np.ndarray, row: int, k: int = 6) -> list[dict[str, Any]]:
    """The terms of one paper that push its score up most (SVM weight x tf-idf)."""
    x = feats.tfidf.getrow(row)
    if x.nnz == 0 or coef.size == 0:
        return []
    contrib = x.data * coef[x.indices]
    order = np.argsort(-contrib)[:k]
    return [{"term": str(feats.terms[x.indices[j]]), "weight": round(float(contrib[j]), 4)}
            for j in order if contrib[j] > 0]


def nearest_positives(feats: Features, row: int, pos: np.ndarray, k: int = 3) -> list[tuple[int, float]]:
    """The tagged papers most similar to `row`: embedding cosine when both have vectors,
    TF-IDF cosine otherwise."""
    if feats.emb is not None and feats.has_emb[row] and feats.has_emb[pos].all():
        sims = feats.emb[pos] @ feats.emb[row]
    else:
        sims = (feats.tfidf[pos] @ feats.tfidf.getrow(row).T).toarray().ravel()
    order = np.argsort(-sims)[:k]
    return [(int(pos[j]), float(sims[j])) for j in order]


class Recommender:
    """The recommendation component, built from a store and the library's vectors (`vectors()`
    returns an index with `ids` and `matrix`). Features are built once per process and rebuilt
    when the papers change."""

    def __init__(self, store: Store, vectors: Callable[[], Any]):
        self.store = store
        self.vectors = vectors
        self._features: tuple[tuple, Features] | None = None

    def invalidate(self) -> None:
        self._features = None

    def features(self) -> Features:
        index = self.vectors()
        stamp = (*self.store.papers_stamp(), len(index.ids))
        if self._features is None or self._features[0] != stamp:
            ids, texts = [], []
            for pid, title, label, abstract in self.store.paper_texts():
                ids.append(pid)
                texts.append(". ".join(x for x in (title or label, abstract) if x))
            self._features = (stamp, build_features(ids, texts, index.ids, index.matrix))
        return self._features[1]

    def recommend(self, *, positives: list[str], negatives: list[str] = (), exclude: list[str] = (),
                  scope: Filter = Filter(), limit: int = 10, explain: bool = True) -> list[Recommendation]:
        """Papers ranked for a set of positive paper ids, each with its score and explanation."""
        feats = self.features()
        pos = np.array(sorted({feats.index[p] for p in positives if p in feats.index}), dtype=np.int64)
        if not len(pos):
            raise InputError("no papers to learn from: tag some papers first (paperscope tag ID TAG)")
        neg = np.array(sorted({feats.index[p] for p in negatives if p in feats.index} - set(pos.tolist())),
                       dtype=np.int64)
        ranking = rank(feats, pos, neg)
        allowed = np.ones(len(feats.ids), dtype=bool)
        allowed[pos] = False
        allowed[neg] = False
        for pid in exclude:
            if pid in feats.index:
                allowed[feats.index[pid]] = False
        if not scope.empty:
            keep = set(self.store.ordered_ids(scope))
            allowed &= np.array([pid in keep for pid in feats.ids])
        candidates = np.flatnonzero(allowed)
        order = candidates[np.argsort(-ranking.scores[candidates], kind="stable")][:max(0, int(limit))]
        papers = self.store.papers_by_id([feats.ids[i] for i in order])
        titles = self.store.display_titles([feats.ids[i] for i in pos])
        out = []
        for i in order:
            why = None
            if explain:
                why = {
                    "terms": top_terms(feats, ranking.coef, i),
                    "nearest": [{"id": feats.ids[j], "title": titles.get(feats.ids[j]), "similarity": round(s, 3)}
                                for j, s in nearest_positives(feats, i, pos)],
                    "scores": {k: round(float(v[i]), 3) for k, v in ranking.parts.items()},
                    "weights": ranking.weights,
                    "trained_on": {"positives": int(len(pos)), "negatives": int(len(neg))},
                }
            out.append(Recommendation(papers[feats.ids[i]].to_dict(), round(float(ranking.scores[i]), 4),
                                      len(out) + 1, why=why))
        return out
