"""One search box per page: the header's quick search is left out where the page has its own
(home, search); every other page keeps it."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from web_support import web_db  # noqa: F401  (fixture)


@pytest.fixture(scope="module")
def client(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.mark.parametrize("url", ["/", "/search", "/search?q=graph+networks", "/c/ICML 2024", "/topics", "/compare"])
def test_exactly_one_search_box(client, url):
    html = client.get(url).text
    assert html.count('type="search" name="q"') == 1, url
