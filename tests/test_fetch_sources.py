"""`Library.fetch` from every source, against a real local HTTP server answering in the
source's wire format (bundled fixtures: ICLR 2024 and ICLR 2018 OpenReview notes, ICML 2024
virtual-site events and its PMLR volume), merged through ingest."""
from __future__ import annotations

import pytest
from source_servers import USER, Fault, from_corpora

from paperscope.library import Library
from paperscope.sources.remote import FetchError

FIXTURE_ICLR24 = 60  # tests/data/fetch/iclr2024_accepted.json
FIXTURE_ICLR18 = {"Accept (Oral)": 3, "Accept (Poster)": 9, "Reject": 6, "Invite to Workshop Track": 2}
ICML24_POSTERS = 200  # the first posters of examples/proceedings (the server's icml_limit)


@pytest.fixture(autouse=True)
def _fast(monkeypatch, tmp_path):
    monkeypatch.setenv("PAPERSCOPE_FETCH_INTERVAL", "0")  # a local test server: no pause needed
    monkeypatch.setenv("PAPERSCOPE_FETCH_BACKOFF", "0.01")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in ("OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD", "PAPERSCOPE_OPENREVIEW_URL",
                 "PAPERSCOPE_VIRTUAL_URL", "PAPERSCOPE_PMLR_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture()
def server():
    with from_corpora(None, icml_limit=ICML24_POSTERS) as s:
        yield s


@pytest.fixture()
def library(tmp_path):
    with Library.open(tmp_path / "lib.db") as lib:
        yield lib


def fetch(lib, server, venue, year, **kw):
    return lib.fetch(venue, year, base_url=server.url, embed=False, **kw)


def titles(lib, collection):
    return {p["title"] for p in lib.papers(collection=collection, limit=100_000)}


def test_openreview_v2_fills_the_titles_of_a_title_less_list(library, server, samples_dir):
    library.ingest([samples_dir], embed=False)
    untitled = [p for p in library.papers(collection="ICLR 2024", limit=1000) if not p["title"]]
    assert len(untitled) == 38
    server.add(Fault("cap", times=None, value=25))  # the server gives at most 25 notes a page
    report = fetch(library, server, "iclr", 2024, save=library.path.parent / "saved")
    assert report["source"] == "openreview" and report["pages"] == 3
    assert (report["fetched"], report["added"], report["merged"], report["titles_filled"]) == (60, 22, 38, 38)
    papers = library.papers(collection="ICLR 2024", limit=1000)
    assert len(papers) == FIXTURE_ICLR24 and all(p["title"] for p in papers)
    sent = {n["content"]["title"]["value"] for n in server.v2["ICLR.cc/2024/Conference"]}
    assert titles(library, "ICLR 2024") == sent
    assert [server.served[("openreview", offset)] for offset in (0, 25, 50)] == [1, 1, 1]


def test_openreview_statuses_and_all_submissions(library, server):
    report = fetch(library, server, "ICLR", 2024, all_submissions=True)
    assert report["fetched"] == FIXTURE_ICLR24 + FIXTURE_ICLR18["Reject"]
    statuses = {p["status"] for p in library.papers(collection="ICLR 2024", limit=1000)}
    assert {"Oral", "Spotlight", "Poster", "Submitted"} <= statuses


def test_openreview_v1_keeps_accepted_papers_with_their_decision(library, server):
    report = fetch(library, server, "ICLR", 2018)
    accepted = FIXTURE_ICLR18["Accept (Oral)"] + FIXTURE_ICLR18["Accept (Poster)"]
    assert (report["fetched"], report["added"], report["not_accepted"]) == (accepted, accepted, 8)
    papers = library.papers(collection="ICLR 2018", limit=100)
    assert sorted(p["status"] for p in papers).count("Oral") == FIXTURE_ICLR18["Accept (Oral)"]
    assert all(p["title"] and p["urls"].get("openreview") for p in papers)
    assert server.requests[("openreview", 0)] == 1


def test_virtual_site_posters_and_orals_become_one_paper_each(library, server):
    report = fetch(library, server, "icml", 2024, source="virtual")
    events = len(server.virtual[("icml", 2024)])
    assert report["fetched"] == events and events > ICML24_POSTERS
    assert report["duplicates"] == events - ICML24_POSTERS
    papers = library.papers(collection="ICML 2024", limit=100_000)
    assert len(papers) == ICML24_POSTERS and all(p["title"] and p["authors"] for p in papers)


def test_pmlr_volume_bibliography(library, server):
    report = fetch(library, server, "ICML", 2024, source="pmlr")
    assert report["url"].endswith("/v235/assets/bib/bibliography.bib")
    assert (report["fetched"], report["added"], report["skipped"]) == (ICML24_POSTERS, ICML24_POSTERS, 0)
    paper = library.papers(collection="ICML 2024", limit=1)[0]
    assert paper["authors"] and paper["urls"]["paper"].startswith("https://proceedings.mlr.press/v235/")


def test_sources_are_tried_in_order_until_one_has_the_venue(library, server):
    report = fetch(library, server, "icml", 2024)  # the server has no ICML notes on OpenReview
    assert [a["source"] for a in report["attempts"]] == ["openreview", "virtual"]
    assert report["attempts"][0]["result"] == "no papers" and report["source"] == "virtual"
    assert report["added"] == ICML24_POSTERS


def test_a_venue_no_source_publishes_is_a_clear_error(library, server):
    with pytest.raises(Exception) as err:
        library.fetch("ICLR", 1999, embed=False)
    assert "no source publishes ICLR 1999" in str(err.value)
    with pytest.raises(FetchError) as err:
        fetch(library, server, "COLT", 2024)  # the PMLR volume 247 is not on this server
    assert "not found (404)" in str(err.value)


@pytest.mark.parametrize("source,venue,year", [("virtual", "ICML", 2024), ("pmlr", "ICML", 2024)])
def test_hostile_answers_are_read_like_hostile_files(library, server, source, venue, year):
    server.add(Fault("hostile", source=source))
    report = fetch(library, server, venue, year, source=source)
    assert report["errors"] == []
    papers = library.papers(collection="ICML 2024", limit=1000)
    if source == "virtual":  # 20 events touched, the tenth poster's oral twin among them: 19 papers
        assert report["added"] == ICML24_POSTERS
        assert sum(p["title"].startswith("<script>alert(") for p in papers) == 19
    else:  # an entry of more than 200,000 characters is refused as a BibTeX file's would be
        assert (report["added"], report["skipped"], report["skip_reasons"]) == (ICML24_POSTERS - 1, 1, {"too long": 1})
        assert sum(p["title"].startswith("<script>alert(") for p in papers) == 19
    assert max(len(p["abstract"]) for p in papers) <= 20_000
    assert all(len(a) <= 300 for p in papers for a in p["authors"])


@pytest.mark.corpora
@pytest.mark.slow
def test_corpora_every_source(library, shared_corpora, samples_dir):
    library.ingest([samples_dir], embed=False)
    with from_corpora(shared_corpora) as server:
        iclr = fetch(library, server, "ICLR", 2024)
        assert (iclr["fetched"], iclr["titles_filled"], iclr["pages"]) == (2261, 38, 3)
        old = fetch(library, server, "ICLR", 2018)
        assert (old["fetched"], old["not_accepted"]) == (23 + 313, 486 + 89)
        uai = fetch(library, server, "UAI", 2024)  # no OpenReview notes on this server: PMLR
        assert (uai["source"], uai["fetched"], uai["left_out"]) == ("pmlr", 200, 1)
        colt = fetch(library, server, "colt", 2024, source="pmlr")
        assert colt["fetched"] == 169
        icml = fetch(library, server, "ICML", 2024, source="virtual")
        assert icml["titles_filled"] == 57  # the ICML abstracts of the sample lists
    untitled = [p for p in library.papers(limit=100_000) if not p["title"]]
    assert untitled == []
