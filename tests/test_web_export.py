"""Exports over HTTP against a real `paperscope serve`: entries without a real title or authors
are counted in response headers and named in `X-Paperscope-Warning`, `skip_untitled` leaves the
untitled ones out exactly as the CLI's `--skip-untitled` does, and the "my library" page shows
the warning beside its export links (in English and in Chinese, the tag name escaped). Also
paper-type names in Chinese and the paper page's link to reviewer suggestions."""
from __future__ import annotations

import re
import sqlite3

import httpx
import pytest
from typer.testing import CliRunner

from web_support import start_server, stop_server, web_db  # noqa: F401  (fixture)

TAG = "to-read <i>x</i>"  # list text: must be escaped wherever it is shown
TITLED_TAG = "titled"
HEADERS = ("X-Paperscope-Entries", "X-Paperscope-Untitled", "X-Paperscope-No-Authors", "X-Paperscope-Skipped")


@pytest.fixture(scope="module")
def mixed(web_db, tmp_path_factory):  # noqa: F811
    """A copy of the web library plus the expertise papers (real titles and authors), with two
    tags: TAG holds three title-less, author-less example papers and two titled ones with
    authors; TITLED_TAG only titled ones. Returns (db path, {name: paper id})."""
    from expertise_support import NEW_BANDIT, write
    from paperscope.library import Library

    root = tmp_path_factory.mktemp("web-export")
    db = root / "mixed.db"
    src, dst = sqlite3.connect(web_db), sqlite3.connect(db)
    src.backup(dst)
    src.close()
    dst.close()
    with Library.open(db) as lib:
        lib.ingest([write(root / "papers.jsonl")], embed=True)
        untitled = [p["id"] for p in lib.papers(venue="ICML", year=2024) if not p["title"]][:3]
        titled = {p["title"]: p["id"] for p in lib.papers() if p["title"] and p["authors"]}
        ids = {"untitled": untitled, "bandit": titled[NEW_BANDIT["title"]],
               "lora": titled["Low-Rank Adaptation of Large Language Models"]}
        for pid in untitled + [ids["bandit"], ids["lora"]]:
            lib.tag(pid, [TAG])
        for pid in (ids["bandit"], ids["lora"]):
            lib.tag(pid, [TITLED_TAG])
    assert len(untitled) == 3
    return db, ids


@pytest.fixture(scope="module")
def srv(mixed):
    server = start_server(mixed[0])
    yield server
    stop_server(server)


def get(srv, path, **params):
    return httpx.get(srv.url + path, params=params, timeout=60)


def counts(res) -> list[int]:
    return [int(res.headers[h]) for h in HEADERS]


def test_export_with_untitled_papers_warns_in_a_header(srv):
    res = get(srv, "/api/export", format="bibtex", tag=TAG)
    assert res.status_code == 200
    assert counts(res) == [5, 3, 3, 0]
    warning = res.headers["X-Paperscope-Warning"]
    assert warning.startswith("3 of 5 entries have no real title (a derived label stands in); 3 have no authors.")
    assert "skip_untitled=true" in warning and "proceedings" in warning
    assert res.text.count("@inproceedings") + res.text.count("@article") + res.text.count("@misc") == 5
    assert res.text.count("derived by paperscope") == 3


@pytest.mark.parametrize("fmt", ["ris", "csljson", "csv", "jsonl", "markdown"])
def test_every_format_carries_the_same_counts(srv, fmt):
    res = get(srv, "/api/export", format=fmt, tag=TAG)
    assert res.status_code == 200 and counts(res) == [5, 3, 3, 0]
    assert "3 of 5 entries have no real title" in res.headers["X-Paperscope-Warning"]


def test_skip_untitled_leaves_them_out_and_says_so(srv, mixed):
    _, ids = mixed
    res = get(srv, "/api/export", format="csljson", tag=TAG, skip_untitled="true")
    assert res.status_code == 200
    assert counts(res) == [2, 0, 0, 3]
    assert res.headers["X-Paperscope-Warning"] == "left out 3 of 5 entries without a real title"
    entries = res.json()
    assert len(entries) == 2 and not any("derived" in (e.get("note") or "") for e in entries)
    assert {e["title"] for e in entries} == {"Adaptive Adversaries in Multi-Armed Bandits",
                                            "Low-Rank Adaptation of Large Language Models"}


