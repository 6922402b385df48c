"""What a hostile or careless client meets: tokens with any characters, oversized bodies,
collection names with slashes, unknown collections on every page, short id prefixes in the CLI."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from paperscope.cli import app as cli
from paperscope.library import Library
from paperscope.web.app import MAX_BODY, create_app

BASE = "http://127.0.0.1"


@pytest.fixture(scope="module")
def db(tmp_path_factory, samples_dir):
    folder = tmp_path_factory.mktemp("limits")
    slashed = folder / "slash.jsonl"
    slashed.write_text(json.dumps({"title": "Graph Transformers Revisited",
                                   "abstract": "We revisit graph transformers on molecules and citation networks and show that "
                                               "the choice of positional encodings matters more than depth."})
                       + "\n", encoding="utf-8")
    path = folder / "lib.db"
    with Library.open(path) as lib:
        lib.ingest([samples_dir], embed=False)
        lib.ingest([slashed], embed=False, venue="ML/Sys Workshop", year=2023)  # --venue as a user may type it
    return path


def test_a_token_with_non_ascii_characters_is_refused_not_a_server_error(db):
    with TestClient(create_app(db, host="0.0.0.0", token="s3cret"), base_url=BASE) as client:
        pid = client.get("/api/papers", params={"limit": 1}).json()[0]["id"]
        for token in ("été", "s3cret\u00e9", "\u2603"):
            r = client.post(f"/api/papers/{pid}/tags", json={"tags": ["x"]},
                            headers={"Authorization": f"Bearer {token}".encode("utf-8")})
            assert r.status_code == 401, token
        assert client.get("/", params={"token": "été"}).status_code == 200  # no cookie, no error
        ok = client.post(f"/api/papers/{pid}/tags", json={"tags": ["x"]}, headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200 and "x" in ok.json()["tags"]


def test_bodies_over_the_cap_are_refused_before_they_are_read(db):
    with TestClient(create_app(db), base_url=BASE) as client:
        big = json.dumps({"text": "x" * (MAX_BODY + 10)})
        r = client.post("/api/related", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and "too large" in r.json()["error"]

        def chunks():  # no Content-Length: counted as it arrives
            for _ in range(5):
                yield b"y" * (MAX_BODY // 4)
        r = client.post("/api/related", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code >= 400
        assert client.post("/api/related", json={"text": "graph transformers positional encodings"}).status_code == 200


def test_a_collection_named_with_a_slash_opens(db):
    with TestClient(create_app(db), base_url=BASE) as client:
        r = client.get("/c/ML/Sys Workshop 2023")
        assert r.status_code == 200 and "Graph Transformers Revisited" in r.text


@pytest.mark.parametrize("path", ["/c/Nope", "/topics?collection=Nope", "/map?collection=Nope",
                                  "/api/topics?collection=Nope", "/api/map?collection=Nope"])
def test_unknown_collections_are_404_everywhere(db, path):
    with TestClient(create_app(db), base_url=BASE) as client:
        assert client.get(path).status_code == 404


def test_version_and_short_or_ambiguous_id_prefixes(db):
    runner = CliRunner()
    out = runner.invoke(cli, ["--version"])
    assert out.exit_code == 0 and out.output.startswith("paperscope ")
    with Library.open(db, readonly=True) as lib:
        ids = [p["id"] for p in lib.papers()]
    first = max({i[0] for i in ids}, key=lambda c: sum(i.startswith(c) for i in ids))
    shared = sum(i.startswith(first) for i in ids)
    assert shared > 1
    r = runner.invoke(cli, ["--db", str(db), "show", first])
    assert r.exit_code == 1 and f"ambiguous: {shared} papers start with it" in " ".join(r.output.split())
    unique = next(i for i in ids if sum(j.startswith(i[:3]) for j in ids) == 1)
    r = runner.invoke(cli, ["--db", str(db), "show", unique[:3]])
    assert r.exit_code == 1 and "at least 4 characters" in " ".join(r.output.split())
    assert runner.invoke(cli, ["--db", str(db), "show", unique[:6]]).exit_code == 0
