"""Tune lexical (BM25 k1, b), fusion and second-stage (rerank) parameters on known-item search over ICLR 2020 and NIPS
2013-18 with titles hidden. ICML 2024, which search_quality.py reports, is never used here.

    .venv/bin/python benchmarks/search_tune.py      -> benchmarks/results/search_tune.json
"""
from __future__ import annotations

import sys
import time

import numpy as np

import _search_data as data
import _search_eval as ev

TUNE_ON = ("iclr2020", "nips")


def bm25_grid(names) -> list[dict]:
    """Lexical-only MRR@10 for a grid of k1 and abstract b (the only fields a title-less
    library has are label and abstract)."""
    from paperscope.search import hybrid, lexical

    libs = {n: data.library(n, data.dedupe(data.CORPUS[n]()), titles=False) for n in names}
    prepared = {}
    for n, lib in libs.items():
        index = lib.engine.lexical()
        pos_of = {int(r): i for i, r in enumerate(index.rowids)}
        rowid_of = lib.store.rowids_of_ids()
        found = [(r, data.paper_id(lib, r)) for r in data.dedupe(data.CORPUS[n]()) if r["title"]]
        pairs = [(hybrid.prepare(r["title"]), pos_of[rowid_of[pid]]) for r, pid in found if pid]
        prepared[n] = pairs
    rows = []
    for k1 in (0.9, 1.2, 1.5, 2.0):
        for b in (0.5, 0.75, 0.9):
            fb = list(lexical.FIELD_B)
            fb[2] = b
            row = {"k1": k1, "b_abstract": b}
            for n, lib in libs.items():
                index = lexical.build_from_store(lib.store, field_weights=lexical.FIELD_WEIGHTS,
                                                 field_b=tuple(fb), k1=k1)
                ranks = []
                for q, target in prepared[n]:
                    groups, _ = hybrid.query_groups(lib.engine, index, q)
                    ranks.append(ev.rank_of(index.scores(groups), target))
                row[n] = ev.metrics(ranks)["mrr@10"]
            row["mean"] = round(float(np.mean([row[n] for n in libs])), 4)
            rows.append(row)
            print(f"  k1={k1} b={b}: " + " ".join(f"{n}={row[n]:.4f}" for n in libs), flush=True)
    for lib in libs.values():
        lib.close()
    return rows


def fusion_grid(runs) -> list[dict]:
    from paperscope.search.fusion import FusionParams

    grid = [FusionParams("rrf", 1.0, 1.0, k) for k in (10, 30, 60)]
    grid += [FusionParams("zscore", w, 1.0) for w in (0.4, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0)]
    rows = []
    for p in grid:
        row = {"method": p.method, "lexical_weight": p.lexical_weight, "semantic_weight": p.semantic_weight,
               "rrf_k": p.rrf_k if p.method == "rrf" else None}
        for run in runs:
            row[run.name] = ev.evaluate(run, p)["mrr@10"]
        row["mean"] = round(float(np.mean([row[r.name] for r in runs])), 4)
        rows.append(row)
        print(f"  {p.method:6s} wl={p.lexical_weight:<4} k={p.rrf_k:<3}: "
              + " ".join(f"{r.name}={row[r.name]:.4f}" for r in runs), flush=True)
    return rows


def rerank_grid(names) -> list[dict]:
    """The second stage's weights (search/rerank.py), varied one at a time around the shipped
    values, scored through the product's own hybrid.rank."""
    from paperscope.search import hybrid, rerank

    shipped = (rerank.W_COVERAGE, rerank.W_GAP, rerank.W_BIGRAMS)
    prepared = {}
    for n in names:
        records = data.dedupe(data.CORPUS[n]())
        lib = data.library(n, records, titles=False)
        index = lib.engine.lexical()
        pos_of = {int(r): i for i, r in enumerate(index.rowids)}
        rowid_of = lib.store.rowids_of_ids()
        pairs = [(hybrid.prepare(r["title"]), pos_of[rowid_of[pid]]) for r in records
                 if r["title"] and (pid := data.paper_id(lib, r))]
        qvecs = lib.engine.embed([q.text for q, _ in pairs])
        prepared[n] = (lib, [q for q, _ in pairs], qvecs, [t for _, t in pairs])
    grid = [shipped, (0.0, 0.0, 0.0)]
    for i, values in enumerate(((0.0, 2.0, 8.0), (0.0, 2.0, 8.0), (0.0, 1.0, 4.0))):
        for v in values:
            point = list(shipped)
            point[i] = v
            grid.append(tuple(point))
    rows = []
    try:
        for cov, gap, bi in grid:
            rerank.W_COVERAGE, rerank.W_GAP, rerank.W_BIGRAMS = cov, gap, bi
            row = {"coverage": cov, "cosine_gap": gap, "bigrams": bi, "shipped": (cov, gap, bi) == shipped}
            for n, (lib, qs, qvecs, targets) in prepared.items():
                row[n] = ev.metrics(ev.shipped_ranks(lib, qs, qvecs, targets))["mrr@10"]
            row["mean"] = round(float(np.mean([row[n] for n in names])), 4)
            rows.append(row)
            print(f"  coverage={cov} gap={gap} bigrams={bi}: " + " ".join(f"{n}={row[n]:.4f}" for n in names),
                  flush=True)
    finally:
        rerank.W_COVERAGE, rerank.W_GAP, rerank.W_BIGRAMS = shipped
        for lib, *_ in prepared.values():
            lib.close()
    return rows


def main() -> int:
    if not data.available():
        print("corpora not found: skipped")
        return 0
    started = time.time()
    print("BM25 parameters (lexical only, MRR@10):")
    bm25 = bm25_grid(TUNE_ON)
    print("fusion (current BM25 parameters, MRR@10):")
    runs = [ev.collect(n, data.dedupe(data.CORPUS[n]())) for n in TUNE_ON]
    singles = {r.name: {"lexical": ev.single(r, "lexical"), "semantic": ev.single(r, "semantic")} for r in runs}
    fusion_rows = fusion_grid(runs)
    best = max((r for r in fusion_rows if r["method"] == "zscore"), key=lambda r: r["mean"])
    print("second stage (shipped fusion, MRR@10 through hybrid.rank):")
    second = rerank_grid(TUNE_ON)
    out = {"tuned_on": list(TUNE_ON), "bm25_grid": bm25, "single_modes": singles,
           "fusion_grid": fusion_rows, "best_zscore": best, "rerank_grid": second,
           "machine": data.machine(),
           "seconds": round(time.time() - started, 1)}
    print("written", data.write_result("search_tune", out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
