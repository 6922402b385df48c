"""Recommendation quality: simulated users from real author keywords.

For each corpus (ICLR 2020, 2017, 2018) and each keyword held by 20+ papers (and at most 25% of
the corpus, so it discriminates), a simulated user tags 5 or 10 of its papers; each recommender
ranks all other papers; precision@10 and nDCG@10 count the keyword's remaining papers as
relevant. Averaged over keywords and 8 random seed draws per keyword (same draws for every
recommender, so differences are paired).

Recommenders:
  arxiv-sanity-lite   baseline, its recipe re-implemented here: TF-IDF 1-2-grams (20k features,
                      min_df 5, max_df 0.1, sublinear tf, English stop words) + LinearSVC
                      (C=0.01, class_weight balanced), positives vs everything else
  paperscope tfidf    the shipped model without embeddings (paperscope.recommend.rank)
  paperscope          the shipped model: TF-IDF SVM + embedding SVM, z-score fusion 1 : 0.5
  candidate           a variant tuned on ICLR 2017/2018 and not shipped (it fell behind the
                      shipped model on the held-out ICLR 2020): TF-IDF split at hyphens with
                      max_df 0.1 (as the baseline), its SVM + embedding SVM + cosine to the seeds'
                      mean embedding, z-score fusion 1 : 0.75 : 0.25 (reference)
  embeddings only     the embedding SVM alone (reference)

Noise: every difference to the baseline comes with a 95% interval from a paired bootstrap over
keywords (the simulated users of one keyword share their papers, so the keyword is the unit
that is resampled; 2,000 resamples; for the mean of the three corpora each corpus's keywords
are resampled separately). "Ahead by more than noise" = the interval's lower end above 0.

Seed draws come from a generator per (corpus, seed size), so a run on some corpora draws the
same simulated users as a run on all of them.

Run: nice -n 19 .venv/bin/python benchmarks/recommend_quality.py [--trials 8] [--seeds 5,10]
     [--corpora iclr2017,iclr2018] [--out recommend_quality_dev.json]
Writes benchmarks/results/recommend_quality.json (or --out, a name under benchmarks/results/)
and prints a Markdown table. Tuning runs use the development corpora (ICLR 2017, 2018) and
--out; ICLR 2020 is the held-out check.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recommend_data import CORPORA, NAMES, embed, load_all  # noqa: E402
from _run_info import run_info  # noqa: E402

from paperscope.recommend import EMBEDDING_C, NEGATIVE_WEIGHT, build_features, rank, svm_scores  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
MIN_PAPERS, MAX_SHARE, K = 20, 0.25, 10
BOOTSTRAP = 2000
BASELINE = "arxiv-sanity-lite"
CANDIDATE_TOKENS = r"(?u)\b[^\W\d]\w+\b"  # words of 2+ characters, split at hyphens


def arxiv_sanity_lite(texts: list[str]):
    """The baseline's features; its model is `svm_baseline`."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(strip_accents="unicode", lowercase=True, analyzer="word", stop_words="english",
                          token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b", ngram_range=(1, 2),
                          max_features=20_000, norm="l2", use_idf=True, smooth_idf=True,
                          sublinear_tf=True, max_df=0.1, min_df=5)
    return vec.fit_transform(texts)


