"""Layout a user sees in a real browser (Debian chromium), at desktop and phone width: the home
page's "Topics · Map" links on one line, every input's placeholder shown whole, and (the map)
topic labels that leave the papers visible and never end mid-word."""
from __future__ import annotations

import itertools

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


@pytest.fixture(scope="module")
def icml_server(tmp_path_factory):
    """The bundled ICML 2024 proceedings (2,634 papers, 15 topics): the map the defect was seen on."""
    from paperscope.library import Library
    from web_support import REPO, start_server, stop_server

    db = tmp_path_factory.mktemp("icml") / "icml.db"
    with Library.open(db) as lib:
        lib.ingest([REPO / "examples" / "proceedings"], embed=False)
        lib.map(venue="ICML", year=2024)  # computed once here, stored in the library
        lib.topics(venue="ICML", year=2024)
    server = start_server(db)
    yield server
    stop_server(server)


LABELS_ON_CANVAS = """() => {
  const m = window.paperscopeMap, size = m.size(), labels = m.labels();
  const inside = (p, b) => Math.abs(p.x - b.x) * 2 <= b.w && Math.abs(p.y - b.y) * 2 <= b.h;
  const pts = m.ids().map(id => m.screenPoint(id));
  return {w: size.w, h: size.h, labels,
          area: labels.reduce((s, b) => s + b.w * b.h, 0) / (size.w * size.h),
          hidden: pts.filter(p => labels.some(b => inside(p, b))).length / pts.length};
}"""


def _map(browser, server, viewport, name):
    context, pg = _page(browser, viewport)
    pg.goto(server.url + "/map?collection=ICML+2024")
    poll(pg, "() => document.getElementById('map').dataset.ready === '1'", seconds=120)
    shot(pg, name)
    found = pg.evaluate(LABELS_ON_CANVAS)
    context.close()
    return found


def _apart(labels):
    for a, b in itertools.combinations(labels, 2):
        assert abs(a["x"] - b["x"]) * 2 >= a["w"] + b["w"] or abs(a["y"] - b["y"]) * 2 >= a["h"] + b["h"], (a, b)


@pytest.mark.slow
def test_map_labels_leave_the_papers_visible_at_phone_width(browser, icml_server):
    found = _map(browser, icml_server, PHONE, "map-phone")
    assert found["w"] < 400 and found["labels"]
    assert found["area"] <= 0.12, found["area"]      # labels cover little of the map
    assert found["hidden"] <= 0.08, found["hidden"]  # and hide few papers
    _apart(found["labels"])
    for b in found["labels"]:
        assert b["w"] / 2 <= b["x"] <= found["w"] - b["w"] / 2


@pytest.mark.slow
def test_map_labels_are_whole_terms_on_desktop(browser, icml_server):
    import httpx

    topics = {t["id"]: t["label"] for t in httpx.get(icml_server.url + "/api/topics",
                                                       params={"collection": "ICML 2024"}, timeout=120).json()}
    found = _map(browser, icml_server, DESKTOP, "map-desktop")
    assert len(found["labels"]) >= 10
    _apart(found["labels"])
    for b in found["labels"]:
        terms = [t.strip() for t in topics[b["topic"]].split(",")]
        shown = b["label"].split(", ")
        assert shown == terms[:len(shown)], (b["label"], topics[b["topic"]])  # leading terms, each whole
