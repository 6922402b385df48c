"""Server-rendered pages: collections and paging, filters, hostile list text rendered inert,
the language switch, error pages."""
from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from web_support import web_db, xss_id  # noqa: F401  (fixtures)

BASE = "http://127.0.0.1:8000"
CARD = re.compile(r'<article class="card" data-id="([^"]+)"')
LIVE_MARKUP = ("<script>window.__xss", "<img src=x", "<iframe", "<svg onload",
               'href="javascript:', "<blink>bold</blink>")


@pytest.fixture(scope="module")
def client(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url=BASE) as c:
        yield c


def test_home_lists_collections_with_counts_and_links(client):
    html = client.get("/").text
    stats = client.get("/api/stats").json()
    for c in stats["collections"]:
        assert f'href="/c/{c["name"].replace(" ", "+")}"' in html or f'href="/c/{c["name"].replace(" ", "%20")}"' in html
        assert f'{c["papers"]} papers' in html


def test_collection_pages_through_every_paper_once(client):
    total = next(c["papers"] for c in client.get("/api/collections").json() if c["name"] == "ICML 2024")
    seen, offset = [], 0
    while True:
        html = client.get("/c/ICML 2024", params={"limit": 20, "offset": offset}).text
        ids = CARD.findall(html)
        if not ids:
            break
        seen += ids
        offset += 20
        assert ('rel="next"' in html) == (offset < total)
    assert len(seen) == total and len(set(seen)) == total


def test_sort_by_type_groups_each_type_together(client):
    html = client.get("/c/ICML 2024", params={"sort": "type", "limit": 200}).text
    ids = CARD.findall(html)
    types = {p["id"]: p.get("paper_type") for p in client.get(
        "/api/papers", params={"collection": "ICML 2024", "limit": 500}).json()}
    runs = [types[i] for i in ids]
    if not any(runs):
        pytest.skip("no paper_type facts in this build")
    changes = [t for k, t in enumerate(runs) if k == 0 or t != runs[k - 1]]
    assert len(changes) == len(set(changes)), runs


def test_has_code_filter_shows_only_papers_with_code(client):
    html = client.get("/c/ICML 2024", params={"has_code": "true", "limit": 200}).text
    cards = html.split('<article class="card"')[1:]
    with_code = [p for p in client.get("/api/papers", params={"collection": "ICML 2024", "limit": 500}).json()
                 if p.get("code_urls") or p["urls"].get("code")]
    assert len(cards) == len(with_code)


def test_hostile_list_text_is_escaped_everywhere(client, xss_id):  # noqa: F811
    pages = [f"/paper/{xss_id}", "/c/ICML 2024?limit=200", "/search?q=XSSGuard",
             "/search/results?q=adversarial+markup", "/related?text=XSSGuard+sanitiser+benchmark"]
    for path in pages:
        r = client.get(path)
        assert r.status_code == 200, path
        for needle in LIVE_MARKUP:
            assert needle not in r.text, (path, needle)
    paper_html = client.get(f"/paper/{xss_id}").text
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in paper_html
    assert "&lt;img src=x onerror=" in paper_html
    assert "javascript:window.__xss=7" in paper_html  # shown as text, not as a link


def test_language_switch_translates_the_interface(client):
    try:
        r = client.get("/lang/zh", params={"next": "/c/ICML 2024"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/c/ICML")
        html = client.get("/").text
        assert "论文集" in html and 'lang="zh-CN"' in html
    finally:
        client.get("/lang/en", params={"next": "/"})
    assert "Collections" in client.get("/").text


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example"])
def test_language_switch_never_redirects_off_site(client, target):
    r = client.get("/lang/en", params={"next": target}, follow_redirects=False)
    assert r.headers["location"] == "/"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_untranslated_keys_on_any_page(client, xss_id, lang):  # noqa: F811
    client.cookies.set("lang", lang)
    try:
        for path in ("/", "/c/ICML 2024", "/search?q=graph", f"/paper/{xss_id}", "/topics", "/map",
                     "/compare?a=ICML+2024&b=ICLR+2024", "/related?text=graph+networks", "/library",
                     "/no-such-page"):
            html = client.get(path).text
            leaked = re.findall(r">\s*((?:nav|search|card|filter|sort|page|paper|topics|map|compare|related|"
                                r"library|home|error|feature)\.[a-z_.]+)", html)
            assert not leaked, (path, leaked)
    finally:
        client.cookies.delete("lang")


def test_unknown_collection_and_paper_are_404_pages(client):
    for path in ("/c/No Such Venue 1999", "/paper/000000000000", "/paper/..%2f..%2fetc"):
        r = client.get(path)
        assert r.status_code == 404 and "<html" in r.text


def test_invalid_page_parameters_are_4xx_pages(client):
    for path, params in [("/c/ICML 2024", {"offset": -5}), ("/c/ICML 2024", {"sort": "x"}),
                         ("/search", {"mode": "x"}), ("/topics", {"level": "x"}),
                         ("/map", {"focus": "<script>"}), ("/related", {"text": "x" * 30_000})]:
        r = client.get(path, params=params)
        assert 400 <= r.status_code < 500 and "invalid parameters" in r.text, (path, r.status_code)


def test_paper_page_shows_abstract_facts_and_related(client):
    papers = client.get("/api/papers", params={"collection": "ICML 2024", "limit": 3}).json()
    html = client.get(f"/paper/{papers[0]['id']}").text
    assert papers[0]["abstract"][:60].replace("'", "&#39;") in html.replace("&#34;", '"')
    related = html.split('id="related"', 1)[1]
    assert len(CARD.findall(related)) >= 3


def test_paper_page_links_its_topic_and_the_topic_lists_it(client):
    from markupsafe import escape

    topics = client.get("/api/topics", params={"collection": "ICML 2024"}).json()
    assert len(topics) >= 2
    topic = topics[0]
    pid = topic["papers"][0]
    html = client.get(f"/paper/{pid}").text
    assert f"topic={topic['id']}" in html and str(escape(topic["label"])) in html
    listing = client.get("/topics", params={"collection": "ICML 2024", "topic": topic["id"]}).text
    assert set(CARD.findall(listing)) == set(topic["papers"][:50])


def test_collection_sorted_by_topic_groups_papers_under_topic_headings(client):
    from markupsafe import escape

    topics = client.get("/api/topics", params={"collection": "ICML 2024"}).json()
    html = client.get("/c/ICML 2024", params={"sort": "topic", "limit": 200}).text
    headings = re.findall(r'<h2 class="group"><a [^>]*>([^<]*)</a>', html)
    assert headings == [str(escape(tp["label"])) for tp in topics]


def test_search_page_explains_the_second_stage(client):
    html = client.get("/search?q=graph+networks+for+molecules").text
    assert "second stage" in html and "share of the query" in html
    # the sum shown is the result's score: fusion + weighted second-stage signals
    assert re.search(r"word pairs in order [-0-9.]+ = [-0-9.]+", html)