def test_nothing_missing_means_no_warning(srv):
    res = get(srv, "/api/export", format="bibtex", tag=TITLED_TAG)
    assert res.status_code == 200 and counts(res) == [2, 0, 0, 0]
    assert "X-Paperscope-Warning" not in res.headers
    assert "derived by paperscope" not in res.text


def test_ids_select_like_the_cli_and_bad_ids_are_4xx(srv, mixed):
    _, ids = mixed
    res = get(srv, "/api/export", format="ris", ids=",".join(ids["untitled"][:2] + [ids["lora"]]))
    assert res.status_code == 200 and counts(res) == [3, 2, 2, 0]
    assert "2 of 3 entries have no real title" in res.headers["X-Paperscope-Warning"]
    bad = get(srv, "/api/export", ids="<script>")
    assert bad.status_code == 422 and "ids" in bad.text and "<script>" not in bad.text
    unknown = get(srv, "/api/export", ids="zzzzzzzz")
    assert unknown.status_code == 400 and "zzzzzzzz" in unknown.text


@pytest.mark.parametrize("skip", [False, True])
def test_the_api_export_is_the_cli_export(srv, mixed, skip):
    from paperscope.cli import app

    db, _ = mixed
    args = ["--db", str(db), "export", "-f", "bibtex", "--tag", TAG] + (["--skip-untitled"] if skip else [])
    cli = CliRunner().invoke(app, args)
    assert cli.exit_code == 0, cli.output
    api = get(srv, "/api/export", format="bibtex", tag=TAG, skip_untitled=str(skip).lower())
    assert api.text == cli.stdout
    if skip:
        assert "left out 3 of 5 entries" in cli.stderr and "left out 3 of 5 entries" in api.headers["X-Paperscope-Warning"]
    else:
        assert "3 of 5 entries have no real title" in cli.stderr
        assert "--skip-untitled" in cli.stderr and "skip_untitled=true" in api.headers["X-Paperscope-Warning"]


def test_library_page_shows_the_warning_and_links_without_untitled(srv):
    html = get(srv, "/library", tag=TAG).text
    block = html.split('id="export-warning"', 1)[1].split("</div>", 1)[0]
    assert "No real title: 3 of 5 papers" in block and "No authors: 3 of 5 papers" in block
    assert "Export only the 2 papers with a real title:" in block
    assert "skip_untitled=true" in block and "format=bibtex" in block
    assert "<i>x</i>" not in html and "&lt;i&gt;x&lt;/i&gt;" in html


def test_library_page_without_missing_fields_has_no_warning(srv):
    html = get(srv, "/library", tag=TITLED_TAG).text
    assert "export-links" in html and 'id="export-warning"' not in html


def test_library_page_warning_in_chinese(srv):
    html = httpx.get(srv.url + "/library", params={"tag": TAG}, cookies={"lang": "zh"}, timeout=60).text
    block = html.split('id="export-warning"', 1)[1].split("</div>", 1)[0]
    assert "没有真实标题：5 篇论文中的 3 篇" in block and "没有作者：5 篇论文中的 3 篇" in block
    assert "只导出有真实标题的 2 篇论文：" in block


def test_every_paper_type_has_a_chinese_name():
    from paperscope.enrich.paper_type import TYPES
    from paperscope.web import i18n

    zh, en = i18n.translator("zh"), i18n.translator("en")
    names = {ptype: i18n.type_label(ptype, zh) for ptype in TYPES}
    assert all(names[x] != x and all("\u4e00" <= ch <= "\u9fff" for ch in names[x]) for x in TYPES), names
    assert len(set(names.values())) == len(TYPES)  # no two types read the same
    assert [i18n.type_label(x, en) for x in TYPES] == list(TYPES)
    assert i18n.type_label("something-new", zh) == "something-new"  # unknown types show as stored


