"""CPU cost of one uncached search, stage by stage, at 26 k papers; and the CPU a real
`paperscope serve` process spends per unique `/api/search` request.

    .venv/bin/python benchmarks/search_profile.py [--size 26000] [--queries 300] [--label after]

Part 1 (in process): every query is new (no response cache, no query repeats); the stages are
timed with the process CPU clock around the functions that make them up, with the query
embedding run inline (in the product it overlaps lexical scoring on a worker thread), so each
stage's CPU is its own. "other" is the rest of `Library.search` (glue, hit objects).
Part 2 (real server, `--workers 1`, response cache off): the same number of new queries sent one
after another; the server process's CPU time (user + system, from /proc) divided by the
requests is the CPU-ms per query that bounds throughput: 2 cores / CPU-ms.

The library is the one benchmarks/_search_scale.py builds (real corpora title-less, near-copies
up to the size). Results: benchmarks/results/search_profile_<label>.json (merged by label).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

import _search_data as data
import _search_scale as scale
from _run_info import run_info

STAGES = ["parse", "filters", "query embedding", "lexical terms", "lexical scoring", "vector scan",
          "fusion + rerank", "row fetch", "user marks", "snippets", "JSON render", "other"]


def unique_queries(lib, n: int, seed: int = 11) -> list[str]:
    """n distinct 2-4 word spans of abstracts (about 15 % quoted phrases)."""
    rng = random.Random(seed)
    rows = lib.store.conn.execute("SELECT abstract FROM papers ORDER BY rowid").fetchall()
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        words = re.findall(r"[A-Za-z][A-Za-z-]{3,}", rows[rng.randrange(len(rows))][0] or "")
        if len(words) < 4:
            continue
        k = rng.choice([2, 3, 4])
        start = rng.randrange(len(words) - k + 1)
        q = " ".join(words[start:start + k]).lower()
        q = f'"{q}"' if rng.random() < 0.15 else q
        if q not in seen:
            seen.add(q)
            out.append(q)
    return out


class Clock:
    """Accumulates process CPU seconds per stage; nested stages are charged to the innermost."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {s: 0.0 for s in STAGES}
        self.stack: list[list] = []

    @contextmanager
    def stage(self, name: str):
        t0 = time.process_time()
        self.stack.append([name, 0.0])
        try:
            yield
        finally:
            _, inner = self.stack.pop()
            took = time.process_time() - t0
            self.spent[name] += took - inner
            if self.stack:
                self.stack[-1][1] += took

    def wrap(self, owner, attr: str, name: str) -> None:
        fn = getattr(owner, attr)

        def timed(*a, **kw):
            with self.stage(name):
                return fn(*a, **kw)

        setattr(owner, attr, timed)


class Inline:
    """An executor whose submit runs the call at once (no overlap: stage CPU is its own)."""

    def submit(self, fn, *a, **kw):
        f: Future = Future()
        f.set_result(fn(*a, **kw))
        return f


def profile(lib, queries: list[str], warm: list[str]) -> dict:
    from paperscope.search import filters, fusion, hybrid, lexical, rerank, semantic, snippets
    from paperscope.web.deps import hits_json
    from starlette.responses import JSONResponse

    clock = Clock()
    hybrid._EMBEDDING = Inline()
    engine = lib.engine
    clock.wrap(hybrid, "prepare", "parse")
    clock.wrap(filters, "allowed_mask", "filters")
    clock.wrap(engine, "embed", "query embedding")
    clock.wrap(hybrid, "query_groups", "lexical terms")
    clock.wrap(lexical.LexicalIndex, "scores", "lexical scoring")
    clock.wrap(semantic.VectorIndex, "top", "vector scan")
    for owner, attr in ((fusion, "fuse"), (rerank, "apply"), (hybrid, "_cosines")):
        clock.wrap(owner, attr, "fusion + rerank")
    clock.wrap(engine, "papers_at", "row fetch")
    clock.wrap(lib, "_with_marks", "user marks")
    clock.wrap(snippets, "snippet", "snippets")

    def one(q: str) -> None:
        with clock.stage("other"):
            hits = lib.search(q, limit=20)
            with clock.stage("JSON render"):
                JSONResponse(hits_json(hits)).body

    for q in warm:
        one(q)
    clock.spent = {s: 0.0 for s in STAGES}
    t0, w0 = time.process_time(), time.perf_counter()
    for q in queries:
        one(q)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    n = len(queries)
    table = {s: round(1000 * v / n, 3) for s, v in clock.spent.items()}
    return {"queries": n, "cpu_ms_per_query": round(1000 * cpu / n, 2), "wall_ms_per_query": round(1000 * wall / n, 2),
            "stages_cpu_ms": table}


