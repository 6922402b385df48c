"""The HTTP API over a real library: shapes equal to the CLI's --json, paging, validation
(4xx with a message, never 500), related/search, and the write guard."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from web_support import web_db, xss_id  # noqa: F401  (fixtures)

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def client(web_db):  # noqa: F811
    from paperscope.web.app import create_app

    with TestClient(create_app(web_db), base_url=BASE) as c:
        yield c


def cli_json(db, *args):
    from paperscope.cli import app

    result = CliRunner().invoke(app, ["--db", str(db), *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def maestro(client):
    papers = client.get("/api/papers", params={"collection": "ICML 2024", "limit": 500}).json()
    found = [p for p in papers if "propose Maestro" in p["abstract"]]
    assert len(found) == 1
    return found[0]


def test_stats_and_collections_match_the_cli(client, web_db):  # noqa: F811
    stats = client.get("/api/stats").json()
    assert stats == cli_json(web_db, "stats")
    names = {c["name"] for c in client.get("/api/collections").json()}
    assert {"ICML 2024", "ICLR 2024"} <= names


def test_paper_json_is_the_cli_show_json(client, web_db):  # noqa: F811
    paper = maestro(client)
    got = client.get(f"/api/papers/{paper['id']}")
    assert got.status_code == 200
    assert got.json() == cli_json(web_db, "show", paper["id"])


def test_papers_are_paged_in_list_order_with_a_total(client, web_db):  # noqa: F811
    everything = cli_json(web_db, "list", "--collection", "ICLR 2024")
    pages, offset = [], 0
    while True:
        r = client.get("/api/papers", params={"collection": "ICLR 2024", "limit": 7, "offset": offset})
        assert r.status_code == 200
        assert int(r.headers["x-total-count"]) == len(everything)
        if not r.json():
            break
        pages.extend(r.json())
        offset += 7
    assert [p["id"] for p in pages] == [p["id"] for p in everything]


def test_papers_filter_by_type_only_returns_that_type(client):
    papers = client.get("/api/papers", params={"collection": "ICML 2024", "limit": 500}).json()
    types = {p.get("paper_type") for p in papers if isinstance(p.get("paper_type"), str)}
    if not types:
        pytest.skip("no paper_type facts in this build")
    wanted = sorted(types)[0]
    subset = client.get("/api/papers", params={"collection": "ICML 2024", "type": wanted, "limit": 500}).json()
    assert subset and all(p["paper_type"] == wanted for p in subset)
    assert len(subset) == sum(1 for p in papers if p.get("paper_type") == wanted)


def test_search_finds_an_exact_phrase_first(client):
    target = maestro(client)
    hits = client.get("/api/search", params={"query": '"importance ordering via sampling"', "limit": 5}).json()
    assert hits and hits[0]["id"] == target["id"]


def test_search_by_meaning_without_shared_words(client):
    target = maestro(client)
    hits = client.get("/api/search", params={"q": "cheaper training by factorising weight matrices into small ranks",
                                             "mode": "semantic", "limit": 5}).json()
    assert target["id"] in [h["id"] for h in hits]


def test_related_by_id_and_by_text(client):
    target = maestro(client)
    by_id = client.get(f"/api/papers/{target['id']}/related", params={"limit": 5}).json()
    assert len(by_id) == 5 and target["id"] not in [h["id"] for h in by_id]
    draft = ". ".join(target["abstract"].split(". ")[5:9])  # a passage of it, as a draft would quote
    by_text = client.post("/api/related", json={"text": draft, "limit": 3}).json()
    assert by_text[0]["id"] == target["id"]
    by_param = client.get("/api/related", params={"paper_id": target["id"], "limit": 3}).json()
    assert by_param == by_id[:3]
    assert client.get("/api/related", params={"id": target["id"], "limit": 3}).json() == by_param  # old name


BAD_REQUESTS = [
    ("/api/papers", {"limit": 0}), ("/api/papers", {"limit": "many"}), ("/api/papers", {"offset": -1}),
    ("/api/papers", {"sort": "chaos"}), ("/api/papers", {"year": "twenty"}),
    ("/api/papers", {"collection": "x" * 500}),
    ("/api/search", {}), ("/api/search", {"q": ""}), ("/api/search", {"q": "a", "mode": "psychic"}),
    ("/api/search", {"q": "a", "limit": 10**9}),
    ("/api/related", {}), ("/api/related", {"id": "../../etc/passwd"}),
    ("/api/related", {"id": "abc", "text": "both"}),
    ("/api/topics", {"level": "medium"}), ("/api/topics", {"collection": "No Such Venue 1999"}),
    ("/api/map", {"collection": "No Such Venue 1999"}),
    ("/api/compare", {"a": "ICML 2024"}),
    ("/api/papers/not-a-paper", {}), ("/api/papers/..%2F..%2Fpyproject.toml", {}),
    ("/api/papers/%00", {}),
]


@pytest.mark.parametrize("path,params", BAD_REQUESTS)
def test_invalid_parameters_give_4xx_with_a_message(client, path, params):
    r = client.get(path, params=params)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert r.json()["error"]


def test_malformed_json_body_is_a_4xx(client):
    r = client.post("/api/related", content=b"{not json", headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500 and r.json()["error"]


@pytest.mark.parametrize("path", ["/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
                                  "/static/..%2f..%2f..%2fpyproject.toml", "/static/vendor/katex/../../../app.py",
                                  "/c/..%2F..%2Fpyproject.toml", "/paper/..%2F..%2Fpyproject.toml"])
def test_no_path_traversal(client, path):
    r = client.get(path)
    assert r.status_code in (400, 404)
    assert "build-backend" not in r.text and "def create_app" not in r.text


def test_every_response_carries_the_csp(client):
    for path in ("/", "/api/stats", "/static/app.css", "/no/such/page"):
        csp = client.get(path).headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "object-src 'none'" in csp


def test_foreign_host_header_is_refused_on_loopback(client):
    r = client.get("/api/stats", headers={"host": "attacker.example:8000"})
    assert r.status_code == 421


def test_openapi_document_lists_the_endpoints(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/papers", "/api/papers/{paper_id}", "/api/search", "/api/related", "/api/topics",
                 "/api/map", "/api/compare", "/api/collections", "/api/stats"):
        assert path in paths
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and "/api/search" in docs.text


def test_api_json_is_the_same_bytes_as_starlettes_and_keeps_utf8():
    """API answers are written by orjson: the same compact UTF-8 JSON as Starlette's encoder
    (text in any script, ints, floats, nesting; only an exponent may be spelled shorter); a
    non-finite float, which Starlette refuses, becomes null."""
    from fastapi.responses import JSONResponse

    from paperscope.web.api import FastJSONResponse

    content = [{"id": "icml2024:12", "label": "扩散模型 <b>&</b> \"quoted\"", "score": 0.1234567891,
                "rank": 3, "weak": False, "snippet": {"text": "a\nb\u2028c", "spans": [[0, 1], [4, 9]]},
                "authors": [], "year": None, "ratio": 1e-07}]
    import json

    fast, reference = FastJSONResponse(content).body, JSONResponse(content).body
    assert json.loads(fast) == json.loads(reference) == content
    assert fast.replace(b"1e-7", b"1e-07") == reference  # only the exponent's spelling differs
    assert "扩散模型".encode() in fast
    assert FastJSONResponse({"x": float("nan")}).body == b'{"x":null}'
