"""Two source trees of paperscope side by side on the same uncached searches: CPU-ms per
search, alternating fresh processes so that a host whose speed drifts (shared virtual
machines do, by +-20 % within minutes) hits both alike; the median of the rounds is reported.

    .venv/bin/python benchmarks/search_ab.py --old-src OLD/src [--rounds 5] [--queries 500] [--size 26000]

OLD/src: e.g. `git worktree add ../old <commit>`, then ../old/src. The library is the one
benchmarks/_search_scale.py builds; queries are unique 2-4 word spans of titles or abstracts
(15 % quoted), the same for both trees, after 100 warm-up queries.
JSON: benchmarks/results/search_ab.json
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _run_info import run_info  # noqa: E402

ONE = """
import json, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
from urllib.parse import urlparse, parse_qs
import web_load
import paperscope
from paperscope.library import Library
db = Path({db!r})
qs = [parse_qs(urlparse(u).query)["q"][0] for u in web_load.unique_searches(db, {n} + 100, seed=99)]
lib = Library.open(db, readonly=True)
for q in qs[:100]:
    lib.search(q, limit=20)
c = time.process_time()
for q in qs[100:]:
    lib.search(q, limit=20)
print(json.dumps({{"cpu_ms": (time.process_time() - c) / {n} * 1000}}))
"""


def one(src: Path | None, db: Path, n: int) -> float:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    code = ONE.format(bench=str(HERE), db=str(db), n=n)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])["cpu_ms"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old-src", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--size", type=int, default=26_000)
    args = ap.parse_args()
    import _search_scale as scale

    lib, _ = scale.scale_library(args.size)
    db = Path(lib.path)
    lib.close()
    old_commit = subprocess.run(["git", "-C", str(args.old_src), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or "unknown"
    rows = {"old": [], "new": []}
    loads = []
    for _ in range(args.rounds):
        rows["old"].append(round(one(args.old_src, db, args.queries), 2))
        rows["new"].append(round(one(None, db, args.queries), 2))
        loads.append(round(os.getloadavg()[0], 2))
        print(f"old {rows['old'][-1]} ms  new {rows['new'][-1]} ms  load {loads[-1]}", flush=True)
    med = {k: statistics.median(v) for k, v in rows.items()}
    result = {"cpu_ms_per_search": rows, "median": med, "change": round(med["new"] / med["old"] - 1, 3),
              "old_tree_commit": old_commit, "queries_per_round": args.queries, "load_after_each_round": loads,
              **run_info({"library": f"benchmarks/.cache/{db.name} (_search_scale.scale_library)",
                          "queries": "web_load.unique_searches(seed=99): unique 2-4 word spans, 15 % quoted"},
                         "numpy", "onnxruntime")}
    out = HERE / "results" / "search_ab.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"median old {med['old']} ms, new {med['new']} ms ({100 * result['change']:+.0f} %) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
