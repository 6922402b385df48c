"""Analysis runs stored with the library (tables from migration 0003_analysis.sql).

A run (topics or map, for one scope and level) keeps the per-paper result and the hash of every
paper's vector. On the next request the current rows are compared with the stored ones:
- same rows, same params: the stored result is returned as is;
- a few papers added, changed or gone (at most REFIT_SHARE of the fitted set): the new ones are
  placed without refitting (nearest centroid / nearest neighbours on the map) and the gone ones
  dropped;
- otherwise the caller refits.
The store keeps the runs; a read-only library simply skips the writes.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ..store.protocol import Store

REFIT_SHARE = 0.2


@dataclass
class Point:
    row_hash: str
    topic: int | None = None
    score: float | None = None
    x: float | None = None
    y: float | None = None
    fitted: bool = True


@dataclass
class Run:
    kind: str
    scope: str
    level: str
    params: dict[str, Any]
    input_hash: str = ""
    centroids: np.ndarray | None = None
    model: dict[str, Any] = field(default_factory=dict)
    points: dict[str, Point] = field(default_factory=dict)


def input_hash(rows: dict[str, str], params: dict[str, Any]) -> str:
    h = hashlib.sha1(json.dumps(params, sort_keys=True).encode())
    for pid in sorted(rows):
        h.update(f"{pid}\x1f{rows[pid]}\x1e".encode())
    return h.hexdigest()


@dataclass
class Plan:
    action: str  # "reuse" | "extend" | "refit"
    added: list[str] = field(default_factory=list)  # new or changed paper ids
    gone: list[str] = field(default_factory=list)


def plan(run: Run | None, rows: dict[str, str], params: dict[str, Any]) -> Plan:
    """What to do with a stored run given the current {paper id: vector hash} rows."""
    if run is None or run.params != params or not run.points:
        return Plan("refit")
    if run.input_hash == input_hash(rows, params):
        return Plan("reuse")
    added = sorted(pid for pid, h in rows.items()
                   if pid not in run.points or run.points[pid].row_hash != h)
    added_set = set(added)
    gone = sorted(pid for pid in run.points if pid not in rows or pid in added_set)
    fitted = sum(1 for p in run.points.values() if p.fitted)
    changed_fitted = sum(1 for pid in gone if run.points[pid].fitted)
    if fitted == 0 or len(added) + changed_fitted > REFIT_SHARE * fitted:
        return Plan("refit", added, gone)
    return Plan("extend", added, gone)


def load(store: Store, kind: str, scope: str, level: str = "") -> Run | None:
    found = store.analysis_run(kind, scope, level)
    if found is None:
        return None
    centroids = None
    if found["centroids"] is not None and found["dims"]:
        centroids = np.frombuffer(found["centroids"], dtype=np.float32).reshape(-1, int(found["dims"])).copy()
    run = Run(kind, scope, level, found["params"], found["input_hash"], centroids, found["model"])
    for pid, row_hash, topic, score, x, y, fitted in found["points"]:
        run.points[pid] = Point(row_hash, topic, score, x, y, bool(fitted))
    return run


def save(store: Store, run: Run) -> bool:
    """Replace the stored run for (kind, scope, level). False when the library is read-only."""
    rows = {pid: p.row_hash for pid, p in run.points.items()}
    run.input_hash = input_hash(rows, run.params)
    blob = dims = None
    if run.centroids is not None:
        c = np.ascontiguousarray(run.centroids, dtype=np.float32)
        blob, dims = c.tobytes(), int(c.shape[1]) if c.ndim == 2 else None
    return store.save_analysis_run(
        run.kind, run.scope, run.level, input_hash=run.input_hash, params=run.params, centroids=blob,
        dims=dims, model=run.model,
        points=[(pid, p.row_hash, p.topic, p.score, p.x, p.y, int(p.fitted)) for pid, p in sorted(run.points.items())])
