"""Every shared corpus reads to its real paper count (skipped where ../shared/corpora is absent).

Expected counts come from the corpora README and from counting the files with other tools
(grep/csv module), not from the readers.
"""
from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from paperscope import sources
from paperscope.model import Record
from paperscope.sources.base import LeftOut

pytestmark = pytest.mark.corpora


def read_all(paths, **kw):
    records, problems, formats = [], [], Counter()
    for path in sources.expand(paths):
        formats[sources.detect(path)] += 1
        for item in sources.read(path, **kw):
            (records if isinstance(item, Record) else problems).append(item)
    return records, problems, formats


def test_icml_2024_events_posters(shared_corpora):
    path = shared_corpora / "icml2024_events" / "icml2024_events.json"
    events = json.loads(path.read_text(encoding="utf-8"))
    posters = [e for e in events if e["type"] == "Poster"]
    records, problems, formats = read_all([path])
    assert formats == {"json": 1}
    # the 48 workshops, tutorials and talks are left out, each named, none lost silently
    assert all(isinstance(p, LeftOut) and "not a paper" in p.reason for p in problems)
    assert len(problems) == len(events) - len(posters) == 48
    assert len(records) == len(posters) == 2634
    assert {(r.venue, r.year) for r in records} == {("ICML", 2024)}
    assert [r.title for r in records] == [" ".join(e["name"].split()) for e in posters]
    assert all(r.authors and r.urls["paper"].startswith("https://ICML.cc/virtual/2024/") for r in records)


def test_iclr_2020_miniconf_csv(shared_corpora):
    records, problems, formats = read_all([shared_corpora / "iclr2020_miniconf" / "papers.csv"])
    assert formats == {"csv": 1} and problems == []
    assert len(records) == 687
    assert {(r.venue, r.year) for r in records} == {("ICLR", 2020)}  # from the folder name
    assert sum(1 for r in records if r.keywords) == 667
    assert all(r.urls["openreview"].endswith(r.external_id) for r in records)


@pytest.mark.parametrize("folder, venue, year, posts, papers", [
    ("pmlr_v244_uai2024", "UAI", 2024, 201, 200),  # + the volume's preface
    ("pmlr_v247_colt2024", "COLT", 2024, 170, 169),  # + the preface (which has no abstract)
    ("pmlr_v48_icml2016", "ICML", 2016, 322, 322),
])
def test_pmlr_volumes(shared_corpora, folder, venue, year, posts, papers):
    root = shared_corpora / folder
    assert len(list((root / "_posts").glob("*.md"))) == posts
    records, problems, formats = read_all([root])
    assert formats == {"pmlr": posts}
    assert len(records) == papers and len(records) + len(problems) == posts
    assert all("preface" in p.reason and isinstance(p, LeftOut) for p in problems)
    assert {(r.venue, r.year) for r in records} == {(venue, year)}
    assert all(r.title and r.authors and r.urls.get("pdf") for r in records)
    volume = folder.split("_")[1]  # told by the volume's _config.yml (UAI 2024's holds an alias)
    assert all(r.urls["paper"].startswith(f"https://proceedings.mlr.press/{volume}/") for r in records)


def csv_rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_dylanjoo_iclr_submissions(shared_corpora):
    folder = shared_corpora / "dylanjoo_openreview" / "ICLR"
    for name, year, rows in (("ICLR17_submissions.csv", 2017, 490), ("ICLR18_submissions.csv", 2018, 911)):
        path = folder / name
        raw = csv_rows(path)
        empty = sum(1 for row in raw if not row["Abstract"].strip())
        records, problems, _ = read_all([path])
        assert len(raw) == rows
        assert len(records) == rows - empty and len(problems) == empty
        assert all("no abstract" in p.reason for p in problems)
        assert {(r.venue, r.year) for r in records} == {("ICLR", year)}
        assert Counter(r.status for r in records)["Oral"] == sum(1 for row in raw if row["Decision"] == "1")
    # ICLR17 holds one submission without an abstract
    assert [p.line for p in read_all([folder / "ICLR17_submissions.csv"])[1]] == [377]


def test_dylanjoo_reviews_file_has_no_abstract_column(shared_corpora):
    path = shared_corpora / "dylanjoo_openreview" / "ICLR" / "ICLR17_reviews.csv"
    [problem] = sources.read(path)
    assert problem.fatal and "no abstract column" in problem.reason


def test_dylanjoo_nips_2013_to_2018(shared_corpora):
    records, problems, formats = read_all([shared_corpora / "dylanjoo_openreview" / "NIPS"])
    assert formats == {"csv": 6} and problems == []
    assert len(records) == 3431
    by_year = Counter(r.year for r in records)
    assert by_year == {2013: 360, 2014: 411, 2015: 403, 2016: 569, 2017: 679, 2018: 1009}
    assert {r.venue for r in records} == {"NeurIPS"}
