"""Speed of topics + map: ICML 2024 (2,634 papers) and a 26k replica.

What is timed is what `paperscope topics` (coarse and fine) and `paperscope map` compute when
nothing is cached: spherical k-means + c-TF-IDF labels at both levels, and the t-SNE layout.
Embedding is not included (done once at ingest, measured by the search benchmarks).

The 26k corpus: ICML 2024 replicated 10 times (26,340 papers). Copy r > 0 of a paper gets a new
id, its vector plus Gaussian noise (sigma 0.012 per dimension, so cosine ~0.95 to the original,
about the gap between two close papers) renormalised, and its abstract with 10 % of the words
dropped at random (seeded). Replicas are near-duplicates, so this is a pessimistic workload for
k-means (dense blobs) and a realistic one for the t-SNE cost, which depends on n.

Run: .venv/bin/python benchmarks/topics_speed.py [--skip-26k]
"""
from __future__ import annotations

import json
import os
import random
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _topics_data import require_corpora, RESULTS, embedded, icml2024, paper_text  # noqa: E402

from paperscope.analysis.layout import layout  # noqa: E402
from paperscope.analysis.topics import fit_topics, topic_table  # noqa: E402


def replicate(ids: list[str], texts: list[str], matrix: np.ndarray, times: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    words = random.Random(seed)
    out_ids, out_texts, rows = list(ids), list(texts), [matrix]
    for r in range(1, times):
        noisy = matrix + rng.normal(scale=0.012, size=matrix.shape).astype(np.float32)
        rows.append(noisy / np.linalg.norm(noisy, axis=1, keepdims=True))
        out_ids += [f"{pid}-r{r}" for pid in ids]
        out_texts += [" ".join(w for w in t.split() if words.random() > 0.1) for t in texts]
    return out_ids, out_texts, np.vstack(rows).astype(np.float32)


CPU: dict[str, float] = {}


def timed(fn, *args, **kwargs):
    """Wall seconds; the process CPU seconds go to CPU (a load-robust second opinion)."""
    t, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    CPU["last"] = round(time.process_time() - c, 2)
    return out, round(time.perf_counter() - t, 2)


def run(name: str, ids: list[str], texts: list[str], matrix: np.ndarray) -> dict:
    coarse, t_coarse = timed(fit_topics, ids, texts, matrix, level="coarse")
    cpu = {"topics_coarse": CPU["last"]}
    fine, t_fine = timed(fit_topics, ids, texts, matrix, level="fine")
    cpu["topics_fine"] = CPU["last"]
    coords, t_map = timed(layout, matrix)
    cpu["map_layout"] = CPU["last"]
    order = list(range(len(ids)))
    random.Random(1).shuffle(order)
    again = fit_topics([ids[i] for i in order], [texts[i] for i in order], matrix[order], level="coarse")

    def dump(fit):
        return json.dumps(topic_table(fit.model, fit.ids, fit.assign, fit.similarity))

    row = {"corpus": name, "papers": len(ids), "coarse_topics": len(coarse.model.labels),
           "fine_topics": len(fine.model.labels), "unassigned": 0,
           "seconds": {"topics_coarse": t_coarse, "topics_fine": t_fine, "map_layout": t_map,
                       "total": round(t_coarse + t_fine + t_map, 2)},
           "cpu_seconds": {**cpu, "total": round(sum(cpu.values()), 2)},
           "shuffled_input_identical": dump(coarse) == dump(again),
           "coords_finite": bool(np.isfinite(coords).all()),
           "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
           "load_average_after": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    require_corpora()
    load_before = [round(x, 2) for x in os.getloadavg()]
    papers, matrix = embedded(icml2024())
    ids = [p["id"] for p in papers]
    texts = [paper_text(p) for p in papers]
    rows = [run("ICML 2024", ids, texts, matrix)]
    if "--skip-26k" not in sys.argv:
        rows.append(run("ICML 2024 x10 (perturbed)", *replicate(ids, texts, matrix, 10)))
    out = {"benchmark": "topics_speed", "cpus": os.cpu_count(),
           "load_average_before": load_before,
           "note": "shared 2-core machine; other jobs may have been running (see load averages)",
           "budgets_seconds": {"2634": 60, "26k": 600}, "rows": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "topics_speed.json").write_text(json.dumps(out, indent=2) + "\n")
    print(f"{'corpus':28} {'papers':>7} {'coarse':>7} {'fine':>7} {'map':>7} {'total':>7}  budget")
    for r, budget in zip(rows, (60, 600)):
        s = r["seconds"]
        print(f"{r['corpus']:28} {r['papers']:>7} {s['topics_coarse']:>7} {s['topics_fine']:>7} "
              f"{s['map_layout']:>7} {s['total']:>7}  {budget}")


if __name__ == "__main__":
    main()
