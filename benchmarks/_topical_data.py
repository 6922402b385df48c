"""The data of the topical-expertise benchmark (expertise_topical.py): one library holding every
corpus with authors (a user's library of several venues and years), the reviewers (authors
whose archive spans venues), their graded relevance to the ICLR 2020 papers from the papers'
author keywords, and the similarity matrices the methods combine.

Reviewers: authors with at least one ICLR 2020 paper that has keywords, MIN_PAPERS papers in
all and papers in MIN_VENUES venue-years. A reviewer's archive (the profile) is all their
papers; the candidates are the ICLR 2020 papers with keywords they did not write.

Grade of a candidate for a reviewer (can this person judge this paper?): the share of the
candidate's keywords, each weighted by its idf over the ICLR 2020 papers, that also label one
of the reviewer's ICLR 2020 papers; 0 none, 1 below a third, 2 below two thirds, 3 the rest.
Keywords are the ICLR 2020 list's controlled vocabulary (223 terms); the library is ingested
without them (they are the labels), so no method reads them. The reviewer's papers from other
venues carry no keywords: a topic known only from them counts as unknown (grade 0), the same
for every method.

Tuning/untouched: by a hash of the reviewer's name key (sha1, even = tuning); the reviewers
direction ranks only the reviewers of one half.
"""
from __future__ import annotations

import hashlib

import numpy as np
from scipy import sparse

import _search_data as data

VENUES = ("iclr2020", "icml2024", "icml2016", "uai2024", "colt2024")
MIN_PAPERS = 3
MIN_VENUES = 2
LEVELS = (1 / 3, 2 / 3)


def archive_records() -> tuple[list[dict], list[str]]:
    """Every record of VENUES once (repeated abstracts dropped, as the library merges them)
    and the corpus each came from."""
    from paperscope.model import match_key

    records, origin, seen = [], [], set()
    for name in VENUES:
        for r in data.dedupe(data.CORPUS[name]()):
            key = match_key(r["abstract"])
            if key in seen:
                continue
            seen.add(key)
            records.append(r)
            origin.append(name)
    return records, origin


