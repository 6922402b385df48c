"""Hostile requests against a real `paperscope serve`, spoken over raw sockets: bodies that are
not UTF-8 or hold lone surrogates, nested too deep, too large when chunked, too slow, with
absurd or malformed chunks; Host headers with userinfo; a token that cannot travel in a header.
Every one gets a 4xx answer that says what is wrong, never a 500, a hang or a silent close."""
from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

import pytest

from web_support import start_server, stop_server, web_db  # noqa: F401  (fixture)

BIG = 5_000_000  # over the 4 MB body cap


@pytest.fixture(scope="module")
def served(web_db):  # noqa: F811
    server = start_server(web_db, env={"PAPERSCOPE_BODY_TIMEOUT": "2"})
    yield server
    stop_server(server)
    log = server.proc.stdout.read()
    assert "error serving" not in log and "Traceback" not in log, log[-3000:]


def _exchange(url: str, head: bytes, parts: list[bytes] = (), host: bytes | None = None,
              pause: float = 0.0) -> tuple[int, bytes]:
    """Send a request head and body parts (in a thread, as a browser does) while reading the
    answer; (status, body). Status 0: the connection closed without an answer."""
    where = urlsplit(url)
    sock = socket.create_connection((where.hostname, where.port), timeout=20)
    host = host if host is not None else f"{where.hostname}:{where.port}".encode()
    sock.sendall(head.replace(b"HOST", host))

    def send() -> None:
        try:
            for part in parts:
                time.sleep(pause)
                sock.sendall(part)
        except OSError:
            pass  # the server answered and closed before reading it all: fine

    sender = threading.Thread(target=send)
    sender.start()
    data = b""
    try:
        while b"\r\n\r\n" not in data or len(data) < _expected(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except ConnectionResetError:
        pass
    sender.join(timeout=30)
    sock.close()
    if not data.startswith(b"HTTP/1.1 "):
        return 0, data
    head_part, _, body = data.partition(b"\r\n\r\n")
    return int(head_part[9:12]), body


def _expected(data: bytes) -> int:
    head, _, _ = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(head) + 4 + int(line.split(b":")[1])
    return len(data) + 1 if b"\r\n0\r\n\r\n" not in data else 0


def _post(url: str, path: str, body: bytes, ctype: str = "application/json") -> tuple[int, str]:
    head = (f"POST {path} HTTP/1.1\r\nHost: HOST\r\nContent-Type: {ctype}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    status, answer = _exchange(url, head + body)
    return status, answer.decode("utf-8", "replace")


FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize("path,body,ctype,field", [
    ("/api/match", b'{"papers": "@article{a, title={\\ud800 x}}"}', "application/json", "papers"),
    ("/api/match", b'{"texts": ["fine", "\\udfff"]}', "application/json", "texts.1"),
    ("/api/match", b'{"papers": "caf\xe9"}', "application/json", "not UTF-8"),
    ("/api/related", b'{"text": "\\ud800 draft"}', "application/json", "text"),
    ("/api/papers/x/tags", b'{"tags": ["\\ud800"]}', "application/json", "tags"),
    ("/related", b"text=%ED%A0%80+draft", FORM, "text"),
    ("/related", b"text=ok&collection=%FF", FORM, "collection"),
    ("/match", b"text=%C3%28", FORM, "text"),
    ("/match", b"text=\xff", FORM, "not UTF-8"),
])
def test_text_that_is_not_unicode_answers_4xx_naming_the_field(served, path, body, ctype, field):
    status, answer = _post(served.url, path, body, ctype)
    assert status in (400, 422), (status, answer[:300])
    assert field in answer


@pytest.mark.parametrize("papers", [
    "[" * 100_000 + "]" * 100_000,                                   # deep JSON list
    '{"title": "x", "issued": {"date-parts": [[]]}}',                # CSL with an empty date
    '[{"title": "A paper on things", "issued": {"date-parts": []}}]',
    "{" * 50_000,
    "@article{a, title={" + "{" * 50_000 + "}",                     # deep braces in BibTeX
])
def test_hostile_profiles_answer_4xx_or_a_result_never_500(served, papers):
    import json

    status, answer = _post(served.url, "/api/match", json.dumps({"papers": papers}).encode())
    assert status in (200, 400, 422), (status, answer[:300])
    status, answer = _post(served.url, "/match", ("text=" + papers).encode(), FORM)
    assert status in (200, 400), (status, answer[:300])


@pytest.mark.parametrize("path,ctype", [("/api/match", "application/json"), ("/match", FORM),
                                        ("/related", FORM), ("/api/related", "application/json")])
def test_a_chunked_body_over_the_cap_answers_413(served, path, ctype):
    head = (f"POST {path} HTTP/1.1\r\nHost: HOST\r\nContent-Type: {ctype}\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    piece = b"a" * 500_000
    parts = [b"%x\r\n" % len(piece) + piece + b"\r\n"] * (BIG // len(piece)) + [b"0\r\n\r\n"]
    status, answer = _exchange(served.url, head, parts)
    assert status == 413, (status, answer[:200])
    assert b"too large" in answer


def test_slow_bodies_are_cut_off_with_408(served):
    head = (b"POST /api/match HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n")
    results = []

    def trickle() -> None:
        results.append(_exchange(served.url, head, [b'{"texts": ['] + [b'"a",'] * 50, pause=0.2))

    threads = [threading.Thread(target=trickle) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert [status for status, _ in results] == [408] * 10, results
    status, _ = _post(served.url, "/api/match", b'{"texts": ["graph neural networks"]}')
    assert status == 200  # the server is still fine


@pytest.mark.parametrize("parts", [
    [b"FFFFFFFFFFFFFFFF\r\n", b"abc"],               # a chunk of 2**64 - 1 bytes
    [b"F" * 40 + b"\r\nabc\r\n0\r\n\r\n"],         # a size no parser takes
    [b"3\r\nabcXY0\r\n\r\n"],                        # a chunk longer than announced
    [b"zz\r\nabc\r\n0\r\n\r\n"],
])
def test_absurd_or_malformed_chunks_get_400(served, parts):
    head = (b"POST /api/match HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    status, answer = _exchange(served.url, head, parts, pause=0.2)
    assert status == 400, (status, answer[:200])


@pytest.mark.parametrize("host,allowed", [
    (b"127.0.0.1:PORT", True), (b"localhost:PORT", True), (b"[::1]:PORT", True), (b"localhost", True),
    (b"localhost:PORT@evil.example", False), (b"evil.example", False), (b"localhost@evil.example", False),
    (b"localhost:PORT/evil.example", False), (b"localhost:PORT evil.example", False),
    (b"127.0.0.1:PORT:80", False), (b"localhost.evil.example", False), (b"user@localhost:PORT", False),
    (b"[::1]@evil.example", False), (b"", False),
])
def test_the_host_check_parses_the_header_strictly(served, host, allowed):
    port = str(urlsplit(served.url).port).encode()
    status, _ = _exchange(served.url, b"GET /api/stats HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n\r\n",
                          host=host.replace(b"PORT", port))
    assert (status == 200) is allowed, status
    assert status in (200, 421, 400)


def test_a_non_ascii_token_is_refused_at_start(web_db):  # noqa: F811
    for token in ("sécret", "a b", "tok;en", "x\u2028y"):
        proc = subprocess.run([sys.executable, "-c", "from paperscope.cli import main; main()", "--db", str(web_db),
                               "serve", "--port", "0", "--token", token],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode != 0
        assert "--token" in proc.stderr and "ASCII" in proc.stderr and "Traceback" not in proc.stderr


def test_a_token_in_the_url_never_answers_500(web_db):  # noqa: F811
    server = start_server(web_db, "--host", "127.0.0.1", "--token", "s3cret-Token_1")
    try:
        for given in ("%C3%A9", "%ED%A0%80", "%FF", "s3cret-Token_1%00", "%0D%0Aset-cookie:x"):
            status, _ = _exchange(server.url, f"GET /?token={given} HTTP/1.1\r\nHost: HOST\r\n"
                                              "Connection: close\r\n\r\n".encode())
            assert status == 200, given
        head = b"GET /?token=s3cret-Token_1 HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n\r\n"
        where = urlsplit(server.url)
        with socket.create_connection((where.hostname, where.port), timeout=20) as sock:
            sock.sendall(head.replace(b"HOST", f"{where.hostname}:{where.port}".encode()))
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert b"\r\nset-cookie: paperscope_token=s3cret-Token_1;" in answer  # the right token still works
    finally:
        stop_server(server)
