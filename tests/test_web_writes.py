"""Write endpoints (tags, note, star, read): allowed on a loopback bind, refused on a public
bind without a token, gated by the token when one is set, never from another origin."""
from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient

from web_support import web_db  # noqa: F401  (fixture)

BASE = "http://127.0.0.1:8000"


@pytest.fixture()
def db_copy(web_db, tmp_path):  # noqa: F811
    """A private copy of the web library (these tests write)."""
    target = tmp_path / "copy.db"
    src, dst = sqlite3.connect(web_db), sqlite3.connect(target)
    src.backup(dst)
    src.close()
    dst.close()
    return target


def app_for(db, **kw):
    from paperscope.web.app import create_app

    return create_app(db, **kw)


def first_id(client) -> str:
    return client.get("/api/papers", params={"limit": 1}).json()[0]["id"]


def test_tag_note_star_read_round_trip_on_loopback(db_copy):
    with TestClient(app_for(db_copy), base_url=BASE) as c:
        pid = first_id(c)
        r = c.post(f"/api/papers/{pid}/tags", json={"tags": ["to-read", "low rank"]})
        assert r.status_code == 200 and {"to-read", "low rank"} <= set(r.json()["tags"])
        assert c.delete(f"/api/papers/{pid}/tags/low rank").json()["tags"] == ["to-read"]
        c.post(f"/api/papers/{pid}/tags", json={"tags": ["cs/LG"]})
        assert c.delete(f"/api/papers/{pid}/tags/cs%2FLG").json()["tags"] == ["to-read"]  # "/" in a tag
        assert c.put(f"/api/papers/{pid}/note", json={"note": "compare with <LoRA>"}).json()["note"] == "compare with <LoRA>"
        assert c.put(f"/api/papers/{pid}/star", json={"starred": True}).json()["starred"] is True
        assert c.put(f"/api/papers/{pid}/read", json={"read": True}).json()["read"] is True
        tags = c.get("/api/tags").json()
        assert any((t.get("tag") or t.get("name")) == "to-read" for t in tags)
        page = c.get("/library", params={"tag": "to-read"}).text
        assert f'data-id="{pid}"' in page
        paper_page = c.get(f"/paper/{pid}").text
        assert "compare with &lt;LoRA&gt;" in paper_page


def test_writes_refused_on_public_bind_without_token(db_copy):
    with TestClient(app_for(db_copy, host="0.0.0.0"), base_url="http://192.0.2.10:8000") as c:
        pid = first_id(c)  # reads still work
        r = c.post(f"/api/papers/{pid}/tags", json={"tags": ["x"]})
        assert r.status_code == 403 and "token" in r.json()["error"]
        assert c.put(f"/api/papers/{pid}/note", json={"note": "x"}).status_code == 403
        assert c.get(f"/api/papers/{pid}").json().get("tags", []) == []
        assert 'class="js-star"' not in c.get("/c/ICML 2024").text  # no write controls shown


def test_token_unlocks_writes_on_public_bind(db_copy):
    with TestClient(app_for(db_copy, host="0.0.0.0", token="s3cret-token"), base_url="http://192.0.2.10:8000") as c:
        pid = first_id(c)
        url = f"/api/papers/{pid}/tags"
        assert c.post(url, json={"tags": ["x"]}).status_code == 401
        assert c.post(url, json={"tags": ["x"]}, headers={"authorization": "Bearer wrong"}).status_code == 401
        ok = c.post(url, json={"tags": ["x"]}, headers={"authorization": "Bearer s3cret-token"})
        assert ok.status_code == 200 and "x" in ok.json()["tags"]
        c.get("/", params={"token": "s3cret-token"})  # a browser visit sets the cookie
        assert c.post(url, json={"tags": ["y"]}).status_code == 200


def test_cross_origin_and_form_posts_are_refused(db_copy):
    with TestClient(app_for(db_copy), base_url=BASE) as c:
        pid = first_id(c)
        url = f"/api/papers/{pid}/tags"
        r = c.post(url, json={"tags": ["x"]}, headers={"origin": "http://evil.example"})
        assert r.status_code == 403
        r = c.post(url, content=b"tags=x", headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code in (415, 422)
        assert c.get(f"/api/papers/{pid}").json().get("tags", []) == []


def test_bad_write_bodies_are_4xx(db_copy):
    with TestClient(app_for(db_copy), base_url=BASE) as c:
        pid = first_id(c)
        for method, path, body in [("post", f"/api/papers/{pid}/tags", {"tags": []}),
                                   ("post", f"/api/papers/{pid}/tags", {"tags": ["x" * 500]}),
                                   ("post", f"/api/papers/{pid}/tags", {"tags": "not a list"}),
                                   ("put", f"/api/papers/{pid}/star", {"starred": "maybe"}),
                                   ("put", f"/api/papers/{pid}/note", {"note": "x" * 30_000}),
                                   ("post", "/api/papers/000000000000/tags", {"tags": ["x"]})]:
            r = getattr(c, method)(path, json=body)
            assert 400 <= r.status_code < 500 and r.json()["error"], (path, body, r.status_code)


def test_serve_command_prints_its_url_and_answers(web_db):  # noqa: F811
    from web_support import start_server, stop_server

    import httpx

    srv = start_server(web_db)
    try:
        assert srv.url.startswith("http://127.0.0.1:")
        r = httpx.get(srv.url + "/")
        assert r.status_code == 200 and "paperscope" in r.text
        assert "content-security-policy" in r.headers
    finally:
        stop_server(srv)


def test_serve_with_two_worker_processes(web_db):  # noqa: F811
    from web_support import start_server, stop_server

    import httpx

    srv = start_server(web_db, "--workers", "2")
    try:
        answers = {httpx.get(srv.url + "/api/stats").json()["papers"] for _ in range(6)}
        assert len(answers) == 1 and answers.pop() >= 96
    finally:
        stop_server(srv)


def test_cached_pages_follow_writes_and_language(db_copy):
    with TestClient(app_for(db_copy), base_url=BASE) as c:
        pid = first_id(c)
        c.get(f"/paper/{pid}")
        again = c.get(f"/paper/{pid}")
        assert again.headers.get("x-cache") == "hit"  # the second visit is served from the cache
        c.put(f"/api/papers/{pid}/note", json={"note": "seen at the poster"})
        fresh = c.get(f"/paper/{pid}")
        assert fresh.headers.get("x-cache") is None and "seen at the poster" in fresh.text
        c.cookies.set("lang", "zh")
        assert "论文集" in c.get("/").text
        c.cookies.set("lang", "en")
        assert "Collections" in c.get("/").text


def test_a_full_disk_answers_507_and_keeps_the_library(db_copy):
    """SQLITE_FULL (here the library's page cap, as on a full disk) is the server's trouble,
    not the request's: 507, and what was written before stays."""
    with TestClient(app_for(db_copy), base_url=BASE) as c:
        pid = first_id(c)
        assert c.put(f"/api/papers/{pid}/note", json={"note": "kept"}).status_code == 200
        with c.app.state.pool.use() as lib:
            pages = lib.store.conn.execute("PRAGMA page_count").fetchone()[0]
            lib.store.conn.execute(f"PRAGMA max_page_count = {pages}")
        r = c.put(f"/api/papers/{pid}/note", json={"note": "x " * 9_000})
        assert r.status_code == 507 and "disk is full" in r.json()["error"]
        assert c.get(f"/api/papers/{pid}").json()["note"] == "kept"
