"""Markdown emphasis in list text (*Spectral DeTuning*) is shown as emphasis on the web pages and
dropped in plain displays (titles, snippets, `paperscope show`); markup in it stays inert, and
LaTeX and snake_case are left alone."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from paperscope.emphasis import md_plain
from paperscope.web.render import md_inline, md_piece
from web_support import web_db  # noqa: F401  (fixture)


def test_emphasis_is_rendered_or_dropped_and_never_live():
    assert md_plain("we present *Spectral DeTuning*, a method") == "we present Spectral DeTuning, a method"
    assert str(md_inline("the *pre-fine-tuning* weights and **all** of `lora`")) == \
        "the <em>pre-fine-tuning</em> weights and <strong>all</strong> of <code>lora</code>"
    assert str(md_inline("<script>*x*</script>")) == "&lt;script&gt;<em>x</em>&lt;/script&gt;"
    for untouched in ("snake_case_name", "2*3*4 and a * b", "$f^*$ and $g^*$", "$a_i$ and $b_j$"):
        assert md_plain(untouched) == untouched and str(md_inline(untouched)) == untouched.replace("&", "&amp;")
    assert md_piece("*Spectral") + " " + md_piece("DeTuning*,") == "Spectral DeTuning,"


@pytest.fixture(scope="module")
def spectral(web_db):  # noqa: F811
    from paperscope.library import Library

    with Library.open(web_db, readonly=True) as lib:
        return next(p for p in lib.papers() if "*Spectral DeTuning*" in p["abstract"])


def test_paper_page_card_and_cli_show_no_raw_markers(web_db, spectral):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url="http://127.0.0.1:8000") as client:
        page = client.get(f"/paper/{spectral['id']}").text
        assert "<em>Spectral DeTuning</em>" in page and "*Spectral DeTuning*" not in page
        found = client.get("/search/results", params={"q": "Spectral DeTuning recover pre-fine-tuning weights"}).text
        assert spectral["id"] in found and "*Spectral" not in found and "DeTuning*" not in found
    shown = subprocess.run([sys.executable, "-m", "paperscope", "--db", str(web_db), "show", spectral["id"]],
                           capture_output=True, text=True, check=True, env={**os.environ, "COLUMNS": "300"}).stdout
    assert "Spectral DeTuning" in shown and "*Spectral" not in shown
