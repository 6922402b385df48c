"""Related papers: neighbours of a paper (never itself or its duplicates), of a user's text,
within a venue."""
from __future__ import annotations

import pytest

from paperscope.model import InputError
from search_support import PAPERS, make_library


@pytest.fixture(scope="module")
def small(tmp_path_factory, backend):
    lib, ids = make_library(tmp_path_factory.mktemp("related"), embed=True, backend=backend)
    yield lib, ids
    lib.close()


def test_related_never_returns_the_paper_itself(small):
    lib, ids = small
    for key, pid in ids.items():
        found = [r.id for r in lib.related(pid, limit=len(PAPERS))]
        assert pid not in found, key
        assert len(found) == len(PAPERS) - 1


def test_neighbours_share_the_topic(small):
    lib, ids = small
    # the two graph papers are each other's nearest neighbour; the generative ones cluster
    assert lib.related(ids["gat"], limit=1)[0].id == ids["graphmatch"]
    top3 = {r.id for r in lib.related(ids["ddpm"], limit=3)}
    assert len(top3 & {ids["flow"], ids["gan"]}) >= 1


def test_related_to_own_text(small):
    lib, ids = small
    draft = ("We train agents that explore sparse-reward environments using an intrinsic bonus "
             "derived from how badly they predict the consequences of their actions.")
    res = lib.related(text=draft, limit=3)
    assert res[0].id == ids["rl"]
    assert {"cosine", "lexical"} <= set(res[0].why)
    assert res[0].score >= res[1].score >= res[2].score


def test_related_within_a_venue(small):
    lib, ids = small
    res = lib.related(ids["flow"], venue="NeurIPS", limit=10)
    assert res and {r.paper["venue"] for r in res} == {"NeurIPS"}
    assert {r.id for r in lib.related(ids["flow"], year="2014", limit=10)} == {ids["gan"]}


def test_related_excludes_other_copies_of_the_same_abstract(tmp_path):
    from paperscope.model import content_hash

    lib, ids = make_library(tmp_path, embed=True)
    flow = lib.show(ids["flow"])
    # a copy the ingester would have merged, written behind its back: same abstract up to
    # case and spacing, no title
    abstract = "  " + flow["abstract"].upper().replace(" ", "  ")
    with lib.store.transaction():
        lib.store.insert_paper({"id": "duplicate01", "abstract": abstract, "abstract_source": abstract,
                                "text_hash": content_hash(None, abstract)})
    lib.refresh_derived()
    assert lib.stats()["papers"] == len(PAPERS) + 1
    found = [r.id for r in lib.related(ids["flow"], limit=20)]
    assert ids["flow"] not in found and "duplicate01" not in found
    assert len(found) == len(PAPERS) - 1
    assert ids["flow"] not in [r.id for r in lib.related("duplicate01", limit=20)]
    # a user text equal to a paper's abstract does not return that paper either
    assert ids["flow"] not in [r.id for r in lib.related(text=flow["abstract"], limit=3)]
    lib.close()


def test_related_rejects_unknown_id_and_missing_input(small):
    lib, _ = small
    with pytest.raises(InputError):
        lib.related("nope")
    with pytest.raises(InputError):
        lib.related(None, text="  ")


def test_similarity_is_symmetric(small):
    # paper-to-paper similarity must not depend on which of the two papers is asked about
    lib, ids = small
    for a, b in [("gat", "graphmatch"), ("ddpm", "gan"), ("lora", "bert")]:
        ab = {r.id: r for r in lib.related(ids[a], limit=len(PAPERS))}[ids[b]]
        ba = {r.id: r for r in lib.related(ids[b], limit=len(PAPERS))}[ids[a]]
        assert ab.score == pytest.approx(ba.score, abs=1e-5)
        assert ab.why["lexical"] == pytest.approx(ba.why["lexical"], abs=1e-5)
        assert ab.why["lexical"] > 0


def test_shared_rare_words_count_more_than_common_ones(small):
    lib, ids = small
    # "molecules" is in one paper, "models" in several: the rare word decides the lexical side
    res = {r.id: r.why["lexical"] for r in lib.related(text="molecules models", limit=len(PAPERS))}
    assert max(res, key=res.get) == ids["gat"]
    assert res[ids["gat"]] > 2 * max(v for k, v in res.items() if k != ids["gat"])


def test_draft_of_unknown_words_still_gets_neighbours_by_meaning(small):
    lib, _ = small
    res = lib.related(text="Zyxwvut qwertzuiop blorficator", limit=3)
    assert len(res) == 3
    assert all(r.why["lexical"] == 0 for r in res)


