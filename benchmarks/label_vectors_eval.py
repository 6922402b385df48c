"""Offline experiment: does a dense vector of each paper's derived label help known-item search?

Known-item search with titles hidden (each real title is a query, its paper the target). For
every query the shipped hybrid search gives its top `DEPTH` candidates with their final scores;
each candidate's label (facts, a short title-like phrase) is embedded with the shipped embedder,
and the candidates are re-ranked by

    z(score) + w * z(cos(query vector, label vector))

with both z-scores taken over that query's candidates (z(score) is a monotone map of the shipped
score, so w = 0 is exactly the shipped order, and w is free of the score's scale). (A second form adds w * cos / 0.1 without the per-query
rescaling of the cosine.) The form and w are chosen on the development corpora pooled (ICLR 2017/2018/2020, NIPS 2013-2018); ICML 2024, the reported
set, is evaluated once with that w (`--stage heldout`), beside the shipped order in the same run;
when no w > 0 wins on dev, the best w > 0 (also fixed on dev) is reported there too.
Nothing in the product changes; the libraries are copies of the cached benchmark libraries.

    nice -n 19 .venv/bin/python benchmarks/label_vectors_eval.py --stage dev
    nice -n 19 .venv/bin/python benchmarks/label_vectors_eval.py --stage heldout   # once, at the end
JSON: benchmarks/results/label_vectors_eval.json (the dev stage writes it; heldout adds to it)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _search_data as data  # noqa: E402
import _search_eval as ev  # noqa: E402
from _run_info import run_info  # noqa: E402

DEV = ("iclr2017", "iclr2018", "iclr2020", "nips")
HELDOUT = "icml2024"
DEPTH = 50  # candidates re-ranked per query
GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 1.5)
BOOT = 2000
OUT = data.RESULTS / "label_vectors_eval.json"


def mrr(ranks) -> float:
    r = np.asarray(ranks)
    return float(np.mean(np.where(r <= 10, 1.0 / r, 0.0)))


def rr(ranks) -> np.ndarray:
    r = np.asarray(ranks)
    return np.where(r <= 10, 1.0 / r, 0.0)


def paired_ci(before, after, seed: int = 0) -> list[float]:
    """95% paired bootstrap interval of mean(after - before) reciprocal rank, over queries."""
    d = rr(after) - rr(before)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(d), size=(BOOT, len(d)))
    means = d[idx].mean(axis=1)
    return [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]


def z(x: np.ndarray) -> np.ndarray:
    if not len(x):
        return x
    s = float(np.std(x))
    return (x - float(np.mean(x))) / (s if s > 1e-9 else 1.0)


def copy_library(name: str, tmp: Path):
    from paperscope.library import Library

    db = tmp / f"{name}.db"
    src, dst = sqlite3.connect(data.CACHE / f"{name}-notitle.db"), sqlite3.connect(db)
    src.backup(dst)
    src.close(), dst.close()
    lib = Library.open(db)
    lib.refresh_derived(embed=True, analyse=False)  # facts of this tree (a no-op when current)
    return lib


def collect(name: str, tmp: Path) -> dict:
    """Per query: the shipped top DEPTH (positions, scores), the cosine of the query to each
    candidate's label, the target's position; plus the label-embedding cost."""
    from paperscope.search.embedder import get_embedder

    records = data.dedupe(data.CORPUS[name]())
    lib = copy_library(name, tmp)
    index, matrix, queries, targets = ev.known_items(lib, records)
    rowids = [int(r) for r in index.rowids]
    label_of = dict(lib.store.conn.execute("SELECT rowid, label FROM papers").fetchall())
    labels = [label_of.get(r) or "" for r in rowids]
    emb = get_embedder()
    emb.embed(["warm up"])
    t, c = time.time(), time.process_time()
    lvec = emb.embed(labels)
    label_cost = {"papers": len(labels), "wall_s": round(time.time() - t, 2),
                  "cpu_ms_per_label": round(1000 * (time.process_time() - c) / max(1, len(labels)), 2),
                  "mean_label_words": round(float(np.mean([len(x.split()) for x in labels])), 2)}
    runs = shipped_top(lib, queries, targets, DEPTH)
    for r in runs:
        r["lcos"] = lvec[r["pos"]] @ r.pop("qv")
    by_title = {data.paper_id(lib, rec): rec["title"] for rec in records}
    rowid_of = lib.store.rowids_of_ids()
    pos_of = {r: i for i, r in enumerate(rowids)}
    title_at = {pos_of[rowid_of[pid]]: title for pid, title in by_title.items() if pid is not None}
    lib.close()
    return {"name": name, "runs": runs, "queries": queries, "labels": labels, "matrix": matrix,
            "titles": title_at, "label_cost": label_cost}


def shipped_top(lib, queries: list[str], targets: list[int], depth: int) -> list[dict]:
    """Per query: the shipped hybrid top `depth` (positions, scores), the target's position and
    the query vector (`qv`)."""
    from paperscope.search import hybrid, semantic
    from paperscope.search.engine import SearchEngine

    qs = [hybrid.prepare(q) for q in queries]
    qvecs = lib.engine.embed([q.text for q in qs])
    engine = SearchEngine(lib.store, ev.PrecomputedEmbedder(lib.engine.embedder, [q.text for q in qs], qvecs))
    runs = []
    with semantic.single_threaded_blas():
        for q, qv, target in zip(qs, qvecs, targets):
            r = engine.rank(q, mode="hybrid", limit=depth)
            runs.append({"pos": np.asarray(r.positions, np.int64), "score": np.asarray(r.scores, np.float64),
                         "target": int(target), "qv": qv})
    return runs


METHODS = {  # how the label cosine enters; w = 0 is the shipped order in both
    "z": "z(score) + w * z(cos(query, label)), both z over the query's candidates",
    "raw": "z(score) + w * cos(query, label) / 0.1 (w per 0.1 of raw cosine: no per-query rescaling)",
}


def ranks(runs, w: float, method: str = "z") -> list[int]:
    out = []
    for r in runs:
        if not w:
            s = r["score"]
        elif method == "z":
            s = z(r["score"]) + w * z(r["lcos"])
        else:
            s = z(r["score"]) + w * r["lcos"] / 0.1
        order = np.lexsort((r["pos"], -s))
        at = np.flatnonzero(r["pos"][order] == r["target"])
        out.append(int(at[0]) + 1 if len(at) and at[0] < 10 else 11)
    return out


WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")
STOP = set("a an the of for and in on with to via by from as at is are using towards toward its into".split())


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text or "") if w.lower() not in STOP}


def method_names(title: str) -> set[str]:
    """Name-like tokens of a title: acronyms and CamelCase words (e.g. 'GAN', 'BERT', 'DiffPool')."""
    return {w for w in WORD.findall(title or "") if sum(ch.isupper() for ch in w) >= 2 and len(w) >= 3}


def failures(c: dict) -> dict:
    """For queries whose target is not first: is it in the top 10, and what is first instead."""
    base = ranks(c["runs"], 0.0)
    kinds: dict[str, int] = {}
    examples = []
    n = 0
    in_top10 = 0
    label_closer = 0
    overlap_fail, overlap_ok = [], []
    for r, rank, q in zip(c["runs"], base, c["queries"]):
        lap = len(words(q) & words(c["labels"][r["target"]])) / max(1, len(words(q)))
        if rank == 1:
            overlap_ok.append(lap)
            continue
        overlap_fail.append(lap)
        n += 1
        in_top10 += rank <= 10
        if not len(r["pos"]):  # the search returned nothing (e.g. a title read as filters only)
            kinds["no results"] = kinds.get("no results", 0) + 1
            examples.append({"query": q, "target_rank": rank, "no_results": True})
            continue
        first = int(r["pos"][0])
        tgt = r["target"]
        sim = float(c["matrix"][first] @ c["matrix"][tgt])  # abstract vectors of the two papers
        qn = method_names(q)
        first_title = c["titles"].get(first, "")
        qw, fw = words(q), words(first_title)
        title_overlap = len(qw & fw) / max(1, len(qw))
        if sim >= 0.9:
            kind = "near-duplicate paper (abstract cosine >= 0.9)"
        elif qn and qn & set(method_names(first_title) | set(WORD.findall(c["labels"][first]))):
            kind = "same method/model name in its title or label"
        elif title_overlap >= 0.5:
            kind = "title shares >= half the query's words"
        elif sim >= 0.6:
            kind = "same topic (abstract cosine 0.6-0.9)"
        else:
            kind = "other (weaker topical match)"
        kinds[kind] = kinds.get(kind, 0) + 1
        lq = words(q)
        label_closer += len(lq & words(c["labels"][first])) > len(lq & words(c["labels"][tgt]))
        if len(examples) < 6:
            examples.append({"query": q, "target_rank": rank, "target_label": c["labels"][tgt],
                             "first_title": first_title, "first_label": c["labels"][first],
                             "abstract_cosine": round(sim, 3)})
    return {"queries_not_first": n, "share_of_all_queries": round(n / max(1, len(base)), 4),
            "target_in_top10": in_top10, "target_in_top10_share": round(in_top10 / max(1, n), 4),
            "first_is": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
            "first_label_shares_more_query_words_than_target_label": label_closer,
            "target_label_query_word_overlap_mean": {
                "target_first": round(float(np.mean(overlap_ok)), 3) if overlap_ok else None,
                "target_not_first": round(float(np.mean(overlap_fail)), 3) if overlap_fail else None},
            "examples": examples}


def choose(runs) -> tuple[str, float]:
    """(method, w) with the best pooled dev MRR@10; ties go to the smaller w."""
    return max(((m, w) for m in METHODS for w in GRID),
               key=lambda mw: (round(mrr(ranks(runs, mw[1], mw[0])), 6), -mw[1]))


def compare(b, a) -> dict:
    return {"before": round(mrr(b), 4), "after": round(mrr(a), 4), "delta": round(mrr(a) - mrr(b), 4),
            "delta_ci95": paired_ci(b, a),
            "queries_up_down": [int((rr(a) > rr(b)).sum()), int((rr(a) < rr(b)).sum())]}


def dev() -> dict:
    per, runs_of, pooled_runs = {}, {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for name in DEV:
            t = time.time()
            c = collect(name, Path(tmp))
            print(f"  {name}: {len(c['runs'])} queries ({time.time() - t:.0f}s)", flush=True)
            per[name] = {"queries": len(c["runs"]), "label_cost": c["label_cost"],
                         "mrr@10": {m: {str(w): round(mrr(ranks(c["runs"], w, m)), 4) for w in GRID} for m in METHODS},
                         "failures_shipped": failures(c)}
            runs_of[name] = c["runs"]
            pooled_runs += c["runs"]
    pooled = {m: {str(w): round(mrr(ranks(pooled_runs, w, m)), 4) for w in GRID} for m in METHODS}
    method, w = choose(pooled_runs)
    # If no weight beats the shipped order, the best nonzero weight is fixed here (before ICML
    # 2024 is read) as the variant the held-out run reports beside the shipped order.
    nonzero = max(((m, x) for m in METHODS for x in GRID if x),
                  key=lambda mw: (round(mrr(ranks(pooled_runs, mw[1], mw[0])), 6), -mw[1]))
    out = {"methods": METHODS, "depth": DEPTH, "grid": list(GRID), "dev": per, "dev_pooled_mrr@10": pooled,
           "chosen": {"method": method, "w": w}, "best_nonzero": {"method": nonzero[0], "w": nonzero[1]}}
    for key, (m, x) in (("chosen", (method, w)), ("best_nonzero", nonzero)):
        out[key]["dev_pooled"] = compare(ranks(pooled_runs, 0.0), ranks(pooled_runs, x, m))
        out[key]["dev_per_corpus"] = {n: compare(ranks(r, 0.0), ranks(r, x, m)) for n, r in runs_of.items()}
    out["run_dev"] = run_info({"dev": "ICLR 2017, ICLR 2018, ICLR 2020, NIPS 2013-2018, titles hidden "
                                      "(copies of the cached benchmark libraries)"}, "numpy", "onnxruntime")
    return out


def heldout(result: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        c = collect(HELDOUT, Path(tmp))
    b = ranks(c["runs"], 0.0)
    out = {"queries": len(b), "shipped_mrr@10_this_run": round(mrr(b), 4),
           "shipped_recall@1": round(float(np.mean(np.asarray(b) == 1)), 4),
           "reference": "0.9663 (hybrid shipped, benchmarks/results/label_search.json)"}
    for key in ("chosen", "best_nonzero"):
        m, w = result[key]["method"], float(result[key]["w"])
        a = ranks(c["runs"], w, m)
        out[key] = {"method": m, "w": w, **compare(b, a),
                    "recall@1_after": round(float(np.mean(np.asarray(a) == 1)), 4)}
    out.update({"label_cost": c["label_cost"], "failures_shipped": failures(c),
                "run": run_info({"heldout": "ICML 2024 posters, titles hidden (copy of the cached library)"},
                                "numpy", "onnxruntime")})
    return out


def staged(description: str, out: Path, dev_stage, heldout_stage, show) -> int:
    """The two-stage protocol of these experiments: `--stage dev` writes `out` from the
    development corpora; `--stage heldout` adds ICML 2024 to it, once; `show(result)` is printed."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--stage", choices=("dev", "heldout"), required=True)
    args = ap.parse_args()
    if not data.available():
        print("corpora not found: skipped")
        return 0
    if args.stage == "dev":
        result = dev_stage()
    else:
        result = json.loads(out.read_text())
        if HELDOUT in result:
            print("ICML 2024 already evaluated once; not run again")
            return 1
        result[HELDOUT] = heldout_stage(result)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(show(result), indent=1))
    return 0


def summary(result: dict) -> dict:
    show = {k: result[k] for k in ("dev_pooled_mrr@10", "chosen", "best_nonzero")}
    show["per_corpus"] = {n: {k: v for k, v in d.items() if k != "failures_shipped"} for n, d in result["dev"].items()}
    if HELDOUT in result:
        show[HELDOUT] = {k: v for k, v in result[HELDOUT].items() if k not in ("failures_shipped", "run")}
    return show


if __name__ == "__main__":
    os.environ.setdefault("PAPERSCOPE_LOG", "warning")
    os.environ.setdefault("PAPERSCOPE_THREADS", "1")
    sys.exit(staged(__doc__.split("\n")[0], OUT, dev, heldout, summary))
