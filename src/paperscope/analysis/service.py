"""The analysis component: topics and map for a library scope, cached in the library (see
cache.py), built from a store and the library's paper vectors.

    analysis = Analysis(store, vectors=engine.vectors)
    analysis.topics(venue="ICML", year=2024)

The algorithms themselves (topics.py, layout.py, sampled.py, compare.py) are pure functions and know
nothing of the store.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..filters import Filter, scope_key
from . import cache
from .layout import place_new
from .sampled import SAMPLE, sampled_layout, sampled_topics
from .topics import SEED, TopicModel, assign_new, topic_table
from .vectors import paper_text, row_hashes, vectors_for
from ..store.protocol import Store

TOPICS_VERSION = "spherical-kmeans+ctfidf/2"
MAP_VERSION = "opentsne-exact-cosine/2"


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


class Analysis:
    """Topics, map and comparisons of a library's papers. `vectors()` returns the library's
    vector index (ids + matrix); results are stored through the store by input hash. Scopes
    above `sample` papers get sample-then-assign fits (analysis/sampled.py)."""

    sample = SAMPLE

    def __init__(self, store: Store, vectors: Callable[[], Any]):
        self.store = store
        self.vectors = vectors
        self._collections: list[dict[str, Any]] | None = None

    def invalidate(self) -> None:
        """Forget the collection list; stored runs are checked against their inputs on each call."""
        self._collections = None

    def collections(self) -> list[dict[str, Any]]:
        if self._collections is None:
            self._collections = self.store.collection_stats()
        return self._collections

    def scope_key(self, venue: str | None = None, year: int | str | None = None) -> str:
        """The key a venue/year scope's runs are stored under: the names of the collections it
        covers, so `--venue ICML --year 2024`, the collection "ICML 2024" in the web app and a
        library holding only that collection share one stored topics run and one map."""
        f = self._scope(venue, year)
        names = [c["name"] for c in self.collections() if c["papers"] and _covers(f, c)]
        return scope_key(collections=names) if names else scope_key(venue=venue, year=year)

    def precompute(self, progress: Callable[[str, int, int], None] | None = None) -> int:
        """Topics (coarse) and the map of every collection, stored so that the first `/map`,
        `/topics` or `paperscope map` after an ingest only reads them. Unchanged collections
        cost a hash comparison. Returns the number of collections analysed."""
        scopes = [c for c in self.collections() if c["papers"]]
        for i, c in enumerate(scopes):
            if progress:
                progress("topics and map", i, len(scopes))
            self.map_points(venue=c["venue"], year=c["year"])
        if progress:
            progress("topics and map", len(scopes), len(scopes))
        return len(scopes)

    def papers(self, f: Filter) -> list[dict[str, Any]]:
        return [p.to_dict() for p in self.store.papers(f)]

    @staticmethod
    def _scope(venue: str | None, year: int | None) -> Filter:
        return Filter.of(venue=venue, year=year)

    def compare(self, a: str, b: str, *, level: str | int = "coarse") -> dict[str, Any]:
        from .compare import compare

        return compare(self, a, b, level=level)

    def topic_index(self, scope: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
        """Paper id -> its coarse topic {id, label} within a collection's venue/year (or the
        whole library), in topic order: largest topic first, typical papers first."""
        venue, year = (scope["venue"], scope["year"]) if scope else (None, None)
        return {pid: {"id": tp["id"], "label": tp["label"]}
                for tp in self.topics(venue=venue, year=year) for pid in tp["papers"]}

    def paper_topics(self, paper: dict[str, Any]) -> list[dict[str, Any]]:
        """The coarse topic of a paper in each of its collections whose topics were already
        computed: [{collection, id, label}]. Cheap: reads stored runs, never fits."""
        out: list[dict[str, Any]] = []
        for c in paper.get("collections", []):
            found = self.store.stored_topic(paper["id"], self.scope_key(venue=c["venue"], year=c["year"]))
            if found and all(o["collection"] != c["name"] for o in out):
                out.append({"collection": c["name"], **found})
        return out

    def _prepare(self, papers: list[dict[str, Any]]):
        have, matrix, source, missing = vectors_for(self.vectors(), papers)
        order = sorted(range(len(have)), key=lambda i: have[i]["id"])
        have = [have[i] for i in order]
        matrix = matrix[order] if len(order) else matrix
        return have, matrix, source, missing


    def topic_result(self, papers: list[dict[str, Any]], *, scope: str, level: str | int = "coarse",
                     use_cache: bool = True) -> TopicResult:
        have, matrix, source, missing = self._prepare(papers)
        ids = [p["id"] for p in have]
        hashes = row_hashes(matrix)
        rows = dict(zip(ids, hashes))
        params = {"version": TOPICS_VERSION, "seed": SEED, "vectors": source, "level": str(level)}
        params |= _sampling(len(ids), self.sample)
        run = cache.load(self.store, "topics", scope, str(level)) if use_cache else None
        plan = cache.plan(run, rows, params)

        if plan.action == "refit" or run is None or run.centroids is None:
            # Up to SAMPLE papers this is the full fit; above it, a fit on a seeded sample with
            # every paper assigned in chunks, so the matrix is never copied whole.
            fit = sampled_topics(ids, lambda picked: [paper_text(have[i]) for i in picked], matrix, level=level,
                                 sample=self.sample)
            model, assign, sim = fit.model, fit.assign, fit.similarity
            if use_cache:
                run = cache.Run("topics", scope, str(level), params, centroids=model.centroids,
                                model=model.to_json())
                run.points = {pid: cache.Point(h, int(t), float(s)) for pid, h, t, s in
                              zip(ids, hashes, assign.tolist(), sim.tolist())}
                cache.save(self.store, run)
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
            cache.save(self.store, run)
        assign = np.array([run.points[pid].topic for pid in ids], dtype=np.int64)
        sim = np.array([run.points[pid].score for pid in ids], dtype=np.float32)
        return TopicResult(model, ids, assign, sim, have, missing)


    def topics(self, *, venue: str | None = None, year: int | None = None,
               level: str | int = "coarse", ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Topic table for a venue/year scope (cached) or an explicit set of paper ids (not cached)."""
        papers = self.papers(Filter(ids=tuple(ids)) if ids is not None else self._scope(venue, year))
        scope = scope_key(ids=ids) if ids is not None else self.scope_key(venue, year)
        return self.topic_result(papers, scope=scope, level=level, use_cache=ids is None).table()


    def map_points(self, *, venue: str | None = None, year: int | None = None,
                   level: str | int = "coarse") -> list[dict[str, Any]]:
        """(id, x, y, topic, label) for every paper of the scope that has a vector; `label` is the
        paper's display label and `topic_label` its topic's."""
        papers = self.papers(self._scope(venue, year))
        scope = self.scope_key(venue, year)
        result = self.topic_result(papers, scope=scope, level=level)
        coords = self._coordinates(result, scope)
        by_id = {p["id"]: p for p in result.papers}
        out = []
        for i, pid in enumerate(result.ids):
            t = int(result.assign[i])
            p = by_id[pid]
            out.append({"id": pid, "x": round(float(coords[i, 0]), 5), "y": round(float(coords[i, 1]), 5),
                        "topic": t, "topic_label": result.model.labels[t],
                        "label": p.get("label") or p.get("title") or ""})
        return out


    def _coordinates(self, result: TopicResult, scope: str) -> np.ndarray:
        _, matrix, source, _ = self._prepare(result.papers)
        ids = result.ids
        hashes = row_hashes(matrix)
        rows = dict(zip(ids, hashes))
        params = {"version": MAP_VERSION, "seed": SEED, "vectors": source} | _sampling(len(ids), self.sample)
        run = cache.load(self.store, "map", scope, "")
        plan = cache.plan(run, rows, params)
        if plan.action == "refit" or run is None:
            coords = sampled_layout(ids, matrix, sample=self.sample)
            run = cache.Run("map", scope, "", params)
            run.points = {pid: cache.Point(h, x=float(c[0]), y=float(c[1]))
                          for pid, h, c in zip(ids, hashes, coords.tolist())}
            cache.save(self.store, run)
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
            cache.save(self.store, run)
        return np.array([[run.points[p].x, run.points[p].y] for p in ids], dtype=np.float32)


def _sampling(n: int, sample: int) -> dict[str, Any]:
    """The extra run parameter of a sample-then-assign fit (none for a full fit, so runs
    stored before sampling existed stay valid)."""
    return {"sample": sample} if n > sample else {}


def _covers(f: Filter, collection: dict[str, Any]) -> bool:
    """Whether a venue/year filter takes in this collection (as the store's filter does)."""
    if f.venues and not any(v.casefold() in ((collection["venue"] or "").casefold(), collection["name"].casefold())
                            for v in f.venues):
        return False
    if f.years:
        year = collection["year"]
        return year is not None and f.years[0] <= int(year) <= f.years[1]
    return True
