"""Weak matches presented coherently, on the search page and in the terminal: the strong
results first in rank order, then the weaker ones in rank order under their own heading, and
no score or number on screen that contradicts that grouping (a weak match may have a higher
fused score than a strong one: it shows "weak match" and why, not the score)."""
from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from paperscope.cli import app
from paperscope.cli import common
from web_support import web_db  # noqa: F401  (fixture)

# queries whose ranking, on the example lists, puts some weak matches above strong ones
CANDIDATES = ["diffusion models for protein design", "time series forecasting", "vision transformer",
              "uncertainty images", "image prediction", "clip training"]
CARD = re.compile(r'<article class="card" data-id="([^"]+)">')


@pytest.fixture(scope="module")
def client(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(scope="module")
def mixed(client):
    """(query, hits in rank order) for the first candidate whose ranking interleaves weak and
    strong results, with a weak one scored above a strong one."""
    for q in CANDIDATES:
        hits = client.get("/api/search", params={"q": q, "limit": 50}).json()
        flags = [h["weak"] for h in hits]
        if any(w and not all(flags[i:]) for i, w in enumerate(flags)):
            return q, hits
    pytest.fail("no candidate query interleaves weak and strong results any more: pick new candidates")


def test_page_lists_strong_results_then_weaker_ones_each_in_rank_order(client, mixed):
    q, hits = mixed
    page = client.get("/search/results", params={"q": q}).text
    strong = [h["id"] for h in hits if not h["weak"]]
    weak = [h["id"] for h in hits if h["weak"]]
    shown = CARD.findall(page)
    assert shown == strong + weak
    heading = page.index('id="weaker-matches"')
    assert page.index(f'data-id="{strong[-1]}"') < heading < page.index(f'data-id="{weak[0]}"')


def test_page_scores_never_contradict_the_grouping(client, mixed):
    q, hits = mixed
    page = client.get("/search/results", params={"q": q}).text
    heading = page.index('id="weaker-matches"')
    above, below = page[:heading], page[heading:]
    scores = [float(s) for s in re.findall(r'<span class="score"[^>]*>(-?[\d.]+)</span>', above)]
    assert len(scores) == sum(not h["weak"] for h in hits)
    assert scores == sorted(scores, reverse=True)
    # below the heading: a "weak match" badge on every card instead of a score, and the reason
    assert 'class="score"' not in below
    weak_cards = below.split('<article class="card"')[1:]
    assert weak_cards and all('class="badge weak"' in c for c in weak_cards)
    assert all("listed after the closer matches, whatever its score" in c for c in weak_cards)
    assert 'class="badge weak"' not in above


def test_chinese_page_says_weak_match_in_chinese(client, mixed):
    q, _ = mixed
    client.cookies.set("lang", "zh")
    try:
        page = client.get("/search/results", params={"q": q}).text
    finally:
        client.cookies.delete("lang")
    assert "弱匹配" in page and "较弱的匹配" in page and "weak match" not in page


def test_terminal_numbers_follow_the_grouping_and_weak_lines_show_no_score(web_db, mixed, monkeypatch):  # noqa: F811
    q, _ = mixed
    monkeypatch.setattr(common.console, "_width", 1000)  # one line per result
    runner = CliRunner()
    data = json.loads(runner.invoke(app, ["--db", str(web_db), "search", q, "--limit", "20", "--json"]).stdout)
    res = runner.invoke(app, ["--db", str(web_db), "search", q, "--limit", "20"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    split = next(i for i, line in enumerate(lines) if line.strip() == "weaker matches")
    rows = [(i, int(m[1]), m[2], m[3]) for i, line in enumerate(lines)
            if (m := re.match(r"\s*(\d+)\. .* · ([0-9a-f]{6,}) · (score -?[\d.]+|weak match)\s*$", line))]
    assert [n for _, n, _, _ in rows] == list(range(1, len(data) + 1))
    want = [h["id"] for h in data if not h["weak"]] + [h["id"] for h in data if h["weak"]]
    assert [pid for _, _, pid, _ in rows] == want
    before = [kind for i, _, _, kind in rows if i < split]
    after = [kind for i, _, _, kind in rows if i > split]
    assert before and all(k.startswith("score") for k in before)
    assert after and all(k == "weak match" for k in after)
    scores = [float(k.split()[1]) for k in before]
    assert scores == sorted(scores, reverse=True)


def test_terminal_explain_says_why_a_weak_match_sits_below(web_db, mixed):  # noqa: F811
    q, _ = mixed
    res = CliRunner().invoke(app, ["--db", str(web_db), "search", q, "--limit", "20", "--explain"])
    assert res.exit_code == 0, res.output
    out = " ".join(res.stdout.split())
    assert re.search(r"weak: cosine under [\d.]+ \(-?[\d.]+\) and query coverage under [\d.]+: listed with the "
                     r"weaker matches, whatever its score", out)
