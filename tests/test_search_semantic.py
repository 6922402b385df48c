"""Embeddings and semantic search: the real model, incremental embedding at ingest, the vector
matrix, and an end-to-end search over the sample lists that finds papers by meaning."""
from __future__ import annotations

import json

import numpy as np
import pytest

from paperscope.search import semantic
from paperscope.search.embedder import DIM, get_embedder


def _vectors(lib):
    """(paper ids, matrix) of the library's loaded vector index."""
    index = lib.engine.vectors()
    return index.ids, index.matrix


def test_embeddings_are_unit_vectors_and_capture_meaning():
    v = get_embedder().embed(["a cat sits on the mat", "a kitten is resting on a rug",
                              "stock prices fell sharply on Monday"])
    assert v.shape == (3, DIM) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_batching_does_not_change_a_vector():
    short = "graph neural networks for molecules"
    long = " ".join(["a much longer text about reinforcement learning and exploration"] * 20)
    alone = get_embedder().embed([short])[0]
    batched = get_embedder().embed([long, short, long])[1]
    assert float(alone @ batched) > 0.9999


def test_empty_and_huge_texts_embed():
    v = get_embedder().embed(["", "   ", "x " * 20000])
    assert v.shape == (3, DIM) and np.isfinite(v).all()


def test_many_texts_are_tokenized_in_windows_with_the_same_result(monkeypatch):
    from paperscope.search import embedder as embedder_module

    emb = get_embedder()
    texts = [f"paper {i} on {'sparse ' * (i % 7)}attention for long documents" for i in range(40)]
    whole_counts, whole = emb.token_counts(texts), emb.embed(texts)
    calls = []
    encode = emb.tokenizer.encode_batch
    monkeypatch.setattr(embedder_module, "TOKENIZE_WINDOW", 16)
    monkeypatch.setattr(emb, "tokenizer", _Spy(emb.tokenizer, lambda batch: calls.append(len(batch)) or encode(batch)))
    assert emb.token_counts(texts) == whole_counts
    windowed = emb.embed(texts)
    assert calls == [16, 16, 8, 16, 16, 8]  # never more than a window of texts at once
    assert np.array_equal(windowed, whole)


class _Spy:
    """A tokenizer whose encode_batch goes through `fn`; everything else is the real one."""

    def __init__(self, real, fn):
        self._real, self.encode_batch = real, fn

    def __getattr__(self, name):
        return getattr(self._real, name)


