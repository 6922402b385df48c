"""`paperscope mcp` end to end: the MCP SDK's own client starts the server over stdio on a copy of
the example library and calls every tool, reads the collections, and sees validation errors,
user errors and the read-only guard as tool errors it can read."""
from __future__ import annotations

import json
import shutil

import pytest

from mcp_support import data, error_text, run_mcp
from web_support import web_db  # noqa: F401  (fixture: the example lists + a hostile list)

pytest.importorskip("mcp")


@pytest.fixture()
def db(web_db, tmp_path):  # noqa: F811
    copy = tmp_path / "lib.db"
    shutil.copy(web_db, copy)
    return copy


def test_an_assistant_uses_every_tool_over_stdio(db):
    async def body(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        assert {"search", "related", "show", "topics", "compare", "recommend", "tag", "export"} <= tools
        hits = data(await session.call_tool("search", {"query": "low rank factorised layers", "limit": 5}))
        assert 1 <= len(hits) <= 5 and hits[0]["rank"] == 1
        first = hits[0]["id"]
        paper = data(await session.call_tool("show", {"paper_id": first}))
        assert paper["id"] == first and paper["abstract"]
        near = data(await session.call_tool("related", {"paper_id": first, "limit": 3}))
        assert len(near) == 3 and first not in [h["id"] for h in near]
        draft = data(await session.call_tool("related", {"text": paper["abstract"], "limit": 3}))
        assert len(draft) == 3 and first not in [h["id"] for h in draft]  # the draft's own text is left out
        assert {h["id"] for h in draft} & {h["id"] for h in near}
        topics = data(await session.call_tool("topics", {"collection": "ICML 2024"}))
        assert topics and all(t["label"] and len(t["papers"]) <= 10 for t in topics)
        cmp = data(await session.call_tool("compare", {"a": "ICML 2024", "b": "ICLR 2024"}))
        assert cmp["a"]["name"] == "ICML 2024" and cmp["warnings"]
        more = data(await session.call_tool("recommend", {"ids": [first], "limit": 3}))
        assert len(more) == 3
        bib = data(await session.call_tool("export", {"format": "bibtex", "ids": [first]}))
        assert bib["text"].lstrip().startswith("@") and bib["entries"] == 1
        listed = await session.list_resources()
        assert any(str(r.uri) == "paperscope://collections" for r in listed.resources)
        read = await session.read_resource("paperscope://collections")
        names = [c["name"] for c in json.loads(read.contents[0].text)]
        assert "ICML 2024" in names
        return first

    run_mcp(db, body)


def test_bad_input_and_writes_are_refused_with_readable_errors(db):
    async def body(session):
        assert "at least" in error_text(await session.call_tool("search", {"query": ""})).lower() or \
            "string" in error_text(await session.call_tool("search", {"query": ""})).lower()
        assert error_text(await session.call_tool("search", {"query": "x", "limit": 1000}))
        assert "no paper" in error_text(await session.call_tool("show", {"paper_id": "zzzz0000"}))
        assert "exactly one" in error_text(await session.call_tool("related", {}))
        assert "no collection" in error_text(await session.call_tool("topics", {"collection": "NeurIPS 1999"}))
        assert "same papers" in error_text(await session.call_tool("compare", {"a": "ICML 2024", "b": "ICML 2024"}))
        hits = data(await session.call_tool("search", {"query": "graph networks", "limit": 1}))
        refused = error_text(await session.call_tool("tag", {"ids": [hits[0]["id"]], "tags": ["to-read"]}))
        assert "read-only" in refused
        return hits[0]["id"]

    pid = run_mcp(db, body)
    from paperscope.library import Library

    with Library.open(db, readonly=True) as lib:
        assert lib.show(pid)["tags"] == []


def test_with_allow_writes_the_assistant_can_tag(db):
    async def body(session):
        hits = data(await session.call_tool("search", {"query": "graph networks", "limit": 1}))
        out = data(await session.call_tool("tag", {"ids": [hits[0]["id"]], "tags": ["to-read"]}))
        assert out["tags"] == ["to-read"]
        return hits[0]["id"]

    pid = run_mcp(db, body, allow_writes=True)
    from paperscope.library import Library

    with Library.open(db, readonly=True) as lib:
        assert lib.show(pid)["tags"] == ["to-read"]


def test_export_says_which_entries_lack_a_title_and_can_leave_them_out(db):
    from paperscope.library import Library

    with Library.open(db, readonly=True) as lib:
        untitled = [p["id"] for p in lib.papers(limit=10_000) if not p.get("title")][:2]
        titled = [p["id"] for p in lib.papers(limit=10_000) if p.get("title") and p.get("authors")][:1]
    assert len(untitled) == 2 and titled

    async def body(session):
        both = data(await session.call_tool("export", {"format": "bibtex", "ids": untitled + titled}))
        assert both["entries"] == 3 and both["untitled"] == 2 and both["skipped"] == 0
        assert both["warning"] and "2 of 3" in both["warning"]
        kept = data(await session.call_tool("export", {"format": "ris", "ids": untitled + titled,
                                                        "skip_untitled": True}))
        assert kept["entries"] == 1 and kept["skipped"] == 2 and kept["text"].count("ER  -") == 1
        return kept

    run_mcp(db, body)
