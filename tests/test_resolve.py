"""`resolve` against real HTTP servers on 127.0.0.1: the venue's source (OpenReview, the
virtual site, PMLR in their wire formats) and arXiv's Atom API, misbehaving as they do."""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import source_servers  # noqa: E402
from arxiv_server import ArxivServer  # noqa: E402

from paperscope import identity  # noqa: E402
from paperscope.library import Library  # noqa: E402
from paperscope.model import latex_to_plain, match_key  # noqa: E402

OUTSIDER = ("We revisit the classic problem of tiling a hyperbolic plane with identical convex pentagons "
            "and give a complete census of the families that admit a periodic tiling, together with a "
            "short computer-assisted proof that no further family exists beyond the fourteen we list here.")


@pytest.fixture(autouse=True)
def _fast_transport(monkeypatch, tmp_path):
    monkeypatch.setenv("PAPERSCOPE_FETCH_INTERVAL", "0")
    monkeypatch.setenv("PAPERSCOPE_FETCH_BACKOFF", "0")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _icml_posters(samples_dir) -> list[dict]:
    path = samples_dir.parent / "proceedings" / "icml2024_posters.json.gz"
    rows = json.loads(gzip.decompress(path.read_bytes()))
    return [{"title": r["name"], "abstract": r["abstract"],
             "authors": [a.strip() for a in r["speakers/authors"].split(",")]} for r in rows]


def _library(tmp_path, samples_dir, *extra_lists: tuple[str, list[str]]) -> Library:
    lib = Library.open(tmp_path / "lib.db")
    paths = [samples_dir]
    for i, (header, abstracts) in enumerate(extra_lists):
        p = tmp_path / f"extra{i}.txt"
        p.write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
        paths.append(p)
    lib.ingest(paths, embed=False, analyse=False)
    return lib


def _by_key(papers):
    return {match_key(p["abstract"]): p for p in papers}


@pytest.mark.corpora
def test_resolve_gives_the_sample_lists_their_real_titles(tmp_path, samples_dir, shared_corpora):
    lib = _library(tmp_path, samples_dir, ("ICLR 2024 论文列表", [OUTSIDER]))
    truth = {match_key(r["abstract"]): r["title"] for r in json.loads(
        (shared_corpora / "iclr2024_openreview" / "iclr2024_accepted.json").read_text("utf-8"))}
    with source_servers.from_corpora(shared_corpora) as venues, ArxivServer([]) as arxiv:
        dry = lib.resolve(dry_run=True, base_url=venues.url, arxiv_url=arxiv.url, embed=False)
        assert dry["untitled_before"] == 96 and dry["resolved_by_venue"] == 95 and dry["still_untitled"] == 1
        assert lib.stats()["papers"] == 96 and not any(p["title"] for p in lib.papers())  # nothing changed
        report = lib.resolve(base_url=venues.url, arxiv_url=arxiv.url, embed=False)
    assert report["resolved_by_venue"] == 95 and report["still_untitled"] == 1
    papers = _by_key(lib.papers(collection="ICLR 2024"))
    sample = [p for p in papers.values() if any(c["source"].endswith(".txt") for c in p["collections"])]
    assert len(sample) == 39
    for p in sample:
        if p["abstract"] == OUTSIDER:
            assert p["title"] is None and p["title_origin"] == "derived"  # the negative control
        else:
            assert p["title"] == latex_to_plain(truth[match_key(p["abstract"])]) and p["title_origin"] == "openreview"
    assert len(papers) == 2261 + 1  # the venue once, the outsider: no duplicate papers
    icml = [p for p in lib.papers(collection="ICML 2024") if len(p["collections"]) > 1]
    assert len(icml) == 57 and all(p["title"] and p["authors"] and p["title_origin"] == "virtual" for p in icml)
    assert arxiv.queries  # the outsider was searched on arXiv, found nothing, stayed untitled
    assert report["rejected"][0]["reason"] == "no candidates"


