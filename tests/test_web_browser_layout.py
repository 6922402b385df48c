"""Layout a user sees in a real browser (Debian chromium), at desktop and phone width: the home
page's "Topics · Map" links on one line, every input's placeholder shown whole, and (the map)
topic labels that leave the papers visible and never end mid-word."""
from __future__ import annotations

import pytest

from test_web_browser import ARGS, CHROMIUM, poll, shot  # noqa: F401
from web_support import server, web_db  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def _page(browser, viewport):
    context = browser.new_context(viewport=viewport)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    return context, pg


# The placeholder's text width in the input's own font, against the room inside the input.
CUT_PLACEHOLDERS = """() => {
  const ctx = document.createElement('canvas').getContext('2d'), out = [];
  for (const el of document.querySelectorAll('input[placeholder]')) {
    if (!el.offsetParent || !el.placeholder) continue;
    const cs = getComputedStyle(el);
    ctx.font = cs.fontStyle + ' ' + cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
               - (el.type === 'search' ? 14 : 0);  // the clear button's room
    const need = ctx.measureText(el.placeholder).width;
    if (need > room) out.push({name: el.name || el.id, placeholder: el.placeholder, need, room});
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_placeholders_are_shown_whole(browser, server, viewport):  # noqa: F811
    context, pg = _page(browser, viewport)
    try:
        cut = {}
        for path in ("/", "/search", "/map", "/experts", "/trends", "/topics", "/compare", "/library", "/match"):
            pg.goto(server.url + path)
            cut.update({f"{path} {c['name']}": c for c in pg.evaluate(CUT_PLACEHOLDERS)})
        assert cut == {}
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_home_topics_and_map_links_sit_on_one_line(browser, server, viewport):  # noqa: F811
    context, pg = _page(browser, viewport)
    try:
        pg.goto(server.url + "/")
        rows = pg.evaluate("""() => [...document.querySelectorAll('.collection-list .links')].map(s =>
            [...s.querySelectorAll('a')].map(a => Math.round(a.getBoundingClientRect().top)))""")
        assert rows and all(len(r) == 2 and r[0] == r[1] for r in rows), rows
    finally:
        context.close()
