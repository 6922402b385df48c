"""The expertise component: profiles scored against papers (`match`) and authors scored against
a paper or a topic (`reviewers`, `experts`). Built from a store and the search engine (its
vectors, lexical index and embedder); keeps the author index, its own author-free term vectors
and per-scope hubness in memory until `invalidate()`."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..filters import Filter
from ..model import InputError
from ..search import semantic, tokens, vectors
from . import authors as author_index
from .profile import Profile, vectors_of
from .results import AuthorSuggestion, MatchHit
from .topic import EXPERTS_RECIPE, SHARPNESS, topic_weights
from .scope import ScopePairs, aggregate_of, half_life, scope_hubness, term_matrix
from .scoring import FIELD_WEIGHTS, MATCH_RECIPE, RECIPE, Recipe, centred_against, centred_unit, centroid_scores, fuse, \
    grouped_scores, mix, profile_scores, recency_weights, top_indices
from ..store.protocol import Store

HUB_MAX = 20_000  # hubness and match's pair cosines are computed within a scope of at most this many papers
EVIDENCE = 3
EVIDENCE_MIN = 0.1  # experts: a paper below a tenth of the best paper's topic weight is no evidence
# How a profile's papers are combined: "facets" = the mean of the k best pair similarities (each
# candidate meets the profile papers closest to it, so a person with several topics is matched
# on each), "centroid" = the profile as one (weighted) centroid in the pair-similarity space,
# "fused" = both rankings fused (reciprocal rank). Chosen on both development benchmarks'
# tuning data: author leave-one-out (benchmarks/expertise_eval.py --grid, "aggregates"; ICLR
# 2020 / ICML 2016 MRR) and topical expertise (benchmarks/expertise_topical.py, tuning half,
# the gold standard's loss, lower is better):
#   reviewers  facets 0.167 / 0.269, centroid 0.173 / 0.294, fused 0.166 / 0.274;
#              topical loss facets 0.249, centroid 0.255 (facets - centroid [-0.007, -0.004])
#   match      facets 0.107 / 0.191, centroid 0.106 / 0.191, fused 0.111 / 0.191 (all within
#              noise); topical loss facets 0.277, mean (centroid) 0.284
# Facets both ways: who can judge a paper is someone one of whose topics covers it, which the
# topical benchmark measures; on authorship the centroid led reviewers by 0.01-0.03 MRR, and
# facets stay far ahead of the bare embedding there (see scoring.MATCH_RECIPE).
AGGREGATES = ("facets", "centroid", "fused")
MATCH_AGGREGATE = "facets"
AUTHOR_AGGREGATE = "facets"


def author_aggregate(min_papers: int) -> str:
    """The default aggregation over an author's papers when authors with at least `min_papers`
    papers are candidates: with one-paper authors among them (min_papers 1) the fused ranking,
    which led on both tuning corpora there (expertise_eval.py --min-papers 2 --tuning-only,
    reviewers MRR ICLR 2020 / ICML 2016: fused 0.095 / 0.142, facets 0.094 / 0.140, centroid
    0.089 / 0.140; pooled fused minus centroid +0.005, CI [-0.005, +0.016]); otherwise
    AUTHOR_AGGREGATE."""
    return "fused" if min_papers <= 1 else AUTHOR_AGGREGATE


class Expertise:
    def __init__(self, store: Store, engine, recipe: Recipe = RECIPE, match_recipe: Recipe = MATCH_RECIPE):
        self.store = store
        self.engine = engine
        self.recipe = recipe  # reviewers
        self.match_recipe = match_recipe
        self.invalidate()

    def invalidate(self) -> None:
        self._authors: author_index.AuthorIndex | None = None
        self._author_pos: np.ndarray | None = None
        self._terms: vectors.TermVectors | None = None
        self._hub: dict[str, np.ndarray] = {}
        self._pairs = ScopePairs(self.store, self.engine)
        self._gram: dict[tuple, np.ndarray] = {}
        self._year: np.ndarray | None = None
        self._matcher = None

    # ------------------------------------------------------------------ state
    def term_vectors(self) -> vectors.TermVectors:
        if self._terms is None:
            self._terms = vectors.build(self.store, self.engine.lexical(), weights=FIELD_WEIGHTS)
        return self._terms

    def authors(self) -> author_index.AuthorIndex:
        if self._authors is None:
            self._authors = author_index.build(self.store.author_lists())
            self._author_pos = self.engine.lexical().positions(self._authors.pair_rowid)
        return self._authors

    def matcher(self):
        """The library's papers indexed for linking a user's file (kept until a write)."""
        if self._matcher is None:
            from ..export.importer import Matcher

            self._matcher = Matcher(p.to_dict() for p in self.store.papers())
        return self._matcher

    def years(self) -> np.ndarray:
        """Year of each lexical position (the newest of its collections' years; 0 if none)."""
        if self._year is None:
            index = self.engine.lexical()
            out = np.zeros(index.size, np.int32)
            years = sorted({int(c["year"]) for c in self.store.collection_stats() if c.get("year")})
            for y in years:  # ascending: a paper listed in several years keeps the newest
                pos = index.positions(np.asarray(self.engine.passing(Filter.of(year=y)), np.int64))
                out[pos[pos >= 0]] = y
            self._year = out
        return self._year

    # ------------------------------------------------------------------ similarities
    def _similarities(self, texts: list[str], vecs: np.ndarray, rowids: list[int | None],
                      recipe: Recipe | None = None, scope: Filter | None = None) -> np.ndarray:
        """(items, lexical positions) pair similarities: centred embedding cosine mixed with
        the author-free term-vector cosine (and, with `recipe.pair_weight`, the cosine of
        adjacent term pairs counted over `scope`, 0 outside it)."""
        recipe = recipe or self.recipe
        eng, index, tv = self.engine, self.engine.lexical(), self.term_vectors()
        vec = eng.vectors()
        sem = np.full((len(texts), index.size), np.nan, np.float32)
        if vec.size:
            rows = eng.vector_rows()
            has = rows >= 0
            sem[:, has] = centred_against(vecs, vec.matrix, eng.embedding_mean())[:, rows[has]]
        lex = np.zeros((len(texts), index.size), np.float32)
        for n, (text, rowid) in enumerate(zip(texts, rowids)):
            tid, w = (vectors.paper_vector(self.store, index, tv, rowid, FIELD_WEIGHTS) if rowid is not None
                      else vectors.text_vector(self.store, index, tv, text))
            lex[n] = tv.cosines(tid, w)
        cand = self._scope_positions(scope) if recipe.pair_weight and scope is not None else None
        if cand is not None and 2 <= len(cand) <= HUB_MAX:
            pairs = np.zeros_like(lex)
            pairs[:, cand] = self._pairs.cosines(scope, cand, texts, rowids)
            lex = (1.0 - recipe.pair_weight) * lex + recipe.pair_weight * pairs
        return mix(sem, lex, recipe.semantic_weight)

    def _scope_positions(self, scope: Filter) -> np.ndarray:
        index = self.engine.lexical()
        if scope.empty:
            return np.arange(index.size)
        pos = index.positions(self.engine.passing(scope))
        return np.sort(pos[pos >= 0])

    def _hubness(self, scope: Filter, cand: np.ndarray) -> np.ndarray:
        """Each candidate's mean similarity (match's) to its 10 nearest papers of the scope (0
        above HUB_MAX papers); computed once per scope."""
        recipe = self.match_recipe
        if not recipe.hub or len(cand) > HUB_MAX or len(cand) < 3:
            return np.zeros(len(cand), np.float32)
        key = scope.key()
        if key not in self._hub:
            if len(self._hub) > 16:
                self._hub.clear()
            pairs = self._pairs if recipe.pair_weight else None
            self._hub[key] = scope_hubness(self.engine, self.store, self.term_vectors(), pairs, recipe, scope, cand)
        return self._hub[key]

    # ------------------------------------------------------------------ questions
    def match(self, profile: Profile, *, scope: Filter = Filter(), limit: int | None = 20,
              explain: bool = True, aggregate: str | None = None, recency: float | None = None) -> list[MatchHit]:
        """Papers of `scope` ranked by fit to the profile (the profile's own papers left out).
        `aggregate`: facets (default) | centroid | fused (see AGGREGATES); `recency`: a
        half-life in years, profile papers older than the profile's newest count less."""
        aggregate, recency = aggregate_of(aggregate, MATCH_AGGREGATE, AGGREGATES), half_life(recency)
        recipe = self.match_recipe
        with semantic.single_threaded_blas():
            items = profile.items
            sims = self._similarities([i.text for i in items], vectors_of(self.engine, items),
                                      [i.rowid for i in items], recipe, scope)
            cand = self._scope_positions(scope)
            index = self.engine.lexical()
            own = set(index.positions(np.array([i.rowid for i in items if i.rowid is not None], np.int64)).tolist())
            w = self._item_weights(items, recency)[:, None]
            hubs = self._hubness(scope, cand)
            rows = sims[:, cand]
            facets = profile_scores(w * rows, recipe) - recipe.hub * hubs
            centroid = (w * rows).sum(axis=0) / max(float(w.sum()), 1e-9) - recipe.hub * hubs
            scores = (facets if aggregate == "facets" else centroid if aggregate == "centroid"
                      else fuse(facets, centroid, k=recipe.fuse_k))
            keep = ~np.isin(cand, list(own)) & np.isfinite(scores)
            cand, scores, sims = cand[keep], scores[keep], sims[:, cand[keep]]
            order = top_indices(scores, len(cand) if limit is None else max(0, int(limit)))
            papers = self.engine.papers_at([int(index.rowids[cand[i]]) for i in order])
            out = []
            for i in order:
                paper = papers.get(int(index.rowids[cand[i]]))
                if paper is None:
                    continue
                why = self._evidence(items, sims[:, i], paper) if explain else None
                out.append(MatchHit(paper, round(float(scores[i]), 6), len(out) + 1, why=why))
            return out

    def _item_weights(self, items, recency: float | None) -> np.ndarray:
        """Recency weight of each profile item, relative to the profile's newest known year."""
        if not recency:
            return np.ones(len(items))
        years = np.array([i.year or 0 for i in items], np.float64)
        rows = np.array([i.rowid if i.rowid is not None else -1 for i in items], np.int64)
        pos = self.engine.lexical().positions(rows)
        known = self.years()
        years = np.where((years <= 0) & (pos >= 0), known[np.maximum(pos, 0)], years)
        return recency_weights(years, recency, int(years.max()) if len(years) else 0)

    def _evidence(self, items, pair: np.ndarray, paper: dict) -> dict[str, Any]:
        best = np.argsort(-np.nan_to_num(pair, nan=-1.0), kind="stable")[:EVIDENCE]
        drivers = [{"id": items[j].paper_id, "title": items[j].title, "similarity": round(float(pair[j]), 4)}
                   for j in best]
        text = semantic.paper_text(paper.get("title"), paper.get("abstract"))
        return {"profile": drivers,
                "terms": self.shared_terms(text, [items[j].text for j in best[:2]])}

    def shared_terms(self, text: str, others: list[str], n: int = 6) -> list[str]:
        """Distinctive words a text shares with others (highest idf first), as written."""
        surface: dict[str, str] = {}
        mine = set(tokens.terms(text, surface))
        theirs = set().union(*(tokens.terms(t) for t in others)) if others else set()
        shared = sorted(mine & theirs)
        if not shared:
            return []
        ids = vectors.term_ids(self.store, self.engine.lexical(), shared)
        tv = self.term_vectors()
        known = [t for t in shared if t in ids]
        idf = tv.idf_of(np.array([ids[t] for t in known], np.int64)) if known else np.zeros(0)
        ranked = [t for _, t in sorted(zip(-idf, known))]
        word = {}
        for w, t in surface.items():
            word.setdefault(t, w)
        words = [word.get(t, t) for t in ranked]
        words = [w for w in words if len(w) >= 3 and not any(ch.isdigit() for ch in w)]
        # a joined compound ("primaldual") goes when one of its parts is shown
        return [w for w in words if not any(o != w and o in w for o in words)][:n]

    def reviewers(self, paper_id: str | None = None, *, text: str | None = None, limit: int = 10,
                  exclude_authors: bool = True, exclude_coauthors: bool = True,
                  conflicts: list[str] | None = None, min_papers: int = 2,
                  scope: Filter = Filter(), aggregate: str | None = None,
                  recency: float | None = None) -> dict[str, Any]:
        """Authors ranked by fit to a paper of the library or a text. Conflicts of interest:
        the paper's own authors, everyone who wrote a paper of the library with them, and any
        named `conflicts` (with their co-authors) are left out unless told otherwise.
        `aggregate`: facets (default) | centroid | fused over each author's papers (see
        AGGREGATES); `recency`: a half-life in years, papers older than the library's newest
        year count less. With "fused" the score is the reciprocal-rank fusion value."""
        aggregate, recency = aggregate_of(aggregate, author_aggregate(min_papers), AGGREGATES), half_life(recency)
        if (paper_id is None) == (not text or not text.strip()):
            raise InputError("give a paper id or a text (not both)")
        idx = self.authors()
        rowid, own = None, []
        if paper_id is not None:
            found = self.store.papers_by_id([paper_id]).get(paper_id)
            if found is None:
                raise InputError(f"no paper with id {paper_id!r} (see `paperscope list`)")
            d = found.to_dict()
            text = semantic.paper_text(d.get("title"), d.get("abstract"))
            rowid = self.store.rowid_of(paper_id)
            own = idx.of_paper(rowid)
        named = [a for a in (idx.find(n) for n in conflicts or []) if a is not None]
        excluded = set(named) | (set(own) if exclude_authors else set())
        if exclude_coauthors and (own or named):
            excluded |= idx.coauthors(set(own) | set(named)) - (set(own) if not exclude_authors else set())
        ranked = self._rank_authors(text, rowid, excluded, limit, min_papers, scope, aggregate=aggregate,
                                    recency=recency)
        return {"query": {"paper": paper_id, "text": None if paper_id else text},
                "own_authors": [idx.names[a] for a in own],
                "conflicts_excluded": len(excluded), "reviewers": ranked}

    def experts(self, text: str, *, limit: int = 10, min_papers: int = 2,
                scope: Filter = Filter()) -> list[AuthorSuggestion]:
        """Who here works on a topic: authors ranked by how their papers rank in a search for
        the words (the search engine is tuned for short queries; a pair similarity made for two
        abstracts is not). A paper's weight is its search score over the best one, to the power
        SHARPNESS (0 outside the first topic.SEARCH_POOL results), discounted when it holds a
        topic word only as another word of the same stem (topic.py: "conformer" for
        "conformal"); measured in benchmarks/expertise_topical.py."""
        self.authors()
        sims = self.topic_weights(text, scope)
        found = self._rank_authors(text, None, set(), limit, min_papers, scope, sims=sims,
                                   recipe=EXPERTS_RECIPE)
        for a in found:  # papers far down (or outside) the topic's results are no evidence
            a.evidence = [e for e in a.evidence if e["similarity"] >= EVIDENCE_MIN] or a.evidence[:1]
        return found

    def topic_weights(self, text: str, scope: Filter = Filter(), sharpness: float | None = None,
                      near_miss: bool = True) -> np.ndarray:
        """Each paper's (lexical position's) weight for some topic words (topic.topic_weights)."""
        if not text or not text.strip():
            raise InputError("give some topic words")
        return topic_weights(self.engine, self.store, self.term_vectors(), text, scope,
                             SHARPNESS if sharpness is None else sharpness, near_miss)

    def _rank_authors(self, text: str, rowid: int | None, excluded: set[int], limit: int,
                      min_papers: int, scope: Filter, sims: np.ndarray | None = None,
                      aggregate: str = "facets", recency: float | None = None,
                      recipe: Recipe | None = None) -> list[AuthorSuggestion]:
        idx = self.authors()
        recipe = recipe or self.recipe
        with semantic.single_threaded_blas():
            if sims is None:
                vec = self.engine.vectors()
                row = vec.positions(np.array([rowid if rowid is not None else -1]))[0] if vec.size else -1
                qvec = (vec.matrix[row][None, :] if row >= 0 else self.engine.embed([text]) if vec.size
                        else np.zeros((1, 384), np.float32))
                sims = self._similarities([text], qvec, [rowid])[0]
            pos = self._author_pos
            ok = pos >= 0
            index = self.engine.lexical()
            if rowid is not None:
                ok &= pos != index.positions(np.array([rowid]))[0]
            if not scope.empty:
                allowed = np.zeros(index.size, bool)
                allowed[self._scope_positions(scope)] = True
                ok &= allowed[np.where(pos >= 0, pos, 0)]
            owner, where = idx.pair_author[ok], pos[ok]
            years = self.years() if recency else None
            reference = int(years.max()) if recency and len(years) else 0
            w = recency_weights(years[where], recency, reference) if recency else 1.0
            values = sims[where] * w
            counts = np.bincount(owner, minlength=idx.size)
            out_of = counts < max(1, min_papers)
            if excluded:
                out_of[list(excluded)] = True
            facets = centroid = None
            if aggregate != "centroid":
                facets = grouped_scores(values, owner, idx.size, recipe)
                facets[out_of] = -np.inf
            if aggregate != "facets":
                drop = None
                qpos = index.positions(np.array([rowid]))[0] if rowid is not None else -1
                if qpos >= 0 and self._in_scope(scope, qpos):  # the gram counts the query paper
                    wq = recency_weights(years[[qpos]], recency, reference)[0] if recency else 1.0
                    drop = (idx.of_paper(rowid), float(wq), float(sims[qpos]))
                centroid = centroid_scores(values, owner, idx.size, self._author_gram(scope, recency), drop)
                centroid[out_of] = -np.inf
            scores = (facets if centroid is None else centroid if facets is None
                      else fuse(facets, centroid, k=recipe.fuse_k))
            limit = max(0, int(limit))
            out: list[AuthorSuggestion] = []
            seen: dict[tuple, AuthorSuggestion] = {}
            for a in top_indices(scores, 20 * limit):
                if len(out) >= limit:
                    break
                mine = np.flatnonzero(owner == a)
                top = mine[np.argsort(-sims[where[mine]], kind="stable")[:EVIDENCE]]
                rowids = [int(index.rowids[where[j]]) for j in top]
                same = (round(float(scores[a]), 6), int(counts[a]), tuple(rowids))
                if same in seen:  # co-authors of exactly these papers: one line
                    seen[same].also.append(idx.names[int(a)])
                    continue
                id_of = self.store.ids_of_rowids(rowids)
                titles = self.store.display_titles(list(id_of.values()))
                papers = [{"id": id_of[r], "title": titles.get(id_of[r], id_of[r]),
                           "similarity": round(float(sims[where[j]]), 4)} for r, j in zip(rowids, top) if r in id_of]
                seen[same] = AuthorSuggestion(idx.names[int(a)], same[0], len(out) + 1, int(counts[a]), papers)
                out.append(seen[same])
            return out


    def _in_scope(self, scope: Filter, position: int) -> bool:
        if scope.empty:
            return True
        return bool(np.isin(position, self._scope_positions(scope)))

    def _author_gram(self, scope: Filter, recency: float | None) -> np.ndarray:
        """|sum_p w_p v_p|^2 for each author over their papers in `scope`, v_p the paper in the
        pair-similarity space (centred embedding scaled by sqrt(semantic weight) beside the term
        vector scaled by sqrt(1 - weight)); once per scope and half-life. A paper without a
        vector in a library with vectors counts by its words only (approximate)."""
        key = (scope.key(), recency)
        if key not in self._gram:
            from scipy import sparse

            idx, index, eng = self.authors(), self.engine.lexical(), self.engine
            pos = self._author_pos
            ok = pos >= 0
            if not scope.empty:
                allowed = np.zeros(index.size, bool)
                allowed[self._scope_positions(scope)] = True
                ok &= allowed[np.where(pos >= 0, pos, 0)]
            owner, where = idx.pair_author[ok], pos[ok]
            w = np.ones(len(where))
            if recency:
                years = self.years()
                w = recency_weights(years[where], recency, int(years.max()) if len(years) else 0)
            incidence = sparse.csr_matrix((w, (owner, where)), shape=(idx.size, index.size))
            terms = term_matrix(self.store, index, self.term_vectors(), index.rowids)
            pooled = incidence @ terms
            lex = np.asarray(pooled.multiply(pooled).sum(axis=1)).ravel()
            vec = eng.vectors()
            if vec.size:
                rows = eng.vector_rows()
                summed = np.zeros((idx.size, vec.matrix.shape[1]))
                has = np.flatnonzero(rows >= 0)
                by_col = incidence.tocsc()
                for a in range(0, len(has), 50_000):
                    part = has[a:a + 50_000]
                    summed += by_col[:, part] @ centred_unit(vec.matrix[rows[part]], eng.embedding_mean())
                sw = self.recipe.semantic_weight
                gram = sw * (summed * summed).sum(axis=1) + (1.0 - sw) * lex
            else:
                gram = lex
            if len(self._gram) > 8:
                self._gram.clear()
            self._gram[key] = gram
        return self._gram[key]
