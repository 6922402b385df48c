"""A fetch killed with SIGKILL mid-run resumes from what it saved (nothing fetched twice,
nothing lost, the library intact), and a saved folder replays offline with `paperscope ingest`.

The kill point is controlled, not timed: the server holds the fourth page until the test has
killed the client, so the client is known to be mid-run with three pages saved and ingested."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from source_servers import Fault, from_corpora

from paperscope.library import Library

SRC = Path(__file__).resolve().parents[1] / "src"
OFFSETS = (0, 10, 20, 30, 40, 50)  # the fixture's 60 notes, 10 a page
WAIT_S = 600  # a loaded machine has needed minutes to start a process


@pytest.fixture()
def env(tmp_path):
    return {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
            "PAPERSCOPE_FETCH_INTERVAL": "0", "PAPERSCOPE_FETCH_BACKOFF": "0.01",
            "XDG_CACHE_HOME": str(tmp_path / "cache"), "PAPERSCOPE_DB": str(tmp_path / "lib.db")}


def run_fetch(args: list[str], env: dict, tmp_path: Path, name: str) -> subprocess.Popen:
    out, err = open(tmp_path / f"{name}.out", "wb"), open(tmp_path / f"{name}.err", "wb")
    return subprocess.Popen([sys.executable, "-m", "paperscope", "fetch", "ICLR", "2024", "--no-embed", *args],
                            env=env, stdout=out, stderr=err)


def output(tmp_path: Path) -> str:
    return "\n".join(f"{p.name}: {p.read_text(errors='replace')[-2000:]}" for p in sorted(tmp_path.glob("*.out"))
                     + sorted(tmp_path.glob("*.err")))


def check_library(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        papers = conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
        orphans = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN (SELECT paper_id FROM memberships)").fetchone()[0]
        assert orphans == 0
        return papers
    finally:
        conn.close()


@pytest.mark.parametrize("saved", [True, False], ids=["save-dir", "default-cache"])
def test_sigkill_mid_fetch_then_resume(tmp_path, env, saved):
    folder = tmp_path / "saved"
    args = ["--base-url", "", "--json"] + (["--save", str(folder)] if saved else [])
    with from_corpora(None, icml_limit=10) as server:
        server.add(Fault("cap", times=None, value=10), Fault("block", page=30))
        args[1] = server.url
        proc = run_fetch(args, env, tmp_path, "first")
        try:
            if not server.blocked.wait(WAIT_S):
                pytest.fail("the fetch never reached the fourth page\n" + output(tmp_path))
            proc.send_signal(signal.SIGKILL)
            proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        server.release()
        assert proc.returncode == -signal.SIGKILL
        assert check_library(tmp_path / "lib.db") == 30  # three whole pages, nothing half-written
        cache = folder if saved else tmp_path / "cache" / "paperscope" / "fetch" / "openreview-iclr-2024"
        assert sorted(p.name for p in cache.glob("[!.]*.json")) == [f"openreview-iclr-2024-p{o:06d}.json" for o in (0, 10, 20)]

        again = run_fetch(args, env, tmp_path, "second")
        assert again.wait(WAIT_S) == 0, output(tmp_path)
        report = json.loads((tmp_path / "second.out").read_text())
        assert [server.served[("openreview", o)] for o in OFFSETS] == [1] * 6  # nothing fetched twice
        assert (report["from_saved"], report["pages"], report["added"], report["unchanged"]) == (3, 6, 30, 30)
    assert check_library(tmp_path / "lib.db") == 60  # nothing lost
    assert cache.is_dir() == saved  # the default cache is dropped once the fetch is complete


def test_saved_folder_replays_offline_with_ingest(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSCOPE_FETCH_INTERVAL", "0")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "saved"
    with from_corpora(None, icml_limit=40) as server, Library.open(tmp_path / "fetched.db") as lib:
        server.add(Fault("cap", times=None, value=25))
        for venue, year, source in (("ICLR", 2024, None), ("ICLR", 2018, None), ("ICML", 2024, "virtual"),
                                    ("ICML", 2024, "pmlr")):
            lib.fetch(venue, year, source=source, base_url=server.url, save=folder, embed=False)
        fetched = {p["id"]: (p["title"], p["status"]) for p in lib.papers(limit=10_000)}
        requests = sum(server.requests.values())
    # the server is gone: the replay reads files only
    with Library.open(tmp_path / "replayed.db") as lib:
        report = lib.ingest([folder], embed=False)
        assert report.ok and report.total("skipped") == 0
        replayed = {p["id"]: (p["title"], p["status"]) for p in lib.papers(limit=10_000)}
    assert replayed == fetched and len(fetched) == 60 + 12 + 40
    assert requests == 3 + 1 + 1 + 1
