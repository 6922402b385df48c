"""Honest relevance and the learned second stage, as a user meets them: every search result says
whether it is a weak match and how many papers matched at all (JSON, terminal, HTTP API, web
page), a query from another field is all weak, and --explain shows the ranker's reasons."""
from __future__ import annotations

import json

import numpy as np
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from paperscope.cli import app
from paperscope.search import ranker
from search_support import small_library  # noqa: F401  (fixture)
from web_support import web_db  # noqa: F401  (fixture)

runner = CliRunner()
OFF_TOPIC = "sourdough bread fermentation and baking temperature"


@pytest.fixture(scope="module")
def small(small_library):
    return small_library


def search_json(db, *args) -> list[dict]:
    res = runner.invoke(app, ["--db", str(db), "search", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_every_result_says_weak_and_total(small):
    db, ids = small
    for mode in ("hybrid", "lexical", "semantic"):
        data = search_json(db, "flow matching generative modeling", "--mode", mode, "--limit", "3")
        assert data and all(isinstance(r["weak"], bool) for r in data), mode
        assert all(r["total"] == data[0]["total"] >= len(data) for r in data), mode
        assert data[0]["id"] == ids["flow"] and not data[0]["weak"], mode


def test_total_counts_papers_that_matched_not_the_page(small):
    db, _ = small
    page = search_json(db, "networks", "--mode", "lexical", "--limit", "1")
    everything = search_json(db, "networks", "--mode", "lexical", "--limit", "100")
    assert len(page) == 1 and page[0]["total"] == len(everything) > 1


def test_a_query_from_another_field_is_all_weak(small):
    db, _ = small
    data = search_json(db, OFF_TOPIC)
    assert data and all(r["weak"] for r in data)


def test_a_known_paper_by_its_title_is_not_weak(small):
    db, ids = small
    data = search_json(db, "Denoising Diffusion Probabilistic Models")
    assert data[0]["id"] == ids["ddpm"] and not data[0]["weak"]


def test_terminal_shows_weak_matches_apart(small):
    db, _ = small
    res = runner.invoke(app, ["--db", str(db), "search", OFF_TOPIC])
    assert res.exit_code == 0 and "only weaker matches" in res.stdout
    res = runner.invoke(app, ["--db", str(db), "search", "diffusion probabilistic models", "--limit", "10"])
    out = res.stdout
    assert res.exit_code == 0 and "weaker matches" in out and "matching papers" in out.splitlines()[-1]
    assert out.index("Denoising Diffusion") < out.index("weaker matches")


def test_explain_says_why_a_result_is_weak(small):
    db, _ = small
    res = runner.invoke(app, ["--db", str(db), "search", OFF_TOPIC, "--explain", "--limit", "2"])
    assert res.exit_code == 0 and "weak: cosine under" in res.stdout
    data = search_json(db, OFF_TOPIC, "--explain", "--limit", "2")
    assert data[0]["explain"]["weak"] is True and set(data[0]["explain"]["weak_thresholds"]) == {"cosine", "coverage"}


def test_api_total_header_and_web_top_n_of_m(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url="http://127.0.0.1:8000") as client:
        res = client.get("/api/search", params={"q": "learning data", "limit": 3})
        hits = res.json()
        assert len(hits) == 3 and int(res.headers["X-Total-Count"]) == hits[0]["total"] > 50
        page = client.get("/search/results", params={"q": "learning data"}).text
        assert f"top 50 of {hits[0]['total']} matching papers" in page
        off = client.get("/search/results", params={"q": OFF_TOPIC}).text
        assert "Nothing matches this query well" in off


def test_shipped_ranker_file_matches_the_features_and_explains_its_score():
    model = ranker.shipped()
    assert len(model.weights) == len(ranker.FEATURES)
    assert 0.0 < model.weak["cosine"] < 1.0 and 0.0 < model.weak["coverage"] <= 1.0
    x = np.array([[1.0, 2.0, 0.5, 0.5, 0.4, -0.1, 0.6, 0.5, 1.0, 0.0],
                  [0.0, 0.1, 0.1, 0.2, 0.1, -0.4, 0.0, 0.0, 0.1, 0.0]])
    e = ranker.explain(x[0], model)
    assert sum(e["contributions"].values()) == pytest.approx(model.score(x)[0], abs=1e-3)
    assert model.weights[ranker.BIGRAMS] >= 0  # bigrams only added at the top keep the order


def test_weak_grade_per_mode():
    model = ranker.Model(np.zeros(10), np.zeros(10), np.ones(10), weak={"cosine": 0.4, "coverage": 0.6})
    cos, cov = np.array([0.5, 0.2, 0.2, np.nan]), np.array([0.1, 0.9, 0.1, 0.1])
    assert ranker.weak(cos, cov, "hybrid", model).tolist() == [False, False, True, True]
    assert ranker.weak(cos, cov, "lexical", model).tolist() == [True, False, True, True]
    assert ranker.weak(cos, cov, "semantic", model).tolist() == [False, True, True, True]
