"""A real `paperscope serve`: a client that never finishes its request head is disconnected
after the deadline, while ordinary requests (and keep-alive) keep working; and a server killed
with SIGKILL in the middle of writes loses no acknowledged write. Two workers share a burst of
new connections, and a worker keeps BLAS on one thread."""
from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
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
        have = {(pid, tag) for pid in ids for tag in lib.show(pid)["tags"]}
    assert acknowledged <= have


def _connections_per_worker(server_pid: int, port: int) -> dict[int, int]:
    """Established server-side TCP connections on `port`, counted per process below `server_pid`
    (a socket is matched to its owner through /proc/PID/fd and /proc/net/tcp)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":  # 01 = ESTABLISHED
                inodes.add(fields[9])
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == server_pid:
                children.append(int(entry))
    counts = {}
    for pid in children:
        n = 0
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            n += target.startswith("socket:[") and target[8:-1] in inodes
        counts[pid] = n
    return counts


def test_two_workers_share_a_burst_of_new_connections(tmp_path, samples_dir):
    """20 keep-alive clients connecting at once: asyncio's accept loop let the first worker
    awake take (nearly) all of them (19/1 was measured), and that worker's queue then set
    everyone's latency. The server's event loop accepts one connection per wake-up, least
    loaded worker first."""
    db = tmp_path / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
    server = start_server(db, "--workers", "2")
    port = urlsplit(server.url).port

    def burst() -> dict[int, int]:
        conns = [_connect(server.url) for _ in range(20)]
        try:
            for s in conns:
                s.sendall(b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            for s in conns:
                assert s.recv(12).startswith(b"HTTP/1.1 200")
            counts = _connections_per_worker(server.proc.pid, port)
        finally:
            for s in conns:
                s.close()
        time.sleep(0.3)
        return {pid: n for pid, n in counts.items() if n}  # the resource tracker holds none

    try:
        deadline = time.monotonic() + 30
        while len(burst()) < 2:  # until both workers have started and answered
            assert time.monotonic() < deadline, "the second worker never took a connection"
        for attempt in range(3):
            counts = burst()
            assert sum(counts.values()) == 20 and len(counts) == 2, counts
            assert max(counts.values()) - min(counts.values()) <= 6, f"uneven split of 20 connections: {counts}"
    finally:
        stop_server(server)


def test_a_server_worker_keeps_blas_on_one_thread(tmp_path):
    """Pinned for the process: the per-query limit no longer restores two BLAS threads after
    each query (they spun between queries and doubled the CPU per search)."""
    script = (
        "from threadpoolctl import threadpool_info\n"
        "from paperscope.search import semantic\n"
        "blas = lambda: [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
        "before = blas()\n"
        "with semantic.single_threaded_blas():\n"
        "    during = blas()\n"
        "after = blas()\n"
        "semantic.pin_single_threaded_blas()\n"
        "with semantic.single_threaded_blas():\n"
        "    pass\n"
        "print(before, during, after, blas())\n"
    )
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2", OMP_NUM_THREADS="2")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    before, during, after, pinned = out.stdout.split("] [")
    assert before.strip("[ ") == "2" and during.strip() == "1" and after.strip() == "2"
    assert pinned.strip("] \n") == "1"
