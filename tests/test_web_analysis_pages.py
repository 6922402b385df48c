"""The topics and compare pages as a researcher meets them: every topic with its terms and
typical papers at once, two collections pre-selected, A vs A refused, small sides flagged."""
from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from web_support import web_db  # noqa: F401  (fixture)

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def client(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url=BASE) as c:
        yield c


def test_topics_page_shows_every_topic_with_terms_and_papers_without_a_click(client):
    topics = client.get("/api/topics", params={"collection": "ICML 2024"}).json()
    html = client.get("/topics", params={"collection": "ICML 2024"}).text
    cards = re.findall(r'<li class="topic-card[^"]*" data-topic="(\d+)">(.*?)</li>\s*(?=<li class="topic-card|</ol>)',
                       html, re.S)
    assert [int(t) for t, _ in cards] == [t["id"] for t in topics]
    for (_, body), topic in zip(cards, topics):
        assert re.search(r'class="chip muted"', body)  # its representative terms
        links = re.findall(r'href="/paper/([^"]+)"', body)
        assert links == topic["papers"][:len(links)] and len(links) == min(5, topic["size"])


def test_chosen_topic_lists_its_papers_above_the_grid(client):
    topic = client.get("/api/topics", params={"collection": "ICML 2024"}).json()[0]
    html = client.get("/topics", params={"collection": "ICML 2024", "topic": topic["id"]}).text
    section = html.index('id="topic-papers"')
    assert section < html.index('id="topic-grid"')
    shown = re.findall(r'<article class="card" data-id="([^"]+)"', html)
    assert shown == topic["papers"][:len(shown)] and len(shown) == min(50, topic["size"])


def test_compare_preselects_the_first_two_collections(client):
    names = [c["name"] for c in client.get("/api/collections").json()]
    html = client.get("/compare").text
    for side, name in zip("ab", names[:2]):
        select = re.search(rf'<select name="{side}".*?</select>', html, re.S).group(0)
        assert re.search(rf'<option value="{re.escape(name)}" selected>', select), side


def test_compare_refuses_a_collection_against_itself(client):
    html = client.get("/compare", params={"a": "ICML 2024", "b": "icml 2024"}).text
    assert 'id="compare-problem"' in html and "different collections" in html
    assert 'id="compare-result"' not in html
    api = client.get("/api/compare", params={"a": "ICML 2024", "b": "ICML 2024"})
    assert api.status_code == 400 and "same papers" in api.text


def test_compare_warns_when_a_side_is_small_and_lists_only_significant_terms(client):
    out = client.get("/api/compare", params={"a": "ICML 2024", "b": "ICLR 2024"}).json()
    assert set(out["small"]) == {"ICML 2024", "ICLR 2024"}  # 57 and 38 papers
    assert all(abs(t["z"]) >= 1.96 for side in out["distinctive"].values() for t in side)
    html = client.get("/compare", params={"a": "ICML 2024", "b": "ICLR 2024"}).text
    assert html.count('class="warning small-side"') == 2 and "fewer than 100 papers" in html
    for name, terms in out["distinctive"].items():
        if not terms:
            assert "No term stands out significantly." in html
