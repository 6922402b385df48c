"""/related: the pasted draft travels in the request body (never in the URL, so never in the
browser history or an access log), and the page answers it like the old GET form."""
from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from web_support import web_db  # noqa: F401  (fixture)

CARD = re.compile(r'<article class="card" data-id="([^"]+)"')


@pytest.fixture(scope="module")
def client(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url="http://127.0.0.1:8000") as c:
        yield c


def test_the_draft_form_posts_its_text(client):
    html = client.get("/related").text
    form = re.search(r'<form[^>]*class="related-form"[^>]*>', html).group(0)
    assert 'method="post"' in form and 'action="/related"' in form


def test_a_posted_draft_finds_the_same_papers_as_the_query_string(client):
    draft = "We compress neural networks by training low rank factorised layers with importance ordering."
    posted = client.post("/related", data={"text": draft, "collection": ""})
    assert posted.status_code == 200
    assert CARD.findall(posted.text) == CARD.findall(client.get("/related", params={"text": draft}).text)
    assert len(CARD.findall(posted.text)) >= 5
    assert draft in posted.text  # kept in the text box for editing


def test_a_posted_draft_is_checked_like_any_input(client):
    assert client.post("/related", data={"text": "x" * 30_000}).status_code == 422
    assert client.post("/related", content=b"{}", headers={"content-type": "application/json"}).status_code == 415
