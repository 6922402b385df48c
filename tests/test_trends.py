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
        api = client.get("/api/trends", params={"q": "graph neural", "venue": "ICLR"}).json()
        assert api == json.loads(json.dumps(lib.trends("graph neural", venue="ICLR")))
        html = client.get("/trends", params={"q": "graph neural", "venue": "ICLR"}).text
        bars = re.findall(r'<g class="year" data-year="(\d+)" data-share="([\d.]+)"', html)
        assert bars == [("2019", "0.25"), ("2020", "0.75")]
        assert client.get("/trends", params={"q": "<script>x</script>", "venue": "ICLR"}).text.count("<script>x") == 0
        growth = client.get("/api/trends/topics", params={"a": "ICLR 2019", "b": "ICLR 2020"}).json()
        assert growth["before"]["name"] == "ICLR 2019" and growth["topics"]
        changes = [t["change"] for t in growth["topics"]]
        assert changes == sorted(changes, reverse=True)
