"""`resolve` on the HTTP API (`POST /api/resolve`, a guarded write; dry_run changes nothing) and
as the MCP tool (writing only with --allow-writes), against local venue and arXiv servers."""
from __future__ import annotations

import json

import pytest
from arxiv_server import ArxivServer
from fastapi.testclient import TestClient
from mcp_support import data, error_text, run_mcp
from source_servers import from_corpora

from paperscope.library import Library

BASE = "http://127.0.0.1:8000"


@pytest.fixture()
def db(monkeypatch, tmp_path, samples_dir):
    with from_corpora(None, icml_limit=10) as venues, ArxivServer([]) as arxiv:
        for name, value in {"PAPERSCOPE_OPENREVIEW_URL": venues.url, "PAPERSCOPE_VIRTUAL_URL": venues.url,
                            "PAPERSCOPE_PMLR_URL": venues.url, "PAPERSCOPE_ARXIV_URL": arxiv.url,
                            "PAPERSCOPE_FETCH_INTERVAL": "0", "PAPERSCOPE_FETCH_BACKOFF": "0.01",
                            "XDG_CACHE_HOME": str(tmp_path / "cache")}.items():
            monkeypatch.setenv(name, value)
        path = tmp_path / "lib.db"
        with Library.open(path) as lib:
            lib.ingest([f for f in sorted(samples_dir.glob("*.txt")) if "ICLR" in f.read_text("utf-8")[:40]],
                       embed=False)
        yield path


def _titled(path) -> int:
    with Library.open(path, readonly=True) as lib:
        return sum(1 for p in lib.papers(collection="ICLR 2024") if p["title"] and len(p["collections"]) > 1)


def test_http_api_resolve_is_a_guarded_write_with_a_dry_run(db):
    from paperscope.web.app import create_app

    with TestClient(create_app(db), base_url=BASE) as c:
        r = c.post("/api/resolve", json={"collection": "ICLR 2024", "dry_run": True})
        assert r.status_code == 200, r.text
        assert (r.json()["untitled_before"], r.json()["resolved_by_venue"]) == (38, 38)
        assert c.get("/api/stats").json()["papers"] == 38  # the dry run changed nothing
        assert c.post("/api/resolve", json={"collection": "ICLR 2024", "dry_run": "maybe"}).status_code == 422
        r = c.post("/api/resolve", json={"collection": "ICLR 2024"})
        assert r.status_code == 200 and r.json()["still_untitled"] == 0
        assert c.post("/api/resolve", json={"collection": "NIPS 1999"}).status_code in (400, 404, 422)
    assert _titled(db) == 38
    with TestClient(create_app(db, host="0.0.0.0"), base_url="http://192.0.2.10:8000") as c:
        assert c.post("/api/resolve", json={"dry_run": True}).status_code == 403


def test_mcp_resolve_tool_writes_only_with_allow_writes(db):
    async def calls(session):
        refused = error_text(await session.call_tool("resolve", {"dry_run": False}))
        dry = data(await session.call_tool("resolve", {"collection": "ICLR 2024", "dry_run": True}))
        return refused, dry

    refused, dry = run_mcp(db, calls)
    assert "read-only" in refused
    assert dry["resolved_by_venue"] == 38
    assert _titled(db) == 0
