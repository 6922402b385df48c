"""Search: parse the query, rank lexically (BM25F) and semantically (cosine), fuse, and
dress each hit with a score, a highlighted snippet and, on request, the reasons.

    search(engine, "flow matching venue:ICML -image", mode="hybrid", explain=True)
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..filters import MODES, Filter
from ..model import SearchHit, latex_to_plain
from . import filters, fusion, lexical, ranker, rerank, semantic, snippets, tokens
from .query import Query, parse

_EMBEDDING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paperscope-query")
_alongside = True


def embed_queries_inline() -> None:
    """Embed each query on the searching thread instead of beside the lexical pass. For a
    server worker (one core per process, busy with other requests) the overlap saves no
    time and the hand-off between threads costs CPU on every request."""
    global _alongside
    _alongside = False


@dataclass
class Ranking:
    """Ranked lexical positions with every score the explanation needs."""

    positions: np.ndarray
    scores: np.ndarray
    bm25: np.ndarray
    cosine: np.ndarray
    lex_rank: np.ndarray
    sem_rank: np.ndarray
    terms: dict[str, int] = field(default_factory=dict)  # query term -> id (found in the library)
    features: rerank.Features | None = None  # hand-set second-stage signals (hybrid mode)
    matrix: np.ndarray | None = None  # learned-ranker feature rows (hybrid mode; ranker.FEATURES)
    weak: np.ndarray | None = None  # True: a weak match (ranker.weak)
    total: int = 0  # papers holding a query term, plus results that are not weak by meaning
    learned: bool = False  # the learned ranker ordered these results


def prepare(query: str) -> Query:
    raw = str(query or "")
    if "\\" in raw or "$" in raw:  # a title pasted with its LaTeX
        raw = latex_to_plain(raw)
    return parse(raw)


def query_groups(engine, index: lexical.LexicalIndex, q: Query) -> tuple[list[tuple[list[int], float]], dict[str, int]]:
    """Weighted term-id groups for BM25F: words and phrase words (a repeated term counts
    once per repeat), prefixes expanded over the library's vocabulary."""
    words = rerank.query_terms(q)
    ids = lexical.term_ids(engine.store, index, words)
    counts: dict[int, int] = {}
    for w in words:
        if w in ids:
            counts[ids[w]] = counts.get(ids[w], 0) + 1
    groups: list[tuple[list[int], float]] = [([t], float(c)) for t, c in counts.items()]
    for p in q.prefixes:
        folded = tokens.fold(p).strip()
        expanded = set(lexical.prefix_ids(engine.store, index, folded))
        stemmed = tokens.stem(folded)
        if stemmed != folded:
            expanded |= set(lexical.prefix_ids(engine.store, index, stemmed))
        if expanded:
            groups.append((sorted(expanded), 1.0))
    return groups, ids


