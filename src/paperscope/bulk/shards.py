"""Parquet shards of a build folder and its manifest.

A shard is three files named by its number: `papers-NNNNN.parquet` (every stored paper column,
facts and the float16 embedding), `members-NNNNN.parquet` (memberships with collection and
source spelled out) and `keys-NNNNN.parquet` (identity keys). Files are written to a temporary
name and renamed, and `manifest.json` is rewritten (also by rename) after each finished shard,
so an interrupted build leaves only whole shards behind and resumes from them."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ..model import InputError
from ..store.sqlite_bulk import BULK_COLUMNS

MANIFEST = "manifest.json"
FORMAT = 1


def arrow():
    """pyarrow and pyarrow.parquet, or a clear message when the extra is missing."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise InputError("paperscope build/load need pyarrow: pip install 'paperscope[cluster]'") from exc
    return pa, pq


def _schemas():
    pa, _ = arrow()
    papers = pa.schema([("rowid", pa.int64())] + [(c, pa.string()) for c in BULK_COLUMNS] + [("vector", pa.binary())])
    members = pa.schema([("paper_id", pa.string()), ("collection", pa.string()), ("venue", pa.string()),
                         ("year", pa.int64()), ("source", pa.string()), ("sha256", pa.string()),
                         ("format", pa.string()), ("position", pa.int64()), ("status", pa.string())])
    keys = pa.schema([("key", pa.string()), ("paper_id", pa.string())])
    return {"papers": papers, "members": members, "keys": keys}


def shard_name(number: int) -> str:
    return f"{number:05d}"


def shard_file(folder: Path, kind: str, name: str) -> Path:
    return folder / f"{kind}-{name}.parquet"


def write_table(folder: Path, kind: str, name: str, rows: list[dict[str, Any]]) -> None:
    pa, pq = arrow()
    schema = _schemas()[kind]
    table = pa.Table.from_pylist(rows, schema=schema)
    path = shard_file(folder, kind, name)
    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def read_table(folder: Path, kind: str, name: str, columns: list[str] | None = None) -> list[dict[str, Any]]:
    _, pq = arrow()
    return pq.read_table(shard_file(folder, kind, name), columns=columns).to_pylist()


def cached_rows(folder: Path, name: str, hashes: Iterable[str]) -> dict[str, dict[str, Any]]:
    """{text hash: {facts, facts_hash, label, vector}} for the given hashes found in a shard."""
    wanted = set(hashes)
    path = shard_file(folder, "papers", name)
    if not wanted or not path.is_file():
        return {}
    out = {}
    for r in read_table(folder, "papers", name, ["text_hash", "facts", "facts_hash", "label", "title", "vector"]):
        if r["text_hash"] in wanted and r["vector"] is not None:
            out[r["text_hash"]] = r
    return out


def shard_hashes(folder: Path, name: str) -> list[str]:
    path = shard_file(folder, "papers", name)
    if not path.is_file():
        return []
    return [r["text_hash"] for r in read_table(folder, "papers", name, ["text_hash"])]


# ---------------------------------------------------------------------- manifest
def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.is_file():
        return None
    data = json.loads(path.read_text("utf-8"))
    if data.get("format") != FORMAT:
        raise InputError(f"{path}: build format {data.get('format')!r}, this paperscope reads {FORMAT}")
    return data


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    path = folder / MANIFEST
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=1, ensure_ascii=False), "utf-8")
    os.replace(tmp, path)


def shard_complete(folder: Path, entry: dict[str, Any] | None) -> bool:
    return bool(entry) and all(shard_file(folder, k, entry["name"]).is_file() for k in ("papers", "members", "keys"))
