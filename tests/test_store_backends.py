"""The two storage backends side by side: the same example lists give the same answers, a
library moves between them with ids, tags and notes intact, and the PostgreSQL-only parts
(nearest neighbours through pgvector, the local server commands) work."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from backends import new_postgres_url
from paperscope.library import Library

QUERIES = ["recover weights from LoRA fine-tunes", "diffusion models for images", "reinforcement learning",
           '"language model" -image', "graph neural network venue:ICML", "benchmark for agents year:2024",
           "spiking neural networks", "watermark", "theory of transformers in-context learning",
           "kernel methods has:code"]


@pytest.fixture(scope="module")
def both(tmp_path_factory, samples_dir):
    """The example lists ingested into a SQLite file and, separately, a PostgreSQL database."""
    libs = {"sqlite": Library.open(tmp_path_factory.mktemp("parity") / "lib.db"),
            "postgres": Library.open(new_postgres_url())}
    for lib in libs.values():
        lib.ingest([samples_dir])
    yield libs
    for lib in libs.values():
        lib.close()


def _ranked(hits) -> list[tuple[str, float]]:
    return [(h.id, round(h.score, 4)) for h in hits]


@pytest.mark.parametrize("mode", ["lexical", "semantic", "hybrid"])
def test_both_backends_rank_the_example_lists_identically(both, mode):
    a, b = both["sqlite"], both["postgres"]
    assert a.stats()["papers"] == b.stats()["papers"] == 95
    for q in QUERIES:
        assert _ranked(a.search(q, mode=mode, limit=10)) == _ranked(b.search(q, mode=mode, limit=10)), q


def test_both_backends_agree_on_related_browse_and_filters(both):
    a, b = both["sqlite"], both["postgres"]
    first = a.papers()[0]["id"]
    assert _ranked(a.related(first, limit=10)) == _ranked(b.related(first, limit=10))
    assert _ranked(a.related(text="privacy attacks on language models", limit=5)) == \
        _ranked(b.related(text="privacy attacks on language models", limit=5))
    for kw in ({"collection": "ICML 2024"}, {"venue": "ICLR"}, {"has_code": True}, {"paper_type": "theory"},
               {"year": "2023..2024", "sort": "title"}, {"sort": "type"}):
        assert a.papers_page(limit=200, **kw)["papers"] and \
            [p["id"] for p in a.papers_page(limit=200, **kw)["papers"]] == [p["id"] for p in b.papers_page(limit=200, **kw)["papers"]], kw
    assert a.facets("ICML 2024") == b.facets("ICML 2024")
    assert [c["name"] for c in a.collections()] == [c["name"] for c in b.collections()]


def test_copy_moves_a_library_both_ways_with_marks_intact(both, tmp_path):
    a = both["sqlite"]
    ids = [p["id"] for p in a.papers()[:3]]
    a.tag(ids, ["reading-group"])
    a.note(ids[0], "compare with our sampler")
    a.star(ids[1])
    with Library.open(new_postgres_url()) as pg:
        counts = pg.copy(a)
        assert counts["papers"] == 95 and counts["derived"].get("embedded", 0) == 0  # nothing re-embedded
        assert [p["id"] for p in pg.mine(tag="reading-group")] == [p["id"] for p in a.mine(tag="reading-group")]
        assert pg.show(ids[0])["note"] == "compare with our sampler" and pg.show(ids[1])["starred"]
        assert _ranked(pg.search("diffusion models", limit=10)) == _ranked(a.search("diffusion models", limit=10))
        with Library.open(tmp_path / "back.db") as back:
            back.copy(pg)
            assert back.show(ids[0])["note"] == "compare with our sampler"
            assert {p["id"] for p in back.papers()} == {p["id"] for p in a.papers()}
            assert _ranked(back.search("graph neural network", limit=10)) == \
                _ranked(a.search("graph neural network", limit=10))


def test_pgvector_nearest_neighbours_exact_and_hnsw(both):
    b = both["postgres"]
    from paperscope.search.embedder import MODEL_ID

    vec = b.engine.vectors()
    q = vec.matrix[7]
    exact = b.store.nearest(MODEL_ID, q, 10, exact=True)
    approx = b.store.nearest(MODEL_ID, q, 10)
    in_memory = vec.rowids[np.argsort(-(vec.matrix @ q), kind="stable")[:10]]
    assert [r for r, _ in exact] == in_memory.tolist()
    assert exact[0][1] == pytest.approx(1.0, abs=1e-3)  # the paper itself
    assert len({r for r, _ in approx} & {r for r, _ in exact}) >= 8


def test_a_read_only_handle_cannot_write(both):
    url = both["postgres"].store.url
    with Library.open(url, readonly=True) as ro:
        assert ro.stats()["papers"] == 95
        with pytest.raises(Exception):
            ro.tag(ro.papers()[0]["id"], "nope")


def test_db_start_prints_a_url_that_serves_a_library(samples_dir):
    folder = Path(tempfile.mkdtemp(prefix="paperscope-dbcli-")) / "data"
    cli = [sys.executable, "-m", "paperscope"]
    started = subprocess.run([*cli, "db", "start", "--dir", str(folder)], capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip().splitlines()[-1]
    assert url.startswith("postgresql://")
    try:
        done = subprocess.run([*cli, "--db", url, "ingest", "--no-embed", str(samples_dir / "000_57cfd0dc3b5a87a8.txt")],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        listed = subprocess.run([*cli, "--db", url, "search", "--mode", "lexical", "--json", "spectral detuning"],
                                capture_output=True, text=True, timeout=120)
        assert listed.returncode == 0 and "Spectral DeTuning" in listed.stdout
    finally:
        stopped = subprocess.run([*cli, "db", "stop", "--dir", str(folder)], capture_output=True, text=True, timeout=120)
        shutil.rmtree(folder.parent, ignore_errors=True)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    bad = subprocess.run([*cli, "--db", url, "stats"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "cannot connect" in bad.stderr


@pytest.mark.slow
def test_kill_9_during_ingest_keeps_whole_batches_on_postgres(tmp_path, samples_dir):
    """A SIGKILLed ingest into PostgreSQL leaves only whole batches, then finishes on re-run."""
    import os
    import signal
    import time

    from paperscope.ingest import BATCH

    url = new_postgres_url()
    with Library.open(url) as lib:
        lib.ingest([samples_dir], embed=False)
    big = tmp_path / "big.txt"
    with open(big, "w", encoding="utf-8") as f:
        f.write("NeurIPS 2023 Papers\n\n")
        for i in range(8 * BATCH):
            f.write(f"Paper number {i} studies killed writers in case {i * 31} and reports that nothing "
                    f"half written survives a crash of the process number {i}.\n\n")
    proc = subprocess.Popen([sys.executable, "-m", "paperscope", "--db", url, "ingest", "--no-embed", str(big)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 600
    with Library.open(url, readonly=True) as watch:
        while watch.store.count_papers() <= 95 and proc.poll() is None and time.time() < deadline:
            time.sleep(0.2)
    assert proc.poll() is None, "the ingest ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    with Library.open(url) as lib:
        n = lib.store.count_papers()
        assert n > 95 and (n - 95) % BATCH == 0, n
        orphans = lib.store.conn.execute("SELECT COUNT(*) FROM papers p WHERE NOT EXISTS "
                                         "(SELECT 1 FROM memberships m WHERE m.paper_id = p.id)").fetchone()[0]
        assert orphans == 0
        report = lib.ingest([big], embed=False)
        assert lib.store.count_papers() == 95 + 8 * BATCH
        assert report.to_dict()["added"] == 95 + 8 * BATCH - n
        assert [h.paper["abstract"][:20] for h in lib.search('"case 62"', mode="lexical")] == ["Paper number 2 studi"]


def test_web_api_serves_a_postgres_library(both):
    """The HTTP API over PostgreSQL answers as over SQLite, and sees writes at once."""
    from fastapi.testclient import TestClient

    from paperscope.web.app import create_app

    answers = {}
    for backend, lib in both.items():
        where = lib.store.url if backend == "postgres" else lib.path
        with TestClient(create_app(where), base_url="http://127.0.0.1") as client:
            found = client.get("/api/search", params={"q": "spiking neural networks", "limit": 5}).json()
            pid = found[0]["id"]
            tagged = client.post(f"/api/papers/{pid}/tags", json={"tags": [f"web-{backend}"]})
            assert tagged.status_code == 200 and f"web-{backend}" in tagged.json()["tags"]
            assert client.get(f"/api/papers/{pid}").json()["tags"] == [f"web-{backend}"]
            assert client.get("/api/papers", params={"collection": "ICML 2024", "limit": 3}).headers["x-total-count"]
            assert client.get("/api/search", params={"q": "x", "year": "20x4"}).status_code == 400
            answers[backend] = [r["id"] for r in found]
            assert client.delete(f"/api/papers/{pid}/tags/web-{backend}").status_code == 200
    assert answers["sqlite"] == answers["postgres"]