def rank(engine, q: Query, *, scope: Filter = Filter(), mode: str = "hybrid", limit: int = 20,
         params: fusion.FusionParams = fusion.DEFAULT, keep_all: bool = False) -> Ranking:
    """The best `limit` candidates (every candidate with `keep_all`, for training)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: use {', '.join(MODES)}")
    index = engine.lexical()
    n = index.size
    empty = np.zeros(0)
    if n == 0 or limit <= 0:
        return Ranking(np.zeros(0, np.int64), empty, empty, empty, np.zeros(0, np.int64), np.zeros(0, np.int64))
    allowed = filters.allowed_mask(engine, index, q, scope)
    if not q.has_text:  # filters only: list order
        every = _list_order(engine, index, q, scope, allowed)
        pos = every[:limit]
        z = np.zeros(len(pos))
        return Ranking(pos, z, z, np.full(len(pos), np.nan), np.zeros(len(pos), np.int64), np.zeros(len(pos), np.int64),
                       weak=np.zeros(len(pos), bool), total=len(every))
    vec_index = engine.vectors() if mode != "lexical" else None
    if mode == "semantic" and not (vec_index and vec_index.size):
        raise ValueError("this library has no embeddings yet: run `paperscope ingest` again "
                         "with embedding on, or search with --mode lexical")
    # The query is embedded on a worker thread (onnxruntime releases the GIL) while BM25F runs
    # (unless `embed_queries_inline()`: then after it, on this thread).
    wants_vector = vec_index is not None and bool(vec_index.size)
    pending = _EMBEDDING.submit(engine.embed, [q.text]) if wants_vector and _alongside else None
    groups, ids = query_groups(engine, index, q)
    pool = max(fusion.POOL, limit)
    bm25_all = index.scores(groups) if groups else np.zeros(n, np.float32)
    if allowed is not None:
        bm25_all = np.where(allowed, bm25_all, -1.0)
    lex_top = _top(bm25_all, pool) if mode != "semantic" else np.zeros(0, np.int64)
    lex_top = lex_top[bm25_all[lex_top] > 0]
    sem_top = np.zeros(0, np.int64)
    qvec = None
    if wants_vector:
        qvec = pending.result()[0] if pending is not None else engine.embed([q.text])[0]
        sem_top = semantic_top(engine, index, vec_index, qvec, allowed, pool)
    if mode == "lexical":
        cand = lex_top
    elif mode == "semantic":
        cand = sem_top
    else:
        cand = np.unique(np.concatenate([lex_top, sem_top])).astype(np.int64)
    bm25 = np.maximum(bm25_all[cand], 0.0) if len(cand) else np.zeros(0)
    cosine = _cosines(vec_index, qvec, index.rowids[cand]) if qvec is not None else np.full(len(cand), np.nan)
    lex_rank = fusion.ranks_in(cand, lex_top)
    sem_rank = fusion.ranks_in(cand, sem_top)
    model = ranker.shipped()
    scores, coverage, features, matrix, learned = _scores(
        engine, index, q, mode, params, model, cand, ids, bm25_all, bm25, cosine, lex_top, sem_top,
        lex_rank, sem_rank, vec_index, qvec)
    weak = ranker.weak(cosine, coverage, mode, model)
    total = int((bm25_all > 0).sum()) + int((~weak & (bm25 <= 0)).sum())
    order = np.lexsort((cand, -scores))
    if not keep_all:
        order = order[:limit]
    picked = None
    if features is not None:
        picked = rerank.Features(features.coverage[order], features.gap[order], features.bigrams[order])
    return Ranking(cand[order], scores[order], bm25[order], cosine[order], lex_rank[order],
                   sem_rank[order], ids, picked, matrix[order] if matrix is not None else None,
                   weak[order], total, learned)


def semantic_top(engine, index, vec_index, qvec: np.ndarray, allowed: np.ndarray | None,
                  pool: int) -> np.ndarray:
    """Lexical positions of the `pool` nearest papers to the query vector (within `allowed`)."""
    vec_allowed = None
    if allowed is not None:
        vec_allowed = np.zeros(vec_index.size, dtype=bool)
        vpos = engine.vector_rows()
        vec_allowed[vpos[(vpos >= 0) & allowed]] = True
    rows, _ = vec_index.top(qvec, pool, vec_allowed)
    sem_top = index.positions(vec_index.rowids[rows])
    return sem_top[sem_top >= 0]


def _scores(engine, index, q: Query, mode: str, params: fusion.FusionParams, model, cand: np.ndarray,
            ids, bm25_all: np.ndarray, bm25: np.ndarray, cosine: np.ndarray, lex_top: np.ndarray,
            sem_top: np.ndarray, lex_rank: np.ndarray, sem_rank: np.ndarray, vec_index, qvec):
    """The candidates' scores in `mode` (hybrid: fused, then the second stage), their query
    coverage, the hand-set second stage's features, the learned ranker's feature matrix and
    whether the learned ranker set the order."""
    features = matrix = None
    learned = False
    if mode == "lexical":
        scores = bm25.astype(np.float64)
        coverage = ranker.coverages(index, ids, rerank.query_terms(q), cand)[0]
    elif mode == "semantic":
        scores = np.nan_to_num(cosine, nan=-1.0).astype(np.float64)
        coverage = ranker.coverages(index, ids, rerank.query_terms(q), cand)[0]
    else:
        lex_stats = fusion.Stats.of(bm25_all[lex_top]) if len(lex_top) else fusion.Stats(0.0, 1.0)
        sem_stats = fusion.Stats.of(_cosines(vec_index, qvec, index.rowids[sem_top])) if len(sem_top) else fusion.Stats(0.0, 1.0)
        scores = fusion.fuse(bm25, cosine, lex_rank, sem_rank, lex_stats, sem_stats, params)
        matrix = ranker.features(index, q, cand, np.nan_to_num(lex_stats.z(bm25), nan=-3.0),
                                 np.nan_to_num(sem_stats.z(cosine), nan=-3.0), bm25, cosine,
                                 lex_rank, sem_rank, ids)
        coverage = matrix[:, ranker.FEATURES.index("coverage")]
        learned = params.second == "learned" or (params.second == "shipped" and model.use)
        if params.rerank and params.method == "zscore" and learned:
            scores = ranker.learned(engine.store, index, q, cand, matrix, model)
        elif params.rerank:
            learned = False
            scores, features = rerank.apply(engine.store, index, q, cand, scores, cosine, ids)
            matrix[:, ranker.BIGRAMS] = np.nan_to_num(features.bigrams, nan=0.0)
    return scores, coverage, features, matrix, learned


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    return semantic._top_k(scores, k)


def _cosines(vec_index, qvec, rowids: np.ndarray) -> np.ndarray:
    out = np.full(len(rowids), np.nan)
    if vec_index is None or qvec is None or not len(rowids):
        return out
    rows = vec_index.positions(rowids)
    ok = rows >= 0
    out[ok] = vec_index.matrix[rows[ok]] @ qvec
    return out


def _list_order(engine, index: lexical.LexicalIndex, q: Query, scope: Filter,
                allowed: np.ndarray | None) -> np.ndarray:
    """Positions of the allowed papers in list order (collection, then position in the list)."""
    f = scope.narrowed(venues=q.venues, years=q.years, statuses=q.statuses, has=q.has)
    pos = index.positions(engine.store.ordered_rowids(f))
    pos = pos[pos >= 0]
    return pos if allowed is None else pos[allowed[pos]]


# --------------------------------------------------------------------------- public


def search(engine, query: str, *, scope: Filter = Filter(), limit: int = 20, mode: str = "hybrid",
           explain: bool = False) -> list[SearchHit]:
    """Ranked hits: paper JSON, `rank`, `score`, `snippet` (text + highlight offsets) and,
    with `explain`, why it matched. A Chinese query is searched in English (search/translate.py);
    its hits then carry `searched_as` and the translation's coverage and warning."""
    from .translate import translate_query

    asked = translate_query(query)
    q = prepare(asked.english)
    limit = max(0, min(int(limit), 10_000))
    with semantic.single_threaded_blas():
        ranking = rank(engine, q, scope=scope, mode=mode, limit=limit)
    index = engine.lexical()
    rowids = [int(r) for r in index.rowids[ranking.positions]]
    by_rowid = engine.papers_at(rowids)
    out: list[SearchHit] = []
    for i, rowid in enumerate(rowids):
        paper = by_rowid.get(rowid)
        if paper is None:  # removed since the index was loaded
            continue
        out.append(SearchHit(paper, round(float(ranking.scores[i]), 6), len(out) + 1,
                             snippets.snippet(paper, q),
                             _explain(paper, q, ranking, i, mode) if explain else None,
                             translated=asked.hit_fields(), weak=bool(ranking.weak[i]),
                             total=ranking.total))
    return out


