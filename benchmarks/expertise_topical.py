"""Topical expertise, the second development benchmark of `match`, `reviewers` and `experts`:
does a person's archive say they can judge a paper (not: did they write it)?

Data (_topical_data.py): one library of ICLR 2020, ICML 2024, ICML 2016, UAI 2024 and COLT 2024
(4,013 papers, authors merged across venues); reviewers = authors with >= 3 papers in >= 2 venues
and a keyworded ICLR 2020 paper; profile = the reviewer's whole archive; candidates = the ICLR
2020 papers with keywords they did not write, graded 0-3 by the idf-weighted share of the
candidate's keywords that label the reviewer's own ICLR 2020 papers.

Directions:
  match      per reviewer, rank the candidates (their archive is the profile)
  reviewers  per candidate, rank the reviewers of one half (tuning or untouched)
  experts    per keyword (as topic words), rank the reviewers of one half; grade = how many of
             their ICLR 2020 papers carry it (0, 1, 2, 3+); through the product's topic search
Metrics: the gold standard's loss (Stelmakh et al.: over every pair of candidates with different
grades, the weight |g1 - g2| of the pairs ranked the wrong way, ties half, over the total weight;
pooled over queries; lower is better), the same loss over pairs of related candidates only
(both grades >= 1: the fine ordering a reviewer's own judgements test) and nDCG@10 (gain
2^g - 1). 95 % intervals: bootstrap over queries (paired for differences, BOOTSTRAP draws).

Methods: the baselines of expertise_eval.py (tfidf-max/mean over profile papers, TPMS-like
profile-as-one-document tf-idf cosine and Dirichlet LM, plain MiniLM cosine max / mean of the 3
best), `shipped-before` (the recipes main shipped before this benchmark, frozen below; `match`
through an Expertise component built with them) and `shipped` (what the code ships now: `match`
through Library.match itself; `reviewers` from the product's recipe and aggregation in matrix
form; `experts` from the product's topic weights, Expertise.topic_weights, and EXPERTS_RECIPE).
For `experts` the search-based variants (weight power 1, 2, 4; with and without the near-miss
discount of expertise/topic.py; max or mean of the 3 best, padded) are rows too.

    .venv/bin/python benchmarks/expertise_topical.py [--grid]
        -> benchmarks/results/expertise_topical.json (--grid: the tuning half only, every
           similarity x aggregation of GRID, -> expertise_topical_grid.json)
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import _search_data as data
import _topical_data as td
from _run_info import run_info

from paperscope.expertise.scoring import Recipe, centroid_scores, hubness, mix

BOOTSTRAP = 1000
TPMS_MU = 3000  # as expertise_eval.py
HALVES = ("tuning", "untouched")
# What main shipped before this benchmark existed (scoring.RECIPE / MATCH_RECIPE then): match =
# 0.2 x centred cosine + 0.8 x words (a quarter of them adjacent-term pairs), mean of the 3
# best, minus 0.5 x hubness; reviewers = each author's centroid in 0.2 centred + 0.8 term space.
BEFORE = Recipe(semantic_weight=0.2, aggregate="topk", k=3, hub=0.5, pad=True)
BEFORE_MATCH = BEFORE.but(pair_weight=0.25)


# --------------------------------------------------------------------------- metrics
def pair_loss(scores: np.ndarray, grades: np.ndarray, related: bool = False) -> tuple[float, float]:
    """(weighted wrong pairs, total weight) over pairs with different grades (both >= 1 with
    `related`); a tie counts half."""
    wrong = weight = 0.0
    levels = [g for g in range(4) if (grades == g).any() and (g >= 1 or not related)]
    for hi in levels:
        s_hi = scores[grades == hi]
        for lo in levels:
            if lo >= hi:
                continue
            s_lo = np.sort(scores[grades == lo])
            above = len(s_lo) - np.searchsorted(s_lo, s_hi, side="right")
            equal = np.searchsorted(s_lo, s_hi, side="right") - np.searchsorted(s_lo, s_hi, side="left")
            wrong += (hi - lo) * float(above.sum() + 0.5 * equal.sum())
            weight += (hi - lo) * len(s_hi) * len(s_lo)
    return wrong, weight


def ndcg(scores: np.ndarray, grades: np.ndarray, k: int = 10) -> float:
    gain = 2.0 ** grades.astype(np.float64) - 1.0
    ideal = np.sort(gain)[::-1][:k]
    if ideal.sum() <= 0:
        return np.nan
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    order = np.lexsort((np.arange(len(scores)), -scores))[:k]
    return float((gain[order] * disc[:len(order)]).sum() / (ideal * disc[:len(ideal)]).sum())


def per_query(scores: np.ndarray, grades: np.ndarray, keep: np.ndarray, axis: int) -> np.ndarray:
    """(queries, 5): wrong, weight, related wrong, related weight, nDCG@10 of each row (axis 1)
    or column (axis 0) of a (reviewers, candidates) score matrix, over the `keep` cells."""
    if axis == 0:
        scores, grades, keep = scores.T, grades.T, keep.T
    out = np.full((scores.shape[0], 5), np.nan)
    for i in range(scores.shape[0]):
        s, g = scores[i][keep[i]], grades[i][keep[i]]
        if len(s) < 2:
            continue
        out[i, :2] = pair_loss(s, g)
        out[i, 2:4] = pair_loss(s, g, related=True)
        out[i, 4] = ndcg(s, g)
    return out[~np.isnan(out[:, 1]) & (out[:, 1] > 0)]


def summary(q: np.ndarray) -> dict:
    return {"queries": len(q), "loss": _ratio(q, 0), "loss_related": _ratio(q, 2),
            "ndcg10": round(float(np.nanmean(q[:, 4])), 4)}


def _ratio(q: np.ndarray, col: int) -> float:
    return round(float(q[:, col].sum() / max(q[:, col + 1].sum(), 1e-12)), 4)


def boot(q: np.ndarray, base: np.ndarray | None = None, seed: int = 0) -> dict:
    """95 % bootstrap intervals over queries of the loss, related loss and nDCG@10, or of
    their differences from `base` (the same queries, paired)."""
    rng = np.random.default_rng(seed)
    draws = np.empty((BOOTSTRAP, 3))
    for b in range(BOOTSTRAP):
        i = rng.integers(0, len(q), len(q))
        vals = [q[i, 0].sum() / q[i, 1].sum(), q[i, 2].sum() / max(q[i, 3].sum(), 1e-12), np.nanmean(q[i, 4])]
        if base is not None:
            vals = [v - w for v, w in zip(vals, [base[i, 0].sum() / base[i, 1].sum(),
                                                 base[i, 2].sum() / max(base[i, 3].sum(), 1e-12),
                                                 np.nanmean(base[i, 4])])]
        draws[b] = vals
    lo, hi = np.percentile(draws, 2.5, axis=0), np.percentile(draws, 97.5, axis=0)
    return {m: [round(float(a), 4), round(float(b), 4)] for m, a, b in zip(("loss", "loss_related", "ndcg10"), lo, hi)}


# --------------------------------------------------------------------------- methods
def topk_matrix(a: td.Archive, sim: np.ndarray, k: int | None, pad: bool = False) -> np.ndarray:
    """(reviewers, candidates): the mean of the k best similarities between each candidate and
    the reviewer's papers (k None: all; pad: a profile with fewer than k papers counts the
    missing ones as 0)."""
    out = np.empty((len(a.reviewers), len(a.cand)), np.float32)
    for i, r in enumerate(a.reviewers):
        rows = sim[np.ix_(a.papers_of[r], a.cand)]
        kk = len(rows) if k is None else min(k, len(rows))
        top = -np.partition(-rows, kk - 1, axis=0)[:kk]
        out[i] = top.sum(axis=0) / (k if pad and k is not None else kk)
    return out


def centroid_matrix(a: td.Archive, sim: np.ndarray) -> np.ndarray:
    """(reviewers, candidates): each reviewer's papers as one centroid (scoring.centroid_scores)."""
    out = np.empty((len(a.reviewers), len(a.cand)), np.float32)
    owner = np.repeat(np.arange(len(a.reviewers)), [len(a.papers_of[r]) for r in a.reviewers])
    papers = np.concatenate([a.papers_of[r] for r in a.reviewers])
    gram = np.array([float(sim[np.ix_(a.papers_of[r], a.papers_of[r])].sum()) for r in a.reviewers])
    for j, c in enumerate(a.cand):
        out[:, j] = centroid_scores(sim[c, papers], owner, len(a.reviewers), gram)
    return out