def test_arxiv_finds_what_no_venue_source_publishes(tmp_path, samples_dir):
    lib = _library(tmp_path, samples_dir, ("ICML 2024 论文列表", [OUTSIDER]))
    posters = _icml_posters(samples_dir)
    with source_servers.SourceServer() as venues, ArxivServer(posters) as arxiv:  # no venue data at all
        arxiv.misbehave = ["503"]  # Retry-After: the search is retried, not lost
        report = lib.resolve(collection="icml 2024", base_url=venues.url, arxiv_url=arxiv.url, embed=False)
    (venue,) = report["venue_sources"]
    assert "error" in venue and "no source could be read" in venue["error"]
    assert report["untitled_before"] == 58 and report["resolved_by_arxiv"] == 57 and report["still_untitled"] == 1
    truth = _by_key([{"abstract": p["abstract"], "title": p["title"]} for p in posters])
    for p in lib.papers(collection="ICML 2024"):
        if p["abstract"] == OUTSIDER:
            assert p["title"] is None
        else:
            assert p["title"] == latex_to_plain(truth[match_key(p["abstract"])]["title"])
            assert p["title_origin"] == "arxiv" and identity.THRESHOLD <= (p["title_score"] or 1.0) <= 1
            assert p["urls"].get("paper", "").startswith("http://arxiv.org/abs/")
    assert all(p["title"] is None for p in lib.papers(collection="ICLR 2024"))  # not asked for
    (rejected,) = report["rejected"]
    assert rejected["best_score"] < identity.THRESHOLD


def test_a_real_title_is_never_overwritten(tmp_path, samples_dir):
    posters = _icml_posters(samples_dir)
    lib = Library.open(tmp_path / "lib.db")
    mine = tmp_path / "mine.json"
    target = posters[0]
    mine.write_text(json.dumps([{"title": "My Own Name For It", "abstract": target["abstract"][:-40] + ".",
                                 "venue": "ICML", "year": 2024},
                                {"abstract": posters[1]["abstract"], "venue": "ICML", "year": 2024}]))
    lib.ingest([mine], embed=False, analyse=False)
    with source_servers.SourceServer() as venues, ArxivServer(posters[:5]) as arxiv:
        report = lib.resolve(base_url=venues.url, arxiv_url=arxiv.url, embed=False)
    titles = sorted(p["title"] for p in lib.papers())
    assert titles == sorted(["My Own Name For It", latex_to_plain(posters[1]["title"])])
    assert report["untitled_before"] == 1 and report["resolved_by_arxiv"] == 1


@pytest.mark.parametrize("bad", ["empty", "malformed", "hostile", "error"])
def test_a_misbehaving_arxiv_leaves_the_library_intact(tmp_path, samples_dir, bad):
    lib = Library.open(tmp_path / "lib.db")
    (tmp_path / "l.txt").write_text("COLM 2024 论文列表\n\n" + OUTSIDER + "\n", encoding="utf-8")
    lib.ingest([tmp_path / "l.txt"], embed=False, analyse=False)
    with source_servers.SourceServer() as venues, ArxivServer([{"title": "T", "abstract": OUTSIDER}]) as arxiv:
        arxiv.misbehave = [bad] * 20
        report = lib.resolve(base_url=venues.url, arxiv_url=arxiv.url, embed=False)
    (paper,) = lib.papers()
    assert paper["title"] is None and report["still_untitled"] == 1
    if bad == "empty":
        assert report["rejected"][0]["reason"] == "no candidates"
    else:
        assert report["arxiv"]["errors"] and "127.0.0.1" in report["arxiv"]["errors"][0]["reason"]


def test_dry_run_of_an_unknown_collection_is_a_clear_error(tmp_path):
    from paperscope.model import InputError

    lib = Library.open(tmp_path / "lib.db")
    with pytest.raises(InputError, match="no collection named 'NIPS 1999'"):
        lib.resolve("NIPS 1999", dry_run=True)
