"""Search speed at 2.6 k, 26 k and 260 k papers: warm query latency p50/p95/p99 per mode
(query embedding included), FTS5's own bm25() ranking as the alternative we replaced, the
PCA first pass's recall, peak RSS, cold one-shot CLI time, and ingest + embed throughput.
How the libraries are made: see _search_scale.py.

    .venv/bin/python benchmarks/search_speed.py                -> benchmarks/results/search_speed.json
    .venv/bin/python benchmarks/search_speed.py --sizes 2634 26000   (skip the 260 k library)
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import _search_data as data

SIZES = (2634, 26_000, 260_000)
QUERIES = 200


def percentiles(ms: list[float]) -> dict:
    a = np.asarray(ms)
    return {"p50_ms": round(float(np.percentile(a, 50)), 2), "p95_ms": round(float(np.percentile(a, 95)), 2),
            "p99_ms": round(float(np.percentile(a, 99)), 2), "mean_ms": round(float(a.mean()), 2), "n": len(a)}


def query_set(n: int, seed: int = 1) -> list[str]:
    """Half real titles (known-item style, 5-15 words), half 1-3 keyword queries (ICLR 2020
    keywords, often very common terms such as 'reinforcement learning')."""
    rng = random.Random(seed)
    titles = [r["title"] for r in data.icml2024() + data.nips()]
    keywords = sorted({k for r in data.iclr2020() for k in r["keywords"]})
    return [rng.choice(titles) if i % 2 == 0 else rng.choice(keywords) for i in range(n)]


def warm(size: int) -> dict:
    """Runs in its own process (peak RSS is per process)."""
    import _search_scale as scale
    from paperscope.search import fusion, semantic
    from paperscope.search.embedder import get_embedder

    lib, info = scale.scale_library(size)
    n = lib.store.count_papers()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t = time.perf_counter()
    get_embedder()
    model_s = time.perf_counter() - t
    t = time.perf_counter()
    lib.engine.lexical()
    lexical_s = time.perf_counter() - t
    t = time.perf_counter()
    vec = lib.engine.vectors()
    vectors_s = time.perf_counter() - t
    queries = query_set(QUERIES)
    out = {"papers": n, "build": info, "load_seconds": {"model": round(model_s, 3), "lexical_index": round(lexical_s, 3),
                                                         "vectors": round(vectors_s, 3)}}
    for q in queries[:5]:  # warm-up (first touch of pages, PCA first pass at >= 60 k)
        lib.search(q, limit=10)
    for mode in ("lexical", "semantic", "hybrid"):
        ms, cpu = [], []
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            lib.search(q, mode=mode, limit=10)
            ms.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        out[mode] = percentiles(ms) | {"cpu_" + k: v for k, v in percentiles(cpu).items() if k != "n"}
        out[mode]["loadavg"] = round(os.getloadavg()[0], 2)
    ms = []
    for q in queries:  # with a venue filter (the mask is cached per filter)
        t = time.perf_counter()
        lib.search(q, limit=10, venue="NIPS" if n > 3000 else "ICML")
        ms.append((time.perf_counter() - t) * 1000)
    out["hybrid + venue filter"] = percentiles(ms)
    ms = []
    ids = [p["id"] for p in lib.papers(limit=QUERIES)]
    for pid in ids[:50]:
        t = time.perf_counter()
        lib.related(pid, limit=10)
        ms.append((time.perf_counter() - t) * 1000)
    out["related"] = percentiles(ms)
    out["fts5 bm25() ranking, top 100 (alternative)"] = fts5_latency(lib, queries)
    if vec.size >= semantic.COARSE_MIN:
        out["semantic first-pass recall@10 vs exact"] = coarse_recall(vec, queries[:50])
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out["rss_after_open_mb"] = round(rss0, 1)
    out["fusion"] = {"method": fusion.DEFAULT.method, "pool": fusion.POOL}
    lib.close()
    return out


def fts5_latency(lib, queries: list[str]) -> dict:
    """Same words as an FTS5 OR query ranked by FTS5's bm25() (what the lexical index replaces)."""
    from paperscope.search.query import fts_phrase, parse

    ms = []
    for q in queries:
        words = [w for w in parse(q).text.split() if any(c.isalnum() for c in w)]
        if not words:
            continue
        expr = " OR ".join(fts_phrase(w) for w in words)
        t = time.perf_counter()
        lib.store.conn.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? "
                               "ORDER BY bm25(papers_fts, 3, 1, 1, 1, 1.5) LIMIT 100", (expr,)).fetchall()
        ms.append((time.perf_counter() - t) * 1000)
    return percentiles(ms)