def test_type_badges_and_filters_read_in_chinese(srv):
    from paperscope.web import i18n

    zh = i18n.translator("zh")
    badge = re.compile(r'<span class="badge type [^"]*" data-type="([^"]+)">([^<]*)</span>')
    en_page = get(srv, "/c/ICML 2024").text
    zh_page = httpx.get(srv.url + "/c/ICML 2024", cookies={"lang": "zh"}, timeout=60).text
    en_badges, zh_badges = badge.findall(en_page), badge.findall(zh_page)
    assert len(en_badges) >= 20 and len({t for t, _ in zh_badges}) >= 2
    assert all(shown == ptype for ptype, shown in en_badges)
    assert [t for t, _ in zh_badges] == [t for t, _ in en_badges]
    assert all(shown == zh(f"type.{ptype}") for ptype, shown in zh_badges), zh_badges
    for ptype in {t for t, _ in zh_badges}:  # the type filter names them too
        assert f'<option value="{ptype}" >{zh(f"type.{ptype}")} (' in zh_page


def test_paper_page_links_to_its_reviewer_suggestions(srv, mixed):
    _, ids = mixed
    html = get(srv, f"/paper/{ids['bandit']}").text
    section = html.split('id="reviewers"', 1)[1].split("</section>", 1)[0]
    assert f'href="/reviewers?paper_id={ids["bandit"]}"' in section and "Suggest reviewers" in section
    target = get(srv, "/reviewers", paper=ids["bandit"])
    assert target.status_code == 200 and "Dan Bandit" in target.text
    assert "Jane Roe" not in target.text.split("authors-ranked", 1)[1]  # own author left out
    zh = httpx.get(srv.url + f"/paper/{ids['bandit']}", cookies={"lang": "zh"}, timeout=60).text
    assert "推荐审稿人" in zh.split('id="reviewers"', 1)[1].split("</section>", 1)[0]


def test_reviewers_page_says_when_nobody_fits(web_db):  # noqa: F811
    """The example lists give no authors: the page says why the list is empty."""
    from fastapi.testclient import TestClient

    from paperscope.library import Library
    from paperscope.web.app import create_app

    with Library.open(web_db) as lib:
        pid = next(p["id"] for p in lib.papers(venue="ICML", year=2024) if not p["authors"])
    with TestClient(create_app(web_db), base_url="http://127.0.0.1:8000") as client:
        html = client.get("/reviewers", params={"paper": pid}).text
        assert "No author to suggest" in html and "authors-ranked" not in html
        client.cookies.set("lang", "zh")
        zh = client.get("/reviewers", params={"paper": pid}).text
        assert "没有可推荐的作者" in zh


def test_no_english_left_in_chinese_cards_and_paper_facts(srv, mixed, web_db):  # noqa: F811
    """Strings that used to be written into the templates in English: "et al." on cards with
    more than three authors, "cosine" in the why-panel, the "keywords" fact."""
    from paperscope.web import i18n
    from paperscope.web.app import create_app

    _, ids = mixed
    zh, en = i18n.translator("zh"), i18n.translator("en")
    page = httpx.get(srv.url + "/search", params={"q": "bandits regret adversary"}, cookies={"lang": "zh"},
                     timeout=60).text
    assert "(cosine " not in page and f"({zh('why.cosine')} " in page
    assert "(cosine " in get(srv, "/search", q="bandits regret adversary").text
    facts = httpx.get(srv.url + f"/paper/{ids['lora']}", cookies={"lang": "zh"}, timeout=60).text
    assert "<dt>keywords</dt>" not in facts
    card = create_app(web_db).state.templates.get_template("_card.html").module.card
    many = {"id": "x1", "title": "A <b>paper</b>", "abstract": "", "authors": ["A A", "B B", "C C", "D <i>D</i>"]}
    authors = re.compile(r'<span class="authors">([^<]*)</span>')
    assert authors.search(str(card(many, t=zh))).group(1) == "A A, B B, C C 等"
    assert authors.search(str(card(many, t=en))).group(1) == "A A, B B, C C et al."
    assert "&lt;b&gt;paper&lt;/b&gt;" in str(card(many, t=zh))
