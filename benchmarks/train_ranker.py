"""Train the learned second stage of hybrid search and calibrate the weak-match grade.

Development corpora only (ICLR 2017/2018/2020, NIPS 2013-18, UAI/COLT 2024, ICML 2016; titles
hidden, query = a paper's real title). ICML 2024 is the reported set and is never read here.

1. Features of every hybrid candidate come from the product's hybrid.rank (_ranker_data.py).
2. Model: pairwise logistic regression (target vs each of the 20 best other candidates by the
   hand-set stage, each query weighted equally), L2 strength chosen by leave-one-corpus-out
   cross-validation (MRR@10 of the held-out corpus, averaged over corpora), then refit on all.
   Deterministic: a convex loss minimised by L-BFGS from zero, no sampling.
3. Ship (`"use": true`) only if it beats the hand-set stage held out on the development
   corpora (macro mean and pooled); search_quality.py then checks ICML 2024, and `--hold`
   writes the same model with `"use": false` when it does not beat the hand-set stage there.
4. Weak grade: thresholds on cosine and coverage chosen on a grid so that at most 1% of the
   results of off-topic queries (even positions of data/offtopic_queries.json) are not weak,
   then the fewest known-item targets and keyword-topic hits are weak.

    .venv/bin/python benchmarks/train_ranker.py [--fresh] [--hold]
        -> src/paperscope/search/data/ranker.json, benchmarks/results/train_ranker.json
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np
from scipy.optimize import minimize

import _ranker_data as rd
import _search_data as data
from _run_info import run_info

MODEL_PATH = data.REPO / "src" / "paperscope" / "search" / "data" / "ranker.json"
NEGATIVES = 20
DEPTH = 10
LAMBDAS = (1e-4, 1e-3, 1e-2, 1e-1)
F = ["z_lexical", "z_semantic", "coverage", "term_share", "cosine", "cosine_gap", "bm25_share",
     "lexical_rr", "semantic_rr", "bigrams"]
COV, COS, GAP, BIG = F.index("coverage"), F.index("cosine"), F.index("cosine_gap"), F.index("bigrams")


def hand_scores(x: np.ndarray) -> np.ndarray:
    """The shipped hand-set stage (rerank.py) from the feature rows: z-score fusion + 4 coverage
    + 4 cosine gap, then + 2 bigrams for its best 5."""
    pre = x[:, 0] + x[:, 1] + 4.0 * x[:, COV] + 4.0 * x[:, GAP]
    top = np.argsort(-pre, kind="stable")[:5]
    out = pre.copy()
    out[top] += 2.0 * x[top, BIG]
    return out


def learned_scores(x: np.ndarray, w: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """As ranker.learned: every row without bigrams, then the best DEPTH with them."""
    z = (x - mean) / scale
    no_big = x.copy()
    no_big[:, BIG] = 0.0
    base = ((no_big - mean) / scale) @ w
    top = np.argsort(-base, kind="stable")[:DEPTH]
    base[top] = z[top] @ w
    return base


def rank_of(scores: np.ndarray, target: int) -> int:
    if target < 0:
        return 11
    s = scores[target]
    return int((scores > s).sum()) + 1 + int(((scores == s).sum() - 1) // 2)


def mrr(ranks) -> float:
    r = np.asarray(ranks)
    return round(float(np.mean(np.where(r <= 10, 1.0 / r, 0.0))), 4)


def pairs(corpora) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(target row - negative row, pair weight, every row used) over the corpora's queries."""
    diffs, weights, rows = [], [], []
    for c in corpora:
        for x, t in zip(c.x, c.target):
            if t < 0:
                continue
            x = x.astype(np.float64)
            order = [i for i in np.argsort(-hand_scores(x), kind="stable") if i != t][:NEGATIVES]
            if not order:
                continue
            diffs.append(x[t] - x[order])
            weights.append(np.full(len(order), 1.0 / len(order)))
            rows.append(x[[t] + order])
    return np.concatenate(diffs), np.concatenate(weights), np.concatenate(rows)


def fit(corpora, lam: float):
    d, wt, rows = pairs(corpora)
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = d / scale  # differences: the mean cancels
    n_q = wt.sum()

    def loss(w):
        m = z @ w
        p = np.logaddexp(0.0, -m)
        g = -(wt / (1.0 + np.exp(m))) @ z
        return (wt @ p) / n_q + lam * w @ w, g / n_q + 2 * lam * w

    bounds = [(0.0, None) if i == BIG else (None, None) for i in range(len(F))]
    res = minimize(loss, np.zeros(len(F)), jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 500, "gtol": 1e-9})
    return res.x, mean, scale


def evaluate(c, scorer) -> float:
    return mrr([rank_of(scorer(x.astype(np.float64)), t) for x, t in zip(c.x, c.target)])


