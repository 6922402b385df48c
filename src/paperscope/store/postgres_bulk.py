"""Bulk export and bulk load for the distributed build in the PostgreSQL store (the SQLite
store's `sqlite_bulk.py` in PostgreSQL's dialect): new papers of a shard go in with COPY, the
rest as in SQLite (known papers updated only where a column differs, memberships and keys added
when missing, embeddings by text hash), one transaction per shard."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from .host import Host
from .rows import BULK_COLUMNS


class BulkData(Host):
    conn: Any

    def loaded_shards(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT shard, fingerprint FROM build_loads").fetchall())

    def bulk_load(self, papers: Sequence[dict[str, Any]], memberships: Sequence[dict[str, Any]],
                  keys: Iterable[tuple[str, str]], embeddings: Iterable[tuple[str, bytes]], *,
                  model: str, dim: int, shard: str, fingerprint: str) -> dict[str, int]:
        counts = {"added": 0, "updated": 0, "unchanged": 0, "memberships": 0}
        with self.transaction():
            names = ", ".join(BULK_COLUMNS)
            known = {r[0]: dict(zip(BULK_COLUMNS, r)) for r in self.conn.execute(
                f"SELECT {names} FROM papers WHERE id = ANY(%s)", ([p["id"] for p in papers],))}
            fresh = [p for p in papers if p["id"] not in known]
            with self.conn.cursor() as cur, cur.copy(f"COPY papers ({names}) FROM STDIN") as copy:
                for p in fresh:
                    copy.write_row([p[c] for c in BULK_COLUMNS])
            counts["added"] = len(fresh)
            self._bulk_update(papers, known, counts)
            self.add_keys_many(list(keys))
            rows = []
            ids: dict[tuple[str, str], int] = {}
            for m in memberships:
                ckey, skey = ("c", m["collection"]), ("s", m["source"])
                if ckey not in ids:
                    ids[ckey] = self._bulk_collection(m["collection"], m["venue"], m["year"])
                if skey not in ids:
                    ids[skey] = self.source_id(m["source"], m["sha256"], m["format"])
                rows.append((m["paper_id"], ids[ckey], ids[skey], m["position"], m["status"]))
            with self.conn.cursor() as cur:
                for row in rows:
                    cur.execute("INSERT INTO memberships(paper_id, collection_id, source_id, position, status) "
                                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING", row)
                    counts["memberships"] += cur.rowcount
            new_vectors = [(h, v) for h, v in embeddings]
            if new_vectors:
                self.save_embeddings(model, dim, new_vectors)
            self.conn.execute("INSERT INTO build_loads(shard, fingerprint) VALUES (%s, %s) ON CONFLICT (shard) "
                              "DO UPDATE SET fingerprint = EXCLUDED.fingerprint, loaded_at = iso_now()",
                              (shard, fingerprint))
        return counts

    def add_keys_many(self, pairs: list[tuple[str, str]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany("INSERT INTO paper_keys(key, paper_id) VALUES (%s, %s) ON CONFLICT DO NOTHING", pairs)

    def _bulk_collection(self, name: str, venue: str, year: int | None) -> int:
        return self.collection_id(venue, year) if name == (f"{venue} {year}" if year else venue) else int(
            self.conn.execute("INSERT INTO collections(name, venue, year) VALUES (%s, %s, %s) "
                              "ON CONFLICT ((lower(name))) DO UPDATE SET name = EXCLUDED.name RETURNING id",
                              (name, venue, year)).fetchone()[0])