def scope_hub(a: td.Archive, sim: np.ndarray) -> np.ndarray:
    """Each candidate's hubness within the ICLR 2020 collection (match's scope)."""
    h = hubness(sim[np.ix_(a.scope, a.scope)])
    at = {int(p): i for i, p in enumerate(a.scope)}
    return np.array([h[at[int(c)]] for c in a.cand], np.float32)


def tpms(a: td.Archive, kind: str) -> np.ndarray:
    """The profile as one document: tf-idf cosine ("tfidf") or Dirichlet-smoothed LM mean
    log-likelihood ratio of the candidate's words ("lm", mu TPMS_MU)."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer

    vec = CountVectorizer(strip_accents="unicode", lowercase=True, stop_words="english",
                          token_pattern=r"(?u)\b[^\W\d_][\w\-]*[^\W_]\b")
    counts = vec.fit_transform([f"{t}. {b}" for t, b in a.texts]).tocsr().astype(np.float64)
    prof = np.vstack([np.asarray(counts[a.papers_of[r]].sum(axis=0)).ravel() for r in a.reviewers])
    cand = counts[a.cand]
    if kind == "tfidf":
        tf = TfidfTransformer(sublinear_tf=True).fit(counts)
        p, c = tf.transform(prof).toarray(), tf.transform(cand)
        p /= np.maximum(np.linalg.norm(p, axis=1, keepdims=True), 1e-12)
        return np.asarray(c @ p.T).T.astype(np.float32)
    total = np.asarray(counts.sum(axis=0)).ravel()
    pc = (total + 0.01) / (total.sum() + 0.01 * len(total))
    logp = np.log((prof + TPMS_MU * pc) / (prof.sum(axis=1, keepdims=True) + TPMS_MU)) - np.log(pc)
    doc_len = np.maximum(np.asarray(cand.sum(axis=1)).ravel(), 1)
    return (np.asarray(cand @ logp.T) / doc_len[:, None]).T.astype(np.float32)


def similarity(a: td.Archive, emb: str, weight: float, pair_share: float = 0.0) -> np.ndarray:
    words = a.lexical if not pair_share else (1 - pair_share) * a.lexical + pair_share * a.pairs()
    return mix(a.centred if emb == "centred" else a.plain, words, weight)


def baselines(a: td.Archive) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """name -> (match scores, reviewers scores), both (reviewers, candidates)."""
    out = {}
    for name, sim, k in (("tfidf-max", a.lexical, 1), ("tfidf-mean", a.lexical, None),
                         ("emb-max", a.plain, 1), ("emb-top3", a.plain, 3)):
        m = topk_matrix(a, sim, k)
        out[name] = (m, m)
    for kind in ("tfidf", "lm"):
        m = tpms(a, kind)
        out[f"tpms-{kind}"] = (m, m)
    return out


def before_reviewers(a: td.Archive) -> np.ndarray:
    return centroid_matrix(a, similarity(a, "centred", BEFORE.semantic_weight))


def product_match(a: td.Archive, expertise=None) -> np.ndarray:
    """(reviewers, candidates) `match` scores through the product (Library.match, or the given
    Expertise component) with each reviewer's archive as the profile, ICLR 2020 as the scope;
    the profile's own papers, left out by match, score -inf."""
    from paperscope.expertise.profile import from_ids

    lib = a.lib
    scope = lib.filter(venue="ICLR", year=2020)
    col = {a.id_at[int(c)]: j for j, c in enumerate(a.cand)}
    out = np.full((len(a.reviewers), len(a.cand)), -np.inf, np.float32)
    for i, r in enumerate(a.reviewers):
        prof = from_ids(lib.store, [a.id_at[int(p)] for p in a.papers_of[r]])
        hits = (expertise.match(prof, scope=scope, limit=None, explain=False, aggregate="facets")
                if expertise is not None
                else lib.match(prof, limit=None, explain=False, venue="ICLR", year=2020))
        for h in hits:
            j = col.get(h.paper["id"] if isinstance(h.paper, dict) else h.paper.id)
            if j is not None:
                out[i, j] = h.score
    return out


