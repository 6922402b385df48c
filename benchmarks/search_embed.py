"""The embedding runtime: model-ready time in a fresh process, abstracts/s by threads, max
tokens and batch size (wall clock and per CPU-second, so a busy machine can be read too),
query-embedding latency, and the graph-optimisation level's load/speed trade-off.

    .venv/bin/python benchmarks/search_embed.py      -> benchmarks/results/search_embed.json
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

import _search_data as data

READY = r"""
import time, json
t0 = time.perf_counter()
from paperscope.search.embedder import Embedder
t1 = time.perf_counter()
e = Embedder()
t2 = time.perf_counter()
e.embed(["flow matching for generative models"])
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "first_query_s": t3 - t2, "ready_s": t3 - t0}))
"""


def model_ready(runs: int = 5) -> dict:
    rows = []
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-c", READY], capture_output=True, text=True, check=True)
        rows.append(json.loads(p.stdout))
    return {k: round(statistics.median(r[k] for r in rows), 3) for k in rows[0]} | {"runs": runs}


def throughput(texts: list[str]) -> list[dict]:
    from paperscope.search.embedder import Embedder

    rows = []
    for max_tokens in (256, 192, 128):
        for threads in (2, 1):
            e = Embedder(max_tokens=max_tokens, threads=threads)
            e.embed(texts[:8])
            for batch in (32, 8):
                wall, cpu = time.perf_counter(), time.process_time()
                e.embed(texts, batch_size=batch)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                row = {"max_tokens": max_tokens, "threads": threads, "batch": batch,
                       "abstracts_per_s": round(len(texts) / wall, 1),
                       "cpu_ms_per_abstract": round(1000 * cpu / len(texts), 1),
                       "loadavg": round(os.getloadavg()[0], 2)}
                rows.append(row)
                print(f"  max {max_tokens:3d} threads {threads} batch {batch:2d}: {row['abstracts_per_s']:5.1f}/s wall, "
                      f"{row['cpu_ms_per_abstract']:.0f} CPU-ms each (load {row['loadavg']})", flush=True)
    return rows


def query_latency() -> dict:
    from paperscope.search.embedder import get_embedder

    e = get_embedder()
    queries = [r["title"] for r in data.iclr2020()[:100]]
    e.embed(queries[:3])
    ms = []
    for q in queries:
        t = time.perf_counter()
        e.embed([q])
        ms.append((time.perf_counter() - t) * 1000)
    ms.sort()
    return {"p50_ms": round(ms[len(ms) // 2], 2), "p95_ms": round(ms[int(len(ms) * 0.95)], 2), "n": len(ms)}


def main() -> int:
    if not data.available():
        print("corpora not found: skipped")
        return 0
    records = data.iclr2020()
    texts = [r["abstract"] for r in records[:160]]
    print("model ready (fresh process, median of 5):", flush=True)
    ready = model_ready()
    print("  ", ready, flush=True)
    print("throughput on 160 ICLR 2020 abstracts:", flush=True)
    rows = throughput(texts)
    lat = query_latency()
    print("query embedding:", lat)
    out = {"model_ready": ready, "throughput": rows, "query_embedding": lat, "machine": data.machine(),
           "note": "cpu_ms_per_abstract counts every thread's CPU time; on 2 idle cores the wall rate "
                   "is about 2 * 1000 / cpu_ms_per_abstract of the 1-thread rows"}
    print("written", data.write_result("search_embed", out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