def candidate_features(texts: list[str]):
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(strip_accents="unicode", lowercase=True, stop_words="english",
                          token_pattern=CANDIDATE_TOKENS, ngram_range=(1, 2),
                          min_df=min(5, max(2, len(texts) // 100)), max_df=0.1, sublinear_tf=True,
                          max_features=100_000, dtype=np.float32)
    return vec.fit_transform(texts).tocsr()


def _z(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    sd = float(v.std())
    return (v - v.mean()) / (sd if sd > 1e-12 else 1.0)


def candidate(X, emb: np.ndarray, pos: np.ndarray) -> np.ndarray:
    none = np.zeros(0, dtype=np.int64)
    lexical = svm_scores(X, pos, none)[0]
    semantic = svm_scores(emb, pos, none, C=EMBEDDING_C)[0]
    centroid = emb @ emb[pos].mean(axis=0)
    return _z(lexical) + 0.75 * _z(semantic) + 0.25 * _z(centroid)


def svm_baseline(X, pos: np.ndarray) -> np.ndarray:
    from sklearn.svm import LinearSVC

    y = np.zeros(X.shape[0])
    y[pos] = 1
    model = LinearSVC(class_weight="balanced", max_iter=10_000, tol=1e-6, C=0.01)
    model.fit(X, y)
    return model.decision_function(X)


def metrics(scores: np.ndarray, seed: np.ndarray, relevant: np.ndarray, n_rel: int) -> tuple[float, float]:
    scores = scores.astype(np.float64).copy()
    scores[seed] = -np.inf
    top = np.argsort(-scores, kind="stable")[:K]
    gains = relevant[top].astype(np.float64)
    discounts = 1.0 / np.log2(np.arange(2, K + 2))
    ideal = discounts[:min(K, n_rel)].sum()
    return float(gains.mean()), float((gains * discounts).sum() / ideal)


def draws(name: str, size: int, stream: int = 0) -> np.random.Generator:
    """The generator of one corpus's seed draws at one seed size (stream 0: first-round users,
    1: the feedback round)."""
    return np.random.default_rng([2024, zlib.crc32(name.encode()), size, stream])


def keyword_members(corpus) -> tuple[dict[str, list[int]], list[str]]:
    """Papers per keyword and the keywords that make simulated users (MIN_PAPERS or more papers,
    at most MAX_SHARE of the corpus), sorted."""
    members: dict[str, list[int]] = {}
    for i, labels in enumerate(corpus.labels):
        for k in labels:
            members.setdefault(k, []).append(i)
    n = len(corpus.ids)
    return members, sorted(k for k, v in members.items() if MIN_PAPERS <= len(v) <= MAX_SHARE * n)


def evaluate(corpus, emb: np.ndarray, seeds: list[int], trials: int) -> dict:
    n = len(corpus.ids)
    members, keywords = keyword_members(corpus)
    X_asl = arxiv_sanity_lite(corpus.texts)
    full = build_features(corpus.ids, corpus.texts, corpus.ids, emb)
    lexical = build_features(corpus.ids, corpus.texts)
    X_cand = candidate_features(corpus.texts)
    none = np.zeros(0, dtype=np.int64)
    models = {
        "arxiv-sanity-lite": lambda s: svm_baseline(X_asl, s),
        "paperscope tfidf": lambda s: rank(lexical, s, none).scores,
        "paperscope": lambda s: rank(full, s, none).scores,
        "candidate": lambda s: candidate(X_cand, emb, s),
        "embeddings only": lambda s: svm_scores(emb, s, none, C=EMBEDDING_C)[0],
    }
    out = {"papers": n, "keywords": len(keywords), "by_seed": {}}
    for size in seeds:
        scores = {m: [] for m in models}
        elapsed = {m: 0.0 for m in models}
        rng = draws(corpus.name, size)
        for kw in keywords:
            idx = np.array(members[kw])
            relevant = np.zeros(n, dtype=bool)
            relevant[idx] = True
            for _ in range(trials):
                seed = np.sort(rng.choice(idx, size, replace=False))
                for name, model in models.items():
                    t0 = time.perf_counter()
                    s = model(seed)
                    elapsed[name] += time.perf_counter() - t0
                    scores[name].append(metrics(s, seed, relevant, len(idx) - size))
        base = np.array(scores["arxiv-sanity-lite"])
        group = np.repeat(np.arange(len(keywords)), trials)
        out["by_seed"][str(size)] = {"users": len(base), "models": _rows(scores, elapsed, group)}
        out.setdefault("_paired", {})[str(size)] = (group, {m: np.array(v) - base for m, v in scores.items()})
        out["by_seed"][str(size)]["feedback"] = feedback(corpus, full, X_asl, members, keywords, size, trials,
                                                        draws(corpus.name, size, 1))
    return out


def feedback(corpus, full, X_asl, members, keywords, size, trials, rng) -> dict:
    """A second round: the user looks at the first 10, tags the relevant ones and marks the
    others "not relevant"; score the next 10 unseen papers. Compares explicit negatives
    (paperscope's weight) with treating them as merely untagged, and the baseline retrained on
    the grown positives."""
    n = len(corpus.ids)
    variants = {"arxiv-sanity-lite (positives only)": None, "paperscope, no negatives": 1.0,
                "paperscope, not-relevant marks": NEGATIVE_WEIGHT}
    scores = {v: [] for v in variants}
    for kw in keywords:
        idx = np.array(members[kw])
        relevant = np.zeros(n, dtype=bool)
        relevant[idx] = True
        for _ in range(trials):
            seed = np.sort(rng.choice(idx, size, replace=False))
            first = rank(full, seed, np.zeros(0, dtype=np.int64)).scores
            first[seed] = -np.inf
            seen = np.argsort(-first, kind="stable")[:K]
            pos = np.concatenate([seed, seen[relevant[seen]]])
            neg = seen[~relevant[seen]]
            unseen_relevant = relevant.copy()
            unseen_relevant[seen] = False
            unseen_relevant[pos] = False
            for name, weight in variants.items():
                if weight is None:
                    s = svm_baseline(X_asl, pos)
                else:
                    s = rank(full, pos, neg if weight > 1 else np.zeros(0, dtype=np.int64),
                             negative_weight=weight).scores
                s[seen] = -np.inf
                scores[name].append(metrics(s, pos, unseen_relevant, max(int(unseen_relevant.sum()), 1)))
    return {name: {"p@10": round(float(np.mean([v[0] for v in vals])), 4),
                   "ndcg@10": round(float(np.mean([v[1] for v in vals])), 4)} for name, vals in scores.items()}


def bootstrap_means(deltas: list[tuple[np.ndarray, np.ndarray]], seed: int = 0) -> np.ndarray:
    """Resampled means of per-user deltas, (BOOTSTRAP, 2) for (p@10, nDCG@10): each corpus's
    keywords (`group`) are drawn with replacement, its users' deltas averaged, and the corpora's
    means averaged (one corpus: its mean)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((BOOTSTRAP, 2))
    for group, delta in deltas:
        keys, inverse = np.unique(group, return_inverse=True)
        sums = np.zeros((len(keys), 2))
        np.add.at(sums, inverse, delta)
        sizes = np.bincount(inverse).astype(float)
        draw = rng.integers(0, len(keys), size=(BOOTSTRAP, len(keys)))
        out += sums[draw].sum(axis=1) / sizes[draw].sum(axis=1)[:, None]
    return out / len(deltas)


def interval(deltas: list[tuple[np.ndarray, np.ndarray]]) -> dict:
    means = np.mean([d.mean(axis=0) for _, d in deltas], axis=0)
    lo, hi = np.percentile(bootstrap_means(deltas), [2.5, 97.5], axis=0)
    return {"p@10_delta": round(float(means[0]), 4), "p@10_delta_ci95": [round(float(lo[0]), 4), round(float(hi[0]), 4)],
            "ndcg@10_delta": round(float(means[1]), 4),
            "ndcg@10_delta_ci95": [round(float(lo[1]), 4), round(float(hi[1]), 4)],
            "ahead_beyond_noise_p@10": bool(lo[0] > 0)}


def _rows(scores: dict, elapsed: dict, group: np.ndarray) -> dict:
    base = np.array(scores[BASELINE])
    rows = {}
    for name, vals in scores.items():
        a = np.array(vals)
        delta = a[:, 1] - base[:, 1]
        rows[name] = {"p@10": round(float(a[:, 0].mean()), 4), "ndcg@10": round(float(a[:, 1].mean()), 4),
                      "ndcg_delta_vs_baseline": round(float(delta.mean()), 4),
                      "ndcg_delta_se": round(float(delta.std(ddof=1) / np.sqrt(len(delta))), 4),
                      "ms_per_user": round(1000 * elapsed[name] / len(vals), 1)}
        if name != BASELINE:
            rows[name]["vs_baseline"] = interval([(group, a - base)])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--seeds", default="5,10")
    ap.add_argument("--corpora", default=",".join(NAMES),
                    help=f"comma-separated subset of {','.join(NAMES)} (tune on iclr2017,iclr2018)")
    ap.add_argument("--out", default="recommend_quality.json",
                    help="result file name under benchmarks/results/")
    args = ap.parse_args()
    if not CORPORA.is_dir():
        sys.exit(f"corpora not found at {CORPORA}")
    seeds = [int(s) for s in args.seeds.split(",")]
    wanted = [c.strip() for c in args.corpora.split(",") if c.strip()]
    unknown = sorted(set(wanted) - set(NAMES))
    if unknown or not wanted:
        sys.exit(f"--corpora: unknown {', '.join(unknown) or '(none given)'}; choose from {', '.join(NAMES)}")
    out_name = Path(args.out).name
    if out_name != args.out or not out_name.endswith(".json"):
        sys.exit(f"--out: give a file name ending in .json (written under benchmarks/results/), not {args.out!r}")
    report = {"benchmark": "recommend_quality", "trials": args.trials, "seeds": seeds,
              "min_papers": MIN_PAPERS, "max_share": MAX_SHARE, "machine": platform.platform(),
              "corpora": {}}
    for corpus in load_all(wanted):
        emb, source = embed(corpus.texts)
        print(f"{corpus.name}: {len(corpus.ids)} papers, embeddings from {source}", file=sys.stderr)
        report["corpora"][corpus.name] = evaluate(corpus, emb, seeds, args.trials)
    paired = {c: report["corpora"][c].pop("_paired") for c in report["corpora"]}
    report["mean"] = _mean(report)
    report["mean_vs_baseline"] = {
        size: {m: interval([paired[c][size][0:1] + (paired[c][size][1][m],) for c in paired])
               for m in next(iter(paired.values()))[size][1] if m != BASELINE}
        for size in report["mean"]}
    # the candidate against the shipped model directly (same users, paired), per corpus and mean
    report["candidate_vs_paperscope"] = {
        size: {**{c: interval([(paired[c][size][0], paired[c][size][1]["candidate"] - paired[c][size][1]["paperscope"])])
                  for c in paired},
               "mean": interval([(paired[c][size][0], paired[c][size][1]["candidate"] - paired[c][size][1]["paperscope"])
                                 for c in paired])}
        for size in report["mean"]}
    report["run"] = run_info({"corpora": list(report["corpora"])}, "numpy", "scikit-learn")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / out_name).write_text(json.dumps(report, indent=2) + "\n")
    _print(report)


def _mean(report: dict) -> dict:
    out: dict = {}
    for corpus in report["corpora"].values():
        for size, block in corpus["by_seed"].items():
            for name, row in block["models"].items():
                acc = out.setdefault(size, {}).setdefault(name, {"p@10": [], "ndcg@10": []})
                acc["p@10"].append(row["p@10"])
                acc["ndcg@10"].append(row["ndcg@10"])
    return {size: {name: {k: round(float(np.mean(v)), 4) for k, v in row.items()} for name, row in models.items()}
            for size, models in out.items()}



def _delta_cells(r: dict) -> str:
    """'ΔP@10 [CI] | ΔnDCG@10 [CI]' table cells of one paired comparison."""
    return (f"{r['p@10_delta']:+.4f} [{r['p@10_delta_ci95'][0]:+.4f}, {r['p@10_delta_ci95'][1]:+.4f}] | "
            f"{r['ndcg@10_delta']:+.4f} [{r['ndcg@10_delta_ci95'][0]:+.4f}, {r['ndcg@10_delta_ci95'][1]:+.4f}]")

def _print(report: dict) -> None:
    print("| corpus | seed | model | P@10 | nDCG@10 | ΔnDCG vs baseline | ms/user |")
    print("|---|---|---|---|---|---|---|")
    for cname, corpus in report["corpora"].items():
        for size, block in corpus["by_seed"].items():
            for name, r in block["models"].items():
                print(f"| {cname} ({corpus['keywords']} kw) | {size} | {name} | {r['p@10']:.3f} | "
                      f"{r['ndcg@10']:.3f} | {r['ndcg_delta_vs_baseline']:+.3f} ± {r['ndcg_delta_se']:.3f} | "
                      f"{r['ms_per_user']} |")
    for size, models in report["mean"].items():
        for name, r in models.items():
            print(f"| mean of {len(report['corpora'])} | {size} | {name} | {r['p@10']:.3f} | {r['ndcg@10']:.3f} | | |")
    print(f"\nmean of {len(report['corpora'])} corpora vs the baseline (95% paired bootstrap over keywords):")
    print("| seed | model | ΔP@10 [95% CI] | ΔnDCG@10 [95% CI] | beyond noise |")
    print("|---|---|---|---|---|")
    for size, models in report["mean_vs_baseline"].items():
        for name, r in models.items():
            print(f"| {size} | {name} | {_delta_cells(r)} | {'yes' if r['ahead_beyond_noise_p@10'] else 'no'} |")
    print("\ncandidate vs the shipped paperscope model (95% paired bootstrap over keywords):")
    print("| seed | corpora | ΔP@10 [95% CI] | ΔnDCG@10 [95% CI] |")
    print("|---|---|---|---|")
    for size, rows in report["candidate_vs_paperscope"].items():
        for name, r in rows.items():
            print(f"| {size} | {name} | {_delta_cells(r)} |")
    print("\nsecond round (first 10 judged: relevant tagged, the rest marked not relevant); next 10:")
    print("| corpus | seed | model | P@10 | nDCG@10 |")
    print("|---|---|---|---|---|")
    for cname, corpus in report["corpora"].items():
        for size, block in corpus["by_seed"].items():
            for name, r in block["feedback"].items():
                print(f"| {cname} | {size} | {name} | {r['p@10']:.3f} | {r['ndcg@10']:.3f} |")


if __name__ == "__main__":
    main()
