"""A fetch survives what real servers do (throttling, errors, resets, cut answers, short and
overlapping pages, a count that moves, a login wall, hostile content), says so in its report,
and fails with a clear message and exit code when a source keeps failing."""
from __future__ import annotations

import json

import pytest
from source_servers import USER, Fault, from_corpora
from typer.testing import CliRunner

from paperscope.cli import app
from paperscope.library import Library
from paperscope.sources.remote import FetchError

PAGES = (0, 25, 50)  # the fixture's 60 ICLR 2024 notes, 25 a page


@pytest.fixture(autouse=True)
def _fast(monkeypatch, tmp_path):
    monkeypatch.setenv("PAPERSCOPE_FETCH_INTERVAL", "0")
    monkeypatch.setenv("PAPERSCOPE_FETCH_BACKOFF", "0.01")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in ("OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD", "PAPERSCOPE_OPENREVIEW_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture()
def server():
    with from_corpora(None, icml_limit=50) as s:
        s.add(Fault("cap", times=None, value=25))
        yield s


@pytest.fixture()
def library(tmp_path):
    with Library.open(tmp_path / "lib.db") as lib:
        yield lib


def fetch(lib, server, **kw):
    return lib.fetch("ICLR", 2024, base_url=server.url, embed=False, **kw)


def sent_titles(server) -> set[str]:
    return {n["content"]["title"]["value"] for n in server.v2["ICLR.cc/2024/Conference"]}


def stored_titles(lib) -> list[str]:
    return [p["title"] for p in lib.papers(collection="ICLR 2024", limit=1000)]


def test_throttling_errors_resets_and_cut_pages_are_retried(library, server):
    server.add(Fault("reset", page=0), Fault("429", page=25, value=1), Fault("truncate", page=25),
               Fault("500", page=50, times=2))
    report = fetch(library, server)
    assert report["retries"] == 5 and report["pages"] == 3
    assert sorted(stored_titles(library)) == sorted(sent_titles(server))
    assert [server.served[("openreview", p)] for p in PAGES] == [1, 1, 1]


def test_duplicates_across_pages_give_one_paper_each(library, server):
    server.add(Fault("overlap", times=None, value=5))
    report = fetch(library, server)
    assert report["fetched"] == 65 and report["added"] == 60  # pages 0-24, 20-44, 45-59
    titles = stored_titles(library)
    assert len(titles) == len(set(titles)) == 60


def test_a_count_that_changes_mid_run_is_followed_and_reported(library, server):
    server.add(Fault("grow", value=5))
    report = fetch(library, server)
    assert report["count_changed"] == [60, 65]
    assert len(stored_titles(library)) == 65 == len(server.v2["ICLR.cc/2024/Conference"])


def test_login_wall(library, server, monkeypatch):
    server.add(Fault("login", times=None))
    with pytest.raises(FetchError) as err:
        fetch(library, server)
    assert "OpenReview refused anonymous access (403): set OPENREVIEW_USERNAME/OPENREVIEW_PASSWORD or pass --token" \
        in str(err.value)
    assert stored_titles(library) == []
    monkeypatch.setenv("OPENREVIEW_USERNAME", USER[0])
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "wrong")
    with pytest.raises(FetchError) as err:
        fetch(library, server)
    assert "OpenReview login failed (403)" in str(err.value)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", USER[1])
    assert fetch(library, server)["added"] == 60
    monkeypatch.delenv("OPENREVIEW_USERNAME")
    server.tokens.add("a-token-from-the-browser")
    assert fetch(library, server, token="a-token-from-the-browser")["unchanged"] == 60


def test_hostile_content_is_read_like_a_hostile_file(library, server):
    server.add(Fault("hostile", page=0))
    report = fetch(library, server)
    assert report["errors"] == [] and report["added"] == 60
    titles = stored_titles(library)
    assert sum(t.startswith("<script>alert(") for t in titles) == 25  # kept as text (pages escape it)
    longest = max(len(p["abstract"]) for p in library.papers(collection="ICLR 2024", limit=1000))
    assert longest <= 20_000  # the 10 MB abstract was cut to the reader's cap


def test_a_source_that_keeps_failing_exits_1_with_the_reason(server, tmp_path):
    server.add(Fault("500", page=25, times=None))
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "lib.db"), "fetch", "iclr", "2024",
                                      "--base-url", server.url, "--no-embed"])
    assert result.exit_code == 1
    assert "fetch failed" in result.output and "server error (500); gave up after 6 attempts" in result.output
    assert "offset=25" in result.output
    with Library.open(tmp_path / "lib.db") as lib:  # the first page is kept
        assert len(stored_titles(lib)) == 25


def test_cli_json_report_and_unknown_source(server, tmp_path):
    db = str(tmp_path / "lib.db")
    result = CliRunner().invoke(app, ["--db", db, "fetch", "ICLR", "2024", "--base-url", server.url,
                                      "--no-embed", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["added"], report["pages"], report["library"]["papers"]) == (60, 3, 60)
    result = CliRunner().invoke(app, ["--db", db, "fetch", "ICLR", "2024", "--source", "dblp"])
    assert result.exit_code == 1 and "unknown source 'dblp'; choose one of: openreview, virtual, pmlr" in result.output
