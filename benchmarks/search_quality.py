"""Search quality against baselines, in one run.

1. Known-item search (query = a paper's real title, target = that paper, titles hidden from the
   index as in a title-less list): MRR@10, Recall@1/@10 for lexical, semantic, hybrid (shipped
   fusion), plain RRF of the same two lists, and an arxiv-sanity-lite-style substring scorer.
   Reported on ICML 2024 and the PMLR corpora; fusion and BM25 were tuned on ICLR 2020 + NIPS
   (search_tune.py), shown here for reference only.
2. kNN label accuracy (k=10, leave-one-out, multi-label keywords) on ICLR 2018 / 2017 / 2020
   for TF-IDF, the embedding, the term vectors and the mix shipped for `related` (every choice
   made on ICLR 2018; 2017 and 2020 held out). Computed by search_related.py, which also runs
   alone in seconds.

    .venv/bin/python benchmarks/search_quality.py   -> benchmarks/results/search_quality.json
"""
from __future__ import annotations

import sys
import time

import _search_data as data
import _search_eval as ev
from _run_info import run_info

KNOWN_ITEM = ("icml2024", "uai2024", "colt2024", "icml2016", "iclr2020", "nips")
TUNING = {"iclr2020", "nips"}
MIX_TUNED_ON = "iclr2018"
K = 10


def known_item() -> dict:
    from paperscope.search.fusion import DEFAULT, FusionParams

    out = {}
    for name in KNOWN_ITEM:
        run = ev.collect(name, data.dedupe(data.CORPUS[name]()))
        row = {"papers": len(run.abstracts), "used_for_tuning": name in TUNING,
               "substring (arxiv-sanity-lite style)": ev.substring_baseline(run),
               "lexical (BM25F)": ev.single(run, "lexical"),
               "semantic (MiniLM-L6)": ev.single(run, "semantic"),
               "plain RRF k=60": ev.evaluate(run, FusionParams("rrf", 1.0, 1.0, 60)),
               "z-score fusion alone (no second stage)": ev.evaluate(run, DEFAULT),
               "hybrid (shipped: fusion + second stage)": ev.shipped(run),
               "hybrid with the learned ranker (train_ranker.py)": ev.metrics(run.learned),
               "weak grade": ev.weak_summary(run)}
        out[name] = row
        print(f"  weak: targets {row['weak grade']['known_item_targets_weak']}, off-topic {run.offtopic}")
        print(f"\n{name} ({row['papers']} papers{', TUNING corpus' if name in TUNING else ''})")
        print(f"  {'method':38s} {'MRR@10':>7s} {'R@1':>7s} {'R@10':>7s}")
        for method, m in row.items():
            if isinstance(m, dict) and "mrr@10" in m:
                print(f"  {method:38s} {m['mrr@10']:7.4f} {m['recall@1']:7.4f} {m['recall@10']:7.4f}")
    return out


def knn() -> dict:
    """`related` against TF-IDF and the embedding on keyword labels: search_related.py."""
    import search_related

    return search_related.knn()


def main() -> int:
    if not data.available():
        print("corpora not found: skipped")
        return 0
    started = time.time()
    result = {"known_item": known_item(), "knn_label_accuracy": knn(), "k": K,
              "mix_tuned_on": MIX_TUNED_ON, "machine": data.machine(),
              "run": run_info({"known_item": list(KNOWN_ITEM), "offtopic": "benchmarks/data/offtopic_queries.json"},
                              "numpy", "onnxruntime"),
              "seconds": round(time.time() - started, 1)}
    print("\nwritten", data.write_result("search_quality", result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
