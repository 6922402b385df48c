"""A real browser (Debian chromium through Playwright) against a real `paperscope serve`:
home, search by meaning and by exact phrase as you type, open a result, related papers, the
map (click a point), the language switch, and a hostile list that must stay inert.
Screenshots go to test-artifacts/web/."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from web_support import ARTIFACTS, server, web_db, xss_id  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
CHROMIUM = os.environ.get("PAPERSCOPE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (run scripts/ensure-chromium.sh)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.problems = []  # CSP violations, script errors, dialogs (an XSS would raise one)
    pg.on("console", lambda m: pg.problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.problems.append(f"pageerror: {e}"))
    pg.on("dialog", lambda d: (pg.problems.append(f"dialog: {d.message}"), d.dismiss()))
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


def shot(pg, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def poll(pg, predicate: str, seconds: float = 20) -> None:
    """Wait until a JS predicate holds. (Playwright's wait_for_function evaluates a string,
    which this app's CSP rightly forbids; evaluate() of a function is not affected.)"""
    for _ in range(int(seconds * 10)):
        if pg.evaluate(predicate):
            return
        pg.wait_for_timeout(100)
    raise AssertionError(f"timed out waiting for {predicate}")


def cards(pg):
    return pg.locator("#results article.card")


def maestro_id(server) -> str:  # noqa: F811
    import httpx

    papers = httpx.get(server.url + "/api/papers", params={"collection": "ICML 2024", "limit": 500}).json()
    return next(p["id"] for p in papers if "propose Maestro" in p["abstract"])


def test_home_shows_collections(page, server):  # noqa: F811
    page.goto(server.url + "/")
    assert page.locator(".collection-list li").count() >= 2
    assert page.get_by_role("link", name="ICML 2024").is_visible()
    shot(page, "home")
    page.get_by_role("link", name="ICML 2024").click()
    page.wait_for_url(re.compile(r"/c/ICML"))
    assert page.locator("article.card").count() >= 20
    shot(page, "collection")
    assert not page.problems, page.problems


def test_search_by_meaning_as_you_type_then_open_result_and_related(page, server):  # noqa: F811
    target = maestro_id(server)
    page.goto(server.url + "/search")
    page.locator("#q").press_sequentially("training compressed networks with low rank factorised layers", delay=5)
    page.locator(f'#results article.card[data-id="{target}"]').wait_for()
    assert "q=training" in page.url  # the address follows the query
    shot(page, "search-meaning")
    page.locator(f'#results article.card[data-id="{target}"] h3 a').click()
    page.wait_for_url(re.compile(f"/paper/{target}"))
    assert "Maestro" in page.locator("#abstract").inner_text()
    assert page.locator("#related article.card").count() >= 3
    shot(page, "paper")
    assert not page.problems, page.problems


def test_search_by_exact_phrase_highlights_it(page, server):  # noqa: F811
    target = maestro_id(server)
    page.goto(server.url + "/search")
    page.locator("#q").fill('"importance ordering via sampling"')
    first = cards(page).first
    first.wait_for()
    assert first.get_attribute("data-id") == target
    marks = first.locator("mark").all_inner_texts()
    assert any("importance" in m.lower() or "ordering" in m.lower() for m in marks), marks
    first.locator("details.why summary").click()
    assert first.locator("details.why dl").is_visible()
    shot(page, "search-phrase")
    assert not page.problems, page.problems


def test_map_click_opens_a_paper_and_search_highlights(page, server):  # noqa: F811
    page.goto(server.url + "/map?collection=ICML+2024")
    page.wait_for_selector("#map[data-ready='1']")
    ids = page.evaluate("window.paperscopeMap.ids()")
    assert len(ids) >= 50
    page.locator("#map-q").fill("reinforcement learning")
    poll(page, "() => window.paperscopeMap.highlighted().length > 0")
    shot(page, "map")
    point = page.evaluate("(id) => window.paperscopeMap.screenPoint(id)", ids[0])
    canvas = page.locator("#map").bounding_box()
    page.mouse.move(canvas["x"] + point["x"], canvas["y"] + point["y"])
    assert page.locator("#map-tip").is_visible() and page.locator("#map-tip").inner_text().strip()
    page.mouse.click(canvas["x"] + point["x"], canvas["y"] + point["y"])
    page.wait_for_url(re.compile(r"/paper/"))
    assert page.url.rsplit("/", 1)[1] in ids
    assert not page.problems, page.problems


def test_language_switch(page, server):  # noqa: F811
    page.goto(server.url + "/c/ICML%202024")
    page.locator("#lang-switch").click()
    page.wait_for_url(re.compile(r"/c/ICML"))
    assert page.locator("header nav").inner_text().find("搜索") >= 0
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    shot(page, "collection-zh")
    page.locator("#lang-switch").click()
    page.wait_for_url(re.compile(r"/c/ICML"))
    assert "Search" in page.locator("header nav").inner_text()


def test_hostile_list_renders_inert(page, server, xss_id):  # noqa: F811
    page.goto(server.url + f"/paper/{xss_id}")
    page.locator("body[data-math='done']").wait_for(state="attached")
    title = page.locator("article.paper h1").inner_text()
    assert "<script>window.__xss=1</script>" in title and "<blink>bold</blink>" in title
    assert "<img src=x onerror=" in page.locator("#abstract").inner_text()
    assert page.evaluate("window.__xss === undefined")
    assert page.locator("main img, main iframe, main svg, main script").count() == 0
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    assert not [h for h in hrefs if h.strip().lower().startswith("javascript")]
    shot(page, "xss-paper")
    page.goto(server.url + "/search")
    page.locator("#q").fill("adversarial markup sanitiser XSSGuard")
    page.locator(f'#results article.card[data-id="{xss_id}"]').wait_for()
    page.locator(f'#results article.card[data-id="{xss_id}"] details.abstract summary').click()
    assert page.evaluate("window.__xss === undefined")
    assert page.locator("#results img, #results iframe, #results svg").count() == 0
    assert not [p for p in page.problems if "dialog" in p or "pageerror" in p], page.problems


def test_latex_renders_with_local_katex_under_the_csp(page, server):  # noqa: F811
    import httpx

    papers = httpx.get(server.url + "/api/papers", params={"limit": 500}).json()
    with_math = [p for p in papers if "$" in (p.get("abstract_source") or "")]
    if not with_math:
        pytest.skip("no LaTeX abstract in the example lists")
    page.goto(server.url + f"/paper/{with_math[0]['id']}")
    page.locator("body[data-math='done']").wait_for(state="attached")
    assert page.locator("#abstract .katex").count() >= 1
    assert not page.problems, page.problems


def test_tag_star_and_note_from_the_paper_page(page, server):  # noqa: F811
    import httpx

    target = maestro_id(server)
    page.goto(server.url + f"/paper/{target}")
    page.locator(".paper-side .js-tag").click()
    page.locator(".paper-side .tag-input").fill("low-rank <b>reading</b>")
    page.locator(".paper-side .tag-input").press("Enter")
    page.locator(".tags-line a.tag", has_text="low-rank <b>reading</b>").wait_for()
    page.locator(".paper-side .js-star").click()
    page.locator(".paper-side .js-star[data-on='yes']").wait_for(state="attached")
    page.locator("#note").fill("compare with LoRA")
    page.locator(".js-note").click()
    page.locator(".note-status", has_text="saved").wait_for()
    try:
        page.reload()
        assert page.locator(".tags-line a.tag", has_text="low-rank <b>reading</b>").count() == 1
        assert page.locator("#note").input_value() == "compare with LoRA"
        page.locator(".tags-line .js-untag[data-tag='low-rank <b>reading</b>']").click()
        page.locator(".tags-line a.tag", has_text="low-rank").wait_for(state="detached")
        page.reload()
        assert page.locator(".tags-line a.tag", has_text="low-rank").count() == 0
        page.goto(server.url + "/library")
        assert page.locator(f'article.card[data-id="{target}"]').count() == 1  # starred
        assert not page.problems, page.problems
    finally:
        from urllib.parse import quote

        api = server.url + f"/api/papers/{target}"
        httpx.delete(api + "/tags/" + quote("low-rank <b>reading</b>", safe=""))
        httpx.put(api + "/star", json={"starred": False})
        httpx.put(api + "/note", json={"note": ""})
