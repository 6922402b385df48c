"""Stored analysis runs in the SQLite store (migration 0003): one row per (kind, scope, level)
with its parameters, input hash, centroids and model, and one point per paper (topic, score,
map position); reading runs is shared (`shared.py`). Mixed into `SQLiteStore`."""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterable
from .host import Host


class AnalysisData(Host):
    conn: sqlite3.Connection
    readonly: bool

    def save_analysis_run(self, kind: str, scope: str, level: str, *, input_hash: str,
                          params: dict[str, Any], centroids: bytes | None, dims: int | None,
                          model: dict[str, Any], points: Iterable[tuple]) -> bool:
        """Replace the run for (kind, scope, level); points are (paper id, row hash, topic,
        score, x, y, fitted). False (nothing written) when the library is read-only."""
        if self.readonly:
            return False
        with self.transaction() as conn:
            conn.execute("DELETE FROM analysis_runs WHERE kind = ? AND scope = ? AND level = ?", (kind, scope, level))
            cur = conn.execute(
                "INSERT INTO analysis_runs(kind, scope, level, input_hash, params, centroids, dims, model) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (kind, scope, level, input_hash, json.dumps(params, sort_keys=True), centroids, dims,
                 json.dumps(model)))
            run_id = cur.lastrowid
            conn.execute("DELETE FROM analysis_points WHERE run_id = ?", (run_id,))  # orphans
            conn.executemany("INSERT INTO analysis_points(run_id, paper_id, row_hash, topic, score, x, y, fitted) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(run_id, *p) for p in points])
        return True

