"""The search component: one per open library. It is built from a store and an embedder (any
object with `embed(texts)` and `token_counts(texts)`; the packaged MiniLM by default, loaded on
first use) and owns everything search keeps in memory: the BM25F matrix, the vector matrix,
the term vectors of `related`, filter masks. `invalidate()` drops them after a write.

    engine = SearchEngine(store)
    hits = engine.search("flow matching venue:ICML", scope=Filter.of(year="2024"))
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..filters import Filter
from ..model import RelatedHit, SearchHit
from . import lexical, semantic
from .query import Query
from .vectors import TermVectors, build as build_term_vectors
from ..store.protocol import Store

MASK_CACHE = 64
PAPER_CACHE = 4096  # paper JSON by row number, per library generation
QUERY_CACHE = 1024  # query vectors by text, per process (shared by every open library)
QUERY_CACHE_CHARS = 2000  # longer texts (drafts) are not kept


class QueryVectors:
    """A small LRU of query embeddings: the same words typed again (a search-as-you-type prefix
    revisited, a popular query, the map highlighting what the page searched) skip the model.
    Keyed by the embedder too, so two models never share a vector."""

    def __init__(self, size: int = QUERY_CACHE):
        import threading
        from collections import OrderedDict

        self.size = size
        self._items: OrderedDict[tuple[int, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def embed(self, embedder: Any, texts: list[str]) -> np.ndarray:
        if len(texts) != 1 or len(texts[0]) > QUERY_CACHE_CHARS:
            return embedder.embed(texts)
        key = (id(embedder), texts[0])
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found
        vec = np.asarray(embedder.embed(texts), dtype=np.float32)
        vec.setflags(write=False)
        with self._lock:
            self.misses += 1
            self._items[key] = vec
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return vec


QUERY_VECTORS = QueryVectors()


class SearchEngine:
    def __init__(self, store: Store, embedder: Any | None = None):
        self.store = store
        self._embedder = embedder
        self.invalidate()

    # ------------------------------------------------------------------ state
    def invalidate(self) -> None:
        """Forget every loaded index (after a write to the library)."""
        self._lexical: lexical.LexicalIndex | None = None
        self._vectors: semantic.VectorIndex | None = None
        self._term_vectors: TermVectors | None = None
        self._vector_rows: np.ndarray | None = None
        self._mean: tuple[Any, np.ndarray | None] | None = None
        self._masks: dict[tuple, np.ndarray] = {}
        self._papers: dict[int, dict] = {}

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            from .embedder import get_embedder

            self._embedder = get_embedder()
        return self._embedder

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors (float32, L2-normalised) for queries and drafts (a query seen lately: from
        the per-process LRU)."""
        return QUERY_VECTORS.embed(self.embedder, list(texts))

    def lexical(self) -> lexical.LexicalIndex:
        if self._lexical is None:
            self._lexical = lexical.load(self.store)
        return self._lexical

    def vectors(self) -> semantic.VectorIndex:
        """Paper vectors (papers without one yet are absent)."""
        if self._vectors is None:
            self._vectors = semantic.load_vectors(self.store)
        return self._vectors

    def term_vectors(self) -> TermVectors:
        if self._term_vectors is None:
            self._term_vectors = build_term_vectors(self.store, self.lexical())
        return self._term_vectors

    def vector_rows(self) -> np.ndarray:
        """Vector row of each lexical position (-1 without a vector)."""
        if self._vector_rows is None:
            self._vector_rows = self.vectors().positions(self.lexical().rowids)
        return self._vector_rows

    def embedding_mean(self) -> np.ndarray | None:
        vec = self.vectors()
        if self._mean is None or self._mean[0] is not vec:
            mean = vec.matrix.mean(axis=0, dtype=np.float64).astype(np.float32) if vec.size else None
            self._mean = (vec, mean)
        return self._mean[1]

    def passing(self, f: Filter) -> np.ndarray:
        """Row numbers of the papers passing `f` (cached per filter until invalidated)."""
        key = f.key()
        if key not in self._masks:
            if len(self._masks) >= MASK_CACHE:
                self._masks.clear()
            self._masks[key] = self.store.passes(f)
        return self._masks[key]

    def refresh(self, *, embed: bool = True, progress: Callable[[str, int, int], None] | None = None) -> dict[str, int]:
        """Index papers without postings, save the index snapshot, embed new texts."""
        out = {"indexed": lexical.refresh(self.store, progress=progress)}
        if embed:
            out["embedded"] = semantic.embed_missing(self.store, self.embedder, progress=progress)
        self.invalidate()
        return out

    # ------------------------------------------------------------------ questions
    def search(self, query: str, *, scope: Filter = Filter(), mode: str = "hybrid", limit: int = 20,
               explain: bool = False) -> list[SearchHit]:
        from .hybrid import search

        return search(self, query, scope=scope, mode=mode, limit=limit, explain=explain)

    def rank(self, q: Query, *, scope: Filter = Filter(), mode: str = "hybrid", limit: int = 20, **kw):
        """The ranking behind `search` (positions in the lexical index, every score)."""
        from .hybrid import rank

        return rank(self, q, scope=scope, mode=mode, limit=limit, **kw)

    def related(self, paper_id: str | None = None, *, text: str | None = None, scope: Filter = Filter(),
                limit: int = 10) -> list[RelatedHit]:
        from .related import related

        return related(self, paper_id=paper_id, text=text, scope=scope, limit=limit)

    def papers_at(self, rowids: list[int]) -> dict[int, dict]:
        """Paper JSON (stored fields and facts) by row number. Rows read once are kept until
        the library changes (`invalidate`), so popular papers are not rebuilt per request;
        each caller gets its own (shallow) copy."""
        if not rowids:
            return {}
        out = {r: dict(self._papers[r]) for r in rowids if r in self._papers}
        missing = [r for r in rowids if r not in out]
        if missing:
            id_of = self.store.ids_of_rowids(missing)
            papers = self.store.papers_by_id(list(id_of.values()))
            if len(self._papers) + len(id_of) > PAPER_CACHE:
                self._papers.clear()
            for r, i in id_of.items():
                if i in papers:
                    self._papers[r] = papers[i].to_dict()
                    out[r] = dict(self._papers[r])
        return out
