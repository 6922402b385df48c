"""What the weak-match grade and the second-stage feature rows cost per hybrid query at 26 k
papers: hybrid.rank latency (query vectors precomputed, so the encoder is left out) and the CPU
time spent in ranker.features / ranker.weak, the parts this stage added. Wall times on a shared
machine are noisy: the result records the load and CPU times beside them.

    .venv/bin/python benchmarks/search_relevance_speed.py   -> benchmarks/results/search_relevance_speed.json
"""
from __future__ import annotations

import sys
import time

import _search_data as data
import _search_eval as ev
from _run_info import run_info
from search_speed import percentiles, query_set

LIBRARY = "scale-26k"


def main() -> int:
    from paperscope.library import Library
    from paperscope.search import hybrid, ranker, semantic
    from paperscope.search.engine import SearchEngine

    db = data.CACHE / f"{LIBRARY}.db"
    if not db.exists():
        print(f"{db.name} not found (made by search_speed.py): skipped")
        return 0
    lib = Library.open(db, readonly=True)
    queries = [hybrid.prepare(t) for t in query_set(200)]
    vecs = lib.engine.embed([q.text for q in queries])
    eng = SearchEngine(lib.store, ev.PrecomputedEmbedder(lib.engine.embedder, [q.text for q in queries], vecs))
    added = {"features": 0.0, "weak": 0.0}
    real_features, real_weak = ranker.features, ranker.weak

    def timed(name, fn):
        def wrapper(*a, **kw):
            t = time.process_time()
            try:
                return fn(*a, **kw)
            finally:
                added[name] += time.process_time() - t
        return wrapper

    ranker.features, ranker.weak = timed("features", real_features), timed("weak", real_weak)
    wall, cpu = [], []
    try:
        with semantic.single_threaded_blas():
            for q in queries[:20]:  # warm-up
                eng.rank(q, mode="hybrid", limit=20)
            added = {"features": 0.0, "weak": 0.0}
            for q in queries:
                t, c = time.perf_counter(), time.process_time()
                eng.rank(q, mode="hybrid", limit=20)
                wall.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
    finally:
        ranker.features, ranker.weak = real_features, real_weak
        size = lib.engine.lexical().size
        lib.close()
    out = {"papers": size, "queries": len(queries), "hybrid_rank_wall": percentiles(wall),
           "hybrid_rank_cpu": percentiles(cpu),
           "added_cpu_ms_per_query": {k: round(v * 1000 / len(queries), 3) for k, v in added.items()},
           "added_share_of_rank_cpu": round(sum(added.values()) * 1000 / max(sum(cpu), 1e-9), 4),
           "run": run_info({"library": f"benchmarks/.cache/{LIBRARY}.db (search_speed.py)"}, "numpy")}
    print(out)
    print("written", data.write_result("search_relevance_speed", out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
