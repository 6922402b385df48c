"""Feature rows for the learned second stage (search/ranker.py), collected through the product's
own hybrid.rank on the development corpora with titles hidden (query = a paper's real title,
target = that paper). ICML 2024, which search_quality.py reports, is never read here.

Rows are cached in benchmarks/.cache/ranker-<corpus>.npz (git-ignored), so a re-run only fits;
delete them (or pass --fresh to train_ranker.py) after changing the features.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

import numpy as np

import _search_data as data
import _search_eval as ev

DEV = ("iclr2017", "iclr2018", "iclr2020", "nips", "uai2024", "colt2024", "icml2016")
COLLECT_DEPTH = 10  # bigrams are computed for the best 10 by the hand-set stage
OFFTOPIC = data.HERE / "data" / "offtopic_queries.json"


@dataclass
class Queries:
    """One corpus: per query, the candidates' feature rows and the target's row index (-1: the
    target is not a candidate)."""

    name: str
    x: list[np.ndarray]
    target: np.ndarray

    def save(self, path) -> None:
        sizes = np.array([len(x) for x in self.x], np.int64)
        np.savez_compressed(path, x=np.concatenate(self.x) if self.x else np.zeros((0, 10)),
                            sizes=sizes, target=self.target)

    @classmethod
    def load(cls, name: str, path) -> "Queries":
        f = np.load(path)
        cuts = np.cumsum(f["sizes"])[:-1]
        return cls(name, list(np.split(f["x"], cuts)), f["target"])


def prepared(name: str):
    """(library, prepared queries, their vectors, target positions) for a corpus."""
    from paperscope.search import hybrid

    records = data.dedupe(data.CORPUS[name]())
    lib = data.library(name, records, titles=False)
    index = lib.engine.lexical()
    pos_of = {int(r): i for i, r in enumerate(index.rowids)}
    rowid_of = lib.store.rowids_of_ids()
    pairs = [(hybrid.prepare(r["title"]), pos_of[rowid_of[pid]]) for r in records
             if r["title"] and (pid := data.paper_id(lib, r))]
    qs = [q for q, _ in pairs]
    return lib, qs, lib.engine.embed([q.text for q in qs]), [t for _, t in pairs]


def engine_for(lib, qs, qvecs):
    from paperscope.search.engine import SearchEngine

    return SearchEngine(lib.store, ev.PrecomputedEmbedder(lib.engine.embedder, [q.text for q in qs], qvecs))


def collect(name: str) -> Queries:
    from paperscope.search import rerank, semantic
    from paperscope.search.fusion import FusionParams

    cache = data.CACHE / f"ranker-{name}.npz"
    if cache.exists():
        return Queries.load(name, cache)
    t0 = time.time()
    lib, qs, qvecs, targets = prepared(name)
    engine = engine_for(lib, qs, qvecs)
    hand = FusionParams(second="hand")
    xs, found = [], []
    depth, rerank.DEPTH = rerank.DEPTH, COLLECT_DEPTH
    try:
        with semantic.single_threaded_blas():
            for q, target in zip(qs, targets):
                r = engine.rank(q, mode="hybrid", params=hand, keep_all=True)
                xs.append(r.matrix.astype(np.float32))
                at = np.flatnonzero(r.positions == target)
                found.append(int(at[0]) if len(at) else -1)
    finally:
        rerank.DEPTH = depth
        lib.close()
    out = Queries(name, xs, np.array(found, np.int64))
    out.save(cache)
    print(f"  {name}: {len(qs)} queries ({time.time() - t0:.0f}s)", flush=True)
    return out


def offtopic(name: str, which: str) -> list[np.ndarray]:
    """Feature rows of the top 20 hybrid results of each off-topic query ("even" positions for
    calibration, "odd" held out) over a corpus's library."""
    from paperscope.search import hybrid, semantic

    queries = json.loads(OFFTOPIC.read_text("utf-8"))["queries"]
    queries = queries[0::2] if which == "even" else queries[1::2]
    records = data.dedupe(data.CORPUS[name]())
    lib = data.library(name, records, titles=False)
    out = []
    try:
        with semantic.single_threaded_blas():
            for text in queries:
                r = lib.engine.rank(hybrid.prepare(text), mode="hybrid", limit=20)
                out.append(np.column_stack([r.matrix, r.weak]) if r.matrix is not None else np.zeros((0, 11)))
    finally:
        lib.close()
    return out


def keyword_queries(name: str, n: int = 30) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Short topic queries: the `n` most used author keywords of an ICLR year, each with the
    feature rows of its top 10 results and whether each result carries that keyword."""
    from collections import Counter

    from paperscope.search import hybrid, semantic

    records = data.dedupe(data.CORPUS[name]())
    lib = data.library(name, records, titles=False)
    index = lib.engine.lexical()
    rowid_of = lib.store.rowids_of_ids()
    pos_of = {int(r): i for i, r in enumerate(index.rowids)}
    counts = Counter(k.strip().lower() for r in records for k in r["keywords"] if k.strip())
    out = []
    try:
        with semantic.single_threaded_blas():
            for kw, _ in counts.most_common(n):
                holders = {pos_of[rowid_of[pid]] for r in records
                           if kw in {k.strip().lower() for k in r["keywords"]} and (pid := data.paper_id(lib, r))}
                r = lib.engine.rank(hybrid.prepare(kw), mode="hybrid", limit=10)
                out.append((kw, r.matrix, np.array([int(p) in holders for p in r.positions])))
    finally:
        lib.close()
    return out