def coarse_recall(vec, queries: list[str]) -> float:
    from paperscope.search.embedder import get_embedder

    qv = get_embedder().embed(queries)
    hits = 0
    for v in qv:
        exact = set(np.argsort(-(vec.matrix @ v))[:10].tolist())
        rows, _ = vec.top(v, 10)
        hits += len(exact & set(rows.tolist()))
    return round(hits / (10 * len(qv)), 4)


def cold_cli(size: int, runs: int = 5) -> dict:
    """Wall time of `python -m paperscope search ... --json` in a fresh process."""
    import _search_scale as scale

    lib, _ = scale.scale_library(size)
    path = lib.path
    lib.close()
    env = {**os.environ, "PAPERSCOPE_DB": str(path)}
    out = {}
    for mode in ("hybrid", "lexical"):
        times = []
        for q in query_set(runs, seed=7):
            t = time.perf_counter()
            p = subprocess.run([sys.executable, "-m", "paperscope", "search", q, "--mode", mode,
                                "--json", "-n", "10"], env=env, capture_output=True, text=True)
            times.append(time.perf_counter() - t)
            assert p.returncode == 0, p.stderr
        out[mode] = {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3), "runs": runs}
    return out


def ingest_throughput() -> dict:
    """A fresh library from the real ICLR 2020 CSV (687 papers): ingest, then embedding."""
    import tempfile

    from paperscope.library import Library

    src = data.CORPORA / "iclr2020_miniconf" / "papers.csv"
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(os.path.join(tmp, "lib.db"))
        t = time.perf_counter()
        report = lib.ingest([src], embed=False)
        ingest_s = time.perf_counter() - t
        t = time.perf_counter()
        embedded = lib.refresh_derived(embed=True)["embedded"]
        embed_s = time.perf_counter() - t
        n = report.to_dict()["added"]
        lib.close()
    return {"papers": n, "ingest_s": round(ingest_s, 1), "ingest_papers_per_s": round(n / ingest_s, 1),
            "embed_s": round(embed_s, 1), "embedded": embedded,
            "embed_papers_per_s": round(embedded / embed_s, 1),
            "ingest_plus_embed_papers_per_s": round(n / (ingest_s + embed_s), 1)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    ap.add_argument("--warm", type=int, help=argparse.SUPPRESS)  # internal: one size, JSON out
    ap.add_argument("--build", type=int, help=argparse.SUPPRESS)  # internal: make the library
    args = ap.parse_args()
    if not data.available():
        print("corpora not found: skipped")
        return 0
    if args.build:
        import _search_scale as scale

        lib, info = scale.scale_library(args.build)
        lib.close()
        print(json.dumps(info))
        return 0
    if args.warm:
        print(json.dumps(warm(args.warm)))
        return 0
    result = {"machine": data.machine(), "sizes": {}}
    for size in args.sizes:
        print(f"== {size} papers", flush=True)
        built = subprocess.run([sys.executable, __file__, "--build", str(size)], capture_output=True, text=True)
        if built.returncode != 0:
            print(built.stderr[-3000:])
            return 1
        p = subprocess.run([sys.executable, __file__, "--warm", str(size)], capture_output=True, text=True)
        if p.returncode != 0:
            print(p.stderr[-3000:])
            return 1
        sys.stderr.write("".join(line + "\n" for line in p.stdout.splitlines()[:-1]))
        row = json.loads(p.stdout.splitlines()[-1])
        row["build"] = json.loads(built.stdout.splitlines()[-1]) or row["build"]
        if 20_000 <= size <= 30_000:
            row["cold_cli"] = cold_cli(size)
        result["sizes"][str(size)] = row
        print(json.dumps({k: row[k] for k in ("papers", "lexical", "semantic", "hybrid", "peak_rss_mb")}), flush=True)
    result["ingest_throughput"] = ingest_throughput()
    result["machine"]["loadavg_at_end"] = list(os.getloadavg())
    print("written", data.write_result("search_speed", result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
