"""Quick spot check of the search speed targets on an already-built scale library (the ones
`search_speed.py` caches in benchmarks/.cache): embedding throughput and model-ready time,
warm hybrid latency with real ICML titles as queries, and cold one-shot CLI searches.
Run it on an idle machine; writes benchmarks/results/search_spot_check.json.

    .venv/bin/python benchmarks/search_spot_check.py [--db benchmarks/.cache/scale-260k.db]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICML = ROOT.parent / "shared" / "corpora" / "icml2024_events" / "icml2024_events.json"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(len(values) * q))], 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path, default=ROOT / "benchmarks" / ".cache" / "scale-260k.db")
    ap.add_argument("--cold-db", type=Path, default=ROOT / "benchmarks" / ".cache" / "scale-26k.db")
    args = ap.parse_args()
    posters = [p for p in json.loads(ICML.read_text()) if p.get("type") == "Poster"]
    out: dict = {"loadavg_start": os.getloadavg()}

    t0 = time.perf_counter()
    from paperscope.search.embedder import Embedder

    embedder = Embedder()
    embedder.embed(["warm up"])
    out["model_ready_s"] = round(time.perf_counter() - t0, 2)
    texts = [p["abstract"] for p in posters[:600]]
    t = time.perf_counter()
    embedder.embed(texts)
    out["embed_abstracts_per_s"] = round(len(texts) / (time.perf_counter() - t), 1)

    from paperscope.library import Library

    lib = Library.open(args.db, readonly=True)
    out["papers"] = lib.stats()["papers"]
    queries = [p["name"] for p in posters]
    random.Random(0).shuffle(queries)
    t = time.perf_counter()
    lib.search("warm up", limit=10)
    out["first_query_s"] = round(time.perf_counter() - t, 2)
    for q in queries[:20]:
        lib.search(q, limit=10)
    times = []
    for q in queries[20:320]:
        t = time.perf_counter()
        lib.search(q, limit=10)
        times.append((time.perf_counter() - t) * 1000)
    out["hybrid_ms"] = {"n": len(times), "p50": pct(times, .5), "p95": pct(times, .95), "p99": pct(times, .99)}
    lib.close()

    cold = []
    for q in queries[320:325]:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "paperscope", "--db", str(args.cold_db), "search", q,
                        "--limit", "5", "--json"], check=True, capture_output=True)
        cold.append(round(time.perf_counter() - t, 2))
    out["cold_cli_search_s"] = {"db": args.cold_db.name, "runs": cold}
    out["loadavg_end"] = os.getloadavg()
    print(json.dumps(out, indent=2))
    (ROOT / "benchmarks" / "results" / "search_spot_check.json").write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
