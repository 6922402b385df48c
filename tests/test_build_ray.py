"""The Ray engine for real: a local Ray instance (2 CPUs, no dashboard), the same answer as
`ingest`, and a worker killed in the middle of a task is retried without losing or
duplicating papers."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from build_support import assert_same, snapshot, worker_pids
from conftest import EXAMPLES

from paperscope.bulk import shards
from paperscope.library import Library

ray = pytest.importorskip("ray")
pytest.importorskip("pyarrow")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _shard_ids(out):
    return [r["id"] for e in shards.read_manifest(out)["shards"]
            for r in shards.read_table(out, "papers", e["name"], ["id"])]


def test_ray_build_with_two_workers_equals_ingest(tmp_path, local_ray):
    out = tmp_path / "build"
    report = Library.build([EXAMPLES], out, engine="ray", workers=2, shard_size=24)
    assert report["workers"] == 2 and report["computed"] == 95
    assert os.getpid() not in report["worker_pids"]  # computed in Ray worker processes
    a = Library.open(tmp_path / "ingest.db")
    a.ingest([EXAMPLES])
    b = Library.open(tmp_path / "load.db")
    b.load(out)
    with a, b:
        assert_same(snapshot(a), snapshot(b))


def test_killed_worker_is_retried_and_nothing_is_lost_or_doubled(tmp_path, local_ray):
    out = tmp_path / "build"
    killed: list[int] = []
    stop = threading.Event()

    def killer():
        deadline = time.monotonic() + 300
        while not stop.is_set() and time.monotonic() < deadline:
            running = worker_pids()
            if running:
                os.kill(running[0], signal.SIGKILL)
                killed.append(running[0])
                return
            time.sleep(0.01)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        report = Library.build([EXAMPLES], out, engine="ray", workers=2, shard_size=10)
    finally:
        stop.set()
        thread.join()
    assert killed, "no running build task was found to kill"
    assert killed[0] not in report["worker_pids"]  # its shard was finished by another worker
    ids = _shard_ids(out)
    assert len(ids) == len(set(ids)) == 95 == report["counts"]["papers"]
    assert report["shards"] == 10 and report["shards_skipped"] == 0
    with Library.open(tmp_path / "ingest.db") as a:
        a.ingest([EXAMPLES], embed=False)
        assert sorted(ids) == sorted(p["id"] for p in a.papers())
