"""Stored analysis runs in the SQLite store (migration 0003): one row per (kind, scope, level)
with its parameters, input hash, centroids and model, and one point per paper (topic, score,
map position). Mixed into `SQLiteStore`."""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterable


class AnalysisData:
    conn: sqlite3.Connection
    readonly: bool

    def analysis_run(self, kind: str, scope: str, level: str = "") -> dict[str, Any] | None:
        """{input_hash, params, centroids (bytes|None), dims, model, points: [(paper id, row
        hash, topic, score, x, y, fitted)]} or None."""
        row = self.conn.execute("SELECT id, input_hash, params, centroids, dims, model FROM analysis_runs "
                                "WHERE kind = ? AND scope = ? AND level = ?", (kind, scope, level)).fetchone()
        if row is None:
            return None
        points = self.conn.execute("SELECT paper_id, row_hash, topic, score, x, y, fitted FROM analysis_points "
                                   "WHERE run_id = ?", (row[0],)).fetchall()
        return {"input_hash": row[1], "params": json.loads(row[2]), "centroids": row[3], "dims": row[4],
                "model": json.loads(row[5]), "points": [tuple(p) for p in points]}

    def save_analysis_run(self, kind: str, scope: str, level: str, *, input_hash: str,
                          params: dict[str, Any], centroids: bytes | None, dims: int | None,
                          model: dict[str, Any], points: Iterable[tuple]) -> bool:
        """Replace the run for (kind, scope, level); points are (paper id, row hash, topic,
        score, x, y, fitted). False (nothing written) when the library is read-only."""
        if self.readonly:
            return False
        with self.transaction() as conn:  # type: ignore[attr-defined]
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

    def stored_topic(self, paper_id: str, scope: str, level: str = "coarse") -> dict[str, Any] | None:
        """The topic a stored topic run of `scope` gave a paper, or None (never fits)."""
        row = self.conn.execute(
            "SELECT pt.topic, r.model FROM analysis_points pt JOIN analysis_runs r ON r.id = pt.run_id "
            "WHERE r.kind = 'topics' AND r.scope = ? AND r.level = ? AND pt.paper_id = ?",
            (scope, level, paper_id)).fetchone()
        if row is None or row[0] is None:
            return None
        labels = json.loads(row[1] or "{}").get("labels") or []
        topic = int(row[0])
        return {"id": topic, "label": labels[topic] if 0 <= topic < len(labels) else str(topic)}
