"""Tags, stars, read marks, notes and "not relevant" marks: stored per paper id, shown in paper
JSON, and surviving re-ingest, merges and a collection's removal and return."""
from __future__ import annotations

import json
import shutil

import pytest

from backends import location
from paperscope.library import Library
from paperscope.model import InputError


@pytest.fixture()
def sample_copy(tmp_path, samples_dir):
    """The sample lists copied to a temp folder (so a test can remove and re-add them)."""
    folder = tmp_path / "lists"
    shutil.copytree(samples_dir, folder)
    return folder


@pytest.fixture()
def ulib(tmp_path, sample_copy, backend):
    library = Library.open(location(backend, tmp_path))
    library.ingest([sample_copy], embed=False)
    yield library
    library.close()


def _first(lib, collection="ICML 2024"):
    return lib.papers(collection=collection, limit=1)[0]


def test_tags_notes_star_read_show_in_paper_json(ulib):
    a, b = [p["id"] for p in ulib.papers(limit=2)]
    assert ulib.tag(a, ["to-read", "compression"])["added"] == 2
    assert ulib.tag([a, b], "to-read")["added"] == 1  # a already had it
    ulib.note(a, "Compare with SVD baselines & 50% pruning")
    ulib.star(a)
    ulib.read(b)
    pa, pb = ulib.show(a), ulib.show(b)
    assert pa["tags"] == ["compression", "to-read"]
    assert pa["note"] == "Compare with SVD baselines & 50% pruning"
    assert pa["starred"] is True and pa["read"] is False
    assert pb["tags"] == ["to-read"] and pb["read"] is True and pb["starred"] is False
    assert {t["tag"]: t["papers"] for t in ulib.tags()} == {"to-read": 2, "compression": 1}
    ulib.untag(a, "to-read")
    ulib.star(a, False)
    ulib.read(b, False)
    ulib.note(a, "")
    pa, pb = ulib.show(a), ulib.show(b)
    assert pa["tags"] == ["compression"] and not pa["starred"] and pa["note"] is None
    assert not pb["read"]


def test_tags_are_case_insensitive_and_validated(ulib):
    pid = _first(ulib)["id"]
    ulib.tag(pid, "Graphs")
    assert ulib.tag(pid, "graphs")["added"] == 0
    assert [t["tag"] for t in ulib.tags()] == ["Graphs"]
    with pytest.raises(InputError):
        ulib.tag(pid, "   ")
    with pytest.raises(InputError, match="no paper"):
        ulib.tag("000000000000", "x")


def test_unique_id_prefix_is_accepted(ulib):
    pid = _first(ulib)["id"]
    ulib.tag(pid[:8], "prefix")
    assert ulib.show(pid)["tags"] == ["prefix"]
    with pytest.raises(InputError):
        ulib.tag("zz", "x")  # too short to be a prefix, not an id


def test_irrelevant_marks_are_global_or_per_tag(ulib):
    a, b = [p["id"] for p in ulib.papers(limit=2)]
    ulib.irrelevant(a)
    ulib.irrelevant(b, tag="graphs")
    assert ulib.show(a)["irrelevant"] is True
    assert ulib.show(b)["irrelevant"] is False and ulib.show(b)["irrelevant_tags"] == ["graphs"]
    ulib.irrelevant(a, on=False)
    assert ulib.show(a)["irrelevant"] is False


def test_user_data_survives_reingest(ulib, sample_copy):
    pid = _first(ulib)["id"]
    ulib.tag(pid, "keep")
    ulib.note(pid, "still here")
    report = ulib.ingest([sample_copy], embed=False)
    assert report.total("added") == 0
    assert ulib.show(pid)["tags"] == ["keep"] and ulib.show(pid)["note"] == "still here"


