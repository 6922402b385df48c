"""Trends: the share of a venue's papers containing a query, year by year (CLI JSON, API and
page agree, counts checked by hand), and which topics grew between two collections."""
from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from paperscope.library import Library
from search_support import write_papers

YEARS = {  # (year, abstracts): "graph neural" in 1 of 4, then 3 of 4
    2019: ["We train graph neural networks on molecules.", "A study of convex optimisation rates.",
           "Bandit algorithms with regret bounds.", "Kernel methods for regression tasks."],
    2020: ["Graph neural networks for traffic forecasting.", "Message passing graph neural models.",
           "Neural graph networks beyond homophily.", "Policy gradients for robot control."],
}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trends")
    filler = " We describe the setting, the method and experiments on several public benchmarks in detail."
    papers = [{"title": f"Paper {y}-{i}", "abstract": text + filler, "venue": "ICLR", "year": y}
              for y, texts in YEARS.items() for i, text in enumerate(texts)]
    library = Library.open(folder / "lib.db")
    library.ingest([write_papers(folder / "papers.jsonl", papers)], embed=False)
    yield library
    library.close()


def test_share_per_year_counts_papers_with_every_term(lib):
    out = lib.trends("graph neural", venue="ICLR")
    assert [(y["year"], y["matching"], y["papers"]) for y in out["years"]] == [(2019, 1, 4), (2020, 3, 4)]
    assert [y["share"] for y in out["years"]] == [0.25, 0.75]
    assert [y["matching"] for y in lib.trends("graph neural networks", venue="iclr")["years"]] == [1, 2]  # "graph neural models" lacks one
    assert [y["matching"] for y in lib.trends('"graph neural networks"', venue="iclr")["years"]] == [1, 1]
    with pytest.raises(Exception, match="no collections of venue"):
        lib.trends("graph", venue="NeurIPS")


def test_api_and_page_show_the_same_trend(lib):
    from paperscope.web.app import create_app

    with TestClient(create_app(lib.path), base_url="http://127.0.0.1:8000") as client:
        api = client.get("/api/trends", params={"query": "graph neural", "venue": "ICLR"}).json()
        assert api == json.loads(json.dumps(lib.trends("graph neural", venue="ICLR")))
        assert client.get("/api/trends", params={"q": "graph neural", "venue": "ICLR"}).json() == api  # old name
        html = client.get("/trends", params={"q": "graph neural", "venue": "ICLR"}).text
        bars = re.findall(r'<g class="year" data-year="(\d+)" data-share="([\d.]+)"', html)
        assert bars == [("2019", "0.25"), ("2020", "0.75")]
        assert client.get("/trends", params={"q": "<script>x</script>", "venue": "ICLR"}).text.count("<script>x") == 0
        growth = client.get("/api/trends", params={"growth": ["ICLR 2019", "ICLR 2020"]}).json()
        assert growth["before"]["name"] == "ICLR 2019" and growth["topics"]
        old = client.get("/api/trends/topics", params={"a": "ICLR 2019", "b": "ICLR 2020"}).json()
        assert old == growth  # the old address still answers
        changes = [t["change"] for t in growth["topics"]]
        assert changes == sorted(changes, reverse=True)


def cli(lib, *args):
    from typer.testing import CliRunner

    from paperscope.cli import app

    return CliRunner().invoke(app, ["--db", str(lib.path), *args])


def test_cli_growth_needs_no_query(lib):
    out = cli(lib, "trends", "--growth", "ICLR 2019", "--growth", "ICLR 2020", "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["after"]["name"] == "ICLR 2020"
    assert cli(lib, "trends", "--growth", "ICLR 2019", "--growth", "ICLR 2020").exit_code == 0
    assert cli(lib, "trends").exit_code == 2  # neither a query nor --growth: a usage error
    assert cli(lib, "trends", "graph", "--growth", "ICLR 2019", "--growth", "ICLR 2020").exit_code == 2


def test_topics_and_map_take_a_year_range_and_a_collection(lib, tmp_path):
    ranged = cli(lib, "topics", "--venue", "ICLR", "--year", "2019..2020", "--json")
    assert ranged.exit_code == 0, ranged.output
    assert sum(t["size"] for t in json.loads(ranged.stdout)) == 8
    one = cli(lib, "topics", "--collection", "ICLR 2020", "--json")
    assert one.exit_code == 0, one.output
    assert sum(t["size"] for t in json.loads(one.stdout)) == 4
    assert cli(lib, "topics", "--collection", "ICLR 1999").exit_code == 1
    drawn = cli(lib, "map", "--collection", "ICLR 2019", "--out", str(tmp_path / "map.html"))
    assert drawn.exit_code == 0, drawn.output
    assert "ICLR 2019: 4 papers" in (tmp_path / "map.html").read_text()


def test_trends_page_offers_two_different_collections_for_growth(tmp_path):
    from paperscope.web.app import create_app

    filler = " We describe the setting, the method and experiments on several public benchmarks in detail."
    papers = [{"title": f"{venue} paper {i}", "abstract": f"Study {i} of {venue} learning methods." + filler,
               "venue": venue, "year": 2024} for venue in ("ICML", "ICLR") for i in range(3)]
    with Library.open(tmp_path / "two.db") as two:
        two.ingest([write_papers(tmp_path / "two.jsonl", papers)], embed=False)
    with TestClient(create_app(tmp_path / "two.db"), base_url="http://127.0.0.1:8000") as client:
        html = client.get("/trends").text
    chosen = [re.search(r'<option value="([^"]+)" selected>', part).group(1)
              for part in re.findall(r'<select name="[ab]".*?</select>', html, re.S)]
    assert len(chosen) == 2 and chosen[0] != chosen[1]
