"""Related papers: neighbours of a paper (never itself or its duplicates), of a user's text,
within a venue."""
from __future__ import annotations

import pytest

from paperscope.model import InputError
from search_support import PAPERS, make_library


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    lib, ids = make_library(tmp_path_factory.mktemp("related"), embed=True)
    yield lib, ids
    lib.close()


def test_related_never_returns_the_paper_itself(small):
    lib, ids = small
    for key, pid in ids.items():
        found = [r["id"] for r in lib.related(pid, limit=len(PAPERS))]
        assert pid not in found, key
        assert len(found) == len(PAPERS) - 1


def test_neighbours_share_the_topic(small):
    lib, ids = small
    # the two graph papers are each other's nearest neighbour; the generative ones cluster
    assert lib.related(ids["gat"], limit=1)[0]["id"] == ids["graphmatch"]
    top3 = {r["id"] for r in lib.related(ids["ddpm"], limit=3)}
    assert len(top3 & {ids["flow"], ids["gan"]}) >= 1


def test_related_to_own_text(small):
    lib, ids = small
    draft = ("We train agents that explore sparse-reward environments using an intrinsic bonus "
             "derived from how badly they predict the consequences of their actions.")
    res = lib.related(text=draft, limit=3)
    assert res[0]["id"] == ids["rl"]
    assert {"cosine", "lexical"} <= set(res[0]["similarity"])
    assert res[0]["score"] >= res[1]["score"] >= res[2]["score"]


def test_related_within_a_venue(small):
    lib, ids = small
    res = lib.related(ids["flow"], venue="NeurIPS", limit=10)
    assert res and {r["venue"] for r in res} == {"NeurIPS"}
    assert {r["id"] for r in lib.related(ids["flow"], year="2014", limit=10)} == {ids["gan"]}


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
    found = [r["id"] for r in lib.related(ids["flow"], limit=20)]
    assert ids["flow"] not in found and "duplicate01" not in found
    assert len(found) == len(PAPERS) - 1
    assert ids["flow"] not in [r["id"] for r in lib.related("duplicate01", limit=20)]
    # a user text equal to a paper's abstract does not return that paper either
    assert ids["flow"] not in [r["id"] for r in lib.related(text=flow["abstract"], limit=3)]
    lib.close()


def test_related_rejects_unknown_id_and_missing_input(small):
    lib, _ = small
    with pytest.raises(InputError):
        lib.related("nope")
    with pytest.raises(InputError):
        lib.related(None, text="  ")
