"""A full disk during ingest: the user hears "disk full" (not SQLite's "cannot rollback"), what
was committed stays whole and consistent, and the next run finishes the job, derived data
included. The library's size cap (PRAGMA max_page_count) makes SQLite meet SQLITE_FULL exactly
as on a full disk: it rolls the transaction back by itself."""
from __future__ import annotations

import pytest

from paperscope.ingest import BATCH
from paperscope.library import Library
from paperscope.store.sqlite import DiskFull

WORDS = ("model data learning graph neural network training loss sample policy reward kernel "
         "optimization gradient robust transformer attention diffusion causal bandit").split()


def _list(path, n):
    with open(path, "w", encoding="utf-8") as f:
        f.write("NeurIPS 2023 Papers\n\n")
        for i in range(n):
            words = " ".join(WORDS[(i * 5 + j * 7) % len(WORDS)] for j in range(30))
            f.write(f"Paper {i} studies {words} on benchmark {i * 17}.\n\n")
    return path


def _state(lib):
    conn = lib.store.conn
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.execute("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')")
    q = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
    return {"papers": q("SELECT COUNT(*) FROM papers"), "fts": q("SELECT COUNT(*) FROM papers_fts"),
            "facts": q("SELECT COUNT(*) FROM papers WHERE facts_hash IS NOT NULL"),
            "indexed": q("SELECT COUNT(DISTINCT paper_rowid) FROM paper_terms"),
            "members": q("SELECT COUNT(*) FROM memberships")}


@pytest.mark.slow
def test_disk_full_is_said_keeps_whole_batches_and_the_next_run_finishes(tmp_path, samples_dir):
    big = _list(tmp_path / "big.txt", 4 * BATCH)
    with Library.open(tmp_path / "calm.db") as calm:  # the same ingest with room to spare
        calm.ingest([samples_dir, big], embed=False)
        expected = _state(calm)
    with Library.open(tmp_path / "lib.db") as lib:
        lib.ingest([samples_dir], embed=False)
        conn = lib.store.conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 120}")  # room for about one batch
        with pytest.raises(DiskFull, match="disk full") as info:
            lib.ingest([big], embed=False)
        assert "cannot rollback" not in str(info.value) and "run the command again" in str(info.value)
        kept = _state(lib)
        assert kept["papers"] == kept["fts"] and (kept["papers"] - 95) % BATCH == 0
        assert 95 <= kept["papers"] < expected["papers"]
        report = getattr(info.value, "ingest_report", None)
        if report is not None:  # full while writing batches: the report counts only what is kept
            assert report.total("added") == kept["papers"] - 95
        conn.execute("PRAGMA max_page_count = 1073741823")  # space freed
        again = lib.ingest([big], embed=False)
        assert again.ok
        assert _state(lib) == expected
