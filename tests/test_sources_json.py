"""JSON and JSON Lines: generic fields, OpenReview notes, virtual-site events, arXiv lines."""
from __future__ import annotations

import json

import pytest

from paperscope import sources
from paperscope.model import Problem, Record

ABSTRACT = ("We study the problem of learning sparse representations from noisy data and show "
            "that a simple thresholding rule recovers the support with high probability.")


def abstract(i: int) -> str:
    return f"Paper number {i}: " + ABSTRACT


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


def write_json(tmp_path, data, name="papers.json", **dump):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False, **dump), encoding="utf-8")
    return path


def test_generic_list_with_every_author_shape(tmp_path):
    papers = [
        {"title": "A", "abstract": abstract(0), "authors": ["Ada Lovelace", "Alan Turing"],
         "venue": "NeurIPS", "year": 2023, "url": "https://example.org/a", "code": "https://git.example/a",
         "keywords": "sparsity; thresholding", "decision": "Accept (Oral)"},
        {"title": "B", "abstract": abstract(1), "authors": "Ada Lovelace, Alan Turing and Grace Hopper",
         "venue": "neurips", "year": "2023"},
        {"title": "C", "abstract": abstract(2), "authors": [{"name": "Ada Lovelace"}],
         "venue": "NeurIPS", "year": 2023},
        {"title": "D", "abstract": abstract(3), "authors": [{"given": "Alan", "family": "Turing"}],
         "venue": "NeurIPS", "year": 2023, "openreview": "abcDEF123"},
    ]
    path = write_json(tmp_path, papers)
    assert sources.detect(path) == "json"
    records, problems = split(sources.read(path))
    assert problems == []
    assert [r.authors for r in records] == [["Ada Lovelace", "Alan Turing"],
                                            ["Ada Lovelace", "Alan Turing", "Grace Hopper"],
                                            ["Ada Lovelace"], ["Alan Turing"]]
    assert {(r.venue, r.year) for r in records} == {("NeurIPS", 2023)}
    assert records[0].urls == {"paper": "https://example.org/a", "code": "https://git.example/a"}
    assert records[0].keywords == ["sparsity", "thresholding"] and records[0].status == "Oral"
    assert records[3].urls["openreview"] == "https://openreview.net/forum?id=abcDEF123"
    assert [r.line for r in records] == [1, 2, 3, 4]  # record numbers
    assert [r.position for r in records] == [0, 1, 2, 3]


def test_openreview_v2_notes_under_a_key(tmp_path):
    def note(i, venue):
        return {"id": f"note{i}", "forum": f"forum{i}", "cdate": 1695000000000,
                "content": {"title": {"value": f"Paper {i}"}, "abstract": {"value": abstract(i)},
                            "authors": {"value": ["Ada Lovelace", "Alan Turing"]},
                            "keywords": {"value": ["graphs", "rewiring"]},
                            "venue": {"value": venue}, "venueid": {"value": "ICLR.cc/2024/Conference"},
                            "pdf": {"value": f"/pdf/{i}.pdf"}}}
    data = {"count": 3, "notes": [note(0, "ICLR 2024 poster"), note(1, "ICLR 2024 oral"),
                                  note(2, "Submitted to ICLR 2024")]}
    records, problems = split(sources.read(write_json(tmp_path, data, indent=2)))
    assert problems == []
    assert [(r.venue, r.year, r.status) for r in records] == [
        ("ICLR", 2024, "Poster"), ("ICLR", 2024, "Oral"), ("ICLR", 2024, "Submitted")]
    first = records[0]
    assert first.external_id == "forum0" and first.title == "Paper 0"
    assert first.urls == {"pdf": "https://openreview.net/pdf/0.pdf",
                          "openreview": "https://openreview.net/forum?id=forum0"}
    assert first.keywords == ["graphs", "rewiring"]


def test_virtual_site_events_keep_papers_and_infer_venue_from_links(tmp_path):
    events = [
        {"type": "Poster", "name": "Flow $\\Phi$", "virtualsite_url": "https://ICML.cc//virtual/2024/poster/1",
         "speakers/authors": "Philipp Holl, Nils Thuerey", "abstract": abstract(0)},
        {"type": "Workshop", "name": "A workshop", "virtualsite_url": "https://ICML.cc//virtual/2024/workshop/2",
         "speakers/authors": "Org A", "abstract": abstract(1)},
        {"type": "Invited Talk", "name": "Keynote", "virtualsite_url": "https://ICML.cc//virtual/2024/invited-talk/3",
         "speakers/authors": "Speaker", "abstract": abstract(2)},
    ]
    path = write_json(tmp_path, events, name="events.json")
    records, problems = split(sources.read(path))
    assert [(p.line, p.reason, p.warning) for p in problems] == [
        (2, "not a paper: record 2 is an event of type 'Workshop'; left out", True),
        (3, "not a paper: record 3 is an event of type 'Invited Talk'; left out", True)]
    [rec] = records
    assert (rec.venue, rec.year, rec.title) == ("ICML", 2024, "Flow $\\Phi$")
    assert rec.authors == ["Philipp Holl", "Nils Thuerey"]
    assert rec.urls == {"paper": "https://ICML.cc/virtual/2024/poster/1"}


