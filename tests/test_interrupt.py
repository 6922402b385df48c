"""A crash (SIGKILL) or Ctrl-C (SIGINT) during a real ingest process leaves the library as it
was before the interrupted transaction: whole batches only, consistent indexes, still usable;
Ctrl-C says what the library holds.

No race with a loaded machine: the child stops at a point the test names (after its N-th
committed batch, or after every file was read) and waits on a named pipe
(PAPERSCOPE_TEST_HOLD, see `paperscope.ingest._hold_for_tests`); the signal is sent while it
waits there, so what must be in the library is known exactly. The child's output goes to
files (a full pipe cannot stall it); the waits end in a failure that shows that output."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperscope.ingest import BATCH
from paperscope.library import Library

WORDS = ("model data learning graph neural network training loss sample policy reward kernel "
         "optimization gradient robust transformer attention diffusion causal bandit").split()
BATCHES = 20
FIRST_BATCH_WAIT_S = 600  # a loaded 2-core machine has needed minutes to start and write one batch
EXIT_WAIT_S = 300


def _big_list(path: Path, n: int) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        f.write("NeurIPS 2023 Papers\n\n")
        for i in range(n):
            words = " ".join(WORDS[(i * 7 + j * 3) % len(WORDS)] for j in range(40))
            f.write(f"Paper number {i} studies {words} and reports results on benchmark {i * 31}.\n\n")
    return path


def _papers(db: Path) -> int:
    conn = sqlite3.connect(db, timeout=60)
    try:
        return conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
    finally:
        conn.close()


def _check_consistent(db: Path, before: int) -> int:
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    papers = conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
    orphans = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN (SELECT paper_id FROM memberships)").fetchone()[0]
    keys = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN (SELECT paper_id FROM paper_keys)").fetchone()[0]
    fts = conn.execute("SELECT COUNT(*) FROM papers_fts").fetchone()[0]
    conn.execute("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')")
    conn.close()
    assert orphans == 0 and keys == 0
    assert fts == papers
    assert (papers - before) % BATCH == 0, "a partial batch was committed"
    return papers


def _output(tmp_path: Path) -> str:
    return "\n".join(f"{name}: {(tmp_path / name).read_text(errors='replace')[-2000:]}"
                     for name in ("child.out", "child.err"))


def _held_child(tmp_path: Path, db: Path, big: Path, point: str) -> subprocess.Popen:
    """The ingest in a child process, waiting at `point`; returns once it is waiting there."""
    fifo = tmp_path / "hold"
    os.mkfifo(fifo)
    env = {**os.environ, "PAPERSCOPE_DB": str(db), "PAPERSCOPE_TEST_HOLD": f"{point}:{fifo}"}
    with open(tmp_path / "child.out", "wb") as out, open(tmp_path / "child.err", "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "paperscope", "ingest", "--no-embed", str(big)],
                                env=env, stdout=out, stderr=err)
    deadline = time.monotonic() + FIRST_BATCH_WAIT_S
    while True:  # a writer can open the pipe only once the child holds it open for reading
        try:
            proc.hold_fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            return proc
        except OSError:
            pass
        if proc.poll() is not None:
            pytest.fail(f"the ingest ended (exit {proc.returncode}) before reaching {point}\n" + _output(tmp_path))
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the ingest did not reach {point} in {FIRST_BATCH_WAIT_S} s\n" + _output(tmp_path))
        time.sleep(0.05)


def _stop(proc: subprocess.Popen, sig: int, tmp_path: Path) -> str:
    proc.send_signal(sig)
    try:
        proc.wait(timeout=EXIT_WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"the ingest did not stop within {EXIT_WAIT_S} s of {sig.name}\n" + _output(tmp_path))
    finally:
        os.close(proc.hold_fd)
    return (tmp_path / "child.err").read_text(errors="replace")


@pytest.fixture()
def held_setup(tmp_path, samples_dir):
    db = tmp_path / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
    before = _papers(db)
    assert before == 95
    return db, before, _big_list(tmp_path / "big.txt", BATCHES * BATCH)


HELD_BATCHES = 2


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_ingest_leaves_whole_batches(tmp_path, held_setup, sig):
    db, before, big = held_setup
    proc = _held_child(tmp_path, db, big, str(HELD_BATCHES))
    said = _stop(proc, sig, tmp_path)
    assert proc.returncode != 0, _output(tmp_path)
    after = _check_consistent(db, before)
    assert after == before + HELD_BATCHES * BATCH  # exactly the batches committed, whole
    if sig == signal.SIGINT:  # Ctrl-C says what was kept and what the library holds
        assert proc.returncode == 130, _output(tmp_path)
        assert f"interrupted while reading: {HELD_BATCHES * BATCH:,} new papers" in said, said
        assert f"from {HELD_BATCHES} whole batches are in the library; the library holds {after:,} papers" in said
        assert "run the same command again" in said.lower(), said
    # the library is still usable and a re-run completes the job without duplicates
    with Library.open(db) as lib:
        report = lib.ingest([big], embed=False)
        assert report.ok
        assert lib.stats()["papers"] == before + BATCHES * BATCH
    _check_consistent(db, before)


@pytest.mark.slow
def test_ctrl_c_after_every_batch_is_in_says_so(tmp_path, held_setup):
    """Interrupted once every file is read but before derived data: the message says the papers
    are in (not "the library is as it was") and the next run completes the derived data."""
    db, before, big = held_setup
    proc = _held_child(tmp_path, db, big, "read")
    said = _stop(proc, signal.SIGINT, tmp_path)
    assert proc.returncode == 130, _output(tmp_path)
    total = before + BATCHES * BATCH
    assert _check_consistent(db, before) == total
    assert "as it was" not in said, said
    assert (f"interrupted after every file was read: {BATCHES * BATCH:,} new papers, 0 merged and 0 unchanged "
            f"from {BATCHES} whole batches are in the library; the library holds {total:,} papers") in said, said
    assert "derived data" in said and "not complete" in said, said
    with Library.open(db) as lib:
        report = lib.ingest([big], embed=False)
        assert report.total("unchanged") == BATCHES * BATCH and lib.stats()["papers"] == total
        assert report.derived["facts"] == BATCHES * BATCH  # what the interrupted run left undone
