"""Derived arrays saved inside the library (`search_snapshots`), so a new process maps them back
with one read per array instead of rebuilding them. Each snapshot records the generation of
its inputs (`search_state`, bumped by triggers); a stale one is never returned."""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Sequence

import numpy as np

PART_BYTES = 64 << 20  # SQLite blobs stay well under their 1 GB limit


def generation(conn: sqlite3.Connection, key: str) -> int | None:
    row = conn.execute("SELECT value FROM search_state WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row else None


def save(store, name: str, gen: int, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Replace snapshot `name` (meta + arrays) in one transaction."""
    rows = [(f"{name}/meta", 0, gen, json.dumps({**meta, "generation": gen}).encode())]
    for key, arr in arrays.items():
        raw = np.ascontiguousarray(arr).tobytes()
        for part, at in enumerate(range(0, max(len(raw), 1), PART_BYTES)):
            rows.append((f"{name}/{key}", part, gen, raw[at:at + PART_BYTES]))
    with store.transaction() as conn:
        conn.execute("DELETE FROM search_snapshots WHERE name LIKE ?", (name + "/%",))
        conn.executemany("INSERT INTO search_snapshots(name, part, generation, data) VALUES (?, ?, ?, ?)", rows)


def meta(conn: sqlite3.Connection, name: str) -> dict[str, Any] | None:
    row = conn.execute("SELECT data FROM search_snapshots WHERE name = ? AND part = 0",
                       (f"{name}/meta",)).fetchone()
    return json.loads(row[0]) if row else None


def load(conn: sqlite3.Connection, name: str, gen: int, dtypes: Sequence[tuple[str, Any]]) -> dict[str, np.ndarray]:
    out = {}
    for key, dtype in dtypes:
        parts = conn.execute("SELECT data FROM search_snapshots WHERE name = ? AND generation = ? "
                             "ORDER BY part", (f"{name}/{key}", gen)).fetchall()
        buf = bytearray()  # writable, so callers get ordinary arrays
        for p in parts:
            buf += p[0]
        out[key] = np.frombuffer(buf, dtype=dtype)
    return out


def positions_in(sorted_rowids: np.ndarray, rowids) -> np.ndarray:
    """Position of each papers.rowid in a sorted rowid array (-1 where absent)."""
    rowids = np.asarray(rowids, dtype=np.int64)
    if not len(sorted_rowids):
        return np.full(len(rowids), -1, dtype=np.int64)
    pos = np.clip(np.searchsorted(sorted_rowids, rowids), 0, len(sorted_rowids) - 1)
    return np.where(sorted_rowids[pos] == rowids, pos, -1)
