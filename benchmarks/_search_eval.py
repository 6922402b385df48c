"""Known-item evaluation shared by search_tune.py and search_quality.py.

For every paper of a title-less library, the query is its real title and the target is the
paper itself. We compute, once per query, the full BM25F score vector and the full cosine
vector (the same functions the product uses), then score any fusion of them offline.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import numpy as np

import _search_data as data


@dataclass
class Run:
    """Per query: BM25F scores and cosines over all papers (lexical-index order), target."""

    name: str
    bm25: list[np.ndarray]
    cosine: list[np.ndarray]
    target: np.ndarray  # lexical position of each query's paper
    queries: list[str]
    abstracts: list[str]  # lexical-index order, for the substring baseline
    shipped: list[int]  # rank of the target through the product's own hybrid.rank (11: not in top 10)
    learned: list[int] = field(default_factory=list)  # the same with the learned second stage
    target_weak: list[bool] = field(default_factory=list)  # the shipped search grades the target weak
    offtopic: dict = field(default_factory=dict)  # weak grades of off-topic queries (held-out half)


def known_items(lib, records: list[dict]):
    """(lexical index, embedding matrix in its order, queries, target positions): each titled
    record's title is a query whose target is its own paper."""
    index = lib.engine.lexical()
    vec = lib.engine.vectors()
    rows = vec.positions(index.rowids)
    assert (rows >= 0).all(), "every paper needs a vector"
    matrix = vec.matrix[rows]
    pos_of = {int(r): i for i, r in enumerate(index.rowids)}
    rowid_of = lib.store.rowids_of_ids()
    queries, targets = [], []
    for r in records:
        pid = data.paper_id(lib, r)
        if pid is None or not r["title"]:
            continue
        queries.append(r["title"])
        targets.append(pos_of[rowid_of[pid]])
    return index, matrix, queries, targets


def collect(name: str, records: list[dict]) -> Run:
    from paperscope.search import hybrid
    from paperscope.search.fusion import FusionParams

    lib = data.library(name, records, titles=False)
    index, matrix, queries, targets = known_items(lib, records)
    qs = [hybrid.prepare(t) for t in queries]
    t0 = time.time()
    qvecs = lib.engine.embed([q.text for q in qs])
    bm25 = []
    for q in qs:
        groups, _ = hybrid.query_groups(lib.engine, index, q)
        bm25.append(index.scores(groups))
    cos = [matrix @ v for v in qvecs]
    abstracts = {r: a for r, (_, a) in lib.store.texts_of_rowids([int(r) for r in index.rowids]).items()}
    weak: list[bool] = []
    shipped = shipped_ranks(lib, qs, qvecs, targets, weak_out=weak)
    learned = shipped_ranks(lib, qs, qvecs, targets, params=FusionParams(second="learned"))
    off = offtopic_weak(lib)
    print(f"  {name}: {len(qs)} queries over {index.size} papers ({time.time() - t0:.1f}s)", flush=True)
    lib.close()
    return Run(name, bm25, cos, np.array(targets), queries, [abstracts[int(r)] for r in index.rowids],
               shipped, learned, weak, off)


class PrecomputedEmbedder:
    """The library's embedder with the benchmark's query vectors computed up front in one
    batch (the same model; batching only changes padding, which is masked)."""

    def __init__(self, real, texts: list[str], vectors: np.ndarray):
        self.real = real
        self.known = dict(zip(texts, vectors))

    def embed(self, texts):
        return np.stack([self.known[t] if t in self.known else self.real.embed([t])[0] for t in texts])

    def token_counts(self, texts):
        return self.real.token_counts(texts)


def shipped_ranks(lib, qs, qvecs, targets, depth: int = 10, params=None, weak_out: list | None = None) -> list[int]:
    """Target ranks through the product's search (`SearchEngine.rank`: fusion + second stage),
    with an engine whose embedder answers the benchmark's queries from precomputed vectors;
    `weak_out` gets whether the search grades each target weak (True when not a candidate)."""
    from paperscope.search import fusion, semantic
    from paperscope.search.engine import SearchEngine

    engine = SearchEngine(lib.store, PrecomputedEmbedder(lib.engine.embedder, [q.text for q in qs], qvecs))
    out = []
    with semantic.single_threaded_blas():
        for q, target in zip(qs, targets):
            r = engine.rank(q, mode="hybrid", limit=depth, params=params or fusion.DEFAULT,
                            keep_all=weak_out is not None)
            at = np.flatnonzero(r.positions == target)
            out.append(int(at[0]) + 1 if len(at) and at[0] < depth else depth + 1)
            if weak_out is not None:
                weak_out.append(bool(r.weak[at[0]]) if len(at) else True)
    return out


