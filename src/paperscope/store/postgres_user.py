"""The user's marks and the stored analysis runs in the PostgreSQL store (the SQLite store's
`sqlite_user.py` and `sqlite_analysis.py` in PostgreSQL's dialect). Tags compare
case-insensitively, as the SQLite file's NOCASE columns do."""
from __future__ import annotations

import json
from typing import Any, Iterable

from .sqlite_user import ANY_TAG

_MARK_COLUMNS = ("starred", "read_at", "note")


class UserData:
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

    def read_at(self, paper_id: str) -> str | None:
        row = self.conn.execute("SELECT read_at FROM user_marks WHERE paper_id = %s", (paper_id,)).fetchone()
        return row[0] if row else None

    def now(self) -> str:
        return self.conn.execute("SELECT iso_now()").fetchone()[0]

    def set_dismissal(self, paper_id: str, scope: str, on: bool) -> None:
        if on:
            self.conn.execute("INSERT INTO user_dismissals(paper_id, tag) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                              (paper_id, scope))
        else:
            self.conn.execute("DELETE FROM user_dismissals WHERE paper_id = %s AND lower(tag) = lower(%s)",
                              (paper_id, scope))

    def user_fields(self, paper_ids: list[str]) -> dict[str, dict[str, Any]]:
        out = {pid: {"tags": [], "starred": False, "read": False, "read_at": None, "note": None,
                     "irrelevant": False, "irrelevant_tags": []} for pid in paper_ids}
        ids = list(paper_ids)
        for pid, tag in self.conn.execute("SELECT paper_id, tag FROM user_tags WHERE paper_id = ANY(%s) "
                                          "ORDER BY paper_id, lower(tag)", (ids,)):
            out[pid]["tags"].append(tag)
        for pid, starred, read_at, note in self.conn.execute(
                "SELECT paper_id, starred, read_at, note FROM user_marks WHERE paper_id = ANY(%s)", (ids,)):
            out[pid].update(starred=bool(starred), read=read_at is not None, read_at=read_at, note=note)
        for pid, tag in self.conn.execute("SELECT paper_id, tag FROM user_dismissals WHERE paper_id = ANY(%s) "
                                          "ORDER BY tag", (ids,)):
            if tag == ANY_TAG:
                out[pid]["irrelevant"] = True
            else:
                out[pid]["irrelevant_tags"].append(tag)
        return out

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

    def marked_ids(self, *, starred: bool = False, read: bool = False, noted: bool = False) -> list[str]:
        where = ["TRUE"]
        if starred:
            where.append("m.starred = 1")
        if read:
            where.append("m.read_at IS NOT NULL")
        if noted:
            where.append("m.note IS NOT NULL")
        return [r[0] for r in self.conn.execute(
            f"SELECT m.paper_id FROM user_marks m JOIN papers p ON p.id = m.paper_id "
            f"WHERE {' AND '.join(where)} ORDER BY m.updated_at DESC, p.rowid")]


class AnalysisData:
    conn: Any
    readonly: bool

    def analysis_run(self, kind: str, scope: str, level: str = "") -> dict[str, Any] | None:
        row = self.conn.execute("SELECT id, input_hash, params, centroids, dims, model FROM analysis_runs "
                                "WHERE kind = %s AND scope = %s AND level = %s", (kind, scope, level)).fetchone()
        if row is None:
            return None
        points = self.conn.execute("SELECT paper_id, row_hash, topic, score, x, y, fitted FROM analysis_points "
                                   "WHERE run_id = %s", (row[0],)).fetchall()
        return {"input_hash": row[1], "params": json.loads(row[2]),
                "centroids": bytes(row[3]) if row[3] is not None else None, "dims": row[4],
                "model": json.loads(row[5]), "points": [tuple(p) for p in points]}

    def save_analysis_run(self, kind: str, scope: str, level: str, *, input_hash: str,
                          params: dict[str, Any], centroids: bytes | None, dims: int | None,
                          model: dict[str, Any], points: Iterable[tuple]) -> bool:
        if self.readonly:
            return False
        with self.transaction() as conn, conn.cursor() as cur:  # type: ignore[attr-defined]
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

    def stored_topic(self, paper_id: str, scope: str, level: str = "coarse") -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT pt.topic, r.model FROM analysis_points pt JOIN analysis_runs r ON r.id = pt.run_id "
            "WHERE r.kind = 'topics' AND r.scope = %s AND r.level = %s AND pt.paper_id = %s",
            (scope, level, paper_id)).fetchone()
        if row is None or row[0] is None:
            return None
        labels = json.loads(row[1] or "{}").get("labels") or []
        topic = int(row[0])
        return {"id": topic, "label": labels[topic] if 0 <= topic < len(labels) else str(topic)}
