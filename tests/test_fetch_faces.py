"""`fetch` on every face: the HTTP API (`POST /api/fetch`, a guarded write) and the MCP tool
(a write tool: only with --allow-writes), both against a local test source server."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from mcp_support import data, error_text, run_mcp
from source_servers import Fault, from_corpora

from paperscope.library import Library

BASE = "http://127.0.0.1:8000"


@pytest.fixture()
def server(monkeypatch, tmp_path):
    with from_corpora(None, icml_limit=10) as s:
        for name, value in {"PAPERSCOPE_OPENREVIEW_URL": s.url, "PAPERSCOPE_VIRTUAL_URL": s.url,
                            "PAPERSCOPE_PMLR_URL": s.url, "PAPERSCOPE_FETCH_INTERVAL": "0",
                            "PAPERSCOPE_FETCH_BACKOFF": "0.01", "XDG_CACHE_HOME": str(tmp_path / "cache")}.items():
            monkeypatch.setenv(name, value)
        yield s


def app_for(db, **kw):
    from paperscope.web.app import create_app

    return create_app(db, **kw)


def test_http_api_fetch_is_a_guarded_write(server, tmp_path):
    db = tmp_path / "lib.db"
    Library.open(db).close()
    with TestClient(app_for(db), base_url=BASE) as c:
        r = c.post("/api/fetch", json={"venue": "iclr", "year": 2024})
        assert r.status_code == 200, r.text
        assert (r.json()["added"], r.json()["source"]) == (60, "openreview")
        assert c.get("/api/stats").json()["papers"] == 60
        assert c.post("/api/fetch", json={"venue": "iclr", "year": "soon"}).status_code == 422
        assert c.post("/api/fetch", json={"venue": "iclr", "year": 2024, "base_url": "http://x"}).json()["unchanged"] == 60
        server.add(Fault("500", times=None))
        r = c.post("/api/fetch", json={"venue": "iclr", "year": 2024, "source": "openreview"})
        assert r.status_code == 502 and "server error (500)" in r.json()["error"]
    with TestClient(app_for(db, host="0.0.0.0"), base_url="http://192.0.2.10:8000") as c:
        r = c.post("/api/fetch", json={"venue": "iclr", "year": 2024})
        assert r.status_code == 403 and "token" in r.json()["error"]


def test_mcp_fetch_tool_needs_allow_writes(server, tmp_path):
    db = tmp_path / "lib.db"
    Library.open(db).close()

    async def refused(session):
        return error_text(await session.call_tool("fetch", {"venue": "ICLR", "year": 2024}))

    assert "read-only" in run_mcp(db, refused)

    async def fetches(session):
        return data(await session.call_tool("fetch", {"venue": "ICLR", "year": 2018}))

    report = run_mcp(db, allow_writes=True, body=fetches)
    assert (report["added"], report["not_accepted"]) == (12, 8)
    with Library.open(db, readonly=True) as lib:
        assert lib.stats()["papers"] == 12
