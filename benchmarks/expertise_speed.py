"""Expertise speed on ICML 2024 (2,634 papers, ~9,900 authors), warm (the second and later
calls of one process; the first builds the author index, the author-free term vectors, the
venue's adjacent-term-pair vectors and hubness, and the authors' centroid norms): `Library.match` for a 30-paper profile over the venue, and
`Library.reviewers` / `experts` over every author. Wall and CPU time per call and the load.

    .venv/bin/python benchmarks/expertise_speed.py   -> benchmarks/results/expertise_speed.json
"""
from __future__ import annotations

import statistics
import time

import numpy as np

import _search_data as data
from _run_info import run_info

RUNS = 7


def timed(fn) -> dict:
    wall, cpu = [], []
    for _ in range(RUNS):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return {"wall_median_s": round(statistics.median(wall), 4), "wall_max_s": round(max(wall), 4),
            "cpu_median_s": round(statistics.median(cpu), 4)}


def main() -> None:
    if not data.available():
        print("corpora not found: nothing to do")
        return
    lib = data.library("icml2024", data.dedupe(data.CORPUS["icml2024"]()), titles=True)
    idx = lib.expertise.authors()
    counts = idx.paper_counts()
    rng = np.random.default_rng(0)
    ids = [p["id"] for p in lib.papers()]
    profile = [ids[i] for i in rng.choice(len(ids), 30, replace=False)]
    papers = [ids[i] for i in rng.choice(len(ids), RUNS, replace=False)]
    out = {"papers": len(ids), "authors": idx.size, "authors_with_2_papers": int((counts >= 2).sum())}
    t, c = time.perf_counter(), time.process_time()
    lib.match(profile, venue="ICML", year=2024, limit=10)
    out["match_first_call"] = {"wall_s": round(time.perf_counter() - t, 3), "cpu_s": round(time.process_time() - c, 3)}
    out["match_30_paper_profile"] = timed(lambda: lib.match(profile, venue="ICML", year=2024, limit=10))
    out["match_all_ranked"] = timed(lambda: lib.match(profile, venue="ICML", year=2024, limit=None, explain=False))
    turn = iter(papers * 3)
    t, c = time.perf_counter(), time.process_time()
    lib.reviewers(next(turn), limit=10)  # builds the author index and the authors' centroid norms
    out["reviewers_first_call"] = {"wall_s": round(time.perf_counter() - t, 3),
                                   "cpu_s": round(time.process_time() - c, 3)}
    out["reviewers_paper"] = timed(lambda: lib.reviewers(next(turn), limit=10))
    out["reviewers_paper_fused"] = timed(lambda: lib.reviewers(next(turn), limit=10, aggregate="fused"))
    out["experts_topic"] = timed(lambda: lib.experts("conformal prediction under distribution shift", limit=10))
    out["load_average_at_end"] = [round(x, 2) for x in __import__("os").getloadavg()]
    out["run"] = run_info({"corpus": "icml2024_events (cached benchmark library)"}, "numpy", "scipy")
    for k, v in out.items():
        print(k, v)
    print(data.write_result("expertise_speed", out))


if __name__ == "__main__":
    main()
