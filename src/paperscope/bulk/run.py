"""`paperscope build`: inputs -> Parquet shards in an output folder.

1. Read and identify (driver, streaming): every input goes through `ingest.Ingester` into a
   staging library inside the output folder (`staging.db`), so identity keys, paper ids,
   merges and memberships follow exactly the rules of `paperscope ingest`. Identity is
   order-dependent (the first record of a paper names it), which is why this step is one
   sequential pass; it is cheap next to the model.
2. Plan: papers are cut into shards by row number (`shard_size` rows each; the layout is kept
   in the manifest so shards stay put across runs). A shard whose fingerprint (its papers,
   memberships, keys, the facts version and the model id) matches the manifest and whose files
   exist is finished: an interrupted or repeated build skips it.
3. Compute (engine): facts and embeddings for texts not in the content-hash cache (text hashes
   already present in any shard of the folder are copied, not recomputed), on the local
   process or on Ray workers.
4. Write (driver): the shard's three Parquet files, then the manifest.
"""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..model import InputError
from . import shards
from .engines import make_engine
from ..store.protocol import Store

SHARD_SIZE = 1000
MAX_SHARD_SIZE = 1_000_000  # papers per shard; a shard is computed and written in one piece
STAGING = "staging.db"
Say = Callable[[str], None]


def _fingerprint(papers: list[dict], members: list[dict], keys: list[tuple], versions: dict) -> str:
    h = hashlib.sha256(json.dumps(versions, sort_keys=True).encode())
    for p in papers:
        h.update(json.dumps([p[c] for c in sorted(p) if c not in ("facts", "facts_hash", "label")]).encode())
    for m in members:
        h.update(json.dumps([m[c] for c in sorted(m)]).encode())
    for k in keys:
        h.update(json.dumps(list(k)).encode())
    return h.hexdigest()


class Progress:
    """papers/s and ETA over the shards computed in this run (skipped shards not counted)."""

    def __init__(self, say: Say | None, total: int):
        self.say = say or (lambda text: None)
        self.total = total
        self.done = 0
        self.skipped = 0
        self.start = time.monotonic()

    def skip(self, n: int) -> None:
        self.skipped += n

    def add(self, n: int) -> str:
        self.done += n
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / elapsed
        left = self.total - self.skipped - self.done
        eta = left / rate if rate > 0 else float("inf")
        text = (f"build {self.done + self.skipped}/{self.total} papers, {rate:.1f} papers/s, "
                f"ETA {_duration(eta)}")
        self.say(text)
        return text


