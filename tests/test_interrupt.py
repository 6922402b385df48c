"""A crash (SIGKILL) or Ctrl-C (SIGINT) during a real ingest process leaves the library as it
was before the interrupted transaction: whole batches only, consistent indexes, still usable.

Robust to a slow, loaded machine without checking less: the child's output goes to files (a
full pipe cannot stall it), the signal is sent as soon as a batch has landed while the child is
known to be still writing (so "mid-run" holds however slow the machine), and the waits are
generous but end in a failure that shows the child's output instead of hanging."""
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


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_ingest_leaves_whole_batches(tmp_path, samples_dir, sig):
    db = tmp_path / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
    before = _papers(db)
    assert before == 95
    big = _big_list(tmp_path / "big.txt", BATCHES * BATCH)
    env = {**os.environ, "PAPERSCOPE_DB": str(db)}
    with open(tmp_path / "child.out", "wb") as out, open(tmp_path / "child.err", "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "paperscope", "ingest", "--no-embed", str(big)],
                                env=env, stdout=out, stderr=err)
        try:
            # wait until at least one batch has landed and the child is still writing batches
            deadline = time.monotonic() + FIRST_BATCH_WAIT_S
            landed = before
            while landed == before:
                if proc.poll() is not None:
                    pytest.fail(f"the ingest ended (exit {proc.returncode}) before any batch landed\n"
                                + _output(tmp_path))
                if time.monotonic() > deadline:
                    pytest.fail(f"no batch landed in {FIRST_BATCH_WAIT_S} s\n" + _output(tmp_path))
                time.sleep(0.02)
                landed = _papers(db)
            assert landed < before + BATCHES * BATCH, "the whole file landed between two polls"
            proc.send_signal(sig)
            try:
                proc.wait(timeout=EXIT_WAIT_S)
            except subprocess.TimeoutExpired:
                pytest.fail(f"the ingest did not stop within {EXIT_WAIT_S} s of {sig.name}\n" + _output(tmp_path))
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode != 0, _output(tmp_path)
    if sig == signal.SIGINT:  # Ctrl-C says what was kept
        said = (tmp_path / "child.err").read_text(errors="replace")
        assert proc.returncode == 130 and "interrupted" in said, _output(tmp_path)
        assert "run the same command again" in said.lower(), _output(tmp_path)
    after = _check_consistent(db, before)
    assert landed <= after < before + BATCHES * BATCH
    # the library is still usable and a re-run completes the job without duplicates
    with Library.open(db) as lib:
        report = lib.ingest([big], embed=False)
        assert report.ok
        assert lib.stats()["papers"] == before + BATCHES * BATCH
    _check_consistent(db, before)