def server_cpu(db: Path, queries: list[str], warm: list[str]) -> dict:
    """CPU-ms per unique /api/search request in a real single-worker server."""
    import http.client
    from urllib.parse import urlencode

    sys.path.insert(0, str(Path(__file__).parent))
    from web_load import _wait, start_server

    proc, port = start_server(db, pool=1, workers=1, cache=False)
    try:
        _wait(port)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def get(q: str) -> None:
            conn.request("GET", "/api/search?" + urlencode({"query": q, "limit": 20}))
            r = conn.getresponse()
            r.read()
            assert r.status == 200, r.status

        for q in warm:
            get(q)
        c0, w0 = _proc_cpu(proc.pid), time.perf_counter()
        for q in queries:
            get(q)
        cpu, wall = _proc_cpu(proc.pid) - c0, time.perf_counter() - w0
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    per = 1000 * cpu / len(queries)
    return {"requests": len(queries), "server_cpu_ms_per_request": round(per, 2),
            "wall_ms_per_request": round(1000 * wall / len(queries), 2),
            "bound_2_cores_rps": round(2000 / per, 1)}


def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process and its children threads (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=26_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--label", default="current")
    ap.add_argument("--no-server", action="store_true")
    ap.add_argument("--repeated", action="store_true", help="also profile the same queries a second time")
    args = ap.parse_args()
    if not data.CORPORA.is_dir():
        print(f"skipped: no corpora at {data.CORPORA}")
        return 0
    lib, _ = scale.scale_library(args.size)
    qs = unique_queries(lib, args.queries + 40)
    warm, queries = qs[:40], qs[40:]
    load_before = os.getloadavg()
    result = {"label": args.label, "papers": lib.store.count_papers(), "in_process": profile(lib, queries, warm)}
    if args.repeated:  # the same queries again: what the query-vector LRU and the paper cache save
        result["in_process_repeated"] = profile(lib, queries, [])
    db = Path(lib.path)
    lib.close()
    if not args.no_server:
        server_qs = unique_queries_from(db, args.queries + 40, seed=29)
        result["server"] = server_cpu(db, server_qs[40:], server_qs[:40])
    result["load_average_before_after"] = [list(load_before), list(os.getloadavg())]
    result.update(run_info({"library": f"benchmarks/.cache/{db.name} (_search_scale.scale_library)",
                            "queries": "unique 2-4 word spans of abstracts, 15 % quoted"},
                           "numpy", "onnxruntime", "fastapi", "uvicorn"))
    out = data.RESULTS / f"search_profile_{args.label}.json"
    out.write_text(json.dumps(result, indent=2))
    p = result["in_process"]
    print(f"{result['papers']} papers, {p['queries']} unique queries: {p['cpu_ms_per_query']} CPU-ms/query in process")
    print("| stage | CPU ms |\n|---|---|")
    for s, v in p["stages_cpu_ms"].items():
        print(f"| {s} | {v} |")
    if "in_process_repeated" in result:
        r = result["in_process_repeated"]
        print(f"repeated queries: {r['cpu_ms_per_query']} CPU-ms/query;",
              ", ".join(f"{k} {v}" for k, v in r["stages_cpu_ms"].items()))
    if "server" in result:
        print("server:", result["server"])
    print("load average before/after:", result["load_average_before_after"])
    print(f"-> {out}")
    return 0


def unique_queries_from(db: Path, n: int, seed: int) -> list[str]:
    from paperscope.library import Library

    with Library.open(db, readonly=True) as lib:
        return unique_queries(lib, n, seed)


if __name__ == "__main__":
    sys.exit(main())
