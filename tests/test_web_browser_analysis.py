"""The map, topics and compare pages in a real browser (Debian chromium through Playwright)
against a real `paperscope serve`: map labels inside the canvas, clear of each other and on
their own topic's points; the topics grid using the page width; compare pre-selected.
Screenshots go to test-artifacts/web/."""
from __future__ import annotations

import pytest

from test_web_browser import browser, page, poll, shot  # noqa: F401  (fixtures)
from web_support import server, web_db  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def test_map_labels_stay_inside_never_overlap_and_sit_on_their_topic(page, server):  # noqa: F811
    page.goto(server.url + "/map?collection=ICML+2024")
    page.wait_for_selector("#map[data-ready='1']")
    labels = page.evaluate("window.paperscopeMap.labels()")
    size = page.evaluate("window.paperscopeMap.size()")
    topics = {p["topic"] for p in page.evaluate(
        "window.paperscopeMap.ids().map(id => ({topic: window.paperscopeMap.topicOf(id)}))")}
    assert len(labels) == len(topics) >= 2  # every topic labelled
    for b in labels:  # never cut off
        assert b["w"] / 2 <= b["x"] <= size["w"] - b["w"] / 2
        assert b["h"] / 2 <= b["y"] <= size["h"] - b["h"] / 2
    for i, a in enumerate(labels):  # never overlapping
        for b in labels[:i]:
            assert abs(a["x"] - b["x"]) * 2 >= a["w"] + b["w"] or abs(a["y"] - b["y"]) * 2 >= a["h"] + b["h"], (a, b)
    points = page.evaluate("""() => window.paperscopeMap.ids().map(id => {
        const p = window.paperscopeMap.screenPoint(id); return {x: p.x, y: p.y, t: window.paperscopeMap.topicOf(id)}; })""")
    for b in labels:  # the points nearest a label's anchor are mostly of its topic
        near = sorted(points, key=lambda p: (p["x"] - b["ax"]) ** 2 + (p["y"] - b["ay"]) ** 2)[:7]
        assert sum(p["t"] == b["topic"] for p in near) >= 4, (b, near)
    shot(page, "map-labels")
    assert not page.problems, page.problems


def test_topics_grid_uses_the_width_and_shows_papers(page, server):  # noqa: F811
    page.goto(server.url + "/topics?collection=ICML+2024")
    grid = page.locator("#topic-grid").bounding_box()
    assert grid["width"] > 900  # of a 1280 px window: not a narrow column
    cards = page.locator("#topic-grid .topic-card")
    assert cards.count() >= 2
    first = cards.first
    assert first.locator(".chip").count() >= 3 and first.locator(".topic-preview a").count() >= 3
    assert first.locator(".topic-preview a").first.is_visible()
    shot(page, "topics-grid")
    first.locator("h3 a").click()
    page.locator("#topic-papers article.card").first.wait_for()
    assert not page.problems, page.problems


def test_compare_opens_with_two_collections_chosen(page, server):  # noqa: F811
    page.goto(server.url + "/compare")
    a, b = page.locator("select[name=a]").input_value(), page.locator("select[name=b]").input_value()
    assert a and b and a != b
    page.locator("form[action='/compare'] button[type=submit]").click()
    page.locator("#compare-result").wait_for()
    assert page.locator(".small-side").count() == 2  # the example collections are small
    shot(page, "compare")
    assert not page.problems, page.problems
