"""Recommendations on a real venue: ICLR 2020 ingested from its Mini-Conf export; a user tags
10 papers that carry an author keyword and expects the other papers with that keyword on top."""
from __future__ import annotations

import csv

import pytest

from paperscope.library import Library
from paperscope.model import match_key

pytestmark = [pytest.mark.corpora, pytest.mark.slow]


@pytest.fixture(scope="module")
def iclr(tmp_path_factory, shared_corpora):
    path = shared_corpora / "iclr2020_miniconf" / "papers.csv"
    lib = Library.open(tmp_path_factory.mktemp("iclr") / "lib.db")
    lib.ingest([path], venue="ICLR", year=2020, embed=False)
    by_title = {match_key(p["title"]): p["id"] for p in lib.papers()}
    labels: dict[str, set[str]] = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            pid = by_title.get(match_key(row["title"]))
            for kw in row["keywords"].split("|"):
                if pid and kw.strip():
                    labels.setdefault(kw.strip().lower(), set()).add(pid)
    yield lib, labels
    lib.close()


@pytest.mark.parametrize("keyword", ["graph networks", "adversarial", "meta learning"])
def test_a_tag_of_ten_papers_finds_more_of_its_kind(iclr, keyword):
    lib, labels = iclr
    members = sorted(labels[keyword])
    seeds = members[:10]
    lib.tag(seeds, keyword)
    results = lib.recommend(tag=keyword, limit=10)
    hits = sum(r.id in labels[keyword] for r in results)
    base_rate = len(members) / lib.stats()["papers"]
    # The keyword covers 4-15% of the venue; a random ranking would find about 1 in 10.
    assert hits >= 4, (keyword, hits, base_rate)
    assert all(r.why["terms"] for r in results)
