"""Bulk export and bulk load for the distributed build (`paperscope build` / `load`): papers by
row number with their memberships and identity keys out of a (staging) library, and whole
shards of papers, memberships, keys and embeddings into a library with `executemany` inside
one transaction. A shard already loaded (same fingerprint) is recorded in `build_loads` so a
second `load` of an updated build touches only what changed. Mixed into `SQLiteStore`."""
from __future__ import annotations

import sqlite3
from typing import Any, Iterable, Sequence

# Stored paper columns a shard carries (facts included), in one order for export and load.
BULK_COLUMNS = ("id", "title", "title_source", "abstract", "abstract_source", "authors", "keywords",
                "status", "urls", "external_id", "label", "facts", "facts_hash", "text_hash")


class BulkData:
    conn: sqlite3.Connection

    # ------------------------------------------------------------------ export
    def rowid_span(self) -> tuple[int, int]:
        """(lowest, highest) paper row number; (0, 0) when there are no papers."""
        row = self.conn.execute("SELECT COALESCE(MIN(rowid), 0), COALESCE(MAX(rowid), 0) FROM papers").fetchone()
        return int(row[0]), int(row[1])

    def export_papers(self, first: int, last: int) -> list[dict[str, Any]]:
        """Every stored column of the papers with first <= row number <= last, by row number."""
        cols = ", ".join(BULK_COLUMNS)
        rows = self.conn.execute(f"SELECT rowid, {cols} FROM papers WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                                 (int(first), int(last)))
        return [{"rowid": r[0], **{c: r[i + 1] for i, c in enumerate(BULK_COLUMNS)}} for r in rows]

    def export_memberships(self, first: int, last: int) -> list[dict[str, Any]]:
        """Memberships of the papers in a row-number span, with collection and source spelled out."""
        rows = self.conn.execute(
            "SELECT m.paper_id, c.name, c.venue, c.year, s.path, s.sha256, s.format, m.position, m.status "
            "FROM memberships m JOIN papers p ON p.id = m.paper_id JOIN collections c ON c.id = m.collection_id "
            "JOIN sources s ON s.id = m.source_id WHERE p.rowid BETWEEN ? AND ? "
            "ORDER BY p.rowid, c.id, s.id", (int(first), int(last)))
        names = ("paper_id", "collection", "venue", "year", "source", "sha256", "format", "position", "status")
        return [dict(zip(names, r)) for r in rows]

    def export_keys(self, first: int, last: int) -> list[tuple[str, str]]:
        """(identity key, paper id) of the papers in a row-number span."""
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT k.key, k.paper_id FROM paper_keys k JOIN papers p ON p.id = k.paper_id "
            "WHERE p.rowid BETWEEN ? AND ? ORDER BY p.rowid, k.key", (int(first), int(last)))]

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
        with self.transaction():  # type: ignore[attr-defined]
            known = self._bulk_rows([p["id"] for p in papers])
            fresh = [p for p in papers if p["id"] not in known]
            cols = ", ".join(BULK_COLUMNS)
            marks = ", ".join("?" for _ in BULK_COLUMNS)
            self.conn.executemany(f"INSERT INTO papers ({cols}) VALUES ({marks})",
                                  [[p[c] for c in BULK_COLUMNS] for p in fresh])
            counts["added"] = len(fresh)
            for p in papers:
                old = known.get(p["id"])
                if old is None:
                    continue
                changes = {c: p[c] for c in BULK_COLUMNS[1:] if old[c] != p[c]}
                if changes:
                    self.update_paper(p["id"], changes)  # type: ignore[attr-defined]
                    counts["updated"] += 1
                else:
                    counts["unchanged"] += 1
            self.conn.executemany("INSERT OR IGNORE INTO paper_keys(key, paper_id) VALUES (?, ?)", list(keys))
            collections: dict[str, int] = {}
            sources: dict[str, int] = {}
            rows = []
            for m in memberships:
                if m["collection"] not in collections:
                    collections[m["collection"]] = self._bulk_collection(m["collection"], m["venue"], m["year"])
                if m["source"] not in sources:
                    sources[m["source"]] = self.source_id(m["source"], m["sha256"], m["format"])  # type: ignore[attr-defined]
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
        return int(self.conn.execute("INSERT INTO collections(name, venue, year) VALUES (?, ?, ?)",
                                     (name, venue, year)).lastrowid)
