"""Time to the first view of a map and of topics after `paperscope ingest`, with the topics and
map stored by the ingest ("after") and without them, as before they were ("before": the same
library with its stored analysis runs deleted, so the first request computes them).

    .venv/bin/python benchmarks/first_view.py [--corpus icml2024_events] [--collection "ICML 2024"]

Steps: `paperscope ingest` of the corpus into a fresh library (wall and CPU time, so the share
the stored analysis adds to the ingest is visible); then a real `paperscope serve --no-cache`
and the first GET of /map (the page), /api/map (its data), /api/topics and /topics for the
collection; the same on a copy without stored runs. Also `paperscope map --out map.png`, which
must read the web's stored map (same run, no new one). Results: benchmarks/results/first_view.json.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from _run_info import run_info

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "first_view.json"


def cli(db: Path, *args: str) -> tuple[float, float, str]:
    """(wall s, child CPU s, output) of one `paperscope` command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "paperscope", "--db", str(db), *args],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def first_views(db: Path, collection: str) -> dict[str, float]:
    sys.path.insert(0, str(Path(__file__).parent))
    from web_load import _wait, start_server

    proc, port = start_server(db, pool=1, workers=1, cache=False)
    out = {}
    try:
        _wait(port)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        c = quote(collection)
        for name, url in (("/map page", f"/map?collection={c}"), ("/api/map", f"/api/map?collection={c}"),
                          ("/api/topics", f"/api/topics?collection={c}"), ("/topics page", f"/topics?collection={c}")):
            t0 = time.perf_counter()
            conn.request("GET", url)
            r = conn.getresponse()
            r.read()
            assert r.status == 200, (url, r.status)
            out[name] = round(time.perf_counter() - t0, 3)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    return out


def runs(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT kind, scope, level, input_hash FROM analysis_runs ORDER BY id").fetchall()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="icml2024_events")
    ap.add_argument("--collection", default="ICML 2024")
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--work", type=Path, default=None, help="keep the libraries here (default: a temp dir)")
    ap.add_argument("--reuse", action="store_true", help="time the views on the library an earlier run left in --work")
    args = ap.parse_args()
    source = args.corpora / args.corpus
    if not source.exists():
        print(f"skipped: no corpus at {source}")
        return 0
    work = args.work or Path(tempfile.mkdtemp(prefix="first-view-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "after.db"
    load0 = os.getloadavg()
    if args.reuse and db.exists():
        result = {"ingest": json.loads(OUT.read_text()).get("ingest") if OUT.exists() else None,
                  "ingest_note": "library reused from an earlier run (its ingest figures)"}
    else:
        for p in work.glob("*.db*"):
            p.unlink()
        wall, cpu, _ = cli(db, "ingest", "--json", str(source))
        result = {"ingest": {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1)}}
    stored = runs(db)
    result["stored_runs_after_ingest"] = len(stored)
    result["after"] = first_views(db, args.collection)
    wall, cpu, _ = cli(db, "map", "--venue", args.collection.rsplit(" ", 1)[0],
                       "--year", args.collection.rsplit(" ", 1)[1], "--out", str(work / "map.png"))
    result["cli_map_after"] = {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                               "same_stored_runs_as_web": runs(db) == stored}
    before = work / "before.db"
    shutil.copy(db, before)
    with sqlite3.connect(before) as conn:
        conn.execute("DELETE FROM analysis_points")
        conn.execute("DELETE FROM analysis_runs")
    result["before"] = first_views(before, args.collection)
    result["load_average_start_end"] = [list(load0), list(os.getloadavg())]
    result.update(run_info({"corpus": f"../shared/corpora/{args.corpus}"}, "numpy", "openTSNE"))
    OUT.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
