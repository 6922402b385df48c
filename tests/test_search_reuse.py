"""What a search keeps between requests: query vectors (a per-process LRU, per embedder) and
paper JSON (per library generation). Kept answers must never be stale or shared by mistake."""
from __future__ import annotations

import json

import numpy as np

from paperscope.library import Library
from paperscope.search.engine import QueryVectors
from search_support import PAPERS, write_papers


class CountingEmbedder:
    """A deterministic stand-in model that counts the texts it was asked to embed."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts += list(texts)
        out = []
        for t in texts:
            v = np.random.default_rng([self.seed, len(t), sum(map(ord, t))]).standard_normal(384).astype(np.float32)
            out.append(v / np.linalg.norm(v))
        return np.stack(out)

    def token_counts(self, texts):
        return [len(t.split()) for t in texts]


def test_a_repeated_query_is_embedded_once_per_model():
    cache = QueryVectors(size=2)
    a, b = CountingEmbedder(1), CountingEmbedder(2)
    first = cache.embed(a, ["flow matching"])
    assert np.array_equal(cache.embed(a, ["flow matching"]), first)
    assert a.texts == ["flow matching"]
    assert not np.array_equal(cache.embed(b, ["flow matching"]), first)  # another model: its own vector
    assert b.texts == ["flow matching"]
    cache.embed(a, ["diffusion"])
    cache.embed(a, ["attention"])  # size 2: the oldest query is forgotten
    cache.embed(a, ["flow matching"])
    assert a.texts.count("flow matching") == 2
    draft = "word " * 1000
    cache.embed(a, [draft])
    cache.embed(a, [draft])
    assert a.texts.count(draft) == 2  # a long draft is never kept
    assert not first.flags.writeable  # a kept vector cannot be changed by a caller


def test_search_answers_reflect_a_changed_paper_after_the_write(tmp_path):
    lib = Library.open(tmp_path / "lib.db", embedder=CountingEmbedder())
    lib.ingest([write_papers(tmp_path / "papers.jsonl")], analyse=False)
    before = lib.search("flow matching generative", limit=3)
    assert before[0].paper["title"] == "Flow Matching for Generative Modeling"
    again = lib.search("flow matching generative", limit=3)
    assert [h.paper["id"] for h in again] == [h.paper["id"] for h in before]
    again[0].paper["title"] = "changed by a caller"  # a caller's copy, not the kept one
    assert lib.search("flow matching generative", limit=3)[0].paper["title"] == before[0].paper["title"]
    lib.tag(before[0].paper["id"], "to-read")
    assert lib.search("flow matching generative", limit=3)[0].paper["tags"] == ["to-read"]
    lib.remove(collection="ICLR 2023")  # the flow matching paper goes...
    assert "Flow Matching for Generative Modeling" not in [h.paper["title"] for h in lib.search("flow matching generative")]
    back = dict(PAPERS[0], status="Spotlight")  # ...and comes back changed
    lib.ingest([write_papers(tmp_path / "back.jsonl", [back])], analyse=False)
    hit = lib.search("flow matching generative", limit=3)[0].paper
    assert hit["title"] == "Flow Matching for Generative Modeling" and hit["status"] == "Spotlight"
    json.dumps([h.to_json() for h in lib.search("flow matching generative", limit=3)])
    lib.close()
