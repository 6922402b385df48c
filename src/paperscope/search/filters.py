"""Which papers a query allows: the structured scope (`Filter`) narrowed by the query's own
filters (venue, year, status, has), authors, required phrases and exclusions, as a boolean mask
over the lexical index positions. Phrase and author text reaches the store only as a quoted
FTS string (`fts_phrase`)."""
from __future__ import annotations

import numpy as np

from ..filters import HAS_KINDS, Filter
from . import lexical, tokens
from .query import Query, fts_phrase
from ..store.protocol import Store


def allowed_mask(engine, index: lexical.LexicalIndex, q: Query, scope: Filter = Filter()) -> np.ndarray | None:
    """Boolean mask over `index` positions, or None when nothing is restricted."""
    mask: np.ndarray | None = None

    def restrict(rowids: np.ndarray, keep: bool = True) -> None:
        nonlocal mask
        pos = index.positions(rowids)
        sel = np.zeros(index.size, dtype=bool)
        sel[pos[pos >= 0]] = True
        if mask is None:
            mask = np.ones(index.size, dtype=bool)
        mask &= sel if keep else ~sel

    unknown = [kind for kind in q.has if kind not in HAS_KINDS]
    if unknown:
        q.warnings.append(f"ignored has:{', has:'.join(unknown)} (known: {', '.join(HAS_KINDS)})")
        q.has = [kind for kind in q.has if kind in HAS_KINDS]
    f = scope.narrowed(venues=q.venues, years=q.years, statuses=q.statuses, has=q.has)
    if not f.empty:
        restrict(engine.passing(f))
    for name in q.authors:
        restrict(_text_rowids(engine.store, fts_phrase(name), q, column="authors"))
    for phrase in q.phrases:
        restrict(_text_rowids(engine.store, fts_phrase(phrase), q))
    for phrase in q.excluded_phrases:
        restrict(_text_rowids(engine.store, fts_phrase(phrase), q), keep=False)
    if q.excluded_words:
        words = [t for w in q.excluded_words for t in tokens.terms(w)]
        ids = lexical.term_ids(engine.store, index, words)
        if ids:
            if mask is None:
                mask = np.ones(index.size, dtype=bool)
            mask[index.containing(list(ids.values()))] = False
    return mask


def _text_rowids(store: Store, expression: str, q: Query, column: str | None = None) -> np.ndarray:
    """Row numbers of the papers matching one quoted FTS string (optionally in one column)."""
    if not any(ch.isalnum() for ch in expression):
        return np.zeros(0, np.int64)
    try:
        return store.matches_text(expression, column)
    except ValueError as exc:  # defensive: the full-text engine refused it; never a crash
        q.warnings.append(f"could not match {expression}: {exc}")
        return np.zeros(0, np.int64)
