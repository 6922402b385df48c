"""Fixtures for the web tests: a library of the example lists plus a hostile list (HTML and
`javascript:` payloads in every text field), and a real `paperscope serve` process."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "lists"
ARTIFACTS = REPO / "test-artifacts" / "web"

XSS_TITLE = "<script>window.__xss=1</script>Robust <blink>bold</blink> transformers"
XSS_ABSTRACT = (
    "We study adversarial markup in paper lists. <img src=x onerror=\"window.__xss=2\"> An abstract "
    "may contain <script>window.__xss=3</script> tags, a <a href=\"javascript:window.__xss=4\">link</a> "
    "and an iframe <iframe src=\"javascript:window.__xss=5\"></iframe>; all of it must stay text. "
    "We propose XSSGuard, a sanitiser benchmark for scholarly front ends, evaluated on three sites."
)
XSS_RECORD = {
    "title": XSS_TITLE,
    "abstract": XSS_ABSTRACT,
    "authors": ["Mallory <svg onload=window.__xss=6>", "Eve"],
    "venue": "ICML",
    "year": 2024,
    "url": "javascript:window.__xss=7",
    "code": "javascript:window.__xss=8",
    "keywords": ["<script>k</script>"],
}


def build_library(path: Path, extra: Path) -> Path:
    from paperscope.library import Library

    extra.mkdir(parents=True, exist_ok=True)
    hostile = extra / "hostile.json"
    hostile.write_text(json.dumps([XSS_RECORD], ensure_ascii=False), "utf-8")
    with Library.open(path) as lib:
        report = lib.ingest([EXAMPLES, hostile])
        assert report.total("added") >= 96, report.to_dict()
    return path


_BUILT: dict[str, Path] = {}


@pytest.fixture(scope="session")
def web_db(tmp_path_factory) -> Path:
    """A library file: the five example lists + the hostile list, embeddings included. Built
    once per session (each test module imports this fixture, so it is memoised here)."""
    if "db" not in _BUILT:
        root = tmp_path_factory.mktemp("web")
        _BUILT["db"] = build_library(root / "web.db", root / "lists")
    return _BUILT["db"]


@pytest.fixture(scope="session")
def xss_id(web_db) -> str:
    from paperscope.library import Library

    with Library.open(web_db) as lib:
        hits = [p for p in lib.papers(venue="ICML", year=2024) if "XSSGuard" in p["abstract"]]
    assert len(hits) == 1
    return hits[0]["id"]


class Server:
    def __init__(self, proc: subprocess.Popen, url: str):
        self.proc, self.url = proc, url


def start_server(db: Path, *extra: str, env: dict | None = None) -> Server:
    """`paperscope --db DB serve --port 0 ...` as a child process; returns once it prints its URL."""
    cmd = [sys.executable, "-c", "from paperscope.cli import main; main()", "--db", str(db),
           "serve", "--port", "0", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    deadline = time.monotonic() + 60
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"(http://\S+/)", line)
        if found:
            _wait_ready(found.group(1))
            return Server(proc, found.group(1).rstrip("/"))
    proc.kill()
    raise RuntimeError("server did not start:\n" + "".join(lines))


def _wait_ready(url: str) -> None:
    import httpx

    for _ in range(100):
        try:
            if httpx.get(url + "api/stats", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()


@pytest.fixture(scope="session")
def server(web_db):
    srv = start_server(web_db)
    yield srv
    stop_server(srv)