# --------------------------------------------------------------------------- experts
def expert_queries(a: td.Archive) -> tuple[list[str], np.ndarray]:
    """The ICLR 2020 keywords as topic words, and (reviewers, keywords) grades: how many of the
    reviewer's ICLR 2020 papers carry the keyword (capped at 3)."""
    words = sorted(set().union(*(a.keywords[p] for p in a.cand)))
    col = {w: j for j, w in enumerate(words)}
    grades = np.zeros((len(a.reviewers), len(words)), np.int8)
    for i, r in enumerate(a.reviewers):
        for p in a.papers_of[r]:
            for w in a.keywords[p]:
                grades[i, col[w]] = min(3, grades[i, col[w]] + 1)
    return words, grades


def expert_scores(a: td.Archive, words: list[str]) -> dict[str, np.ndarray]:
    """name -> (reviewers, words) scores: the product's topic weights of each paper (search
    scores over the best, to the power 1, 2 or 4, with and without the near-miss discount:
    Expertise.topic_weights) or a baseline's query-paper similarity (term-vector or plain
    MiniLM cosine), aggregated over each reviewer's papers (max, mean of the 3 best with the
    missing ones as 0, mean of all)."""
    from paperscope.search.vectors import text_vector

    ex = a.lib.expertise
    eng, index = a.lib.engine, a.lib.engine.lexical()
    tv = ex.term_vectors()
    q_emb = eng.embed(words)
    emb = eng.vectors().matrix[eng.vector_rows()]
    plain = (q_emb @ emb.T).astype(np.float32)
    lex = np.vstack([tv.cosines(*text_vector(a.lib.store, index, tv, w)) for w in words]).astype(np.float32)
    variants = [("tfidf-max", lex, 1), ("tfidf-mean", lex, None), ("emb-max", plain, 1), ("emb-top3", plain, 3)]
    base = np.vstack([ex.topic_weights(w, sharpness=1.0, near_miss=False) for w in words]).astype(np.float32)
    discounted = np.vstack([ex.topic_weights(w, sharpness=1.0) for w in words]).astype(np.float32)
    factor = np.where(base > 0, discounted / np.maximum(base, 1e-12), 0.0)  # the near-miss factor
    for s in (1, 2, 4):
        for tag, search in (("", base ** s), ("-nearmiss", base ** s * factor)):
            variants += [(f"search{s}{tag}-top3-padded", search, "pad3"), (f"search{s}{tag}-max", search, 1)]
    out = {}
    for name, sims, how in variants:
        m = np.empty((len(a.reviewers), len(words)), np.float32)
        for i, r in enumerate(a.reviewers):
            rows = sims[:, a.papers_of[r]]
            if how == "sum":
                m[i] = rows.sum(axis=1)
            elif how == "pad3":
                m[i] = -np.sort(-rows, axis=1)[:, :3].sum(axis=1) / 3
            else:
                kk = rows.shape[1] if how is None else min(how, rows.shape[1])
                m[i] = -np.sort(-rows, axis=1)[:, :kk].mean(axis=1)
        out[name] = m
    out["shipped"] = shipped_experts(a, np.vstack([ex.topic_weights(w) for w in words]).astype(np.float32))
    return out


