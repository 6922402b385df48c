"""`GET/POST /api/ask` and the `/ask` page on a real `paperscope serve`, and the MCP tool `ask`
over stdio: the same answer as the library gives, bad fields answered 4xx naming the field,
the hostile list's markup inert on the page."""
from __future__ import annotations

import html

import httpx
import pytest

from mcp_support import data, error_text, run_mcp
from web_support import server, web_db, xss_id  # noqa: F401  (fixtures)

QUESTION = "How can one recover the original weights of a model from several LoRA fine-tunes of it?"


def spectral_id(base: str) -> str:
    papers = httpx.get(base + "/api/papers", params={"collection": "ICML 2024", "limit": 500}).json()
    return next(p["id"] for p in papers if "Spectral DeTuning" in p["abstract"])


def test_get_and_post_give_the_same_cited_answer(server):  # noqa: F811
    target = spectral_id(server.url)
    got = httpx.get(server.url + "/api/ask", params={"question": QUESTION, "limit": 3}, timeout=60)
    assert got.status_code == 200, got.text
    posted = httpx.post(server.url + "/api/ask", json={"question": QUESTION, "limit": 3}, timeout=60)
    assert posted.status_code == 200, posted.text
    assert got.json() == posted.json()
    out = got.json()
    assert out["citations"][0]["id"] == target and len(out["citations"]) <= 3
    assert out["mode"] == "extractive" and out["weak"] is False and "[1]" in out["answer"]
    scoped = httpx.post(server.url + "/api/ask", json={"question": QUESTION, "venue": "ICLR", "year": 2024},
                        timeout=60).json()
    assert target not in {c["id"] for c in scoped["citations"]}


@pytest.mark.parametrize("method,payload,field", [
    ("GET", {"limit": 3}, "question"),
    ("GET", {"question": QUESTION, "limit": 0}, "limit"),
    ("GET", {"question": "x" * 2001}, "question"),
    ("GET", {"question": QUESTION, "year": "soon"}, "year"),
    ("POST", {"limit": 3}, "question"),
    ("POST", {"question": QUESTION, "limit": "five"}, "limit"),
    ("POST", {"question": QUESTION, "limit": 21}, "limit"),
    ("POST", {"question": ["a list"]}, "question"),
    ("POST", {"question": QUESTION, "colection": "ICML 2024"}, "colection"),
    ("POST", {"question": "   "}, "question"),
])
def test_a_bad_field_is_a_4xx_naming_it(server, method, payload, field):  # noqa: F811
    if method == "GET":
        answer = httpx.get(server.url + "/api/ask", params=payload, timeout=60)
    else:
        answer = httpx.post(server.url + "/api/ask", json=payload, timeout=60)
    assert 400 <= answer.status_code < 500, answer.text
    assert field in answer.json()["error"]


def test_a_body_that_is_not_a_json_object_is_refused(server):  # noqa: F811
    for body, says in ((b"question=x", "not JSON"), (b"[1]", "JSON object"), (b"\xff\xfe", "UTF-8")):
        answer = httpx.post(server.url + "/api/ask", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400 and says in answer.json()["error"], answer.text
    unknown = httpx.get(server.url + "/api/ask", params={"question": QUESTION, "collection": "nope"})
    assert unknown.status_code == 404 and "nope" in unknown.json()["error"]


def test_the_page_links_citations_to_papers_and_keeps_hostile_text_inert(server, xss_id):  # noqa: F811
    target = spectral_id(server.url)
    page = httpx.get(server.url + "/ask", params={"question": QUESTION}, timeout=60)
    assert page.status_code == 200
    assert f'<a class="cite" href="/paper/{target}"' in page.text
    assert f'id="source-1" data-n="1" data-id="{target}"' in page.text
    hostile = httpx.get(server.url + "/ask", params={"question": "a sanitiser benchmark for scholarly front ends"},
                        timeout=60)
    assert f'data-id="{xss_id}"' in hostile.text
    assert "<script>window.__xss" not in hostile.text and "onerror=" not in hostile.text
    assert html.escape("<script>window.__xss=1</script>", quote=True) in hostile.text
    assert "data-stream" not in hostile.text  # no model configured: nothing to stream


def test_the_mcp_tool_answers_and_reports_mistakes(web_db):  # noqa: F811
    async def body(session):
        good = data(await session.call_tool("ask", {"question": QUESTION, "limit": 2}))
        empty = await session.call_tool("ask", {"question": ""})
        unknown = await session.call_tool("ask", {"question": QUESTION, "collection": "nope"})
        return good, empty, unknown

    from paperscope.library import Library

    with Library.open(web_db, readonly=True) as lib:
        target = next(p["id"] for p in lib.papers() if "Spectral DeTuning" in p["abstract"])
    good, empty, unknown = run_mcp(web_db, body)
    assert good["mode"] == "extractive" and len(good["citations"]) <= 2
    assert good["citations"][0]["id"] == target
    assert "question" in error_text(empty)
    assert "nope" in error_text(unknown)
