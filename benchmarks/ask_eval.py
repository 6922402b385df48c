"""How often `ask` cites the paper a question is about, against plain search, in one run.

Library: ICML 2024's tuning half (posters with sha1(virtualsite_url) even, as label_eval.py
splits it) + ICLR 2024's accepted papers, ~3,560 papers ingested WITHOUT titles (abstracts
only, like a title-less list), through the real `Library.ingest`.
Questions: benchmarks/data/ask_questions.json, written from the abstracts in a researcher's
words (English and Chinese), each about one known paper: a first set (105) and a second (30,
about other papers, paraphrased further from the abstracts' words), reported apart too.

For each question: `lib.ask(question, limit=5)` (is the target among the cited papers? at
which citation? was the answer weak?) and `lib.search(question, limit=5)` with the question as
typed (is the target in the top 5?). Shares with Wilson 95 % intervals, the paired
disagreements, and the warm latency of `ask` (each question asked once, after warm-up on other
text): wall median / p95, CPU ms, the load average.

    .venv/bin/python benchmarks/ask_eval.py [--limit 5]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _search_data as data  # noqa: E402
from _run_info import load, run_info  # noqa: E402

QUESTIONS = HERE / "data" / "ask_questions.json"
WARM_UP = ["graph neural networks for molecules", "which papers study reinforcement learning from human feedback?",
           "扩散模型 图像生成", "convergence of stochastic gradient descent", "benchmarks for code generation"]


def corpus() -> list[dict]:
    """ICML 2024 tuning half + ICLR 2024, each record with its `key` (virtual-site URL / forum id)."""
    events = json.loads((data.CORPORA / "icml2024_events" / "icml2024_events.json").read_text("utf-8"))
    out = []
    for e in events:
        if e.get("type") != "Poster" or not e.get("abstract"):
            continue
        uid = e.get("virtualsite_url") or e["abstract"][:200]
        if int(hashlib.sha1(uid.encode()).hexdigest(), 16) % 2 == 0:
            out.append({**data._rec(e["name"], e["abstract"], "ICML", 2024), "key": uid})
    rows = json.loads((data.CORPORA / "iclr2024_openreview" / "iclr2024_accepted.json").read_text("utf-8"))
    out += [{**data._rec(r["title"], r["abstract"], "ICLR", 2024), "key": r["forum"]} for r in rows if r.get("abstract")]
    return data.dedupe(out)


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    if not n:
        return [0.0, 0.0]
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def share(rows: list[dict], field: str) -> dict:
    k = sum(1 for r in rows if r[field])
    return {"hits": k, "n": len(rows), "share": round(k / len(rows), 3) if rows else None, "ci95": wilson(k, len(rows))}


def ask_one(lib, q: dict, target: str, limit: int) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    answer = lib.ask(q["question"], limit=limit)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cited = [c.id for c in answer.citations]
    t_search = time.perf_counter()
    found = [h.id for h in lib.search(q["question"], limit=limit)]
    t_search = time.perf_counter() - t_search
    return {"question": q["question"], "lang": q["lang"], "set": q["set"], "target": target,
            "ask_cited_at": cited.index(target) + 1 if target in cited else None,
            "ask_top": target in cited, "ask_top_not_weak": target in cited and not answer.weak,
            "weak": answer.weak, "citations": len(cited),
            "search_rank": found.index(target) + 1 if target in found else None, "search_top": target in found,
            "ask_ms": round(wall * 1000, 1), "ask_cpu_ms": round(cpu * 1000, 1), "search_ms": round(t_search * 1000, 1)}


def summary(rows: list[dict]) -> dict:
    both = sum(1 for r in rows if r["ask_top"] and r["search_top"])
    return {"ask_top5": share(rows, "ask_top"), "ask_top5_not_weak": share(rows, "ask_top_not_weak"),
            "search_top5": share(rows, "search_top"), "weak_answers": sum(r["weak"] for r in rows),
            "paired": {"both": both, "ask_only": sum(r["ask_top"] and not r["search_top"] for r in rows),
                       "search_only": sum(r["search_top"] and not r["ask_top"] for r in rows),
                       "neither": sum(not r["ask_top"] and not r["search_top"] for r in rows)}}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(p * len(ordered))) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=5, help="papers cited / search results compared")
    args = ap.parse_args()
    records = corpus()
    lib = data.library("ask-icml24tune-iclr24", records, titles=False)
    ids = {r["key"]: data.paper_id(lib, r) for r in records}
    questions = json.loads(QUESTIONS.read_text("utf-8"))["questions"]
    missing = [q["key"] for q in questions if not ids.get(q["key"])]
    assert not missing, f"questions about papers not in the library: {missing}"
    papers = lib.stats()["papers"]
    for text in WARM_UP:  # indexes, model and glossary loaded: what a running server or a second ask sees
        lib.ask(text)
    load_before = load()
    rows = [ask_one(lib, q, ids[q["key"]], args.limit) for q in questions]
    load_after = load()
    walls = [r["ask_ms"] for r in rows]
    out = {"library_papers": papers, "questions": len(rows), "limit": args.limit,
           "all": summary(rows), "first": summary([r for r in rows if r["set"] == "first"]),
           "second": summary([r for r in rows if r["set"] == "second"]),
           "en": summary([r for r in rows if r["lang"] == "en"]),
           "zh": summary([r for r in rows if r["lang"] == "zh"]),
           "latency_warm": {"ask_ms_median": round(statistics.median(walls), 1),
                            "ask_ms_p95": round(percentile(walls, 0.95), 1),
                            "ask_ms_max": max(walls), "ask_cpu_ms_mean": round(statistics.mean(r["ask_cpu_ms"] for r in rows), 1),
                            "search_ms_median": round(statistics.median(r["search_ms"] for r in rows), 1),
                            "load_average_before": load_before, "load_average_after": load_after},
           "rows": rows}
    result = {**run_info({"corpora": ["icml2024_events (tuning half)", "iclr2024_openreview"],
                          "questions": "benchmarks/data/ask_questions.json", "titles": "hidden from the library"},
                         "onnxruntime", "numpy"), **out}
    path = data.write_result("ask_eval", result)
    for name in ("all", "first", "second", "en", "zh"):
        s = out[name]
        print(f"{name:>6}: ask top-{args.limit} {s['ask_top5']['share']:.3f} {s['ask_top5']['ci95']}  "
              f"(not weak {s['ask_top5_not_weak']['share']:.3f})  search top-{args.limit} "
              f"{s['search_top5']['share']:.3f} {s['search_top5']['ci95']}  n={s['ask_top5']['n']}  paired {s['paired']}")
    lat = out["latency_warm"]
    print(f"warm ask: median {lat['ask_ms_median']} ms, p95 {lat['ask_ms_p95']} ms, CPU {lat['ask_cpu_ms_mean']} ms; "
          f"load {lat['load_average_before']} -> {lat['load_average_after']}; {papers} papers -> {path.name}")
    for r in rows:
        if not r["ask_top"]:
            print(f"  missed ({r['lang']}): {r['question']}  search rank {r['search_rank']}")


if __name__ == "__main__":
    main()
