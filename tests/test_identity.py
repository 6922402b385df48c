"""Fuzzy identity: a title-less abstract that differs from its source in small ways (a dropped
sentence, typos) meets its titled record within its venue and year; nothing else merges."""
from __future__ import annotations

import json
import re

import pytest

from paperscope import identity


def _abstracts(samples_dir, venue: str) -> list[str]:
    out = []
    for path in sorted(samples_dir.glob("*.txt")):
        header, _, body = path.read_text("utf-8").partition("\n")
        if venue in header:
            out += [" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if p.strip()]
    return out


def _drop_sentence(text: str) -> str:
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)
    assert len(sentences) >= 4
    del sentences[2]
    return " ".join(sentences)


def _typos(text: str) -> str:
    words = text.split(" ")
    for i in (5, 17, 30):
        w = words[i]
        words[i] = w[:1] + w[2:3] + w[1:2] + w[3:] if len(w) > 3 else w + "s"
    return " ".join(words)


def _list(path, header, abstracts):
    path.write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def _source(path, venue, year, rows):
    path.write_text(json.dumps([{"title": t, "abstract": a, "authors": ["A. Author"], "venue": venue,
                                 "year": year} for t, a in rows]), encoding="utf-8")
    return path


@pytest.fixture
def iclr(samples_dir):
    return _abstracts(samples_dir, "ICLR 2024")


def test_perturbed_titleless_abstracts_get_their_real_title(lib, tmp_path, samples_dir, iclr):
    outsider = _abstracts(samples_dir, "ICML 2024")[0]  # not in the source: must stay untitled
    listed = [_drop_sentence(iclr[0]), _typos(iclr[1]), iclr[2].rsplit(". ", 1)[0] + ".", outsider]
    lib.ingest([_list(tmp_path / "list.txt", "ICLR 2024 论文列表", listed)], embed=False)
    src = _source(tmp_path / "iclr.json", "ICLR", 2024, [(f"Real Title {i}", a) for i, a in enumerate(iclr[:3])])
    report = lib.ingest([src], embed=False)
    assert report.total("added") == 0 and report.total("merged") == 3
    fuzzy = [m for m in report.merges if m.get("match") == "fuzzy"]
    assert len(fuzzy) == 3 and all(identity.THRESHOLD <= m["score"] <= 1 for m in fuzzy)
    papers = {p["abstract"]: p for p in lib.papers()}
    assert len(papers) == 4  # no duplicates
    for i, text in enumerate(listed[:3]):
        p = papers[text]
        assert p["title"] == f"Real Title {i}" and p["authors"] == ["A. Author"]
        assert p["title_origin"] == "iclr.json" and identity.THRESHOLD <= p["title_score"] <= 1
    assert papers[outsider]["title"] is None and papers[outsider]["title_origin"] == "derived"
    again = lib.ingest([tmp_path / "list.txt"], embed=False)  # the fuzzy match is remembered
    assert again.total("added") == 0 and again.total("unchanged") == 4


def test_titleless_list_after_its_source_joins_the_titled_papers(lib, tmp_path, iclr):
    lib.ingest([_source(tmp_path / "iclr.json", "ICLR", 2024, [("First", iclr[0]), ("Second", iclr[1])])],
               embed=False)
    report = lib.ingest([_list(tmp_path / "list.txt", "ICLR 2024 论文列表", [_typos(_drop_sentence(iclr[1]))])],
                        embed=False)
    assert report.total("added") == 0 and report.merges[0]["match"] == "fuzzy"
    (paper,) = [p for p in lib.papers() if len(p["collections"]) == 2]
    assert paper["title"] == "Second" and paper["title_score"] is None  # the title came exactly


def test_two_titled_papers_never_merge_and_a_real_title_stays(lib, tmp_path, iclr):
    first = _source(tmp_path / "a.json", "ICLR", 2024, [("The Real Title", iclr[0])])
    second = _source(tmp_path / "b.json", "ICLR", 2024, [("A Near Copy", _drop_sentence(iclr[0]))])
    lib.ingest([first, second], embed=False)
    assert sorted(p["title"] for p in lib.papers()) == ["A Near Copy", "The Real Title"]
    # a title-less copy now has two titled candidates: ambiguous, so it stays on its own
    lib.ingest([_list(tmp_path / "l.txt", "ICLR 2024 论文列表", [_typos(iclr[0])])], embed=False)
    assert sorted(p["title"] or "" for p in lib.papers()) == ["", "A Near Copy", "The Real Title"]


def test_fuzzy_matches_stay_within_venue_and_year(lib, tmp_path, iclr):
    lib.ingest([_list(tmp_path / "l.txt", "ICLR 2023 论文列表", [_drop_sentence(iclr[0])])], embed=False)
    lib.ingest([_source(tmp_path / "s.json", "ICLR", 2024, [("Titled", iclr[0])])], embed=False)
    assert sorted(p["title"] or "" for p in lib.papers()) == ["", "Titled"]


def test_score_tolerates_small_differences_and_not_other_papers(iclr):
    a = iclr[0]
    assert identity.score(a, a) == 1.0
    assert identity.score(a, _typos(_drop_sentence(a))) >= identity.THRESHOLD
    assert max(identity.score(a, other) for other in iclr[1:]) < identity.THRESHOLD / 2
