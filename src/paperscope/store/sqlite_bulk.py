"""Bulk export and bulk load for the distributed build (`paperscope build` / `load`): papers by
row number with their memberships and identity keys out of a (staging) library, and whole
shards of papers, memberships, keys and embeddings into a library with `executemany` inside
one transaction. A shard already loaded (same fingerprint) is recorded in `build_loads` so a
second `load` of an updated build touches only what changed. Mixed into `SQLiteStore`."""
from __future__ import annotations

import sqlite3
from typing import Any, Iterable, Sequence

from .host import Host
from .rows import BULK_COLUMNS



class BulkData(Host):
    conn: sqlite3.Connection

    # ------------------------------------------------------------------ export
    # ------------------------------------------------------------------ load
    def loaded_shards(self) -> dict[str, str]:
        """{shard name: fingerprint} of the build shards loaded into this library."""
        return dict(self.conn.execute("SELECT shard, fingerprint FROM build_loads"))

    def bulk_load(self, papers: Sequence[dict[str, Any]], memberships: Sequence[dict[str, Any]],
                  keys: Iterable[tuple[str, str]], embeddings: Iterable[tuple[str, bytes]], *,
                  model: str, dim: int, shard: str, fingerprint: str) -> dict[str, int]:
        """Load one shard in one transaction: new papers inserted (in the given order, so row
        numbers follow the build's), known ones updated only where a column differs,
        memberships/keys added when missing, embeddings stored by text hash, and the shard
        recorded as loaded. Returns {added, updated, unchanged, memberships}."""
        counts = {"added": 0, "updated": 0, "unchanged": 0, "memberships": 0}
        with self.transaction():
            known = self._bulk_rows([p["id"] for p in papers])
            fresh = [p for p in papers if p["id"] not in known]
            cols = ", ".join(BULK_COLUMNS)
            marks = ", ".join("?" for _ in BULK_COLUMNS)
            self.conn.executemany(f"INSERT INTO papers ({cols}) VALUES ({marks})",
                                  [[p[c] for c in BULK_COLUMNS] for p in fresh])
            counts["added"] = len(fresh)
            self._bulk_update(papers, known, counts)
            self.conn.executemany("INSERT OR IGNORE INTO paper_keys(key, paper_id) VALUES (?, ?)", list(keys))
            collections: dict[str, int] = {}
            sources: dict[str, int] = {}
            rows = []
            for m in memberships:
                if m["collection"] not in collections:
                    collections[m["collection"]] = self._bulk_collection(m["collection"], m["venue"], m["year"])
                if m["source"] not in sources:
                    sources[m["source"]] = self.source_id(m["source"], m["sha256"], m["format"])
                rows.append((m["paper_id"], collections[m["collection"]], sources[m["source"]], m["position"],
                             m["status"]))
            before = self.conn.total_changes
            self.conn.executemany("INSERT OR IGNORE INTO memberships(paper_id, collection_id, source_id, position, "
                                  "status) VALUES (?, ?, ?, ?, ?)", rows)
            counts["memberships"] = self.conn.total_changes - before
            self.conn.executemany("INSERT OR IGNORE INTO embeddings(model, text_hash, dim, vector) VALUES (?, ?, ?, ?)",
                                  [(model, h, dim, v) for h, v in embeddings])
            self.conn.execute("INSERT OR REPLACE INTO build_loads(shard, fingerprint) VALUES (?, ?)",
                              (shard, fingerprint))
        return counts

    def _bulk_rows(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        cols = ", ".join(BULK_COLUMNS)
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            marks = ",".join("?" for _ in part)
            for r in self.conn.execute(f"SELECT {cols} FROM papers WHERE id IN ({marks})", part):
                out[r[0]] = dict(zip(BULK_COLUMNS, r))
        return out

    def _bulk_collection(self, name: str, venue: str, year: int | None) -> int:
        row = self.conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        return inserted_id(self.conn.execute("INSERT INTO collections(name, venue, year) VALUES (?, ?, ?)",
                                             (name, venue, year)))


def inserted_id(cur: sqlite3.Cursor) -> int:
    """The row id an INSERT of one row gave (None only when nothing was inserted: an error here)."""
    if cur.lastrowid is None:
        raise RuntimeError("the INSERT gave no row id")
    return cur.lastrowid
