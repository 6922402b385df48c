"""Where `paperscope relabel` draws the line for "on topic": the embedding cosine (the product's
MiniLM model) between a paper's real title and its own abstract, against the cosine between that
title and another paper's abstract of the same venue (a title for the wrong paper) and between
generic titles that say nothing ("A Novel Approach to Deep Learning") and the abstract.

A generated title is kept when its cosine to its own abstract reaches `relabel.MIN_COSINE`; this
prints how many real titles pass at candidate thresholds and how many wrong-paper and generic
titles are stopped, and writes benchmarks/results/relabel_threshold.json.

    python benchmarks/relabel_threshold.py [--corpus iclr2020 --corpus uai2024 ...] [--limit 2000]
"""
from __future__ import annotations

import argparse
import resource
import time

import numpy as np

import _search_data as data
from _run_info import run_info

GENERIC = ["A Novel Approach to Deep Learning", "Towards Better Machine Learning Models",
           "Improving Neural Networks", "A New Method for Learning", "On the Theory of Learning",
           "Efficient Algorithms for Artificial Intelligence", "Understanding Deep Neural Networks",
           "Learning Representations from Data"]
THRESHOLDS = (0.20, 0.25, 0.30, 0.35, 0.40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", help="corpora (default: iclr2020, uai2024, colt2024)")
    parser.add_argument("--limit", type=int, default=1500, help="papers per corpus (seeded sample)")
    args = parser.parse_args()
    from paperscope.search.embedder import get_embedder

    from paperscope.llm.relabel import MIN_COSINE

    embedder, rng = get_embedder(), np.random.default_rng(7)
    started, cpu0 = time.monotonic(), time.process_time()
    rows, out = [], {}
    for name in args.corpus or ["iclr2020", "uai2024", "colt2024"]:
        records = [r for r in data.dedupe(data.CORPUS[name]()) if r["title"] and r["abstract"]]
        records = [records[i] for i in sorted(rng.permutation(len(records))[: args.limit])]
        titles = embedder.embed([r["title"] for r in records])
        abstracts = embedder.embed([r["abstract"] for r in records])
        generic = embedder.embed(GENERIC)
        own = np.einsum("ij,ij->i", titles, abstracts)
        other = np.einsum("ij,ij->i", titles, abstracts[np.roll(np.arange(len(records)), 1 + len(records) // 2)])
        vague = (generic @ abstracts.T).ravel()
        out[name] = {"papers": len(records), "own_quantiles": _q(own), "wrong_paper_quantiles": _q(other),
                     "generic_quantiles": _q(vague), "at": {f"{t:.2f}": {
                         "real_titles_kept": round(float((own >= t).mean()), 4),
                         "wrong_paper_stopped": round(float((other < t).mean()), 4),
                         "generic_stopped": round(float((vague < t).mean()), 4)} for t in THRESHOLDS}}
        for t in THRESHOLDS:
            at = out[name]["at"][f"{t:.2f}"]
            rows.append(f"{name:10} {t:.2f}  kept {at['real_titles_kept']:.3f}  wrong stopped "
                        f"{at['wrong_paper_stopped']:.3f}  generic stopped {at['generic_stopped']:.3f}")
    print("\n".join(rows))
    print(f"product threshold: MIN_COSINE = {MIN_COSINE}")
    result = {**run_info({"corpora": sorted(out)}), "min_cosine": MIN_COSINE, "corpora": out,
              "seconds": round(time.monotonic() - started, 1), "cpu_seconds": round(time.process_time() - cpu0, 1),
              "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    print(data.write_result("relabel_threshold", result))


def _q(values: np.ndarray) -> dict[str, float]:
    return {f"p{p}": round(float(np.percentile(values, p)), 3) for p in (1, 2, 5, 10, 50, 90, 99)}


if __name__ == "__main__":
    main()