def _explain(paper: dict, q: Query, ranking: Ranking, i: int, mode: str) -> dict:
    matched = snippets.matched_fields(paper, q)
    out = {
        "mode": mode,
        "matched_terms": sorted({t for terms in matched.values() for t in terms}),
        "matched_fields": {f: sorted(ts) for f, ts in matched.items()},
        "bm25": _num(ranking.bm25[i]),
        "cosine": _num(ranking.cosine[i]),
        "lexical_rank": int(ranking.lex_rank[i]) or None,
        "semantic_rank": int(ranking.sem_rank[i]) or None,
        "fused_score": _num(ranking.scores[i]) if mode == "hybrid" else None,
        "weak": bool(ranking.weak[i]),
        "weak_thresholds": dict(ranker.shipped().weak),
        "query": q.to_dict(),
    }
    if mode == "hybrid":
        p = fusion.DEFAULT
        out["fusion"] = {"method": p.method, "lexical_weight": p.lexical_weight,
                         "semantic_weight": p.semantic_weight, "pool": fusion.POOL}
        f = ranking.features
        if f is not None:
            out["rerank"] = {"coverage": _num(f.coverage[i]), "cosine_gap": _num(f.gap[i]),
                             "bigrams": _num(f.bigrams[i]),
                             "weights": {"coverage": rerank.W_COVERAGE, "cosine_gap": rerank.W_GAP,
                                         "bigrams": rerank.W_BIGRAMS, "depth": rerank.DEPTH}}
        if ranking.matrix is not None and ranking.learned:
            out["ranker"] = ranker.explain(ranking.matrix[i], ranker.shipped())
    return out


def _num(x) -> float | None:
    x = float(x)
    return None if np.isnan(x) else round(x, 6)
