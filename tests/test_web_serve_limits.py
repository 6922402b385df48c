"""A real `paperscope serve`: a client that never finishes its request head is disconnected
after the deadline, while ordinary requests (and keep-alive) keep working; and a server killed
with SIGKILL in the middle of writes loses no acknowledged write."""
from __future__ import annotations

import random
import signal
import socket
import threading
import time
from urllib.parse import urlsplit

import httpx

from paperscope.library import Library
from web_support import start_server, stop_server


def _connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port), timeout=10)


def test_slow_request_heads_are_cut_off(tmp_path, samples_dir):
    db = tmp_path / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
    server = start_server(db, env={"PAPERSCOPE_HEADER_TIMEOUT": "1"})
    try:
        slow = [_connect(server.url) for _ in range(20)]
        for s in slow:
            s.sendall(b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never finished
        time.sleep(3)
        for s in slow:
            s.settimeout(5)
            assert s.recv(1024) == b"", "a slow-header connection was left open"
            s.close()
        with httpx.Client(base_url=server.url, timeout=10) as client:  # keep-alive: several requests
            for _ in range(3):
                assert client.get("/api/stats").status_code == 200
                time.sleep(0.3)
    finally:
        stop_server(server)


def test_sigkill_of_serve_during_writes_loses_no_acknowledged_write(tmp_path, samples_dir):
    db = tmp_path / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
        ids = [p["id"] for p in lib.papers()]
    acknowledged: set[tuple[str, str]] = set()
    rng = random.Random(7)
    for run in range(10):
        server = start_server(db)
        stop = threading.Event()

        def write() -> None:
            with httpx.Client(base_url=server.url, timeout=5) as client:
                i = 0
                while not stop.is_set():
                    pid, tag = rng.choice(ids), f"run{run}-{i}"
                    try:
                        r = client.post(f"/api/papers/{pid}/tags", json={"tags": [tag]})
                    except httpx.HTTPError:
                        return  # the server died under us: this write was never acknowledged
                    if r.status_code == 200:
                        acknowledged.add((pid, tag))
                    i += 1

        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(0.3 + rng.random())
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(timeout=30)
        stop.set()
        writer.join(timeout=30)
    assert len(acknowledged) > 20
    with Library.open(db) as lib:
        assert lib.store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        have = {(pid, tag) for pid in ids for tag in lib.paper(pid)["tags"]}
    assert acknowledged <= have
