"""The chunked two-pass BM25F build gives exactly the arrays of the whole-library in-memory
build it replaced (kept as `_build_index_reference` in benchmarks/lexical_build_memory.py),
whatever the chunk size, with stale (untokenised) papers, and when the library changes
between the two passes."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

from paperscope.model import content_hash
from paperscope.search import lexical, postings
from paperscope.store.sqlite import SQLiteStore

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "lexical_build_memory.py"
ARRAYS = ("rowids", "indptr", "indices", "data")


def _reference():
    spec = importlib.util.spec_from_file_location("lexical_build_memory", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _reference()


def assert_same_index(got: lexical.LexicalIndex, want: lexical.LexicalIndex) -> None:
    for name in ARRAYS:
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype, name
        assert np.array_equal(a, b), name
    assert got.memory_terms == want.memory_terms


def _insert(store: SQLiteStore, n: int, seed: int) -> None:
    """n papers over a Zipf-like vocabulary (common and rare words, repeated words, empty
    fields), inserted and tokenised through the real store and postings code."""
    rng = random.Random(seed)
    vocab = [f"w{i}x" for i in range(4000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]

    def text(k: int) -> str:
        return " ".join(rng.choices(vocab, weights, k=k))

    with store.transaction():
        for i in range(n):
            title = f"Paper {i} {text(8)}" if i % 50 else None
            abstract = text(rng.randint(20, 180))
            store.insert_paper({"id": f"p{seed}-{i}", "title": title, "title_source": title, "label": title,
                                "abstract": abstract, "abstract_source": abstract,
                                "authors": [text(2) for _ in range(rng.randint(0, 4))],
                                "keywords": [text(1) for _ in range(rng.randint(0, 3))],
                                "text_hash": content_hash(title, abstract)})
    postings.index_missing(store)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    store = SQLiteStore(tmp_path_factory.mktemp("lexbuild") / "lib.db")
    _insert(store, 3000, seed=1)
    yield store
    store.close()


@pytest.mark.parametrize("chunk", [lexical.CHUNK, 701, 1])
def test_chunked_build_matches_whole_library_build(library, chunk):
    got = lexical.build_from_store(library, chunk=chunk)
    want = ref._reference_from_store(library.conn)
    assert got.size == 3000 and len(got.indices) > 100_000
    assert_same_index(got, want)


def test_bm25_parameters_are_honoured(library):
    params = {"field_weights": (1.0, 2.0, 1.0, 0.5, 3.0), "field_b": (0.2, 0.9, 0.5, 0.0, 1.0), "k1": 2.0}
    got = lexical.build_from_store(library, chunk=999, **params)
    assert_same_index(got, ref._reference_from_store(library.conn, **params))
    assert not np.array_equal(got.data, lexical.build_from_store(library).data)


def test_stale_papers_are_tokenised_in_memory(library, tmp_path):
    copy = SQLiteStore(tmp_path / "copy.db")
    library.conn.backup(copy.conn)
    with copy.transaction() as conn:  # as if an older version had written these papers
        conn.execute("DELETE FROM paper_terms WHERE paper_rowid % 3 = 0 OR paper_rowid > 2900")
    copy.close()
    ro = SQLiteStore(tmp_path / "copy.db", readonly=True)
    got = lexical.build_from_store(ro, chunk=400)
    assert got.memory_terms and got.size == 3000
    assert_same_index(got, ref._reference_from_store(ro.conn))
    ro.close()


def test_float32_length_sums_past_2_pow_24_match(tmp_path):
    """Abstract lengths summing far beyond float32's exact integers: the carried chunk sums
    round exactly as the whole-library sum did."""
    rng = np.random.default_rng(3)
    n = 120_000
    lens = np.zeros((n, len(postings.FIELDS)), dtype=np.uint16)
    lens[:, 0] = rng.integers(1, 20, n)
    lens[:, 2] = rng.integers(100, 700, n)
    assert int(lens[:, 2].astype(np.int64).sum()) > 2 ** 25
    lengths = [row.tobytes() for row in lens]
    keys = []
    for _ in range(n):
        terms = np.unique(rng.integers(0, 3000, 4)).astype(np.uint32)
        packed = np.sort(np.concatenate([terms << 3, (terms << 3) | 2]))
        keys.append((packed, rng.integers(1, 5, len(packed)).astype(np.uint16)))
    rowids = np.arange(1, n + 1, dtype=np.int64) * 2
    got = lexical.build_index(rowids, lengths, keys)
    assert_same_index(got, ref._build_index_reference(rowids, lengths, keys))


def test_empty_library_gives_empty_index(tmp_path):
    store = SQLiteStore(tmp_path / "empty.db")
    index = lexical.build_from_store(store)
    assert index.size == 0 and list(index.indptr) == [0] and index.column(0)[0].size == 0
    store.close()


def test_library_changing_between_passes_is_rebuilt(library):
    """A write between the two passes (another process ingesting) must not leave postings in
    the wrong columns: the build starts over and matches a build of the new contents."""
    rows = library.conn.execute("SELECT t.paper_rowid, t.lengths, t.postings FROM paper_terms t "
                                "ORDER BY t.paper_rowid").fetchall()
    before, after = rows[:1500], rows[:1400] + rows[1401:]
    calls = []

    def chunks():
        calls.append(1)
        batch = before if len(calls) == 1 else after
        for i in range(0, len(batch), 500):
            part = batch[i:i + 500]
            yield (np.array([r[0] for r in part], np.int64), [r[1] for r in part],
                   [postings.unpack(r[2]) for r in part])

    got = lexical._build(chunks)
    assert len(calls) == 4  # pass 1 + pass 2 (mismatch), then both passes again
    want = ref._build_index_reference(np.array([r[0] for r in after], np.int64), [r[1] for r in after],
                                      [postings.unpack(r[2]) for r in after])
    assert_same_index(got, want)

