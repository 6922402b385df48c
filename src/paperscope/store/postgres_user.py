"""The user's marks and the stored analysis runs in the PostgreSQL store (the SQLite store's
`sqlite_user.py` and `sqlite_analysis.py` in PostgreSQL's dialect). Tags compare
case-insensitively, as the SQLite file's NOCASE columns do."""
from __future__ import annotations

import json
from typing import Any, Iterable
from .host import Host


_MARK_COLUMNS = ("starred", "read_at", "note")


class UserData(Host):
    conn: Any

    def remember_keys(self, paper_id: str) -> None:
        self.conn.execute("INSERT INTO user_keys(key, paper_id) SELECT key, paper_id FROM paper_keys "
                          "WHERE paper_id = %s ON CONFLICT DO NOTHING", (paper_id,))

    def add_tag(self, paper_id: str, tag: str) -> bool:
        cur = self.conn.execute("INSERT INTO user_tags(paper_id, tag) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                                (paper_id, tag))
        return cur.rowcount > 0

    def remove_tag(self, paper_id: str, tag: str) -> bool:
        cur = self.conn.execute("DELETE FROM user_tags WHERE paper_id = %s AND lower(tag) = lower(%s)", (paper_id, tag))
        return cur.rowcount > 0

    def set_mark(self, paper_id: str, column: str, value: Any) -> None:
        if column not in _MARK_COLUMNS:  # column names are ours, never user text
            raise ValueError(f"unknown mark {column!r}")
        self.conn.execute("INSERT INTO user_marks(paper_id) VALUES (%s) ON CONFLICT DO NOTHING", (paper_id,))
        self.conn.execute(f"UPDATE user_marks SET {column} = %s, updated_at = iso_now() WHERE paper_id = %s",
                          (value, paper_id))
        self.conn.execute("DELETE FROM user_marks WHERE paper_id = %s AND starred = 0 AND "
                          "read_at IS NULL AND note IS NULL", (paper_id,))

    def now(self) -> str:
        return self.conn.execute("SELECT iso_now()").fetchone()[0]

    def set_dismissal(self, paper_id: str, scope: str, on: bool) -> None:
        if on:
            self.conn.execute("INSERT INTO user_dismissals(paper_id, tag) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                              (paper_id, scope))
        else:
            self.conn.execute("DELETE FROM user_dismissals WHERE paper_id = %s AND lower(tag) = lower(%s)",
                              (paper_id, scope))

    def tag_counts(self) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT MIN(t.tag), COUNT(p.id), COUNT(*) - COUNT(p.id), MIN(t.added_at) "
            "FROM user_tags t LEFT JOIN papers p ON p.id = t.paper_id "
            "GROUP BY lower(t.tag) ORDER BY COUNT(*) DESC, lower(MIN(t.tag))")
        return [{"tag": r[0], "papers": int(r[1]), "detached": int(r[2]), "since": r[3]} for r in rows]

    def tagged_ids(self, tag: str) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT t.paper_id FROM user_tags t JOIN papers p ON p.id = t.paper_id "
            "WHERE lower(t.tag) = lower(%s) ORDER BY t.added_at, p.rowid", (tag,))]

    def dismissed_ids(self, scopes: list[str]) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT d.paper_id FROM user_dismissals d JOIN papers p ON p.id = d.paper_id "
            "WHERE lower(d.tag) = ANY(%s) GROUP BY d.paper_id ORDER BY MIN(p.rowid)", ([s.lower() for s in scopes],))]


class AnalysisData(Host):
    conn: Any
    readonly: bool

    def save_analysis_run(self, kind: str, scope: str, level: str, *, input_hash: str,
                          params: dict[str, Any], centroids: bytes | None, dims: int | None,
                          model: dict[str, Any], points: Iterable[tuple]) -> bool:
        if self.readonly:
            return False
        with self.transaction() as conn, conn.cursor() as cur:
            # writers of the same run wait for each other (two ingests finishing at once)
            cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"analysis:{kind}:{scope}:{level}",))
            cur.execute("DELETE FROM analysis_runs WHERE kind = %s AND scope = %s AND level = %s", (kind, scope, level))
            run_id = cur.execute(
                "INSERT INTO analysis_runs(kind, scope, level, input_hash, params, centroids, dims, model) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (kind, scope, level, input_hash, json.dumps(params, sort_keys=True), centroids, dims,
                 json.dumps(model))).fetchone()[0]
            cur.executemany("INSERT INTO analysis_points(run_id, paper_id, row_hash, topic, score, x, y, fitted) "
                            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", [(run_id, *p) for p in points])
        return True

