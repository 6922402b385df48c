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
    flow = lib.paper(ids["flow"])
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
