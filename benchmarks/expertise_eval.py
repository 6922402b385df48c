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

    .venv/bin/python benchmarks/expertise_eval.py [--grid]  -> benchmarks/results/expertise_eval.json
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
from paperscope.expertise.scoring import (FIELD_WEIGHTS, RECIPE, Recipe, centroid_scores, fuse, grouped_scores,
                                          hubness, mix, profile_scores)
from paperscope.expertise.service import AGGREGATES, AUTHOR_AGGREGATE, MATCH_AGGREGATE

TUNING = ("iclr2020", "icml2016")
UNTOUCHED = ("icml2024", "uai2024", "colt2024")
MIN_PAPERS = 3
BOOTSTRAP = 1000
MUS = (100, 300, 1000, 3000)


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


def summarise(match: np.ndarray, review: list[np.ndarray]) -> dict:
    first = np.array([r.min() for r in review]) if review else np.zeros(0)
    return {"match_mrr": round(float(np.mean(1.0 / match)), 4),
            "match_recall10": round(float(np.mean(match <= 10)), 4),
            "reviewers_mrr": round(float(np.mean(1.0 / first)), 4) if len(first) else None,
            "reviewers_recall10": round(float(np.mean([np.mean(r <= 10) for r in review])), 4) if review else None}


def evaluate(c: Corpus, method) -> tuple[dict, np.ndarray, np.ndarray]:
    match_fn, review_fn = method
    m = match_ranks(c, match_fn)
    r = review_ranks(c, review_fn(c))
    rr_review = np.array([1.0 / x.min() for x in r])
    return summarise(m, r), 1.0 / m, rr_review


def methods(c: Corpus, recipe: Recipe, mu: float) -> dict:
    from paperscope.search.related import BIGRAM_WEIGHT, SEMANTIC_WEIGHT

    words = (1.0 - BIGRAM_WEIGHT) * c.lexical + BIGRAM_WEIGHT * c.pairs
    related = mix(c.centred, words, SEMANTIC_WEIGHT)
    related_055 = mix(c.centred, c.lexical, 0.55)
    ours = mix(c.centred, c.lexical, recipe.semantic_weight)
    return {
        "tfidf-max": pair_method(c.lexical, Recipe(k=1, hub=0, pad=False)),
        "tfidf-mean": pair_method(c.lexical, Recipe(k=10_000, hub=0, pad=False)),
        "tpms-lm": lm_method(c, mu),
        "emb-max": pair_method(c.plain, Recipe(k=1, hub=0, pad=False)),
        "emb-top3": pair_method(c.plain, Recipe(k=3, hub=0, pad=False)),
        "related-top3": pair_method(related, Recipe(k=3, hub=0, pad=False)),
        "related-0.55-top3": pair_method(related_055, Recipe(k=3, hub=0, pad=False)),
        "expertise-facets": pair_method(ours, recipe),
        "expertise-centroid": aggregated_method(c, ours, recipe, "centroid", "centroid"),
        "expertise-fused": aggregated_method(c, ours, recipe, "fused", "fused"),
        "expertise": aggregated_method(c, ours, recipe, MATCH_AGGREGATE, AUTHOR_AGGREGATE),
    }


def paired_ci(ours: np.ndarray, base: np.ndarray, seed: int = 0) -> list[float]:
    """95 % bootstrap interval of mean(ours - base) over queries."""
    rng = np.random.default_rng(seed)
    diff = ours - base
    means = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(BOOTSTRAP)]
    return [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]


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


def main() -> None:
    global MIN_PAPERS
    ap = argparse.ArgumentParser()
    ap.add_argument("--grid", action="store_true", help="run the tuning grid on the tuning corpora")
    ap.add_argument("--mu", type=float, default=None, help="TPMS-style smoothing (default: tuned)")
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
    for name in TUNING + UNTOUCHED:
        corpora[name] = Corpus(name)
        print(name, corpora[name].describe(), flush=True)
    out = {"tuning": list(TUNING), "untouched": list(UNTOUCHED), "recipe": asdict(RECIPE),
           "corpora": {k: c.describe() for k, c in corpora.items()}}
    mu = args.mu
    if args.grid:
        tuned = tune([corpora[n] for n in TUNING])
        out["grid"] = tuned
        mu = mu or tuned["tpms_mu"][0]["mu"]
        for r in tuned["recipes"][:10]:
            print("grid", r["objective"], r["embedding"], r["recipe"], flush=True)
        print("tpms mu", [(r["mu"], r["objective"]) for r in tuned["tpms_mu"]])
        for r in tuned["aggregates"]:
            print("aggregate", r, flush=True)
    mu = mu or 1000
    out["tpms_mu"] = mu
    table, ci = {}, {}
    for name, c in corpora.items():
        table[name], rr = {}, {}
        for label, method in methods(c, RECIPE, mu).items():
            table[name][label], m_rr, r_rr = evaluate(c, method)
            rr[label] = (m_rr, r_rr)
        ci[name] = {label: {"match_mrr_diff_ci95": paired_ci(rr["expertise"][0], rr[label][0]),
                            "reviewers_mrr_diff_ci95": paired_ci(rr["expertise"][1], rr[label][1])}
                    for label in rr if label != "expertise"}
        for label, row in table[name].items():
            print(f"{name:9} {label:13} " + " ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    out["table"] = table
    out["expertise_minus_baseline"] = ci
    out["seconds"] = round(time.time() - t0, 1)
    out["cpu_seconds"] = round(time.process_time() - c0, 1)
    out["run"] = run_info({"corpora": [str(data.CORPORA.name) + "/" + n for n in corpora]}, "numpy", "scipy",
                          "scikit-learn")
    out["min_papers"] = MIN_PAPERS
    name = "expertise_eval" if MIN_PAPERS == 3 else f"expertise_eval_min{MIN_PAPERS}"
    print(data.write_result(name, out))


if __name__ == "__main__":
    main()