def _read_progress(say: Say | None, every: float = 5.0) -> Callable[[str, int, int], None]:
    """Ingester progress as a line every few seconds: records read and records/s per file."""
    last = [time.monotonic()]
    start = [last[0]]

    def update(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if phase == "files":  # a new file starts
            start[0], last[0] = now, now
        elif say and phase.startswith("ingest ") and now - last[0] >= every:
            last[0] = now
            say(f"read {phase[7:]}: {done} records, {done / max(now - start[0], 1e-9):.0f} records/s")
    return update


def _duration(seconds: float) -> str:
    if seconds == float("inf"):
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


def build(inputs: Iterable[str | Path], out: str | Path, *, engine: str = "local", address: str | None = None,
          workers: int | None = None, shard_size: int = SHARD_SIZE, fmt: str | None = None,
          venue: str | None = None, year: int | None = None, say: Say | None = None,
          embedder: Any = None) -> dict[str, Any]:
    """Build (or bring up to date) the shards of `inputs` in folder `out`; returns the report."""
    from ..enrich import FACTS_VERSION
    from ..ingest import Ingester
    from ..search.embedder import DIM, MODEL_ID
    from ..store import SQLiteStore

    shards.arrow()  # fail early without pyarrow
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    old = shards.read_manifest(folder) or {}
    versions = {"facts": FACTS_VERSION, "model": MODEL_ID, "dim": DIM}
    size = int(old.get("shard_size") or shard_size)
    if not 1 <= size <= MAX_SHARD_SIZE:
        raise InputError(f"--shard-size must be between 1 and {MAX_SHARD_SIZE:,} (got {shard_size})")
    eng = make_engine(engine, address=address, workers=workers, embedder=embedder)  # fails before any work
    wall0, cpu0 = time.monotonic(), time.process_time()
    staging = SQLiteStore(folder / STAGING)
    try:
        ingest = Ingester(staging, fmt=fmt, venue=venue, year=year, progress=_read_progress(say)).run(inputs)
        stages: dict[str, Any] = {"read": {"wall_s": time.monotonic() - wall0, "cpu_s": time.process_time() - cpu0}}
        lo, hi = staging.rowid_span()
        total = staging.count_papers()
        if not old.get("shard_size"):  # a new folder: cut so that every worker has a shard
            size = _planned_size(size, lo, hi, eng.workers)
        entries = {e["name"]: e for e in old.get("shards", [])}
        manifest = {"format": shards.FORMAT, "shard_size": size, "versions": versions,
                    "inputs": [{"path": f.path, "format": f.format, "records": f.records, "skipped": f.skipped,
                                "error": f.error} for f in ingest.files],
                    "shards": [], "counts": {}}
        # Shards and cache hold facts and vectors of the versions they were made with: other versions, no reuse.
        if old.get("versions") != versions:
            entries = {}
        cache_index = {h: name for name, e in entries.items() if shards.shard_complete(folder, e)
                       for h in shards.shard_hashes(folder, name)}
        report = {"engine": engine, "papers": total, "shards": 0, "shards_skipped": 0, "computed": 0,
                  "reused": 0, "memberships": 0, "keys": 0, "worker_pids": set(),
                  "ingest": {k: ingest.total(k) for k in ("added", "merged", "unchanged", "duplicates", "skipped")}}
        progress = Progress(say, total)
        done_entries: dict[str, dict] = {}
        report["workers"] = eng.workers
        cpu_stage = {"facts": 0.0, "embed": 0.0}
        write_wall = 0.0
        compute_wall0 = time.monotonic()
        jobs = _plan(staging, folder, lo, hi, size, versions, entries, cache_index, done_entries, report,
                     progress)
        for plan, result in eng.run(jobs):
            report["worker_pids"].add(result["pid"])
            for k in cpu_stage:
                cpu_stage[k] += result["stages"][k]
            t = time.monotonic()
            entry = _write_shard(folder, plan, result["rows"])
            write_wall += time.monotonic() - t
            done_entries[entry["name"]] = entry
            manifest["shards"] = [done_entries[n] for n in sorted(done_entries)]
            shards.write_manifest(folder, manifest)
            progress.add(entry["papers"])
        stages["compute"] = {"wall_s": time.monotonic() - compute_wall0, "facts_cpu_s": cpu_stage["facts"],
                             "embed_cpu_s": cpu_stage["embed"], "write_wall_s": write_wall}
        manifest["shards"] = [done_entries[n] for n in sorted(done_entries)]
        manifest["counts"] = {"papers": sum(e["papers"] for e in manifest["shards"]),
                              "memberships": sum(e["memberships"] for e in manifest["shards"]),
                              "keys": sum(e["keys"] for e in manifest["shards"]),
                              "collections": len({c["name"] for c in staging.collection_stats()})}
        shards.write_manifest(folder, manifest)
    finally:
        staging.close()
        eng.close()
    report["worker_pids"] = sorted(report["worker_pids"])
    report["stages"] = stages
    report["counts"] = manifest["counts"]
    return report


def _planned_size(size: int, lo: int, hi: int, workers: int) -> int:
    """Papers per shard for a new build folder: at most `size`, and small enough that the
    rows lo..hi give each of `workers` a shard (95 papers, 2 workers: 48, not one shard of 95).
    The manifest keeps it, so later runs on the folder cut the same shards."""
    rows = hi - lo + 1 if hi else 0
    return max(1, min(size, -(-rows // max(1, workers)))) if rows else size


def _plan(staging: Store, folder: Path, lo: int, hi: int, size: int, versions: dict, entries: dict,
          cache_index: dict, done_entries: dict, report: dict, progress: Progress) -> Iterator[tuple[dict, list]]:
    """Jobs (shard plan, texts to compute), one shard at a time; finished shards are recorded
    in `done_entries` without a job."""
    if hi == 0:
        return
    first_shard = (lo - 1) // size
    for number in range(first_shard, (hi - 1) // size + 1):
        name = shards.shard_name(number)
        first, last = number * size + 1, (number + 1) * size
        papers = staging.export_papers(first, last)
        if not papers:
            continue
        members = staging.export_memberships(first, last)
        keys = staging.export_keys(first, last)
        fp = _fingerprint(papers, members, keys, versions)
        report["shards"] += 1
        report["memberships"] += len(members)
        report["keys"] += len(keys)
        old = entries.get(name)
        if old and old.get("fingerprint") == fp and shards.shard_complete(folder, old):
            done_entries[name] = old
            report["shards_skipped"] += 1
            progress.skip(len(papers))
            continue
        reuse: dict[str, dict] = {}
        by_shard: dict[str, list[str]] = {}
        for p in papers:
            src = cache_index.get(p["text_hash"])
            if src:
                by_shard.setdefault(src, []).append(p["text_hash"])
        for src, hashes in by_shard.items():
            for h, row in shards.cached_rows(folder, src, hashes).items():
                reuse[h] = row
        todo: dict[str, dict] = {}
        for p in papers:
            if p["text_hash"] not in reuse and p["text_hash"] not in todo:
                todo[p["text_hash"]] = {"text_hash": p["text_hash"], "title": p["title"], "abstract": p["abstract"]}
        report["computed"] += len(todo)
        report["reused"] += len({p["text_hash"] for p in papers} - set(todo))
        plan = {"name": name, "first": first, "last": last, "papers": papers, "members": members, "keys": keys,
                "fingerprint": fp, "reuse": reuse, "facts_version": versions["facts"]}
        yield plan, list(todo.values())


def _write_shard(folder: Path, plan: dict, computed: list[dict]) -> dict:
    made = {r["text_hash"]: r for r in computed}
    rows = []
    for p in plan["papers"]:
        got = made.get(p["text_hash"]) or plan["reuse"][p["text_hash"]]
        label = p["title"] or json.loads(got["facts"]).get("label") or None
        rows.append({**p, "facts": got["facts"], "label": label,
                     "facts_hash": f"{p['text_hash']}:{plan['facts_version']}", "vector": got["vector"]})
    name = plan["name"]
    shards.write_table(folder, "members", name, plan["members"])
    shards.write_table(folder, "keys", name, [{"key": k, "paper_id": pid} for k, pid in plan["keys"]])
    shards.write_table(folder, "papers", name, rows)  # last: its presence marks the shard whole
    return {"name": name, "first_rowid": plan["first"], "last_rowid": plan["last"], "papers": len(rows),
            "memberships": len(plan["members"]), "keys": len(plan["keys"]), "computed": len(made),
            "fingerprint": plan["fingerprint"]}