def half(key: str) -> str:
    return "tuning" if int(hashlib.sha1(key.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "untouched"


class Archive:
    def __init__(self):
        from paperscope.expertise import authors as author_index
        from paperscope.expertise.scoring import FIELD_WEIGHTS
        from paperscope.search.vectors import build as build_term_vectors

        records, origin = archive_records()
        self.lib = lib = data.library("archive", records, titles=True, keywords=False)
        eng = lib.engine
        index = eng.lexical()
        self.n = index.size
        rowid_of = lib.store.rowids_of_ids()
        pos_of_record = index.positions(np.array([rowid_of.get(data.paper_id(lib, r) or "", -1) for r in records]))
        self.venue = np.array([""] * self.n, dtype=object)
        self.keywords: list[frozenset] = [frozenset()] * self.n
        for r, o, p in zip(records, origin, pos_of_record):
            if p >= 0:
                self.venue[p] = o
                if o == "iclr2020":
                    self.keywords[p] = frozenset(k.strip().lower() for k in r["keywords"] if k.strip())
        self.ids = lib.store.ids_of_rowids([int(r) for r in index.rowids])
        self.id_at = [self.ids[int(r)] for r in index.rowids]
        rows = eng.vector_rows()
        if (rows < 0).any():
            raise SystemExit(f"archive: {int((rows < 0).sum())} papers without vectors")
        emb = eng.vectors().matrix[rows]
        centred = emb - eng.embedding_mean()
        centred /= np.linalg.norm(centred, axis=1, keepdims=True)
        self.plain = (emb @ emb.T).astype(np.float32)
        self.centred = (centred @ centred.T).astype(np.float32)
        tv = build_term_vectors(lib.store, index, weights=FIELD_WEIGHTS)
        terms = sparse.csc_matrix((tv.data, tv.indices, tv.indptr), shape=(self.n, len(tv.indptr) - 1)).tocsr()
        self.lexical = (terms @ terms.T).toarray().astype(np.float32)
        texts = lib.store.texts_of_rowids([int(r) for r in index.rowids])
        self.texts = [texts[int(r)] for r in index.rowids]
        idx = author_index.build(lib.store.author_lists())
        pos = index.positions(idx.pair_rowid)
        self.pair_author, self.pair_pos = idx.pair_author[pos >= 0], pos[pos >= 0]
        self.author_keys, self.author_names = idx.keys, idx.names
        self.n_authors = idx.size
        self.papers_of = [np.sort(self.pair_pos[self.pair_author == a]) for a in range(self.n_authors)]
        self.authors_of = [[] for _ in range(self.n)]
        for a, p in zip(self.pair_author.tolist(), self.pair_pos.tolist()):
            self.authors_of[p].append(a)
        self._select()

    def _select(self) -> None:
        self.cand = np.flatnonzero([bool(k) for k in self.keywords])  # ICLR 2020 papers with keywords
        self.scope = np.flatnonzero(self.venue == "iclr2020")  # the collection `match` ranks
        reviewers = []
        for a in range(self.n_authors):
            ps = self.papers_of[a]
            if (len(ps) >= MIN_PAPERS and len({self.venue[p] for p in ps}) >= MIN_VENUES
                    and any(self.keywords[p] for p in ps)):
                reviewers.append(a)
        self.reviewers = np.array(reviewers, np.int64)
        self.split = np.array([half(self.author_keys[a]) for a in reviewers])
        df: dict[str, int] = {}
        for p in self.cand:
            for k in self.keywords[p]:
                df[k] = df.get(k, 0) + 1
        idf = {k: np.log(len(self.cand) / v) for k, v in df.items()}
        self.grades = np.zeros((len(reviewers), len(self.cand)), np.int8)
        self.own = np.zeros_like(self.grades, dtype=bool)
        for i, a in enumerate(reviewers):
            known = set().union(*(self.keywords[p] for p in self.papers_of[a]))
            mine = set(self.papers_of[a].tolist())
            for j, p in enumerate(self.cand):
                self.own[i, j] = p in mine
                total = sum(idf[k] for k in self.keywords[p])
                share = sum(idf[k] for k in self.keywords[p] & known) / total if total > 0 else 0.0
                self.grades[i, j] = 0 if share <= 0 else 1 if share < LEVELS[0] else 2 if share < LEVELS[1] else 3

    def describe(self) -> dict:
        g = self.grades[~self.own]
        return {"papers": self.n, "papers_by_venue": {v: int((self.venue == v).sum()) for v in VENUES},
                "authors": self.n_authors, "reviewers": len(self.reviewers),
                "reviewers_by_half": {h: int((self.split == h).sum()) for h in ("tuning", "untouched")},
                "reviewer_papers_mean": round(float(np.mean([len(self.papers_of[a]) for a in self.reviewers])), 2),
                "reviewer_venues_mean": round(float(np.mean([len({self.venue[p] for p in self.papers_of[a]})
                                                             for a in self.reviewers])), 2),
                "candidates": len(self.cand),
                "grade_shares": {str(k): round(float((g == k).mean()), 4) for k in range(4)}}

    def pairs(self) -> np.ndarray:
        """(papers, papers) cosines of adjacent-term-pair vectors with the vocabulary and idf of
        the ICLR 2020 collection (as `match` counts them over its scope; pairs held by fewer
        than two of its papers dropped)."""
        if getattr(self, "_pairs", None) is not None:
            return self._pairs
        from paperscope.search.related import pair_counts

        counts = [pair_counts(t or "", a or "") for t, a in self.texts]
        in_scope = np.zeros(self.n, bool)
        in_scope[self.scope] = True
        df: dict = {}
        for p in self.scope:
            for k in counts[p]:
                df[k] = df.get(k, 0) + 1
        vocab = {k: i for i, k in enumerate(k for k, v in df.items() if v >= 2)}
        idf = np.array([np.log((1.0 + len(self.scope)) / (1.0 + df[k])) + 1.0 for k in vocab])
        rows, cols, vals = [], [], []
        for i, c in enumerate(counts):
            for k, tf in c.items():
                j = vocab.get(k)
                if j is not None:
                    rows.append(i), cols.append(j), vals.append((1.0 + np.log(tf)) * idf[j])
        m = sparse.csr_matrix((vals, (rows, cols)), shape=(self.n, len(vocab)))
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        m = sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ m
        self._pairs = (m @ m.T).toarray().astype(np.float32)
        return self._pairs
