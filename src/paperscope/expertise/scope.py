"""What `match` needs from a scope of papers, computed once per scope and kept until the library
changes: the papers' adjacent-term-pair vectors (`ScopePairs`) and each paper's hubness, its mean
similarity to its nearest papers of the scope (`scope_hubness`); with the author-free term
vectors of library papers and the checks of the questions' options."""
from __future__ import annotations

import numpy as np

from ..filters import Filter
from ..model import InputError
from ..search import vectors
from ..store.protocol import Store
from .profile import vectors_of
from .scoring import Recipe, centred_against, mix


class ScopePairs:
    """Unit tf-idf vectors of adjacent term pairs of a scope's papers, per scope."""

    def __init__(self, store: Store, engine):
        self.store, self.engine = store, engine
        self._cache: dict[tuple, tuple] = {}

    def matrix(self, scope: Filter, cand: np.ndarray):
        """Unit tf-idf vectors of adjacent term pairs (search.related.pair_counts) of the scope's
        papers, df counted over the scope and pairs held by fewer than two of its papers
        dropped, with the pair vocabulary and idf; once per scope."""
        key = scope.key()
        if key not in self._cache:
            from scipy import sparse

            from ..search.related import pair_counts

            rowids = [int(r) for r in self.engine.lexical().rowids[cand]]
            texts = self.store.texts_of_rowids(rowids)
            vocab: dict = {}
            rows, cols, vals = [], [], []
            for i, r in enumerate(rowids):
                for pair, tf in pair_counts(*texts.get(r, ("", ""))).items():
                    rows.append(i)
                    cols.append(vocab.setdefault(pair, len(vocab)))
                    vals.append(tf)
            m = sparse.csr_matrix((np.array(vals, np.float64), (rows, cols)), shape=(len(rowids), len(vocab)))
            df = np.bincount(m.indices, minlength=len(vocab))
            idf = (np.log((1.0 + len(rowids)) / (1.0 + df)) + 1.0) * (df >= 2)
            m.data = (1.0 + np.log(m.data)) * idf[m.indices]
            m.eliminate_zeros()
            norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
            m = (sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ m).tocsr()
            if len(self._cache) > 8:
                self._cache.clear()
            self._cache[key] = (m, vocab, idf)
        return self._cache[key]

    def cosines(self, scope: Filter, cand: np.ndarray, texts: list[str], rowids: list[int | None]) -> np.ndarray:
        """(items, scope papers) cosines of adjacent-term-pair vectors: a paper of the scope
        by its stored vector, another paper by its title and abstract, a text as an abstract."""
        from scipy import sparse

        from ..search.related import pair_counts

        m, vocab, idf = self.matrix(scope, cand)
        index = self.engine.lexical()
        pos = index.positions(np.array([r if r is not None else -1 for r in rowids], np.int64))
        at = np.searchsorted(cand, pos)
        inside = (pos >= 0) & (at < len(cand)) & (cand[np.minimum(at, len(cand) - 1)] == pos)
        outside = [n for n in range(len(texts)) if not inside[n]]
        stored = self.store.texts_of_rowids([int(rowids[n]) for n in outside if rowids[n] is not None])
        rows, cols, vals = [], [], []
        for n in outside:
            counts = (pair_counts(*stored[rowids[n]]) if rowids[n] is not None and rowids[n] in stored
                      else pair_counts("", texts[n]))
            for pair, tf in counts.items():
                j = vocab.get(pair)
                if j is not None and idf[j] > 0:
                    rows.append(n), cols.append(j), vals.append((1.0 + np.log(tf)) * idf[j])
        q = sparse.csr_matrix((np.array(vals, np.float64), (rows, cols)), shape=(len(texts), m.shape[1]))
        norms = np.sqrt(np.asarray(q.multiply(q).sum(axis=1)).ravel())
        q = sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ q
        out = (q @ m.T).toarray()
        if inside.any():
            out[inside] = (m[at[inside]] @ m.T).toarray()
        return out.astype(np.float32)


def scope_hubness(engine, store: Store, tv: vectors.TermVectors, pairs: ScopePairs | None, recipe: Recipe,
                  scope: Filter, cand: np.ndarray) -> np.ndarray:
    """Each candidate's mean similarity (`recipe`'s mix of embedding, term and, with `pairs`,
    term-pair cosines) to its 10 nearest papers of the scope."""
    out = np.zeros(len(cand), np.float32)
    index = engine.lexical()
    rowids = index.rowids[cand]
    vecs = vectors_of(engine, [Row(int(r)) for r in rowids]) if engine.vectors().size else None
    terms = term_matrix(store, index, tv, rowids)
    pairs = pairs.matrix(scope, cand)[0] if pairs is not None else None
    for a in range(0, len(cand), 1024):
        b = min(len(cand), a + 1024)
        lex = (terms[a:b] @ terms.T).toarray().astype(np.float32)
        if pairs is not None:
            lex = (1.0 - recipe.pair_weight) * lex + recipe.pair_weight * (pairs[a:b] @ pairs.T).toarray()
        sem = (centred_against(vecs[a:b], vecs, engine.embedding_mean()) if vecs is not None
               else np.full_like(lex, np.nan))
        block = mix(sem, lex, recipe.semantic_weight)
        block[np.arange(b - a), np.arange(a, b)] = np.inf  # itself, removed below
        k = min(11, len(cand))
        top = -np.partition(-block, k - 1, axis=1)[:, :k]
        top = np.where(np.isinf(top), np.nan, top)
        out[a:b] = np.nanmean(top, axis=1)
    return out


class Row:
    """A library paper seen as a profile item (for `vectors_of`)."""

    def __init__(self, rowid: int):
        self.rowid, self.text = rowid, ""


def term_matrix(store: Store, index, tv: vectors.TermVectors, rowids: np.ndarray):
    """Rows: the author-free term vectors of these papers (CSR, unit rows)."""
    from scipy import sparse

    pos = index.positions(rowids)
    full = sparse.csc_matrix((tv.data, tv.indices, tv.indptr), shape=(tv.size, len(tv.indptr) - 1))
    return full.tocsr()[pos]


def aggregate_of(value: str | None, default: str, allowed: tuple[str, ...]) -> str:
    value = (value or default).strip().lower()
    if value not in allowed:
        raise InputError(f"aggregate must be one of {', '.join(allowed)} (got {value!r})")
    return value


def half_life(value: float | None) -> float | None:
    if value is None or value == 0:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise InputError(f"recency is a half-life in years (got {value!r})") from None
    if not value > 0 or value == float("inf"):
        raise InputError(f"recency is a positive half-life in years (got {value!r})")
    return value
