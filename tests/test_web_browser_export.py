"""In a real browser (Debian chromium through Playwright) against a real `paperscope serve`: the
"my library" page warns before an export that some papers have no real title or authors, its
downloads are marked (or leave the untitled papers out), the Chinese UI names paper types in
Chinese, and the paper page leads to its reviewer suggestions. Screenshots go to
test-artifacts/web/."""
from __future__ import annotations

import re
from urllib.parse import quote, urlencode

import pytest

from test_web_browser import browser, page, shot  # noqa: F401  (fixtures)
from test_web_export import TAG, mixed, srv  # noqa: F401  (fixtures)
from web_support import web_db  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser


def library_url(srv) -> str:  # noqa: F811
    return srv.url + "/library?" + urlencode({"tag": TAG})


def download(pg, link) -> str:
    with pg.expect_download() as info:
        link.click()
    return open(info.value.path(), encoding="utf-8").read()


def test_library_page_warns_and_its_downloads_match(page, srv):  # noqa: F811
    page.goto(library_url(srv))
    warning = page.locator("#export-warning")
    assert warning.is_visible()
    assert "No real title: 3 of 5 papers" in warning.inner_text()
    assert "No authors: 3 of 5 papers" in warning.inner_text()
    assert page.locator("h2").first.inner_text().startswith(TAG)  # the tag's markup shown as text
    assert page.locator("h2 i").count() == 0
    shot(page, "library-export-warning")
    marked = download(page, page.locator(".export-links a", has_text="BibTeX"))
    assert marked.count("derived by paperscope") == 3 and marked.count("\n@") + marked.startswith("@") == 5
    kept = download(page, warning.locator(".skip-untitled a", has_text="BibTeX"))
    assert "derived by paperscope" not in kept and kept.count("@inproceedings") == 2
    assert "Adaptation of Large Language Models" in kept and "Bandits" in kept
    assert not page.problems, page.problems


def test_chinese_ui_warns_and_names_paper_types(page, srv):  # noqa: F811
    from paperscope.web import i18n

    zh = i18n.translator("zh")
    page.goto(srv.url + "/lang/zh?next=" + quote("/library?" + urlencode({"tag": TAG})))
    warning = page.locator("#export-warning")
    assert "没有真实标题：5 篇论文中的 3 篇" in warning.inner_text()
    assert "只导出有真实标题的 2 篇论文" in warning.inner_text()
    page.goto(srv.url + "/c/" + quote("ICML 2024"))
    badges = page.locator(".card .badge.type")
    assert badges.count() >= 20
    for i in range(badges.count()):
        badge = badges.nth(i)
        assert badge.inner_text() == zh("type." + badge.get_attribute("data-type"))
    options = page.locator("select[name=type] option:not([value=''])").all_inner_texts()
    assert options and all(re.match(r"^[\u4e00-\u9fff]+ \(\d+\)$", o) for o in options), options
    shot(page, "collection-zh-types")
    assert not page.problems, page.problems


def test_paper_page_leads_to_its_reviewers(page, srv, mixed):  # noqa: F811
    _, ids = mixed
    page.goto(srv.url + f"/paper/{ids['bandit']}")
    link = page.locator("#reviewers a", has_text="Suggest reviewers")
    assert link.is_visible()
    link.click()
    page.wait_for_url(re.compile(r"/reviewers\?paper_id="))
    assert page.locator("h1").inner_text() == "Reviewer suggestions"
    ranked = page.locator(".authors-ranked > li")
    assert ranked.count() >= 1
    shown = " ".join(ranked.all_inner_texts())  # names, co-authors with the same papers, evidence
    assert "Dan Bandit" in shown and "Jane Roe" not in shown  # the paper's own author is left out
    shot(page, "paper-reviewers")
    page.locator("p a", has_text="Adaptive Adversaries").click()  # and back to the paper
    page.wait_for_url(re.compile(r"/paper/"))
    assert not page.problems, page.problems
