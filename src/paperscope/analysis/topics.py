"""Topics for any set of papers, as pure functions over (ids, texts, embedding matrix).

Stages (BERTopic's split, without its outlier bin): sort papers by id -> spherical k-means on
the embeddings (every paper assigned) -> c-TF-IDF terms per topic -> label (three top terms)
and a representative paper (closest to the centroid). New papers join the nearest centroid
without refitting (`assign_new`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .clustering import nearest, normalise, spherical_kmeans

# .terms (scikit-learn's stop words: seconds to import) is imported only by a fit, so reading a
# stored run in a fresh process (the first /map after an ingest) does not pay for it.

LEVELS = ("coarse", "fine")
SEED = 20240


SMALL_SAMPLE = 100  # papers: under this, topics (like a compare side) are weak evidence
SMALL_TOPIC = 10  # papers a topic has on average: under this, its terms are weak evidence


def small_sample_warnings(topics: list[dict[str, Any]]) -> list[str]:
    """What to tell the user when topics rest on too few papers: fewer than SMALL_SAMPLE in
    all (the rule compare uses for each side), or fewer than SMALL_TOPIC a topic on average
    (fine topics on a few hundred papers). Empty when the sample is big enough."""
    n, k = sum(t["size"] for t in topics), len(topics)
    if not k:
        return []
    if n < SMALL_SAMPLE:
        return [f"only {n} papers (under {SMALL_SAMPLE}): topics and their terms are weak evidence"]
    if n / k < SMALL_TOPIC:
        return [f"{k} topics over {n} papers, {n / k:.1f} a topic on average (under {SMALL_TOPIC}): "
                f"their terms are weak evidence; coarse topics rest on more papers each"]
    return []


def topic_count(n: int, level: str | int = "coarse") -> int:
    """Number of topics for n papers: coarse ~ sqrt(n)/3.5 (15 for 2,600; at most 30), fine ~
    1.5 sqrt(n) (77 for 2,600; at most 250); an int asks for that many. Never more than n/3."""
    if n <= 0:
        return 0
    if isinstance(level, int) or str(level).isdigit():
        k = int(level)
    elif level == "coarse":
        k = min(30, round(math.sqrt(n) / 3.5))
    elif level == "fine":
        k = min(250, round(1.5 * math.sqrt(n)))
    else:
        raise ValueError(f"unknown topic level {level!r}: use coarse, fine or a number")
    return max(1, min(k, n // 3 if n >= 6 else 1))


@dataclass
class TopicModel:
    """What a fit keeps to describe topics and place new papers."""

    centroids: np.ndarray  # (k, d) float32, L2-normalised
    labels: list[str]
    terms: list[list[str]]
    representatives: list[str]  # paper id closest to each centroid

    def to_json(self) -> dict[str, Any]:
        return {"labels": self.labels, "terms": self.terms, "representatives": self.representatives}

    @classmethod
    def from_json(cls, data: dict[str, Any], centroids: np.ndarray) -> "TopicModel":
        return cls(centroids, list(data["labels"]), [list(t) for t in data["terms"]],
                   list(data["representatives"]))


@dataclass
class TopicFit:
    model: TopicModel
    ids: list[str]  # sorted
    assign: np.ndarray  # topic per id
    similarity: np.ndarray  # cosine to own centroid


def _unique_labels(candidates: list[list[str]]) -> list[str]:
    from .terms import label_from_terms

    labels, seen = [], set()
    for cands in candidates:
        label = label_from_terms(cands)
        extra = 4
        while label in seen and extra <= 6:
            label = label_from_terms(cands, n=extra)
            extra += 1
        seen.add(label)
        labels.append(label or "(no distinctive terms)")
    return labels


def fit_topics(ids: list[str], texts: list[str], matrix: np.ndarray, *,
               level: str | int = "coarse", seed: int = SEED) -> TopicFit:
    """Cluster papers into topics. Output depends only on the set of (id, text, vector) rows:
    inputs are sorted by id first and every random choice is seeded."""
    if len(ids) != len(texts) or len(ids) != len(matrix):
        raise ValueError("ids, texts and matrix rows must match")
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate paper ids")
    order = sorted(range(len(ids)), key=lambda i: ids[i])
    sid = [ids[i] for i in order]
    stexts = [texts[i] for i in order]
    x = normalise(np.asarray(matrix)[order]) if len(order) else np.zeros((0, 1), np.float32)
    k = topic_count(len(sid), level)
    if k == 0:
        return TopicFit(TopicModel(np.zeros((0, x.shape[1]), np.float32), [], [], []), [], np.zeros(0, np.int64),
                        np.zeros(0, np.float32))
    assign, centres = spherical_kmeans(x, k, seed=seed)
    k = len(centres)
    from .terms import Terms, class_tfidf, top_terms

    terms = Terms(stexts, min_df=2 if len(sid) >= 20 else 1)
    candidates = top_terms(class_tfidf(terms, assign, k), terms)
    sim = (x * centres[assign]).sum(axis=1)
    reps = []
    for c in range(k):
        members = np.flatnonzero(assign == c)
        reps.append(sid[int(members[np.argmax(sim[members])])])
    model = TopicModel(centres.astype(np.float32), _unique_labels(candidates),
                       [c[:10] for c in candidates], reps)
    return TopicFit(model, sid, assign, sim.astype(np.float32))


def assign_new(model: TopicModel, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Topics for papers the model has not seen: nearest centroid, no refit.
    Returns (topic per row, cosine to that centroid)."""
    if len(matrix) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    x = normalise(matrix)
    topics = nearest(model.centroids, x)
    return topics, (x * model.centroids[topics]).sum(axis=1).astype(np.float32)


def topic_table(model: TopicModel, ids: list[str], assign: np.ndarray, similarity: np.ndarray,
                labels: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The topics JSON: one dict per non-empty topic, largest first. `papers` are ordered from
    the most to the least typical (cosine to the centroid), ties by id. `labels` maps paper id
    to its display label (for the representative paper)."""
    labels = labels or {}
    n = len(ids)
    groups: dict[int, list[tuple[float, str]]] = {}
    for pid, t, s in zip(ids, assign.tolist(), similarity.tolist()):
        groups.setdefault(int(t), []).append((-round(float(s), 6), pid))
    out = []
    for t, members in groups.items():
        members.sort()
        rep = model.representatives[t] if model.representatives[t] in labels else members[0][1]
        out.append({
            "id": t,
            "label": model.labels[t],
            "size": len(members),
            "share": round(len(members) / n, 4) if n else 0.0,
            "terms": model.terms[t][:8],
            "representative": {"id": rep, "label": labels.get(rep)},
            "papers": [pid for _, pid in members],
        })
    out.sort(key=lambda d: (-d["size"], d["id"]))
    return out