def test_counting_tokens_of_many_texts_keeps_memory_flat(tmp_path):
    """100 k abstracts counted in one tokenizer call held ~36 KB each (3.6 GB) at once; in
    windows the peak stays that of one window. Measured as the process's peak RSS (VmHWM): these
    8000 long texts (overflow tokens are kept too) took 893 MB in one call, 37 MB in windows of
    256."""
    import subprocess
    import sys

    code = (
        "from paperscope.search.embedder import get_embedder\n"
        "def hwm(): return int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) // 1024\n"
        "e = get_embedder(); e.token_counts(['warm up'] * 64)\n"
        "texts = [' '.join(f'word{j} token{i}' for j in range(120)) for i in range(8000)]\n"
        "before = hwm(); n = e.token_counts(texts); print(hwm() - before, min(n))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    grew_mb, shortest = map(int, out.stdout.split())
    assert shortest == 256  # every text was long enough to be truncated: 8000 full encodings
    assert grew_mb < 200  # all 8000 at once: ~890 MB


def _list(samples_dir, i):
    return sorted(samples_dir.glob("*.txt"))[i]


def test_second_ingest_embeds_only_new_papers(tmp_path, samples_dir):
    from paperscope.library import Library

    calls = []
    lib = Library.open(tmp_path / "lib.db")
    first = lib.ingest([_list(samples_dir, 0)], progress=lambda *a: calls.append(a))
    n0 = lib.stats()["papers"]
    assert first.derived["embedded"] == n0 > 0
    assert any(c[0] == "embed" and c[1] == c[2] == n0 for c in calls)
    ids0, m0 = _vectors(lib)
    assert m0.shape == (n0, DIM)
    second = lib.ingest([_list(samples_dir, 1)])
    n1 = lib.stats()["papers"] - n0
    assert second.derived["embedded"] == n1 > 0
    again = lib.ingest([_list(samples_dir, 0), _list(samples_dir, 1)])
    assert again.derived["embedded"] == 0
    ids, m = _vectors(lib)
    assert len(ids) == n0 + n1 and m.shape == (n0 + n1, DIM)
    # vectors of the first papers were kept, not recomputed
    row = {pid: i for i, pid in enumerate(ids)}
    assert np.allclose(m[[row[p] for p in ids0]], m0, atol=1e-3)
    lib.close()


def test_a_paper_whose_text_changes_is_embedded_again(tmp_path, samples_dir):
    from paperscope.library import Library

    lib = Library.open(tmp_path / "lib.db")
    lib.ingest([_list(samples_dir, 0)])
    paper = lib.papers(limit=1)[0]
    ids, before = _vectors(lib)
    # a richer export of the same paper brings its title: one text changed, one embedding
    export = tmp_path / "titled.jsonl"
    export.write_text(json.dumps({"title": "Trainable low-rank layers for compact networks",
                                  "abstract": paper["abstract"], "venue": "ICML", "year": 2024}) + "\n")
    report = lib.ingest([export])
    assert report.derived["embedded"] == 1
    ids2, after = _vectors(lib)
    i = ids2.index(paper["id"])
    assert float(after[i] @ before[ids.index(paper["id"])]) < 0.999
    lib.close()


def test_vectors_are_loaded_once_and_forgotten_after_writes(samples_lib):
    ids, m = _vectors(samples_lib)
    ids2, m2 = _vectors(samples_lib)
    assert m2 is m
    assert set(ids) == {p["id"] for p in samples_lib.papers()}
    samples_lib.invalidate()
    assert _vectors(samples_lib)[1] is not m


# Queries written from the sample abstracts as a reader would describe them, avoiding the
# abstracts' own distinctive words; each names a text only the target abstract contains.
BY_MEANING = [
    ("hiding a secret signal in chatbot output so software can tell a machine wrote it", "watermark"),
    ("turning scanned scientific documents into machine-readable markup", "Nougat"),
    ("brain-inspired neurons that fire pulses, used to forecast future values of sequences",
     "Spiking neural networks (SNNs)"),
    ("legal terms that forbid harmful uses of released AI models", "Responsible AI Lic"),
    ("a language model that listens to songs and answers questions about them", "LLark"),
    ("grouping points into clusters while ignoring a few corrupted junk points", "k-means with outliers"),
    ("tiny language models that run on a phone", "fewer than a billion parameters"),
    ("questions for assistant agents that are easy for people but hard for AI", "GAIA"),
]


@pytest.mark.parametrize("mode", ["semantic", "hybrid"])
@pytest.mark.parametrize("query,marker", BY_MEANING)
def test_finds_sample_papers_by_meaning(samples_lib, query, marker, mode):
    targets = {p["id"] for p in samples_lib.papers() if marker.lower() in p["abstract"].lower()}
    assert targets, f"no sample abstract holds {marker!r}"
    top = [r.id for r in samples_lib.search(query, mode=mode, limit=3)]
    assert targets & set(top), (query, [r.paper["label"] for r in samples_lib.search(query, mode=mode, limit=3)])


def test_hybrid_explains_both_sides(samples_lib):
    res = samples_lib.search("recover the original weights from LoRA fine-tuned models",
                             limit=3, explain=True)
    assert "Spectral DeTuning" in res[0].paper["abstract"]
    e = res[0].why
    assert e["mode"] == "hybrid" and e["lexical_rank"] and e["semantic_rank"]
    assert e["bm25"] > 0 and 0 < e["cosine"] <= 1 and e["fused_score"] == res[0].score
    assert "lora" in e["matched_terms"] and "abstract" in e["matched_fields"]
    r = e["rerank"]
    assert 0 < r["coverage"] <= 1 and r["cosine_gap"] <= 0 and r["bigrams"] is not None
    scores = [x.score for x in res]
    assert scores == sorted(scores, reverse=True)


def test_second_stage_prefers_the_paper_holding_the_query_words_in_order(samples_lib):
    from paperscope.search import rerank

    assert rerank.bigram_share(["flow", "match"], "Flow matching trains fast.") == 1.0
    assert rerank.bigram_share(["flow", "match"], "matching the flow") == 0.0
    assert rerank.bigram_share(["flow"], "flow matching") == 0.0  # one word: no pairs
    res = samples_lib.search("recover the original weights from LoRA fine-tuned models", limit=10,
                             explain=True)
    cov = [x.why["rerank"]["coverage"] for x in res]
    assert cov[0] == max(cov)  # the known paper holds the most of the query's weight


def test_vector_snapshot_matches_the_rows_and_follows_removals(tmp_path, samples_dir):
    from paperscope.library import Library

    lib = Library.open(tmp_path / "lib.db")
    lib.ingest([_list(samples_dir, 0), _list(samples_dir, 3)])
    snap = semantic.load_vectors(lib.store)
    rows = semantic._load_rows(lib.store)
    assert semantic._snapshot_generation(lib.store) is not None  # saved at ingest
    assert snap.ids == rows.ids and np.allclose(snap.matrix, rows.matrix, atol=1e-3)
    name = lib.collections()[-1]["name"]
    gone = {p["id"] for p in lib.papers(collection=name)}
    lib.remove(collection=name)
    ids, _ = _vectors(lib)
    assert gone and not gone & set(ids)
    assert set(ids) == {p["id"] for p in lib.papers()}
    lib.close()


def test_reduced_first_pass_finds_the_exact_neighbours(monkeypatch):
    """Above COARSE_MIN papers the scan runs on PCA-reduced vectors first; the hits it returns
    are rescored exactly and are (nearly) the exact top k."""
    import numpy as np

    from paperscope.search import semantic

    rng = np.random.default_rng(3)
    centres = rng.standard_normal((30, semantic.DIM)).astype(np.float32)
    matrix = centres[rng.integers(0, 30, 3000)] + 0.6 * rng.standard_normal((3000, semantic.DIM)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    index = semantic.VectorIndex([str(i) for i in range(3000)], np.arange(3000), matrix)
    queries = matrix[rng.choice(3000, 20, replace=False)] + 0.3 * rng.standard_normal((20, semantic.DIM)).astype(np.float32)
    exact = [index.top(q, 50) for q in queries]
    monkeypatch.setattr(semantic, "COARSE_MIN", 1000)
    found = 0
    for q, (rows, _) in zip(queries, exact):
        got, scores = index.top(q, 50)
        assert np.allclose(scores, matrix[got] @ (q / 1.0), atol=1e-5)  # exact cosines, best first
        assert np.all(np.diff(scores) <= 1e-7)
        found += len(set(got[:10]) & set(rows[:10]))
    assert index._coarse is not None  # the reduced pass ran
    assert found / (10 * len(queries)) >= 0.95


def test_query_embedded_inline_ranks_exactly_as_alongside(samples_lib, monkeypatch):
    """A server worker embeds each query on its own thread (`hybrid.embed_queries_inline`);
    the ranking and scores are the same as with the embedding run beside the lexical pass."""
    from paperscope.search import engine, hybrid

    queries = ["diffusion models image generation", '"low-rank" adaptation', "graph neural networks"]

    def run() -> list[list[tuple[str, float]]]:
        engine.QUERY_VECTORS._items.clear()  # embed again, do not reuse the LRU
        return [[(h.paper["id"], h.score) for h in samples_lib.search(q, limit=10)] for q in queries]

    alongside = run()
    submitted = []
    real_submit = hybrid._EMBEDDING.submit
    monkeypatch.setattr(hybrid._EMBEDDING, "submit", lambda *a, **k: submitted.append(a) or real_submit(*a, **k))
    monkeypatch.setattr(hybrid, "_alongside", True)
    hybrid.embed_queries_inline()
    inline = run()
    assert submitted == []  # nothing was handed to the embedding thread
    assert inline == alongside and all(alongside)
