"""Expertise matching, author leave-one-out, both directions, every method in one run.

match:     for each author with >= 3 papers in a venue and each of their papers in turn, hide it,
           make the profile from the author's other papers and rank every other paper of the
           venue (the profile's own papers left out): MRR and Recall@10 of the hidden paper.
reviewers: for each paper with an author who has >= 2 other papers there, rank every author
           with >= 2 papers besides it (profiles never hold the paper itself): the targets are
           the paper's authors among them; its other authors are left out of the ranking.
           MRR of the first target, Recall@10 of all targets.

Methods (pair similarity x aggregation over a profile's papers):
  tfidf-max / tfidf-mean    term-vector cosine (search/vectors.py recipe), max / mean
  tpms-lm                   Dirichlet-smoothed unigram language model of the profile (TPMS
                            style): mean log-likelihood ratio of the candidate's words (match),
                            mean log-likelihood of the paper's words (reviewers); mu tuned too
  emb-max / emb-top3        plain MiniLM cosine, max / mean of the 3 best
  related-top3              today's `related` mix (search/related.py: SEMANTIC_WEIGHT x centred
                            cosine + the rest split between the term cosine and the cosine of
                            adjacent term pairs, BIGRAM_WEIGHT) taken per profile paper, mean of
                            the 3 best; the pairs' idf is counted over the whole venue here
                            (related.py counts it over a pool per query)
  related-0.55-top3         the earlier `related` mix (0.55 centred cosine + 0.45 term cosine)
  (baselines average what an author has: no padding)
  expertise                 what paperscope ships: paperscope.expertise.scoring.RECIPE (chosen
                            here on the tuning corpora: ICLR 2020 and ICML 2016; ICML 2024,
                            UAI 2024, COLT 2024 untouched); match by facets (mean of the 3 best
                            profile papers), reviewers by each author's centroid
                            (service.MATCH_AGGREGATE / AUTHOR_AGGREGATE)
  expertise-facets          the same recipe, facets in both directions (the previous choice)
  expertise-centroid        the same pair similarity, each profile as one centroid
  expertise-fused           facets and centroid rankings fused (reciprocal rank), both directions
  tpms-tfidf                TPMS-like with tf-idf: the profile as one document, cosine of sublinear
                            tf-idf vectors
  shipped-before            the recipes shipped before the topical benchmark (expertise_topical.py):
                            match with hubness 0.5, reviewers by each author's centroid

  (match since the pairs: scoring.MATCH_RECIPE, a quarter of the words from adjacent-term-pair
  cosines, chosen with --match-grid and --min-papers 2 --tuning-only on the tuning corpora;
  expertise-facets is the match before it)

Beyond the per-corpus rows, "pooled_untouched" takes every untouched query once (ICML 2024 + UAI
2024 + COLT 2024) with the shipped method minus each other method, a paired bootstrap resampling
queries within their corpus; "separates_methods" says per corpus and direction whether the
interval against the strongest baseline is within +-RESOLUTION MRR (otherwise the corpus is too
small to tell the leading methods apart; "too_small_to_separate_methods" lists them).
"pooled_tuning" is the same over the tuning corpora.

    .venv/bin/python benchmarks/expertise_eval.py [--grid]  -> benchmarks/results/expertise_eval.json
    .venv/bin/python benchmarks/expertise_eval.py --match-grid  -> expertise_eval_match_grid.json
        (`match` only, tuning corpora only: semantic weight x adjacent-pair share x profile-side
        hubness x candidate hubness x aggregation x facets/fused)
    .venv/bin/python benchmarks/expertise_eval.py --min-papers 2 --tuning-only
        -> expertise_eval_min2_tuning.json (decisions for one-paper authors on tuning data only)
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict

import numpy as np
from scipy import sparse

import _search_data as data
from _run_info import run_info

from paperscope.expertise import authors as author_index
from paperscope.search.vectors import build as build_term_vectors
from paperscope.expertise.scoring import (FIELD_WEIGHTS, MATCH_RECIPE, RECIPE, Recipe, centroid_scores, fuse,
                                          grouped_scores, hubness, mix, profile_scores)
from paperscope.expertise.service import AGGREGATES, MATCH_AGGREGATE, author_aggregate

TUNING = ("iclr2020", "icml2016")
UNTOUCHED = ("icml2024", "uai2024", "colt2024")
MIN_PAPERS = 3
BOOTSTRAP = 1000
MUS = (100, 300, 1000, 3000)
TPMS_MU = 3000  # the TPMS-style LM's smoothing as tuned by --grid on the tuning corpora
# What main shipped before the topical benchmark (expertise_topical.py): match with a hubness
# of 0.5, reviewers by each author's centroid
BEFORE_MATCH = Recipe(semantic_weight=0.2, k=3, hub=0.5, pad=True, pair_weight=0.25)


# --------------------------------------------------------------------------- data
class Corpus:
    def __init__(self, name: str):
        records = data.dedupe(data.CORPUS[name]())
        lib = data.library(name, records, titles=True)
        eng = lib.engine
        index = eng.lexical()
        self.name, self.n = name, index.size
        rows = eng.vector_rows()
        if (rows < 0).any():
            raise SystemExit(f"{name}: {int((rows < 0).sum())} papers without vectors")
        emb = eng.vectors().matrix[rows]
        mean = eng.embedding_mean()
        centred = emb - mean
        centred /= np.linalg.norm(centred, axis=1, keepdims=True)
        self.plain = emb @ emb.T
        self.centred = centred @ centred.T
        tv = build_term_vectors(lib.store, index, weights=FIELD_WEIGHTS)
        terms = sparse.csc_matrix((tv.data, tv.indices, tv.indptr), shape=(self.n, len(tv.indptr) - 1)).tocsr()
        self.lexical = (terms @ terms.T).toarray().astype(np.float32)
        idx = author_index.build(lib.store.author_lists())
        pos = index.positions(idx.pair_rowid)
        self.pair_author, self.pair_pos = idx.pair_author[pos >= 0], pos[pos >= 0]
        self.n_authors = idx.size
        texts = lib.store.texts_of_rowids([int(r) for r in index.rowids])
        self.counts = _counts([f"{texts[int(r)][0]}. {texts[int(r)][1]}" for r in index.rowids])
        self.pairs = _pair_cosines([texts[int(r)] for r in index.rowids])
        lib.close()
        self.papers_of = [np.sort(self.pair_pos[self.pair_author == a]) for a in range(self.n_authors)]
        self.authors_of = [[] for _ in range(self.n)]
        for a, p in zip(self.pair_author.tolist(), self.pair_pos.tolist()):
            self.authors_of[p].append(a)
        n_papers = np.bincount(self.pair_author, minlength=self.n_authors)
        self.match_queries = [(a, int(h)) for a in np.flatnonzero(n_papers >= MIN_PAPERS)
                              for h in self.papers_of[a]]
        self.review_queries = []
        for q in range(self.n):
            targets = [a for a in self.authors_of[q] if n_papers[a] - 1 >= MIN_PAPERS - 1]
            if targets:
                self.review_queries.append((q, targets, [a for a in self.authors_of[q] if a not in targets]))
        self.author_counts = sparse.csr_matrix(
            (np.ones(len(self.pair_pos)), (self.pair_author, self.pair_pos)),
            shape=(self.n_authors, self.n)) @ self.counts
        self.author_len = np.asarray(self.author_counts.sum(axis=1)).ravel()
        self.doc_len = np.asarray(self.counts.sum(axis=1)).ravel()
        total = np.asarray(self.counts.sum(axis=0)).ravel()
        self.p_corpus = (total + 0.01) / (total.sum() + 0.01 * len(total))

    def describe(self) -> dict:
        return {"papers": self.n, "authors": self.n_authors,
                f"authors_with_{MIN_PAPERS}_papers": len({a for a, _ in self.match_queries}),
                "match_queries": len(self.match_queries), "reviewer_queries": len(self.review_queries)}


def _pair_cosines(texts: list[tuple[str, str]]) -> np.ndarray:
    """Cosines of the papers' adjacent-term-pair vectors (related.pair_counts; sublinear tf x
    smoothed idf over the venue, pairs held by fewer than two papers dropped)."""
    from paperscope.search.related import pair_counts

    counts = [pair_counts(t or "", a or "") for t, a in texts]
    vocab: dict = {}
    rows, cols, vals = [], [], []
    for i, c in enumerate(counts):
        for p, tf in c.items():
            rows.append(i), cols.append(vocab.setdefault(p, len(vocab))), vals.append(tf)
    m = sparse.csr_matrix((np.array(vals, np.float64), (rows, cols)), shape=(len(texts), len(vocab)))
    df = np.bincount(m.indices, minlength=len(vocab))
    idf = np.log((1.0 + len(texts)) / (1.0 + df)) + 1.0
    m.data = (1.0 + np.log(m.data)) * idf[m.indices] * (df[m.indices] >= 2)
    m.eliminate_zeros()
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    m = sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ m
    return (m @ m.T).toarray().astype(np.float32)


def _counts(texts: list[str]) -> sparse.csr_matrix:
    from sklearn.feature_extraction.text import CountVectorizer

    vec = CountVectorizer(strip_accents="unicode", lowercase=True, stop_words="english",
                          token_pattern=r"(?u)\b[^\W\d_][\w\-]*[^\W_]\b")
    return vec.fit_transform(texts).tocsr().astype(np.float64)


# --------------------------------------------------------------------------- evaluation
def _rank(scores: np.ndarray, target: int) -> int:
    """1-based rank of `target`; ties count against it."""
    s = scores[target]
    return int((scores > s).sum() + (scores == s).sum())


def match_ranks(c: Corpus, score_fn) -> np.ndarray:
    out = np.empty(len(c.match_queries), np.int64)
    for i, (a, h) in enumerate(c.match_queries):
        prof = c.papers_of[a][c.papers_of[a] != h]
        scores = np.asarray(score_fn(prof), dtype=np.float64).copy()
        scores[prof] = -np.inf
        out[i] = _rank(scores, h)
    return out


def review_ranks(c: Corpus, score_fn) -> list[np.ndarray]:
    """Candidates: every author with >= MIN_PAPERS - 1 papers besides the query (the targets'
    population, so a method cannot win by favouring prolific authors over one-paper ones)."""
    out = []
    n_papers = np.bincount(c.pair_author, minlength=c.n_authors)
    for q, targets, others in c.review_queries:
        scores = np.asarray(score_fn(q), dtype=np.float64).copy()
        others_n = n_papers - np.bincount(c.pair_author[c.pair_pos == q], minlength=c.n_authors)
        scores[others_n < MIN_PAPERS - 1] = -np.inf
        scores[others] = -np.inf
        out.append(np.array([_rank(scores, t) for t in targets]))
    return out


def pair_method(sim: np.ndarray, recipe: Recipe):
    hub = recipe.hub * hubness(sim) if recipe.hub else 0.0

    def match(prof):
        return profile_scores(sim[prof], recipe) - hub

    def review(c: Corpus):
        def fn(q):
            keep = c.pair_pos != q
            return grouped_scores(sim[q, c.pair_pos[keep]], c.pair_author[keep], c.n_authors, recipe)
        return fn
    return match, review


def aggregated_method(c: Corpus, sim: np.ndarray, recipe: Recipe, match_how: str, authors_how: str):
    """The pair similarity `sim` combined over a profile as facets, a centroid or both fused
    (as service.Expertise does): candidates outside the ranked population are left out before
    fusing, so ranks are taken among the candidates that count."""
    hub = recipe.hub * hubness(sim) if recipe.hub else 0.0
    n_papers = np.bincount(c.pair_author, minlength=c.n_authors)
    gram = np.array([float(sim[np.ix_(p, p)].sum()) for p in c.papers_of])

    def match(prof):
        facets = profile_scores(sim[prof], recipe) - hub
        centroid = sim[prof].mean(axis=0) - hub
        return {"facets": facets, "centroid": centroid, "fused": fuse(facets, centroid, k=recipe.fuse_k)}[match_how]

    def review(q):
        keep = c.pair_pos != q
        owner, values = c.pair_author[keep], sim[q, c.pair_pos[keep]]
        own = c.authors_of[q]
        out_of = n_papers - np.bincount(c.pair_author[c.pair_pos == q], minlength=c.n_authors) < MIN_PAPERS - 1
        facets = grouped_scores(values, owner, c.n_authors, recipe)
        centroid = centroid_scores(values, owner, c.n_authors, gram, (own, 1.0, float(sim[q, q])))
        facets[out_of] = -np.inf
        centroid[out_of] = -np.inf
        return {"facets": facets, "centroid": centroid, "fused": fuse(facets, centroid, k=recipe.fuse_k)}[authors_how]
    return match, lambda _c: review


def match_similarity(c: Corpus, recipe: Recipe, pair_weight: float | None = None) -> np.ndarray:
    """The recipe's pair similarity: centred cosine mixed with the words, the words being the
    term cosine and (a share `pair_weight`, default the recipe's) the adjacent-term-pair cosine
    (idf over the venue, as service.Expertise counts it over the scope)."""
    pair_weight = recipe.pair_weight if pair_weight is None else pair_weight
    words = c.lexical if not pair_weight else (1.0 - pair_weight) * c.lexical + pair_weight * c.pairs
    return mix(c.centred, words, recipe.semantic_weight)


def match_method(c: Corpus, recipe: Recipe, how: str = "facets", pair_weight: float | None = None,
                 profile_hub: float = 0.0):
    """`match` as service.Expertise.match does it with `recipe` and `how` (the share of pairs
    in the words `pair_weight`, default the recipe's), plus a variant the product does not have:
    profile-side hubness (each profile paper's row minus `profile_hub` x its own hubness).
    Match only (no reviewers side)."""
    sim = match_similarity(c, recipe, pair_weight)
    hubs = hubness(sim)

    def match(prof):
        rows = sim[prof]
        if profile_hub:
            rows = rows - profile_hub * hubs[prof][:, None]
        facets = profile_scores(rows, recipe) - recipe.hub * hubs
        centroid = rows.mean(axis=0) - recipe.hub * hubs
        return {"facets": facets, "centroid": centroid, "fused": fuse(facets, centroid, k=recipe.fuse_k)}[how]
    return match, None


def lm_method(c: Corpus, mu: float):
    logc = np.log(c.p_corpus)

    def match(prof):
        cnt = np.asarray(c.counts[prof].sum(axis=0)).ravel()
        logp = np.log((cnt + mu * c.p_corpus) / (cnt.sum() + mu))
        return (c.counts @ (logp - logc)) / np.maximum(c.doc_len, 1)

    def review(q):
        row = c.counts[q]
        words, cq = row.indices, row.data
        ac = c.author_counts[:, words].toarray()
        alen = c.author_len.copy()
        for a in c.authors_of[q]:
            ac[a] -= cq
            alen[a] -= cq.sum()
        logp = np.log((ac + mu * c.p_corpus[words]) / (alen + mu)[:, None])
        scores = logp @ cq / max(cq.sum(), 1)
        has_other = np.bincount(c.pair_author[c.pair_pos != q], minlength=c.n_authors) > 0
        return np.where(has_other, scores, -np.inf)
    return match, lambda _c: review


def tpms_tfidf_method(c: Corpus):
    """TPMS-like with tf-idf: the profile (an author's papers) as one document, its sublinear
    tf-idf vector's cosine with each paper's."""
    from sklearn.feature_extraction.text import TfidfTransformer

    tf = TfidfTransformer(sublinear_tf=True).fit(c.counts)
    docs = tf.transform(c.counts).tocsr()
    authors = tf.transform(c.author_counts).tocsr()

    def match(prof):
        p = tf.transform(sparse.csr_matrix(c.counts[prof].sum(axis=0)))
        return np.asarray((docs @ p.T).todense()).ravel()

    def review(q):
        scores = np.asarray((authors @ docs[q].T).todense()).ravel()
        for a in c.authors_of[q]:  # the author's papers without the query paper
            rest = c.author_counts[a] - c.counts[q]
            scores[a] = float((tf.transform(rest) @ docs[q].T).toarray()[0, 0]) if rest.sum() > 0 else -np.inf
        return scores
    return match, lambda _c: review


def summarise(match: np.ndarray, review: list[np.ndarray]) -> dict:
    first = np.array([r.min() for r in review]) if review else np.zeros(0)
    return {"match_mrr": round(float(np.mean(1.0 / match)), 4),
            "match_recall10": round(float(np.mean(match <= 10)), 4),
            "reviewers_mrr": round(float(np.mean(1.0 / first)), 4) if len(first) else None,
            "reviewers_recall10": round(float(np.mean([np.mean(r <= 10) for r in review])), 4) if review else None}


def evaluate(c: Corpus, method, match_only: bool = False) -> tuple[dict, np.ndarray, np.ndarray]:
    """Summary, and per query: match reciprocal ranks, reviewers reciprocal ranks (of the
    first target)."""
    match_fn, review_fn = method
    m = match_ranks(c, match_fn)
    if match_only:
        return summarise(m, []), 1.0 / m, np.zeros(0)
    r = review_ranks(c, review_fn(c))
    rr_review = np.array([1.0 / x.min() for x in r])
    return summarise(m, r), 1.0 / m, rr_review


def per_query(c: Corpus, method) -> dict[str, np.ndarray]:
    """Per-query MRR terms and Recall@10 terms of both directions (for pooling corpora)."""
    match_fn, review_fn = method
    m = match_ranks(c, match_fn)
    r = review_ranks(c, review_fn(c))
    return {"match_rr": 1.0 / m, "match_r10": (m <= 10).astype(float),
            "reviewers_rr": np.array([1.0 / x.min() for x in r]),
            "reviewers_r10": np.array([np.mean(x <= 10) for x in r])}


def methods(c: Corpus, recipe: Recipe, mu: float) -> dict:
    from paperscope.search.related import BIGRAM_WEIGHT, SEMANTIC_WEIGHT

    words = (1.0 - BIGRAM_WEIGHT) * c.lexical + BIGRAM_WEIGHT * c.pairs
    related = mix(c.centred, words, SEMANTIC_WEIGHT)
    related_055 = mix(c.centred, c.lexical, 0.55)
    ours = mix(c.centred, c.lexical, recipe.semantic_weight)
    shipped_review = aggregated_method(c, ours, recipe, MATCH_AGGREGATE, author_aggregate(MIN_PAPERS - 1))[1]
    return {
        "tfidf-max": pair_method(c.lexical, Recipe(k=1, hub=0, pad=False)),
        "tfidf-mean": pair_method(c.lexical, Recipe(k=10_000, hub=0, pad=False)),
        "tpms-lm": lm_method(c, mu),
        "tpms-tfidf": tpms_tfidf_method(c),
        "emb-max": pair_method(c.plain, Recipe(k=1, hub=0, pad=False)),
        "emb-top3": pair_method(c.plain, Recipe(k=3, hub=0, pad=False)),
        "related-top3": pair_method(related, Recipe(k=3, hub=0, pad=False)),
        "related-0.55-top3": pair_method(related_055, Recipe(k=3, hub=0, pad=False)),
        "expertise-facets": pair_method(ours, recipe),
        "expertise-centroid": aggregated_method(c, ours, recipe, "centroid", "centroid"),
        "expertise-fused": aggregated_method(c, ours, recipe, "fused", "fused"),
        "shipped-before": (match_method(c, BEFORE_MATCH, "facets")[0],
                           aggregated_method(c, ours, recipe, "facets", "centroid")[1]),
        "expertise": (match_method(c, MATCH_RECIPE, MATCH_AGGREGATE)[0], shipped_review),
    }


def paired_ci(ours: np.ndarray, base: np.ndarray, seed: int = 0) -> list[float]:
    """95 % bootstrap interval of mean(ours - base) over queries."""
    rng = np.random.default_rng(seed)
    diff = ours - base
    means = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(BOOTSTRAP)]
    return [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]


def pooled_ci(ours: list[np.ndarray], base: list[np.ndarray], seed: int = 0) -> list[float]:
    """95 % bootstrap interval of the pooled mean(ours - base) over the queries of several
    corpora, each query once; queries are resampled within their corpus (stratified)."""
    rng = np.random.default_rng(seed)
    diffs = [o - b for o, b in zip(ours, base) if len(o)]
    n = sum(len(d) for d in diffs)
    means = np.empty(BOOTSTRAP)
    for i in range(BOOTSTRAP):
        means[i] = sum(d[rng.integers(0, len(d), len(d))].sum() for d in diffs) / n
    return [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]


BASELINES = ("tfidf-max", "tfidf-mean", "tpms-lm", "tpms-tfidf", "emb-max", "emb-top3", "related-top3", "related-0.55-top3")
# A corpus (or pool) separates two methods in a direction only if it has at least MIN_QUERIES
# queries there (with fewer the bootstrap interval itself is unreliable: 3 queries give a
# degenerate one) and the 95 % interval of the shipped method minus its strongest baseline is
# within +-RESOLUTION MRR: the shipped method leads the strongest baselines by 0.006-0.03 MRR on
# the pooled untouched queries, so a wider interval cannot resolve gaps of that size.
RESOLUTION = 0.015
MIN_QUERIES = 100
DIRECTIONS = (("match", "match_rr", "match_r10"), ("reviewers", "reviewers_rr", "reviewers_r10"))


def pooled(per: dict[str, dict[str, dict]], names: list[str]) -> dict:
    """Methods over the queries of `names` together (each query once): MRR, Recall@10, and the
    shipped method minus every other method with a stratified paired bootstrap interval."""
    labels = list(next(iter(per.values())).keys())
    out = {"corpora": names, "queries": {d: int(sum(len(per[n]["expertise"][rr]) for n in names))
                                         for d, rr, _ in DIRECTIONS}, "table": {}, "expertise_minus": {}}
    for label in labels:
        out["table"][label] = {}
        for d, rr, r10 in DIRECTIONS:
            allrr = np.concatenate([per[n][label][rr] for n in names])
            allr10 = np.concatenate([per[n][label][r10] for n in names])
            out["table"][label][f"{d}_mrr"] = round(float(allrr.mean()), 4) if len(allrr) else None
            out["table"][label][f"{d}_recall10"] = round(float(allr10.mean()), 4) if len(allr10) else None
    for label in labels:
        if label == "expertise":
            continue
        row = {}
        for d, rr, _ in DIRECTIONS:
            ours = [per[n]["expertise"][rr] for n in names]
            base = [per[n][label][rr] for n in names]
            ci = pooled_ci(ours, base)
            diff = float(np.concatenate(ours).mean() - np.concatenate(base).mean())
            row[f"{d}_mrr_diff"] = round(diff, 4)
            row[f"{d}_mrr_diff_ci95"] = ci
            row[f"{d}_beyond_noise"] = "better" if ci[0] > 0 else "worse" if ci[1] < 0 else "tie"
        out["expertise_minus"][label] = row
    out["ahead_of_every_baseline_beyond_noise"] = {
        d: all(out["expertise_minus"][b][f"{d}_beyond_noise"] == "better" for b in BASELINES) for d, _, _ in DIRECTIONS}
    out["separates_methods"] = separation(out["expertise_minus"], out["table"], out["queries"])
    return out


def separation(minus: dict, table: dict, queries: dict) -> dict:
    """Per direction: the queries, the strongest baseline, the half-width of the shipped
    method's interval against it, and whether the queries can separate methods (see
    RESOLUTION)."""
    out = {}
    for d, _, _ in DIRECTIONS:
        strongest = max(BASELINES, key=lambda b: table[b][f"{d}_mrr"] if table[b][f"{d}_mrr"] is not None else -1)
        lo, hi = minus[strongest][f"{d}_mrr_diff_ci95"]
        half = round((hi - lo) / 2, 4)
        out[d] = {"queries": int(queries[d]), "strongest_baseline": strongest, "ci95_half_width": half,
                  "enough_queries": bool(queries[d] >= MIN_QUERIES and half <= RESOLUTION)}
    return out


# --------------------------------------------------------------------------- tuning
def grid() -> list[tuple[str, Recipe]]:
    out = []
    for w in (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 1.0):
        for hub in (0.0, 0.5, 1.0):
            for k in (1, 2, 3, 5, 10_000):
                out.append(("centred", Recipe(semantic_weight=w, k=k, hub=hub, pad=k < 10_000)))
            for t in (0.02, 0.05):
                out.append(("centred", Recipe(semantic_weight=w, aggregate="softmax", temperature=t, hub=hub)))
    for k in (1, 3):
        out.append(("plain", Recipe(semantic_weight=0.5, k=k, hub=0.5)))
    return out


def tune(corpora: list[Corpus]) -> dict:
    """Every recipe on the tuning corpora; the objective is the mean of the four MRRs (two
    corpora x two directions). Also the LM's mu, so the TPMS-style baseline is tuned too."""
    rows = []
    for emb, recipe in grid():
        res = {}
        for c in corpora:
            sim = mix(c.centred if emb == "centred" else c.plain, c.lexical, recipe.semantic_weight)
            res[c.name] = evaluate(c, pair_method(sim, recipe))[0]
        obj = np.mean([r[k] for r in res.values() for k in ("match_mrr", "reviewers_mrr")])
        rows.append({"embedding": emb, "recipe": asdict(recipe), "objective": round(float(obj), 4), **res})
    rows.sort(key=lambda r: -r["objective"])
    best = RECIPE
    aggregates = []
    for how in AGGREGATES:  # the shipped recipe, each way of combining a profile (both directions)
        res = {}
        for c in corpora:
            sim = mix(c.centred, c.lexical, best.semantic_weight)
            res[c.name] = evaluate(c, aggregated_method(c, sim, best, how, how))[0]
        aggregates.append({"aggregate": how, **res})
    lm = []
    for mu in MUS:
        res = {c.name: evaluate(c, lm_method(c, mu))[0] for c in corpora}
        obj = np.mean([r[k] for r in res.values() for k in ("match_mrr", "reviewers_mrr")])
        lm.append({"mu": mu, "objective": round(float(obj), 4), **res})
    lm.sort(key=lambda r: -r["objective"])
    return {"recipes": rows, "aggregates": aggregates, "tpms_mu": lm}


MATCH_GRID = {"semantic_weight": (0.1, 0.2, 0.3, 0.4), "pair_weight": (0.0, 0.25, 0.5),
              "profile_hub": (0.0, 0.5, 1.0), "hub": (0.0, 0.25, 0.5, 0.75, 1.0),
              "aggregate": (("topk", 2), ("topk", 3), ("topk", 5), ("softmax", 0.02), ("softmax", 0.05)),
              "how": ("facets", "fused")}


def match_grid(corpora: list[Corpus], mu: float) -> dict:
    """`match` only, on the tuning corpora: every combination of MATCH_GRID; objective the mean
    of the corpora's match MRRs. The best is compared with the shipped recipe and with
    related-top3 (pooled tuning queries, stratified paired bootstrap)."""
    import itertools

    g = MATCH_GRID
    rows, rr = [], {}
    for w, b, ph, hub, (agg, val), how in itertools.product(g["semantic_weight"], g["pair_weight"], g["profile_hub"],
                                                            g["hub"], g["aggregate"], g["how"]):
        recipe = RECIPE.but(semantic_weight=w, hub=hub, aggregate=agg, k=val if agg == "topk" else RECIPE.k,
                            temperature=val if agg == "softmax" else RECIPE.temperature)
        res, key = {}, (json_key(recipe), how, b, ph)
        rr[key] = []
        for c in corpora:
            summary, m_rr, _ = evaluate(c, match_method(c, recipe, how, b, ph), match_only=True)
            res[c.name] = summary["match_mrr"]
            rr[key].append(m_rr)
        obj = float(np.mean(list(res.values())))
        pooled_mrr = float(np.concatenate(rr[key]).mean())
        rows.append({"recipe": asdict(recipe), "how": how, "pair_weight": b, "profile_hub": ph, "objective": round(obj, 4),
                     "pooled_mrr": round(pooled_mrr, 4), **{k: v for k, v in res.items()}, "_key": key})
    rows.sort(key=lambda r: -r["objective"])
    current = (json_key(RECIPE), MATCH_AGGREGATE, 0.0, 0.0)  # match before pairs
    shipped = (json_key(RECIPE), MATCH_AGGREGATE, MATCH_RECIPE.pair_weight, 0.0)
    best = rows[0]["_key"]
    related = []
    for c in corpora:
        m = methods(c, RECIPE, mu)
        related.append(evaluate(c, m["related-top3"], match_only=True)[1])
    out = {"objective": "mean over the tuning corpora of the match MRR", "grid": {k: list(v) for k, v in g.items()},
           "best": {k: v for k, v in rows[0].items() if k != "_key"},
           "current": next({k: v for k, v in r.items() if k != "_key"} for r in rows if r["_key"] == current),  # before
           "best_minus_current_pooled_ci95": pooled_ci(rr[best], rr[current]),
           "shipped": next({k: v for k, v in r.items() if k != "_key"} for r in rows if r["_key"] == shipped),
           "shipped_minus_current_pooled_ci95": pooled_ci(rr[shipped], rr[current]),
           "best_minus_related_top3_pooled_ci95": pooled_ci(rr[best], related),
           "current_minus_related_top3_pooled_ci95": pooled_ci(rr[current], related),
           "related_top3": {c.name: round(float(x.mean()), 4) for c, x in zip(corpora, related)},
           "top": [{k: v for k, v in r.items() if k != "_key"} for r in rows[:40]]}
    return out


def json_key(recipe: Recipe) -> tuple:
    return tuple(sorted(asdict(recipe).items()))


def main() -> None:
    global MIN_PAPERS
    ap = argparse.ArgumentParser()
    ap.add_argument("--grid", action="store_true", help="run the tuning grid on the tuning corpora")
    ap.add_argument("--mu", type=float, default=None, help="TPMS-style smoothing (default: tuned)")
    ap.add_argument("--match-grid", action="store_true",
                    help="only the `match` grid on the tuning corpora -> expertise_eval_match_grid.json")
    ap.add_argument("--tuning-only", action="store_true",
                    help="only the tuning corpora (decisions without looking at the untouched ones); "
                         "writes expertise_eval[_min<N>]_tuning.json")
    ap.add_argument("--min-papers", type=int, default=3,
                    help="authors with at least this many papers are queries (default 3; other values "
                         "write expertise_eval_min<N>.json)")
    args = ap.parse_args()
    MIN_PAPERS = args.min_papers
    if not data.available():
        print("corpora not found: nothing to do")
        return
    t0, c0 = time.time(), time.process_time()
    corpora = {}
    for name in TUNING + (() if args.match_grid or args.tuning_only else UNTOUCHED):
        corpora[name] = Corpus(name)
        print(name, corpora[name].describe(), flush=True)
    out = {"tuning": list(TUNING), "untouched": list(UNTOUCHED), "recipe": asdict(RECIPE),
           "corpora": {k: c.describe() for k, c in corpora.items()}}
    mu = args.mu
    if args.match_grid:
        out["match_grid"] = match_grid([corpora[n] for n in TUNING], mu or TPMS_MU)
        for k in ("best", "current", "shipped", "shipped_minus_current_pooled_ci95", "best_minus_current_pooled_ci95", "best_minus_related_top3_pooled_ci95",
                  "current_minus_related_top3_pooled_ci95", "related_top3"):
            print(k, out["match_grid"][k], flush=True)
        for r in out["match_grid"]["top"][:15]:
            print(r["objective"], r["pooled_mrr"], r["how"], r["pair_weight"], r["profile_hub"], {k: r["recipe"][k] for k in (
                "semantic_weight", "hub", "aggregate", "k", "temperature")})
        out["seconds"] = round(time.time() - t0, 1)
        out["run"] = run_info({"corpora": [str(data.CORPORA.name) + "/" + n for n in corpora]}, "numpy", "scipy",
                              "scikit-learn")
        print(data.write_result("expertise_eval_match_grid", out))
        return
    if args.grid:
        tuned = tune([corpora[n] for n in TUNING])
        out["grid"] = tuned
        mu = mu or tuned["tpms_mu"][0]["mu"]
        for r in tuned["recipes"][:10]:
            print("grid", r["objective"], r["embedding"], r["recipe"], flush=True)
        print("tpms mu", [(r["mu"], r["objective"]) for r in tuned["tpms_mu"]])
        for r in tuned["aggregates"]:
            print("aggregate", r, flush=True)
    mu = mu or TPMS_MU
    out["tpms_mu"] = mu
    table, ci, per, sep = {}, {}, {}, {}
    for name, c in corpora.items():
        table[name], per[name] = {}, {}
        for label, method in methods(c, RECIPE, mu).items():
            q = per[name][label] = per_query(c, method)
            table[name][label] = {f"{d}_{m}": (round(float(q[f"{d}_{k}"].mean()), 4) if len(q[f"{d}_{k}"]) else None)
                                  for d, _, _ in DIRECTIONS for m, k in (("mrr", "rr"), ("recall10", "r10"))}
        ours = per[name]["expertise"]
        ci[name] = {label: {"match_mrr_diff_ci95": paired_ci(ours["match_rr"], q["match_rr"]),
                            "reviewers_mrr_diff_ci95": paired_ci(ours["reviewers_rr"], q["reviewers_rr"])}
                    for label, q in per[name].items() if label != "expertise"}
        sep[name] = separation(ci[name], table[name], {d: len(per[name]["expertise"][rr]) for d, rr, _ in DIRECTIONS})
        for label, row in table[name].items():
            print(f"{name:9} {label:13} " + " ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    out["table"] = table
    out["expertise_minus_baseline"] = ci
    out["separates_methods"] = sep
    out["resolution_mrr"] = RESOLUTION
    out["min_queries"] = MIN_QUERIES
    untouched = [n for n in UNTOUCHED if n in corpora]
    if untouched:
        out["pooled_untouched"] = pooled(per, untouched)
        out["too_small_to_separate_methods"] = sorted(
            {n for n in untouched for d in sep[n].values() if not d["enough_queries"]})
        print("pooled untouched", out["pooled_untouched"]["queries"],
              out["pooled_untouched"]["ahead_of_every_baseline_beyond_noise"], flush=True)
        for label, row in out["pooled_untouched"]["expertise_minus"].items():
            print(f"pooled    {label:18}", row, flush=True)
    out["pooled_tuning"] = pooled(per, list(TUNING))
    out["seconds"] = round(time.time() - t0, 1)
    out["cpu_seconds"] = round(time.process_time() - c0, 1)
    out["run"] = run_info({"corpora": [str(data.CORPORA.name) + "/" + n for n in corpora]}, "numpy", "scipy",
                          "scikit-learn")
    out["min_papers"] = MIN_PAPERS
    name = ("expertise_eval" if MIN_PAPERS == 3 else f"expertise_eval_min{MIN_PAPERS}") + (
        "_tuning" if args.tuning_only else "")
    print(data.write_result(name, out))


if __name__ == "__main__":
    main()
