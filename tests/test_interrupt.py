"""A crash (SIGKILL) or Ctrl-C (SIGINT) during a real ingest process leaves the library as it
was before the interrupted transaction: whole batches only, consistent indexes, still usable."""
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


def _big_list(path: Path, n: int) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        f.write("NeurIPS 2023 Papers\n\n")
        for i in range(n):
            words = " ".join(WORDS[(i * 7 + j * 3) % len(WORDS)] for j in range(40))
            f.write(f"Paper number {i} studies {words} and reports results on benchmark {i * 31}.\n\n")
    return path


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


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_ingest_leaves_whole_batches(tmp_path, samples_dir, sig):
    db = tmp_path / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
    before = 95
    big = _big_list(tmp_path / "big.txt", 20 * BATCH)
    env = {**os.environ, "PAPERSCOPE_DB": str(db)}
    proc = subprocess.Popen([sys.executable, "-m", "paperscope", "ingest", "--no-embed", str(big)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # wait until at least one batch has landed, then interrupt mid-run
    deadline = time.time() + 120
    while time.time() < deadline:
        conn = sqlite3.connect(db, timeout=30)
        n = conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
        conn.close()
        if n > before:
            break
        time.sleep(0.05)
    time.sleep(0.2)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    after = _check_consistent(db, before)
    assert before <= after < before + 20 * BATCH
    # the library is still usable and a re-run completes the job without duplicates
    with Library.open(db) as lib:
        report = lib.ingest([big], embed=False)
        assert report.ok
        assert lib.stats()["papers"] == before + 20 * BATCH
    _check_consistent(db, before)