OFFTOPIC = data.HERE / "data" / "offtopic_queries.json"


def offtopic_weak(lib, limit: int = 20) -> dict:
    """Queries from other fields, the half not used to calibrate (odd positions): the share of
    their top `limit` results graded weak, and of queries whose results are all weak."""
    from paperscope.search import hybrid, semantic

    queries = json.loads(OFFTOPIC.read_text("utf-8"))["queries"][1::2]
    flags = []
    with semantic.single_threaded_blas():
        for text in queries:
            flags.append(lib.engine.rank(hybrid.prepare(text), mode="hybrid", limit=limit).weak)
    return {"queries": len(queries), "results": int(sum(len(f) for f in flags)),
            "results_weak": round(float(np.mean(np.concatenate(flags))), 4) if flags else None,
            "queries_all_weak": round(float(np.mean([bool(f.all()) for f in flags])), 4) if flags else None}


def shipped(run: Run) -> dict:
    return metrics(run.shipped)


def weak_summary(run: Run) -> dict:
    return {"known_item_targets_weak": round(float(np.mean(run.target_weak)), 4) if run.target_weak else None,
            "offtopic_held_out": run.offtopic}


def rank_of(scores: np.ndarray, target: int) -> int:
    """1-based rank of the target; a tie places it in the middle of its tied group."""
    s = scores[target]
    return int((scores > s).sum()) + 1 + int(((scores == s).sum() - 1) // 2)


def metrics(ranks: list[int]) -> dict:
    r = np.asarray(ranks)
    return {"mrr@10": round(float(np.mean(np.where(r <= 10, 1.0 / r, 0.0))), 4),
            "recall@1": round(float(np.mean(r == 1)), 4),
            "recall@10": round(float(np.mean(r <= 10)), 4), "queries": len(r)}


def fused_scores(bm25: np.ndarray, cos: np.ndarray, params) -> np.ndarray:
    """The product's fusion (search/fusion.py) over its candidate pool; others score -inf."""
    from paperscope.search import fusion

    pool = fusion.POOL
    lex_top = _top(bm25, pool)
    lex_top = lex_top[bm25[lex_top] > 0]
    sem_top = _top(cos, pool)
    cand = np.unique(np.concatenate([lex_top, sem_top]))
    lex_stats = fusion.Stats.of(bm25[lex_top]) if len(lex_top) else fusion.Stats(0.0, 1.0)
    sem_stats = fusion.Stats.of(cos[sem_top])
    out = np.full(len(bm25), -np.inf)
    out[cand] = fusion.fuse(bm25[cand], cos[cand], fusion.ranks_in(cand, lex_top),
                            fusion.ranks_in(cand, sem_top), lex_stats, sem_stats, params)
    return out


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    k = min(k, len(scores))
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.lexsort((part, -scores[part]))]


def evaluate(run: Run, params) -> dict:
    return metrics([rank_of(fused_scores(b, c, params), t) for b, c, t in zip(run.bm25, run.cosine, run.target)])


def single(run: Run, side: str) -> dict:
    vals = run.bm25 if side == "lexical" else run.cosine
    return metrics([rank_of(v, t) for v, t in zip(vals, run.target)])


def substring_baseline(run: Run) -> dict:
    """arxiv-sanity-lite-style search, as its serve.py scores the abstract: the query is split
    on spaces and lowercased; each piece adds its substring count in the lowercased abstract,
    at most 3. No stemming, no idf. (Title and author bonuses do not apply: titles are hidden.)"""
    texts = [a.lower() for a in run.abstracts]
    ranks = []
    for query, target in zip(run.queries, run.target):
        pieces = query.lower().split()
        score = np.array([sum(min(3, t.count(p)) for p in pieces) for t in texts], dtype=float)
        ranks.append(rank_of(score, int(target)))
    return metrics(ranks)