def shipped_experts(a: td.Archive, topic: np.ndarray) -> np.ndarray:
    """(reviewers, words): the product's aggregation of topic weights over an author's papers
    (service.EXPERTS_RECIPE)."""
    from paperscope.expertise.scoring import grouped_scores
    from paperscope.expertise.service import EXPERTS_RECIPE

    owner = np.repeat(np.arange(len(a.reviewers)), [len(a.papers_of[r]) for r in a.reviewers])
    papers = np.concatenate([a.papers_of[r] for r in a.reviewers])
    return np.vstack([grouped_scores(t[papers], owner, len(a.reviewers), EXPERTS_RECIPE) for t in topic]).T


# --------------------------------------------------------------------------- evaluation
def evaluate(a: td.Archive, match: np.ndarray | None, review: np.ndarray | None, part: str,
             experts: np.ndarray | None = None, expert_grades: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Per-query arrays of each direction on one half."""
    rows = a.split == part
    out = {}
    if match is not None:
        out["match"] = per_query(match[rows], a.grades[rows], ~a.own[rows] & np.isfinite(match[rows]), 1)
    if review is not None:
        out["reviewers"] = per_query(review[rows], a.grades[rows], ~a.own[rows], 0)
    if experts is not None:
        out["experts"] = per_query(experts[rows], expert_grades[rows], np.ones_like(experts[rows], bool), 0)
    return out


def table(per: dict[str, dict[str, dict[str, np.ndarray]]], reference: str) -> dict:
    """Per half, direction and method: loss, related loss, nDCG@10 with intervals, and the
    difference from `reference` (paired interval)."""
    out: dict = {}
    for part, methods in per.items():
        out[part] = {}
        for d in ("match", "reviewers", "experts"):
            rows = {}
            for name, q in methods.items():
                if d not in q:
                    continue
                row = {**summary(q[d]), "ci95": boot(q[d])}
                if name != reference and d in methods.get(reference, {}):
                    row[f"minus_{reference}_ci95"] = boot(q[d], methods[reference][d])
                rows[name] = row
            if rows:
                out[part][d] = rows
    return out


def shipped_reviewers(a: td.Archive) -> np.ndarray:
    """The product's default `reviewers` ranking (service.author_aggregate(2) over
    Expertise's reviewers recipe) in matrix form; authors here all have >= 3 papers."""
    from paperscope.expertise.service import author_aggregate
    from paperscope.expertise.scoring import RECIPE

    sim = similarity(a, "centred", RECIPE.semantic_weight)
    how = author_aggregate(2)
    if how == "centroid":
        return centroid_matrix(a, sim)
    facets = topk_matrix(a, sim, RECIPE.k, RECIPE.pad) if RECIPE.aggregate == "topk" else None
    if how == "facets":
        return facets
    from paperscope.expertise.scoring import fuse

    cent = centroid_matrix(a, sim)
    return np.vstack([fuse(facets[:, j], cent[:, j], k=RECIPE.fuse_k) for j in range(len(a.cand))]).T


# --------------------------------------------------------------------------- tuning
GRID_SIMS = (("centred", 0.2), ("centred", 0.4), ("centred", 0.6), ("centred", 0.8), ("centred", 1.0),
             ("plain", 0.8), ("plain", 1.0))
GRID_AGGREGATES = (("top1", 1, False), ("top3", 3, False), ("top3-padded", 3, True), ("top5", 5, False),
                   ("mean", None, False), ("centroid", None, False))


def grid(a: td.Archive) -> dict:
    """Every similarity x aggregation (x candidate hubness for match) on the tuning half."""
    rows = []
    ref = evaluate(a, *baselines(a)["emb-top3"], "tuning")
    for emb, w in GRID_SIMS:
        sim = similarity(a, emb, w)
        hub = scope_hub(a, sim)
        for name, k, pad in GRID_AGGREGATES:
            m = centroid_matrix(a, sim) if name == "centroid" else topk_matrix(a, sim, k, pad)
            for h in ((0.0,) if name == "centroid" else (0.0, 0.5)):
                q = evaluate(a, m - h * hub[None, :], m if h == 0 else None, "tuning")
                row = {"embedding": emb, "semantic_weight": w, "aggregate": name, "hub": h}
                for d, x in q.items():
                    row[d] = {**summary(x), "minus_emb_top3_ci95": boot(x, ref[d])}
                rows.append(row)
                print(emb, w, name, h, {d: (row[d]["loss"], row[d]["ndcg10"]) for d in q}, flush=True)
    best = {d: min((r for r in rows if d in r), key=lambda r: r[d]["loss"]) for d in ("match", "reviewers")}
    return {"objective": "loss on the tuning half (lower is better)", "rows": rows,
            "emb_top3": {d: summary(x) for d, x in ref.items()}, "best": best}


def main() -> None:
    from paperscope.expertise.service import Expertise

    ap = argparse.ArgumentParser()
    ap.add_argument("--grid", action="store_true", help="only the tuning grid -> expertise_topical_grid.json")
    args = ap.parse_args()
    if not data.available():
        print("corpora not found: nothing to do")
        return
    t0, c0 = time.time(), time.process_time()
    a = td.Archive()
    print(a.describe(), flush=True)
    out = {"benchmark": "topical expertise (keyword-graded), see the module docstring", "data": a.describe()}
    run = run_info({"corpora": [f"{data.CORPORA.name}/{n}" for n in td.VENUES]}, "numpy", "scipy", "scikit-learn")
    if args.grid:
        out["grid"] = grid(a)
        out.update(seconds=round(time.time() - t0, 1), cpu_seconds=round(time.process_time() - c0, 1), run=run)
        print(data.write_result("expertise_topical_grid", out))
        return
    methods = baselines(a)
    before = Expertise(a.lib.store, a.lib.engine, recipe=BEFORE, match_recipe=BEFORE_MATCH)
    methods["shipped-before"] = (product_match(a, before), before_reviewers(a))
    methods["shipped"] = (product_match(a), shipped_reviewers(a))
    words, expert_grades = expert_queries(a)
    experts = expert_scores(a, words)
    experts["shipped-before"] = experts.pop("search4-top3-padded")
    per = {}
    for part in HALVES:
        per[part] = {}
        for name in list(methods) + [n for n in experts if n not in methods]:
            m, r = methods.get(name, (None, None))
            per[part][name] = evaluate(a, m, r, part, experts.get(name), expert_grades)
    out["table"] = table(per, "emb-top3")
    out["shipped_minus_before"] = {part: {d: boot(per[part]["shipped"][d], per[part]["shipped-before"][d])
                                          for d in per[part]["shipped"]} for part in HALVES}
    for part in HALVES:
        for d, rows in out["table"][part].items():
            for name, row in rows.items():
                print(f"{part:9} {d:9} {name:20} loss {row['loss']:.4f} {row['ci95']['loss']} "
                      f"related {row['loss_related']:.4f} ndcg10 {row['ndcg10']:.4f} "
                      f"vs emb-top3 {row.get('minus_emb-top3_ci95', {}).get('loss')}", flush=True)
    out.update(seconds=round(time.time() - t0, 1), cpu_seconds=round(time.process_time() - c0, 1), run=run)
    print(data.write_result("expertise_topical", out))


if __name__ == "__main__":
    main()
