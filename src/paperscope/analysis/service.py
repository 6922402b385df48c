"""Topics and map for a library scope, cached in the library file (see cache.py).

This is what the `Library` facade calls; the algorithms themselves (topics.py, layout.py) are
pure functions and know nothing of the store.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import cache
from .layout import layout, place_new
from .topics import SEED, TopicModel, assign_new, fit_topics, topic_table
from .vectors import paper_text, row_hashes, vectors_for

TOPICS_VERSION = "spherical-kmeans+ctfidf/2"
MAP_VERSION = "opentsne-exact-cosine/2"


def scope_key(*, venue: str | None = None, year: int | None = None,
              collections: list[str] | None = None, ids: list[str] | None = None) -> str:
    if ids is not None:
        return "ids:" + hashlib.sha1("\n".join(sorted(set(ids))).encode()).hexdigest()[:16]
    if collections:
        return "collections:" + "|".join(sorted(c.casefold() for c in collections))
    return f"venue={(venue or '').casefold()}|year={year or ''}"


@dataclass
class TopicResult:
    model: TopicModel
    ids: list[str]
    assign: np.ndarray
    similarity: np.ndarray
    papers: list[dict[str, Any]]  # with a vector, sorted by id
    missing: list[dict[str, Any]]  # without a vector: unassigned

    def table(self) -> list[dict[str, Any]]:
        labels = {p["id"]: p.get("label") or p.get("title") or "" for p in self.papers}
        return topic_table(self.model, self.ids, self.assign, self.similarity, labels)


def _prepare(lib: Any, papers: list[dict[str, Any]]):
    have, matrix, source, missing = vectors_for(lib, papers)
    order = sorted(range(len(have)), key=lambda i: have[i]["id"])
    have = [have[i] for i in order]
    matrix = matrix[order] if len(order) else matrix
    return have, matrix, source, missing


def topic_result(lib: Any, papers: list[dict[str, Any]], *, scope: str, level: str | int = "coarse",
                 use_cache: bool = True) -> TopicResult:
    have, matrix, source, missing = _prepare(lib, papers)
    ids = [p["id"] for p in have]
    hashes = row_hashes(matrix)
    rows = dict(zip(ids, hashes))
    params = {"version": TOPICS_VERSION, "seed": SEED, "vectors": source, "level": str(level)}
    conn = lib.store.conn
    run = cache.load(conn, "topics", scope, str(level)) if use_cache else None
    plan = cache.plan(run, rows, params)

    if plan.action == "refit" or run is None or run.centroids is None:
        fit = fit_topics(ids, [paper_text(p) for p in have], matrix, level=level)
        model, assign, sim = fit.model, fit.assign, fit.similarity
        if use_cache:
            run = cache.Run("topics", scope, str(level), params, centroids=model.centroids,
                            model=model.to_json())
            run.points = {pid: cache.Point(h, int(t), float(s)) for pid, h, t, s in
                          zip(ids, hashes, assign.tolist(), sim.tolist())}
            cache.save(lib.store, run)
        return TopicResult(model, ids, assign, sim, have, missing)

    model = TopicModel.from_json(run.model, run.centroids)
    if plan.action == "extend":
        for pid in plan.gone:
            run.points.pop(pid, None)
        index = {pid: i for i, pid in enumerate(ids)}
        new_rows = [index[pid] for pid in plan.added]
        topics, sims = assign_new(model, matrix[new_rows] if new_rows else matrix[:0])
        for pid, t, s in zip(plan.added, topics.tolist(), sims.tolist()):
            run.points[pid] = cache.Point(rows[pid], int(t), float(s), fitted=False)
        cache.save(lib.store, run)
    assign = np.array([run.points[pid].topic for pid in ids], dtype=np.int64)
    sim = np.array([run.points[pid].score for pid in ids], dtype=np.float32)
    return TopicResult(model, ids, assign, sim, have, missing)


def topics(lib: Any, *, venue: str | None = None, year: int | None = None,
           level: str | int = "coarse", ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Topic table for a venue/year scope (cached) or an explicit set of paper ids (not cached)."""
    papers = lib.papers(ids=list(ids)) if ids is not None else lib.papers(venue=venue, year=year)
    scope = scope_key(venue=venue, year=year, ids=ids)
    return topic_result(lib, papers, scope=scope, level=level, use_cache=ids is None).table()


def map_points(lib: Any, *, venue: str | None = None, year: int | None = None,
               level: str | int = "coarse") -> list[dict[str, Any]]:
    """(id, x, y, topic, label) for every paper of the scope that has a vector; `label` is the
    paper's display label and `topic_label` its topic's."""
    papers = lib.papers(venue=venue, year=year)
    scope = scope_key(venue=venue, year=year)
    result = topic_result(lib, papers, scope=scope, level=level)
    coords = _coordinates(lib, result, scope)
    by_id = {p["id"]: p for p in result.papers}
    out = []
    for i, pid in enumerate(result.ids):
        t = int(result.assign[i])
        p = by_id[pid]
        out.append({"id": pid, "x": round(float(coords[i, 0]), 5), "y": round(float(coords[i, 1]), 5),
                    "topic": t, "topic_label": result.model.labels[t],
                    "label": p.get("label") or p.get("title") or ""})
    return out


def _coordinates(lib: Any, result: TopicResult, scope: str) -> np.ndarray:
    _, matrix, source, _ = _prepare(lib, result.papers)
    ids = result.ids
    hashes = row_hashes(matrix)
    rows = dict(zip(ids, hashes))
    params = {"version": MAP_VERSION, "seed": SEED, "vectors": source}
    run = cache.load(lib.store.conn, "map", scope, "")
    plan = cache.plan(run, rows, params)
    if plan.action == "refit" or run is None:
        coords = layout(matrix)
        run = cache.Run("map", scope, "", params)
        run.points = {pid: cache.Point(h, x=float(c[0]), y=float(c[1]))
                      for pid, h, c in zip(ids, hashes, coords.tolist())}
        cache.save(lib.store, run)
        return coords
    if plan.action == "extend":
        for pid in plan.gone:
            run.points.pop(pid, None)
        index = {pid: i for i, pid in enumerate(ids)}
        kept = [pid for pid in ids if pid in run.points]
        fitted_xy = np.array([[run.points[p].x, run.points[p].y] for p in kept], dtype=np.float32)
        new_xy = place_new(matrix[[index[p] for p in kept]], fitted_xy,
                           matrix[[index[p] for p in plan.added]] if plan.added else matrix[:0])
        for pid, c in zip(plan.added, new_xy.tolist()):
            run.points[pid] = cache.Point(rows[pid], x=c[0], y=c[1], fitted=False)
        cache.save(lib.store, run)
    return np.array([[run.points[p].x, run.points[p].y] for p in ids], dtype=np.float32)