def test_user_data_survives_merge_with_richer_export(ulib, tmp_path):
    """Tag a title-less sample paper, then ingest a richer export of the same paper (title,
    authors, link): one paper, the title filled in, the tag and note still on it."""
    paper = _first(ulib)
    assert paper["title"] is None
    ulib.tag(paper["id"], "mine")
    ulib.note(paper["id"], "read the LoD section")
    richer = tmp_path / "icml2024_rich.jsonl"
    richer.write_text(json.dumps({
        "title": "Maestro: Uncovering Low-Rank Structures via Trainable Decompositions",
        "authors": ["Samuel Horváth", "Stefanos Laskaridis", "Shashank Rajput", "Hongyi Wang"],
        "abstract": paper["abstract"], "venue": "ICML", "year": 2024,
        "url": "https://icml.cc/virtual/2024/poster/34617"}) + "\n", encoding="utf-8")
    before = ulib.stats()["papers"]
    report = ulib.ingest([richer], embed=False)
    assert report.total("added") == 0 and ulib.stats()["papers"] == before
    merged = ulib.show(paper["id"])
    assert merged["title"].startswith("Maestro: Uncovering")
    assert merged["tags"] == ["mine"] and merged["note"] == "read the LoD section"


def test_user_data_waits_for_removed_collection_to_come_back(ulib, sample_copy):
    iclr = ulib.papers(collection="ICLR 2024", limit=1)[0]["id"]
    ulib.tag(iclr, "later")
    ulib.star(iclr)
    ulib.remove(collection="ICLR 2024")
    assert ulib.show(iclr) is None
    assert ulib.tags() == [{"tag": "later", "papers": 0, "detached": 1,
                            "since": ulib.tags()[0]["since"]}]
    ulib.ingest([sample_copy], embed=False)
    back = ulib.show(iclr)
    assert back["tags"] == ["later"] and back["starred"] is True
    assert ulib.tags()[0]["papers"] == 1


def test_user_data_follows_a_paper_that_returns_with_a_revised_abstract(lib, tmp_path):
    """Same title and year, revised abstract: a new paper id, yet the tag moves over."""
    title = "Sparse Mixtures of Low-Rank Experts for Continual Learning"
    first = tmp_path / "v1.jsonl"
    first.write_text(json.dumps({"title": title, "venue": "ICML", "year": 2024,
                                 "abstract": "We study continual learning with sparse mixtures of low-rank experts, "
                                             "which add capacity for each new task while the shared "
                                             "backbone stays frozen and old tasks are not forgotten."}) + "\n")
    lib.ingest([first], embed=False)
    old_id = lib.papers()[0]["id"]
    lib.tag(old_id, "continual")
    lib.remove(collection="ICML 2024")
    second = tmp_path / "v2.jsonl"
    second.write_text(json.dumps({"title": title, "venue": "ICML", "year": 2024,
                                  "abstract": "We revisit continual learning and propose sparse mixtures of "
                                              "low-rank experts that avoid forgetting: each task adds a "
                                              "few experts, and a router trained on replay picks them."}) + "\n")
    lib.ingest([second], embed=False)
    new = lib.papers()[0]
    assert new["id"] != old_id
    assert new["tags"] == ["continual"]
    assert lib.tags()[0]["papers"] == 1 and lib.tags()[0]["detached"] == 0


def test_my_papers_lists_marked_papers(ulib):
    a, b, c = [p["id"] for p in ulib.papers(limit=3)]
    ulib.star(a)
    ulib.note(b, "idea")
    ulib.tag(c, "x")
    assert [p["id"] for p in ulib.mine(starred=True)] == [a]
    assert [p["id"] for p in ulib.mine(noted=True)] == [b]
    assert [p["id"] for p in ulib.mine(tag="x")] == [c]


def test_mine_without_a_filter_lists_every_marked_or_tagged_paper(ulib):
    a, b, c, d = [p["id"] for p in ulib.papers(limit=4)]
    ulib.tag([a, b], "quantization")  # only tagged
    ulib.star(c)
    ulib.star(d)
    ulib.star(d, False)  # unstarred again: nothing marks it any more
    assert sorted(p["id"] for p in ulib.mine()) == sorted([a, b, c])