def test_arxiv_snapshot_lines(tmp_path):
    line = {"id": "2401.00001", "submitter": "A", "authors": "C. Bal\\'azs, E. L. Berger",
            "title": "On Sparse Things", "categories": "cs.LG stat.ML", "abstract": "  " + ABSTRACT + "\n",
            "versions": [{"version": "v1", "created": "Mon, 1 Jan 2024 10:00:00 GMT"}],
            "update_date": "2025-02-03",
            "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""]]}
    path = tmp_path / "arxiv-metadata-oai-snapshot.json"  # JSON Lines despite the name
    path.write_text(json.dumps(line) + "\n" + json.dumps({**line, "id": "2401.00002"}) + "\n",
                    encoding="utf-8")
    assert sources.detect(path) == "jsonl"
    records, problems = split(sources.read(path))
    assert problems == [] and len(records) == 2
    rec = records[0]
    assert (rec.venue, rec.year, rec.abstract) == ("arXiv", 2024, ABSTRACT)
    assert rec.authors == ["C. Balázs", "E. L. Berger"] and rec.keywords == ["cs.LG", "stat.ML"]
    assert rec.external_id == "arXiv:2401.00001"
    assert rec.urls["paper"] == "https://arxiv.org/abs/2401.00001"


def test_jsonl_bad_lines_are_problems_with_their_line(tmp_path):
    good = json.dumps({"title": "T", "abstract": ABSTRACT, "venue": "ICML 2023"})
    path = tmp_path / "papers.jsonl"
    path.write_text("\n".join([good, "", '{"title": "broken", ', json.dumps({"title": "no abstract"}),
                               "[1, 2]", good]) + "\n", encoding="utf-8")
    records, problems = split(sources.read(path, venue="ICML", year=2023))
    assert [r.line for r in records] == [1, 6]
    assert [(p.line, p.reason.split(":")[0]) for p in problems] == [
        (3, "invalid JSON"), (4, "no abstract"), (5, "not a paper")]
    assert all(p.source == str(path) and not p.fatal for p in problems)


def test_truncated_json_keeps_records_before_and_names_the_line(tmp_path):
    papers = [{"title": f"T{i}", "abstract": abstract(i)} for i in range(3)]
    text = json.dumps(papers, indent=1)
    path = tmp_path / "icml2022_papers.json"  # venue and year from the file name
    cut = text.index('"T2"') + 10  # inside the key after "T2"
    path.write_text(text[:cut], encoding="utf-8")
    records, problems = split(sources.read(path))
    assert [(r.title, r.venue, r.year) for r in records] == [("T0", "ICML", 2022), ("T1", "ICML", 2022)]
    [problem] = problems
    assert problem.reason.startswith("invalid JSON") and not problem.fatal
    assert problem.line == text[:cut].count("\n") + 1 == 12


def test_invalid_json_at_the_start_is_fatal_with_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('[\n  {"title": "x",\n   "abstract": oops}\n]', encoding="utf-8")
    items = list(sources.read(path, venue="ICML", year=2024))
    assert len(items) == 1 and items[0].fatal and items[0].line == 3
    assert "line 3" in items[0].reason


def test_missing_abstract_names_the_record_and_venue_is_required(tmp_path):
    papers = [{"title": "A", "abstract": ABSTRACT}, {"title": "No abstract here"}]
    path = write_json(tmp_path, papers)
    [problem] = sources.read(path)
    assert problem.fatal and "--venue/--year" in problem.reason
    records, problems = split(sources.read(path, venue="ICML", year=2024))
    assert len(records) == 1
    assert problems[0].line == 2 and "record 2" in problems[0].reason
    assert "No abstract here" in problems[0].reason


@pytest.mark.parametrize("wrapper", [
    lambda papers: {"meta": {"source": "x", "tags": ["a"]}, "papers": papers},
    lambda papers: {"data": {"papers": papers}},
    lambda papers: papers[0],
])
def test_object_shapes(tmp_path, wrapper):
    papers = [{"title": f"T{i}", "abstract": abstract(i), "venue": "COLT", "year": 2021} for i in range(2)]
    data = wrapper(papers)
    records, problems = split(sources.read(write_json(tmp_path, data)))
    assert problems == []
    expected = 1 if isinstance(data, dict) and "title" in data else 2
    assert [r.title for r in records] == [f"T{i}" for i in range(expected)]


def test_object_without_papers_is_fatal(tmp_path):
    [problem] = sources.read(write_json(tmp_path, {"meta": 1, "items": [1, 2]}))
    assert problem.fatal and "no list of papers" in problem.reason and "meta" in problem.reason


def test_large_elements_stream_across_read_chunks(tmp_path):
    from paperscope.sources.textio import CHUNK

    long_text = " ".join([ABSTRACT] * (3 * CHUNK // len(ABSTRACT)))  # ~3 chunks long
    papers = [{"title": f"T{i}", "abstract": abstract(i), "reviews": long_text if i % 2 else "",
               "year": 2020 + i, "venue": "AISTATS", "n": 10 ** 12 + i} for i in range(6)]
    records, problems = split(sources.read(write_json(tmp_path, papers)))
    assert problems == []
    assert [r.year for r in records] == [2020 + i for i in range(6)]
    assert [r.abstract for r in records] == [abstract(i) for i in range(6)]
