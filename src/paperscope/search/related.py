"""Related papers: nearest neighbours of a paper (or of a user's own text) by meaning and by
shared distinctive words.

similarity = SEMANTIC_WEIGHT * cosine(embeddings) + (1 - SEMANTIC_WEIGHT) * cosine(BM25 term
vectors). The weight was chosen on ICLR 2018 keyword labels (kNN accuracy, benchmarks/
search_quality.py; ICLR 2017 and 2020 held out): the words catch shared method and dataset
names that a 384-d embedding blurs, the embedding catches paraphrase.
"""
from __future__ import annotations

import numpy as np

from ..model import InputError, match_key
from . import hybrid, lexical, semantic, tokens
from .query import add_scope

SEMANTIC_WEIGHT = 0.6
POOL = 100  # candidates from each side (at least)
K1 = lexical.K1


def _term_vector(index: lexical.LexicalIndex, conn, text: str) -> tuple[np.ndarray, np.ndarray]:
    """(term ids, weights) of a text as a BM25-style query vector, L2-normalised."""
    counts: dict[str, int] = {}
    for t in tokens.terms(text):
        counts[t] = counts.get(t, 0) + 1
    ids = lexical.term_ids(conn, index, counts)
    if not ids:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    n = max(index.size, 1)
    tid = np.array([ids[t] for t in ids], dtype=np.int64)
    tf = np.array([counts[t] for t in ids], dtype=np.float32)
    df = np.array([index.df(int(i)) for i in tid], dtype=np.float32)
    w = tf * (K1 + 1) / (K1 + tf) * np.log1p((n - df + 0.5) / (df + 0.5))
    norm = float(np.linalg.norm(w))
    return tid, (w / norm if norm > 0 else w).astype(np.float32)


def _doc_norms(lib, index: lexical.LexicalIndex) -> np.ndarray:
    norms = lib._cache.get("search.doc_norms")
    if norms is None or len(norms) != index.size:
        norms = np.sqrt(np.bincount(index.indices, weights=index.data.astype(np.float64) ** 2,
                                    minlength=index.size)).astype(np.float32)
        lib._cache["search.doc_norms"] = norms
    return norms


def lexical_cosines(lib, index: lexical.LexicalIndex, text: str) -> np.ndarray:
    """Cosine between the text's term vector and every paper's BM25F vector (dense)."""
    tid, w = _term_vector(index, lib.store.conn, text)
    if not len(tid):
        return np.zeros(index.size, np.float32)
    dot = index.scores([([int(t)], float(x)) for t, x in zip(tid, w)])
    return dot / np.maximum(_doc_norms(lib, index), 1e-9)


def related(lib, paper_id: str | None = None, text: str | None = None, limit: int = 10,
            venue: str | None = None, year: int | str | None = None) -> list[dict]:
    """Papers closest to `paper_id` (never itself nor its duplicates) or to `text`."""
    with semantic.single_threaded_blas():
        return _related(lib, paper_id, text, limit, venue, year)


def _related(lib, paper_id, text, limit, venue, year) -> list[dict]:
    if (paper_id is None) == (not text or not text.strip()):
        raise InputError("give a paper id or a text (not both)")
    index = hybrid.lexical_index(lib)
    vec = semantic.vector_index(lib)
    exclude: set[int] = set()
    if paper_id is not None:
        paper = lib.paper(paper_id)
        if paper is None:
            raise InputError(f"no paper with id {paper_id!r} (see `paperscope list`)")
        text = semantic.paper_text(paper.get("title"), paper.get("abstract"))
        rowid = lib.store.conn.execute("SELECT rowid FROM papers WHERE id = ?", (paper_id,)).fetchone()[0]
        exclude.add(int(rowid))
        own_keys = {match_key(paper.get("abstract"))} - {""}
        own_titles = {match_key(paper.get("title"))} - {""}
        row = vec.positions(np.array([rowid]))[0]
        qvec = vec.matrix[row] if row >= 0 else semantic.embed_texts([text])[0]
    else:
        own_keys, own_titles = {match_key(text)} - {""}, set()
        qvec = semantic.embed_texts([text])[0] if vec.size else None
    limit = max(0, min(int(limit), 1000))
    allowed = _allowed(lib, index, venue, year)
    lex = lexical_cosines(lib, index, text)
    if allowed is not None:
        lex = np.where(allowed, lex, -np.inf)
    pool = max(POOL, 2 * limit + len(exclude) + 8)
    cand = [hybrid._top(lex, pool)]
    if qvec is not None and vec.size:
        vec_allowed = None
        if allowed is not None:
            vec_allowed = np.zeros(vec.size, dtype=bool)
            rows = hybrid._vector_rows(lib, index, vec)
            vec_allowed[rows[(rows >= 0) & allowed]] = True
        rows, _ = vec.top(qvec, pool, vec_allowed)
        pos = index.positions(vec.rowids[rows])
        cand.append(pos[pos >= 0])
    cand = np.unique(np.concatenate(cand))
    cand = cand[np.isfinite(lex[cand])]
    cos = hybrid._cosines(vec, qvec, index.rowids[cand]) if qvec is not None else np.full(len(cand), np.nan)
    scores = SEMANTIC_WEIGHT * np.nan_to_num(cos, nan=0.0) + (1.0 - SEMANTIC_WEIGHT) * lex[cand]
    order = np.lexsort((cand, -scores))
    out: list[dict] = []
    step = limit + len(exclude) + 4
    for at in range(0, len(order), step):
        chunk = order[at:at + step]
        by_rowid = hybrid._papers_by_rowid(lib, [int(index.rowids[cand[i]]) for i in chunk])
        for i in chunk:
            rid = int(index.rowids[cand[i]])
            paper = by_rowid.get(rid)
            if paper is None or rid in exclude or _same_paper(paper, own_keys, own_titles):
                continue
            paper["rank"] = len(out) + 1
            paper["score"] = round(float(scores[i]), 6)
            paper["similarity"] = {"cosine": None if np.isnan(cos[i]) else round(float(cos[i]), 6),
                                   "lexical": round(float(lex[cand[i]]), 6)}
            out.append(paper)
            if len(out) >= limit:
                return out
    return out


def _same_paper(paper: dict, own_keys: set[str], own_titles: set[str]) -> bool:
    if own_keys and match_key(paper.get("abstract")) in own_keys:
        return True
    return bool(own_titles) and match_key(paper.get("title")) in own_titles


def _allowed(lib, index, venue, year) -> np.ndarray | None:
    if not venue and not year:
        return None
    from . import filters
    from .query import Query

    q = add_scope(Query(raw=""), venue, year)
    return filters.allowed_mask(lib, index, q)