def cross_validate(corpora) -> dict:
    out = {"hand-set": {c.name: evaluate(c, hand_scores) for c in corpora}}
    for lam in LAMBDAS:
        row = {}
        for held in corpora:
            w, mean, scale = fit([c for c in corpora if c is not held], lam)
            row[held.name] = evaluate(held, lambda x: learned_scores(x, w, mean, scale))
        out[f"pairwise logistic l2={lam:g}"] = row
        print(f"  l2={lam:g}: " + " ".join(f"{k}={v:.4f}" for k, v in row.items()), flush=True)
    print("  hand-set: " + " ".join(f"{k}={v:.4f}" for k, v in out["hand-set"].items()), flush=True)
    sizes = {c.name: len(c.x) for c in corpora}
    for row in out.values():
        vals = [row[c.name] for c in corpora]
        row["macro_mean"] = round(float(np.mean(vals)), 4)
        row["pooled"] = round(float(np.average(vals, weights=[sizes[c.name] for c in corpora])), 4)
    return out


def calibrate(corpora) -> dict:
    """Weak thresholds from off-topic results (calibration half) vs known-item targets and
    keyword-topic hits (papers carrying the keyword in the top 10 of that keyword's query)."""
    off = np.concatenate([r for c in corpora for r in rd.offtopic(c.name, "even") if len(r)])
    tgt = np.array([x[t] for c in corpora for x, t in zip(c.x, c.target) if t >= 0], np.float64)
    kw_rows = [m[hit] for name in ("iclr2018", "iclr2020") for _, m, hit in rd.keyword_queries(name)
               if m is not None and hit.any()]
    kw = np.concatenate(kw_rows)
    grid = []
    for tc in np.round(np.arange(0.20, 0.61, 0.01), 2):
        for tv in np.round(np.arange(0.30, 0.81, 0.05), 2):
            def weak(rows):
                return (rows[:, COS] < tc) & (rows[:, COV] < tv)
            grid.append({"cosine": float(tc), "coverage": float(tv),
                         "offtopic_not_weak": float(np.mean(~weak(off))),
                         "targets_weak": float(np.mean(weak(tgt))),
                         "keyword_hits_weak": float(np.mean(weak(kw)))})
    ok = [g for g in grid if g["offtopic_not_weak"] <= 0.01]
    best = min(ok or grid, key=lambda g: (g["targets_weak"] + g["keyword_hits_weak"], g["offtopic_not_weak"]))
    return {"chosen": best, "offtopic_results": len(off), "targets": len(tgt), "keyword_hits": len(kw)}


def main(argv: list[str]) -> int:
    if not data.available():
        print("corpora not found: skipped")
        return 0
    started = time.time()
    if "--fresh" in argv:
        for name in rd.DEV:
            (data.CACHE / f"ranker-{name}.npz").unlink(missing_ok=True)
    print("collecting features (hybrid.rank, hand-set stage):", flush=True)
    corpora = [rd.collect(n) for n in rd.DEV]
    print("leave-one-corpus-out MRR@10:", flush=True)
    cv = cross_validate(corpora)
    learned = {k: v for k, v in cv.items() if k != "hand-set"}
    best_name = max(learned, key=lambda k: (learned[k]["macro_mean"], learned[k]["pooled"]))
    lam = LAMBDAS[list(learned).index(best_name)]
    beats = (cv[best_name]["macro_mean"] > cv["hand-set"]["macro_mean"]
             and cv[best_name]["pooled"] > cv["hand-set"]["pooled"])
    w, mean, scale = fit(corpora, lam)
    print("calibrating the weak grade:", flush=True)
    cal = calibrate(corpora)
    use = beats and "--hold" not in argv
    model = {"features": F, "weights": [round(float(v), 6) for v in w],
             "mean": [round(float(v), 6) for v in mean], "scale": [round(float(v), 6) for v in scale],
             "depth": DEPTH, "use": bool(use),
             "weak": {"cosine": cal["chosen"]["cosine"], "coverage": cal["chosen"]["coverage"]},
             "trained_on": list(rd.DEV), "l2": lam,
             "note": "benchmarks/train_ranker.py; use=false: the hand-set stage ranks"}
    MODEL_PATH.write_text(json.dumps(model, indent=1) + "\n", "utf-8")
    result = {"cv_mrr@10": cv, "chosen": best_name,
              "beats_hand_set_held_out": beats, "shipped_use": bool(use), "model": model,
              "weak_calibration": cal,
              "run": run_info({"corpora": list(rd.DEV), "queries": "benchmarks/data/offtopic_queries.json"},
                              "numpy", "scipy"),
              "seconds": round(time.time() - started, 1)}
    print(f"chosen {best_name}; beats hand-set held out: {beats}; weak {model['weak']}")
    print("written", data.write_result("train_ranker", result), MODEL_PATH)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