def test_library_without_stored_postings_gives_the_same_neighbours(tmp_path):
    # a read-only library whose postings are missing (older version, interrupted ingest) is
    # tokenised on the fly and must rank exactly like the indexed one
    lib, ids = make_library(tmp_path, embed=True)
    want = [(r.id, r.why["lexical"]) for r in lib.related(ids["gat"], limit=5)]
    draft = [r.id for r in lib.related(text="attention over atoms in molecules", limit=5)]
    with lib.store.transaction() as conn:
        conn.execute("DELETE FROM paper_terms WHERE paper_rowid IN (SELECT rowid FROM papers WHERE id IN (?, ?))",
                     (ids["gat"], ids["graphmatch"]))
    path = lib.path
    lib.close()
    from paperscope.library import Library

    ro = Library.open(path, readonly=True)
    try:
        got = [(r.id, r.why["lexical"]) for r in ro.related(ids["gat"], limit=5)]
        assert [g[0] for g in got] == [w[0] for w in want]
        assert [g[1] for g in got] == pytest.approx([w[1] for w in want], abs=1e-5)
        assert [r.id for r in ro.related(text="attention over atoms in molecules", limit=5)] == draft
    finally:
        ro.close()


def test_word_pairs_count_only_when_adjacent_and_shared():
    from paperscope.search.related import pair_counts, pair_cosines

    query = pair_counts("", "We train graph neural networks on molecules.")
    pool = [pair_counts("", "Graph neural networks for traffic."),            # shares two pairs
            pair_counts("", "A neural model of a graph; networks of roads."),  # same words, not adjacent
            pair_counts("Graph neural networks", "Nothing else."),             # the pairs in its title
            pair_counts("", "Bandits with knapsacks.")]
    cos = pair_cosines(pool, query)
    assert cos[1] == 0 and cos[3] == 0
    assert cos[0] > 0 and cos[2] > 0
    assert pair_cosines([], query).shape == (0,)
    assert not pair_cosines(pool, pair_counts("", "")).any()


def test_related_mixes_the_pair_cosine_in_and_explains_it(small, monkeypatch):
    from paperscope.search import related as rel

    lib, ids = small
    hits = lib.related(ids["flow"], limit=len(PAPERS))
    assert all("pairs" in h.why for h in hits)
    pairs = {h.id: h.why["pairs"] for h in hits}  # "generative model(ing)" is in both titles
    assert pairs[ids["gan"]] > 0 and pairs[ids["graphmatch"]] == 0
    monkeypatch.setattr(rel, "BIGRAM_WEIGHT", 0.0)
    plain = {h.id: h.score for h in lib.related(ids["flow"], limit=len(PAPERS))}
    monkeypatch.setattr(rel, "BIGRAM_WEIGHT", 1.0)
    only_pairs = {h.id: h for h in lib.related(ids["flow"], limit=len(PAPERS))}
    for pid, h in only_pairs.items():  # lexical side = pair cosine alone
        lex_share = 1.0 - rel.SEMANTIC_WEIGHT
        assert h.score == pytest.approx(plain[pid] + lex_share * (h.why["pairs"] - h.why["lexical"]), abs=2e-5)


def test_a_shared_author_is_not_a_shared_topic(tmp_path):
    from search_support import write_papers

    from paperscope.library import Library

    papers = [{"title": "Sparse bandits", "abstract": "We prove regret bounds for sparse linear bandits "
               "with adversarial contexts and knapsack constraints, and match them with lower bounds.", "authors": ["Quenby Zhorvath"],
               "venue": "COLT", "year": 2024},
              {"title": "Protein folding", "abstract": "We predict protein structures from amino acid "
               "sequences with equivariant transformers trained on a curated set of resolved chains.", "authors": ["Quenby Zhorvath"],
               "venue": "ICML", "year": 2024},
              {"title": "Image segmentation", "abstract": "We segment medical images with a convolutional "
               "encoder and a small labelled set, using consistency losses on the unlabelled scans.", "authors": ["Ana Ortiz"],
               "venue": "ICML", "year": 2024}]
    lib = Library.open(tmp_path / "lib.db")
    assert lib.ingest([write_papers(tmp_path / "p.jsonl", papers)], embed=False).files[0].added == 3
    first = lib.search("sparse bandits", mode="lexical", limit=1)[0].id
    lexical = {h.paper["title"]: h.why["lexical"] for h in lib.related(first, limit=5)}
    assert lexical == {"Protein folding": 0.0, "Image segmentation": 0.0}
    lib.close()


def test_a_chinese_text_is_related_in_english_and_says_how(small):
    lib, ids = small
    res = lib.related(text="扩散模型 图像生成", limit=3)
    data = res[0].to_json()
    assert data["searched_as"] == "diffusion model image generation"
    assert data["translation"]["coverage"] == 1.0
    # the same neighbours, with the same scores, as the English it was translated to
    english = lib.related(text="diffusion model image generation", limit=3)
    assert [(h.id, h.score) for h in res] == [(h.id, h.score) for h in english]
    assert ids["ddpm"] in [h.id for h in res] and ids["gan"] in [h.id for h in res]
    assert "searched_as" not in english[0].to_json()
