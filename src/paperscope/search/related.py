"""Related papers: nearest neighbours of a paper (or of a user's own text) by meaning and by
shared distinctive words.

similarity = SEMANTIC_WEIGHT * centred embedding cosine
             + (1 - SEMANTIC_WEIGHT) * ((1 - BIGRAM_WEIGHT) * term cosine + BIGRAM_WEIGHT * pair cosine)

- term cosine: tf-idf term vectors (`vectors.py`: the same symmetric recipe for every paper and
  for a draft; a paper is compared through its own stored vector; authors left out);
- pair cosine: tf-idf vectors of adjacent term pairs ("graph neural", "neural network"),
  counted among the candidates only (the pool of each side's best; a pair must occur in two of
  them, idf from the pool), so no pair index is stored;
- the embedding cosine is taken after subtracting the library's mean vector, which removes the
  direction every ML abstract shares.

The words catch shared method and dataset names that a 384-d embedding blurs, the pairs catch
topics named by phrases ("reinforcement learning", "graph neural networks"), the embedding
catches paraphrase. Every choice (tf/idf recipe, title weight, centring, the two weights) was
made on ICLR 2018 keyword labels only (kNN accuracy, ties by neighbour label precision, on a
grid; benchmarks/search_related.py); ICLR 2017 and 2020 are held out. Authors are left out of
the term vectors on principle (a shared name is not a shared topic); of the labelled years only
ICLR 2020 lists authors, so that is the one year where the change shows.

The pair idf depends on the pool, so in a large library the score of a pair of papers can
differ slightly with the paper asked about (in a library smaller than the pool it is
symmetric), and with the limit once the pool grows past POOL (limits from about 46). Cost:
the pool's texts are read and tokenised per call (~200 texts): about 95 ms CPU per call
against 6 ms without the pairs (ICLR 2018 library; the pool, not the library size, sets it).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..filters import Filter
from ..model import InputError, RelatedHit, match_key
from . import hybrid, semantic, tokens, vectors
from .translate import translate_query

# best kNN accuracy on ICLR 2018 over semantic 0.2-0.55 x pairs 0, 0.3, 0.5 (tied with 0.2/0.5
# and 0.25/0.5; the best label precision of the three)
SEMANTIC_WEIGHT = 0.4
BIGRAM_WEIGHT = 0.5  # share of the lexical side given to the pair cosine
POOL = 100  # candidates from each side (at least)
TITLE_PAIRS = 2.0  # a pair in the title counts twice (as the title's terms do)


def lexical_cosines(engine, *, rowid: int | None = None, text: str | None = None) -> np.ndarray:
    """Cosine of a paper's (by row number) or a text's term vector with every paper's
    (dense, lexical-index position order)."""
    tv = engine.term_vectors()
    index = engine.lexical()
    tid, w = (vectors.paper_vector(engine.store, index, tv, rowid) if rowid is not None
              else vectors.text_vector(engine.store, index, tv, text or ""))
    return tv.cosines(tid, w)


def pair_counts(title: str, abstract: str) -> Counter:
    """Adjacent term pairs of a paper (title pairs counted TITLE_PAIRS times)."""
    out: Counter = Counter()
    for text, w in ((title, TITLE_PAIRS), (abstract, 1.0)):
        terms = tokens.terms(text)
        for pair in zip(terms, terms[1:]):
            out[pair] += w
    return out


def pair_cosines(pool: list[Counter], query: Counter) -> np.ndarray:
    """Cosine of the query's pair vector with each pool paper's: sublinear tf x idf, where df
    counts the pool and the query, and a pair held by fewer than two of them is dropped."""
    df: Counter = Counter()
    for c in (*pool, query):
        df.update(c.keys())
    m = len(pool) + 1

    def weights(c: Counter) -> dict:
        return {p: (1.0 + np.log(tf)) * (np.log((1.0 + m) / (1.0 + df[p])) + 1.0)
                for p, tf in c.items() if df[p] >= 2}

    q = weights(query)
    qn = float(np.sqrt(sum(v * v for v in q.values())))
    out = np.zeros(len(pool))
    if qn == 0:
        return out
    for i, c in enumerate(pool):
        w = weights(c)
        dot = sum(v * q[p] for p, v in w.items() if p in q)
        if dot:
            out[i] = dot / (qn * float(np.sqrt(sum(v * v for v in w.values()))))
    return out


def centred_cosines(matrix: np.ndarray, qvec: np.ndarray, mean: np.ndarray | None) -> np.ndarray:
    """Cosines of `qvec` with the rows of `matrix` after subtracting `mean` from both."""
    if mean is None:
        return matrix @ qvec
    q = qvec - mean
    m = matrix - mean
    den = np.linalg.norm(m, axis=1) * max(float(np.linalg.norm(q)), 1e-9)
    return (m @ q) / np.maximum(den, 1e-9)


def related(engine, paper_id: str | None = None, text: str | None = None, limit: int = 10,
            scope: Filter = Filter()) -> list[RelatedHit]:
    """Papers closest to `paper_id` (never itself nor its duplicates) or to `text`. A text in
    Chinese is translated as a search query is (search/translate.py); its hits then carry
    `searched_as` and the translation."""
    with semantic.single_threaded_blas():
        return _related(engine, paper_id, text, limit, scope)


def _related(engine, paper_id, text, limit, scope: Filter) -> list[RelatedHit]:
    if (paper_id is None) == (not text or not text.strip()):
        raise InputError("give a paper id or a text (not both)")
    index = engine.lexical()
    vec = engine.vectors()
    exclude: set[int] = set()
    translated = None
    if paper_id is not None:
        found = engine.store.papers_by_id([paper_id]).get(paper_id)
        if found is None:
            raise InputError(f"no paper with id {paper_id!r} (see `paperscope list`)")
        paper = found.to_dict()
        text = semantic.paper_text(paper.get("title"), paper.get("abstract"))
        rowid = engine.store.rowid_of(paper_id)
        exclude.add(int(rowid))
        own_keys = {match_key(paper.get("abstract"))} - {""}
        own_titles = {match_key(paper.get("title"))} - {""}
        row = vec.positions(np.array([rowid]))[0]
        qvec = vec.matrix[row] if row >= 0 else engine.embed([text])[0]
    else:
        asked = translate_query(text)  # a Chinese text is compared in English, as search does
        text, translated = asked.english, asked.hit_fields()
        own_keys, own_titles = {match_key(text)} - {""}, set()
        qvec = engine.embed([text])[0] if vec.size else None
    limit = max(0, min(int(limit), 1000))
    allowed = None
    if not scope.empty:
        allowed = np.zeros(index.size, dtype=bool)
        pos = index.positions(engine.passing(scope))
        allowed[pos[pos >= 0]] = True
    lex = lexical_cosines(engine, rowid=int(rowid)) if paper_id is not None else lexical_cosines(engine, text=text)
    if allowed is not None:
        lex = np.where(allowed, lex, -np.inf)
    pool = max(POOL, 2 * limit + len(exclude) + 8)
    cand = [hybrid._top(lex, pool)]
    if qvec is not None and vec.size:
        cand.append(hybrid.semantic_top(engine, index, vec, qvec, allowed, pool))
    cand = np.unique(np.concatenate(cand))
    cand = cand[np.isfinite(lex[cand])]
    cos, centred = _cosines(engine, vec, qvec, index.rowids[cand])
    pairs = np.zeros(len(cand))
    if BIGRAM_WEIGHT > 0 and len(cand):
        own = int(rowid) if paper_id is not None else None
        texts = engine.store.texts_of_rowids([int(r) for r in index.rowids[cand]])
        query = (pair_counts(*texts.get(own, ("", ""))) if own is not None
                 else pair_counts("", text or ""))
        others = [i for i, r in enumerate(index.rowids[cand].tolist()) if r != own]
        pairs[others] = pair_cosines([pair_counts(*texts.get(int(index.rowids[cand[i]]), ("", "")))
                                      for i in others], query)
    lexical = (1.0 - BIGRAM_WEIGHT) * lex[cand] + BIGRAM_WEIGHT * pairs
    scores = SEMANTIC_WEIGHT * np.nan_to_num(centred, nan=0.0) + (1.0 - SEMANTIC_WEIGHT) * lexical
    order = np.lexsort((cand, -scores))
    out: list[RelatedHit] = []
    step = limit + len(exclude) + 4
    for at in range(0, len(order), step):
        chunk = order[at:at + step]
        by_rowid = engine.papers_at([int(index.rowids[cand[i]]) for i in chunk])
        for i in chunk:
            rid = int(index.rowids[cand[i]])
            paper = by_rowid.get(rid)
            if paper is None or rid in exclude or _same_paper(paper, own_keys, own_titles):
                continue
            out.append(RelatedHit(paper, round(float(scores[i]), 6), len(out) + 1,
                                  why={"cosine": _rounded(cos[i]), "semantic": _rounded(centred[i]),
                                       "lexical": round(float(lex[cand[i]]), 6),
                                       "pairs": round(float(pairs[i]), 6)},
                                  translated=translated))
            if len(out) >= limit:
                return out
    return out


def _cosines(engine, vec, qvec, rowids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(plain, centred) embedding cosines of the papers with these rowids (NaN: no vector)."""
    plain = np.full(len(rowids), np.nan)
    centred = np.full(len(rowids), np.nan)
    if qvec is None or not vec.size or not len(rowids):
        return plain, centred
    rows = vec.positions(rowids)
    ok = rows >= 0
    matrix = vec.matrix[rows[ok]]
    plain[ok] = matrix @ qvec
    centred[ok] = centred_cosines(matrix, qvec, engine.embedding_mean())
    return plain, centred


def _rounded(x: float) -> float | None:
    return None if np.isnan(x) else round(float(x), 6)


def _same_paper(paper: dict, own_keys: set[str], own_titles: set[str]) -> bool:
    if own_keys and match_key(paper.get("abstract")) in own_keys:
        return True
    return bool(own_titles) and match_key(paper.get("title")) in own_titles
