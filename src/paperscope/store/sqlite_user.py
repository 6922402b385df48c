"""A researcher's marks in the SQLite store (`user_*` tables, migration 0004): tags, star, read,
note, "not relevant" dismissals. Keyed by paper id with no foreign key, so they survive
re-ingest and a collection's removal. Writers run inside `transaction()`; validation of tags and
notes is the caller's (`paperscope.userdata`). Mixed into `SQLiteStore`."""
from __future__ import annotations

import sqlite3
from typing import Any
from .host import Host

_MARK_COLUMNS = ("starred", "read_at", "note")


class UserData(Host):
    conn: sqlite3.Connection

    def remember_keys(self, paper_id: str) -> None:
        """Copy the paper's identity keys next to its user data (to reattach it later)."""
        self.conn.execute("INSERT OR IGNORE INTO user_keys(key, paper_id) "
                          "SELECT key, paper_id FROM paper_keys WHERE paper_id = ?", (paper_id,))

    def add_tag(self, paper_id: str, tag: str) -> bool:
        cur = self.conn.execute("INSERT OR IGNORE INTO user_tags(paper_id, tag) VALUES (?, ?)", (paper_id, tag))
        return cur.rowcount > 0

    def remove_tag(self, paper_id: str, tag: str) -> bool:
        cur = self.conn.execute("DELETE FROM user_tags WHERE paper_id = ? AND tag = ?", (paper_id, tag))
        return cur.rowcount > 0

    def set_mark(self, paper_id: str, column: str, value: Any) -> None:
        """Set one of starred / read_at / note; a paper with no mark left loses its row."""
        if column not in _MARK_COLUMNS:  # column names are ours, never user text
            raise ValueError(f"unknown mark {column!r}")
        self.conn.execute("INSERT OR IGNORE INTO user_marks(paper_id) VALUES (?)", (paper_id,))
        self.conn.execute(f"UPDATE user_marks SET {column} = ?, "
                          "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE paper_id = ?",
                          (value, paper_id))
        self.conn.execute("DELETE FROM user_marks WHERE paper_id = ? AND starred = 0 AND "
                          "read_at IS NULL AND note IS NULL", (paper_id,))

    def now(self) -> str:
        return self.conn.execute("SELECT strftime('%Y-%m-%dT%H:%M:%SZ','now')").fetchone()[0]

    def set_dismissal(self, paper_id: str, scope: str, on: bool) -> None:
        if on:
            self.conn.execute("INSERT OR IGNORE INTO user_dismissals(paper_id, tag) VALUES (?, ?)", (paper_id, scope))
        else:
            self.conn.execute("DELETE FROM user_dismissals WHERE paper_id = ? AND tag = ?", (paper_id, scope))

    def tag_counts(self) -> list[dict[str, Any]]:
        """Every tag with its papers in the library and those kept for papers not in it now."""
        rows = self.conn.execute(
            "SELECT MIN(t.tag), SUM(p.id IS NOT NULL), SUM(p.id IS NULL), MIN(t.added_at) "
            "FROM user_tags t LEFT JOIN papers p ON p.id = t.paper_id "
            "GROUP BY t.tag COLLATE NOCASE ORDER BY COUNT(*) DESC, MIN(t.tag) COLLATE NOCASE")
        return [{"tag": r[0], "papers": int(r[1]), "detached": int(r[2]), "since": r[3]} for r in rows]

    def tagged_ids(self, tag: str) -> list[str]:
        """Ids of the library's papers carrying `tag`, in tagging order."""
        return [r[0] for r in self.conn.execute(
            "SELECT t.paper_id FROM user_tags t JOIN papers p ON p.id = t.paper_id "
            "WHERE t.tag = ? ORDER BY t.added_at, p.rowid", (tag,))]

    def dismissed_ids(self, scopes: list[str]) -> list[str]:
        marks = ",".join("?" for _ in scopes)
        return [r[0] for r in self.conn.execute(
            f"SELECT DISTINCT d.paper_id FROM user_dismissals d JOIN papers p ON p.id = d.paper_id "
            f"WHERE d.tag IN ({marks}) ORDER BY p.rowid", scopes)]

