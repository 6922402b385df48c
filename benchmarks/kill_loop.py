"""kill -9 at random points of a 20,000-paper ingest (`paperscope ingest --no-embed`), then
check that nothing was corrupted and nothing committed was lost; and ingest onto a full disk (a
small tmpfs, when this user may mount one). Writes benchmarks/results/kill_loop.json.

The input: the shared corpora as they are (JSON, CSV, PMLR posts) and paper lists made from their
abstracts (sentences rotated, so each is a new paper) up to 20,000 papers. A reference library is
ingested once without interruption. Then, in cycles from an empty library, the same command is
started and killed at a random moment, again and again (each run resumes the last), until a run
finishes; its library must then equal the reference.

After every kill:
  corrupted = PRAGMA integrity_check, the FTS5 index's own check, FTS rows = papers, a membership
              and an identity key for every paper;
  lost      = the library is not a whole-batch prefix of the reference (files in order; in each,
              the memberships of the reference's first k batches, exactly), or it holds fewer
              papers than were seen committed before the kill.

    .venv/bin/python benchmarks/kill_loop.py [--kills 50] [--papers 20000]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run_info import run_info  # noqa: E402

from paperscope import sources  # noqa: E402
from paperscope.ingest import BATCH  # noqa: E402
from paperscope.model import Record  # noqa: E402

CORPUS_PARTS = ["icml2024_events", "iclr2020_miniconf", "pmlr_v244_uai2024", "pmlr_v247_colt2024",
                "pmlr_v48_icml2016", "dylanjoo_openreview/ICLR", "dylanjoo_openreview/NIPS"]
LIST_HEADERS = ["NeurIPS 2019 Papers", "ICML 2021 论文列表", "ICLR 2022", "AISTATS 2023", "COLT 2020"]


# ---------------------------------------------------------------------------- input

def build_input(corpora: Path, work: Path, target: int) -> tuple[list[Path], int]:
    """(paths to ingest, records they hold)."""
    paths = [corpora / part for part in CORPUS_PARTS if (corpora / part).exists()]
    abstracts, real = [], 0
    for f in sources.expand(paths):
        if f.suffix == ".csv" and "reviews" in f.name:
            continue
        for item in sources.read(f):
            if isinstance(item, Record):
                real += 1
                abstracts.append(item.abstract)
    paths = [p for p in paths]
    abstracts = list(dict.fromkeys(abstracts))  # each real paper once
    made, lists, i = 0, [], 0
    while real + made < target:
        chunk = []
        while real + made < target and len(chunk) < 4000:
            turn, text = 1 + i // len(abstracts), abstracts[i % len(abstracts)]
            sentences = re.split(r"(?<=\.) ", text)
            k = turn % len(sentences)
            chunk.append(" ".join(sentences[k:] + sentences[:k]) + (f" Variant {turn}." if k == 0 else ""))
            made, i = made + 1, i + 1
        path = work / f"made_{len(lists):02d}.txt"
        path.write_text(LIST_HEADERS[len(lists) % len(LIST_HEADERS)] + "\n\n" + "\n\n".join(chunk) + "\n",
                        encoding="utf-8")
        lists.append(path)
    return paths + lists, real + made


# ---------------------------------------------------------------------------- library state

def memberships(db: Path) -> dict[str, dict[int, str]]:
    conn = sqlite3.connect(db, timeout=60)
    try:
        rows = conn.execute("SELECT s.path, m.position, m.paper_id FROM memberships m "
                            "JOIN sources s ON s.id = m.source_id").fetchall()
    finally:
        conn.close()
    out: dict[str, dict[int, str]] = {}
    for path, position, paper in rows:
        out.setdefault(path, {})[position] = paper
    return out


def table_counts(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db, timeout=60)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts_%'")]
        return {n: conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in sorted(names)}
    finally:
        conn.close()


def papers(db: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=60)
        try:
            return conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def corruption(db: Path) -> str | None:
    conn = sqlite3.connect(db, timeout=60)
    try:
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            return f"integrity_check: {check}"
        conn.execute("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')")
        n = conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
        fts = conn.execute("SELECT COUNT(*) FROM papers_fts").fetchone()[0]
        orphans = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN (SELECT paper_id FROM memberships)").fetchone()[0]
        keyless = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN (SELECT paper_id FROM paper_keys)").fetchone()[0]
    except sqlite3.Error as exc:
        return f"sqlite: {exc}"
    finally:
        conn.close()
    if fts != n or orphans or keyless:
        return f"{n} papers, {fts} FTS rows, {orphans} without membership, {keyless} without key"
    return None


def loss(db: Path, reference: dict[str, dict[int, str]], order: list[str]) -> str | None:
    """None when the library is a whole-batch prefix of the reference ingest."""
    state = memberships(db)
    extra = set(state) - set(reference)
    if extra:
        return f"sources not in the reference: {sorted(extra)[:3]}"
    open_file = None
    for path in order:
        want, have = reference.get(path, {}), state.get(path, {})
        if have == want and open_file is None:
            continue
        if open_file is not None:
            if have:
                return f"{Path(path).name} has rows although {Path(open_file).name} is unfinished"
            continue
        open_file = path
        batches = -(-(max(have) + 1) // BATCH) if have else 0
        prefix = {p: pid for p, pid in want.items() if p < batches * BATCH}
        if have != prefix:
            missing = len(set(prefix.items()) - set(have.items()))
            surplus = len(set(have.items()) - set(prefix.items()))
            return (f"{Path(path).name}: {len(have)} memberships are not {batches} whole batches "
                    f"({missing} missing, {surplus} not in the reference)")
    return None


# ---------------------------------------------------------------------------- runs

def start(db: Path, inputs: list[Path], log: Path) -> subprocess.Popen:
    env = {**os.environ, "PAPERSCOPE_DB": str(db)}
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "paperscope", "ingest", "--no-embed", "--json",
                                 *map(str, inputs)], env=env, stdout=out, stderr=subprocess.STDOUT)


def reference_run(db: Path, inputs: list[Path], log: Path) -> dict:
    t0 = time.monotonic()
    proc = start(db, inputs, log)
    last, t_batches = -1, 0.0
    while proc.poll() is None:
        n = papers(db)
        if n != last:
            last, t_batches = n, time.monotonic() - t0
        time.sleep(0.2)
    return {"exit": proc.returncode, "seconds": round(time.monotonic() - t0, 1),
            "batch_phase_s": round(t_batches, 1), "papers": papers(db)}


def killed_run(db: Path, inputs: list[Path], log: Path, *, after: float | None = None,
               goal: float | None = None, extra: float = 0.0) -> tuple[bool, int]:
    """Start the ingest and kill -9 it `after` seconds, or `extra` seconds after the library
    first holds `goal` papers. (killed, papers seen committed just before the kill)."""
    t0 = time.monotonic()
    proc = start(db, inputs, log)
    seen, reached = 0, None
    while True:
        if proc.poll() is not None:
            return False, papers(db)
        seen = max(seen, papers(db))
        now = time.monotonic()
        if goal is not None and reached is None and seen >= goal:
            reached = now
        if (after is not None and now - t0 >= after) or (reached is not None and now - reached >= extra):
            break
        time.sleep(0.05)
    seen = max(seen, papers(db))
    proc.kill()
    proc.wait()
    return True, seen


def kill_cycles(work: Path, inputs: list[Path], reference: dict, ref_counts: dict, ref_timing: dict,
                kills: int, late_kills: int, rng: random.Random, save) -> dict:
    """Cycles from an empty library: each run is killed once the library holds a random number
    of papers between what it holds and the reference's count (plus up to 1.5 s, to land in a
    batch), until all batches are in; then a new cycle. After the last cycle, `late_kills` runs
    are killed at random moments once every batch is in (re-reading, derived data), and a last
    run finishes: its library must equal the reference."""
    order = [str(p.resolve()) for p in sources.expand(inputs)]
    total = ref_timing["papers"]
    out = {"runs": 0, "kills": 0, "kills_while_writing_batches": 0, "kills_after_all_batches": 0,
           "corrupted": 0, "lost": 0, "cycles": 0, "final_equal_to_reference": None, "failures": [],
           "papers_at_kill": []}
    log = work / "runs.log"
    db = work / "cycle.db"

    def check(killed_at: str, seen: int) -> None:
        now = papers(db)
        bad = corruption(db)
        lost = loss(db, reference, order) or (f"{now} papers after the kill, {seen} seen before it"
                                              if now < seen else None)
        out["corrupted"] += bad is not None
        out["lost"] += lost is not None
        out["papers_at_kill"].append(now)
        if (bad or lost) and len(out["failures"]) < 10:
            out["failures"].append({"run": out["runs"], "killed": killed_at, "corrupted": bad, "lost": lost})
        print(f"kill {out['kills']:3d} ({killed_at}): {now:6d} papers  corrupted {bad or 'no'}  "
              f"lost {lost or 'no'}", flush=True)

    while out["kills_while_writing_batches"] < kills:
        for extra in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            extra.unlink(missing_ok=True)
        out["cycles"] += 1
        while out["kills_while_writing_batches"] < kills and papers(db) < total:
            goal = rng.uniform(papers(db), total)
            killed, seen = killed_run(db, inputs, log, goal=goal, extra=rng.uniform(0, 1.5))
            out["runs"] += 1
            if killed:
                out["kills"] += 1
                out["kills_while_writing_batches"] += 1
                check(f"past {int(goal)} papers", seen)
        save(out)
    for _ in range(late_kills):  # every batch in (or nearly): kill while re-reading or deriving
        after = rng.uniform(5, ref_timing["batch_phase_s"] + 60)
        killed, seen = killed_run(db, inputs, log, after=after)
        out["runs"] += 1
        if killed:
            out["kills"] += 1
            out["kills_after_all_batches"] += 1
            check(f"after {after:.0f} s", seen)
    killed, _ = killed_run(db, inputs, log, after=10 * ref_timing["seconds"])
    out["runs"] += 1
    counts = table_counts(db)
    out["final_equal_to_reference"] = counts == ref_counts and memberships(db) == reference and corruption(db) is None
    if not out["final_equal_to_reference"]:
        out["failures"].append({"final_differs": {k: (counts.get(k), ref_counts.get(k)) for k in set(counts) | set(ref_counts)
                                                  if counts.get(k) != ref_counts.get(k)}})
    print(f"last run finished: equal to the reference: {out['final_equal_to_reference']}", flush=True)
    save(out)
    return out


# ---------------------------------------------------------------------------- disk full

def disk_full(work: Path, inputs: list[Path], shares: tuple[float, ...] = (0.3, 0.9)) -> dict:
    """Ingest onto a tmpfs too small for the library (once full during the batches, once during
    the derived data), then grow it and run again: the second run must end equal to a reference
    ingested without trouble."""
    order = [str(p.resolve()) for p in sources.expand(inputs)]
    ref_db = work / "disk_reference.db"
    timing = reference_run(ref_db, inputs, work / "disk_reference.log")
    reference, ref_counts = memberships(ref_db), table_counts(ref_db)
    ref_bytes = _library_bytes(ref_db)
    out = {"inputs": [p.name for p in inputs], "reference": {**timing, "library_mb": round(ref_bytes / 2**20, 1)},
           "runs": []}
    for share in shares:
        mount = work / f"small{int(share * 100)}"
        mount.mkdir()
        size = max(4, int(ref_bytes * share) >> 20)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}m", "tmpfs", str(mount)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return {"skipped": f"cannot mount a tmpfs: {done.stderr.strip()}"}
        try:
            db, log = mount / "lib.db", work / f"disk_full_{size}m.log"
            t0 = time.monotonic()
            proc = start(db, inputs, log)
            proc.wait()
            first = {"tmpfs_mb": size, "exit": proc.returncode, "seconds": round(time.monotonic() - t0, 1),
                     "papers": papers(db), "says_disk_full": "disk full" in log.read_text(errors="replace").lower(),
                     "message": _last_error(log), "corrupted": corruption(db), "lost": loss(db, reference, order)}
            subprocess.run(["mount", "-o", "remount,size=4g", str(mount)], check=True)
            proc = start(db, inputs, log)
            proc.wait()
            counts = table_counts(db)
            first["after_growing"] = {"exit": proc.returncode, "papers": papers(db),
                                      "equal_to_reference": counts == ref_counts and memberships(db) == reference,
                                      "differs": {k: (counts.get(k), ref_counts.get(k)) for k in ref_counts
                                                  if counts.get(k) != ref_counts.get(k)}}
            out["runs"].append(first)
            print(f"disk full at {size} MB: {first}", flush=True)
        finally:
            subprocess.run(["umount", str(mount)], capture_output=True)
    return out


def _library_bytes(db: Path) -> int:
    return sum(Path(f"{db}{s}").stat().st_size for s in ("", "-wal") if Path(f"{db}{s}").exists())


def _last_error(log: Path) -> str:
    """The run's last error line, with the temporary folder's path left out."""
    lines = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
    hits = [ln for ln in lines if re.search(r"error|full|rollback|rejected", ln, re.I)]
    return (hits or lines or [""])[-1][:300].replace(str(log.parent), "<tmp>")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--late-kills", type=int, default=6, help="kills once every batch is in")
    ap.add_argument("--reuse", type=Path, default=None,
                    help="a folder left by an earlier run (made_*.txt, reference.db, reference.json)")
    ap.add_argument("--papers", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-disk-full", action="store_true")
    ap.add_argument("--only-disk-full", action="store_true", help="only the disk-full runs (small input)")
    ap.add_argument("--shares", default="0.3,0.9", help="tmpfs sizes for the disk-full runs, as shares of the library")
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "kill_loop.json")
    args = ap.parse_args()
    if not args.corpora.is_dir():
        sys.exit(f"no corpora at {args.corpora}")
    rng = random.Random(args.seed)
    cpu0 = os.times()
    if args.only_disk_full:
        with tempfile.TemporaryDirectory() as tmp:
            small = [args.corpora / "icml2024_events", args.corpora / "iclr2020_miniconf"]
            info = run_info({"inputs": [str(p.relative_to(args.corpora.parent)) for p in small]})
            full = disk_full(Path(tmp), small, tuple(float(x) for x in args.shares.split(",")))
        cpu = os.times()
        out = {**info, "disk_full": full, "cpu_s_children": round(cpu.children_user + cpu.children_system
                                                                  - cpu0.children_user - cpu0.children_system, 1),
               "load_average_at_end": [round(x, 2) for x in os.getloadavg()]}
        args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"disk full -> {args.out}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = args.reuse or Path(tmp)
        ref_db = work / "reference.db"
        if args.reuse:
            inputs = [args.corpora / part for part in CORPUS_PARTS] + sorted(work.glob("made_*.txt"))
            timing = json.loads((work / "reference.json").read_text())
            records = timing["papers"]
        else:
            inputs, records = build_input(args.corpora, work, args.papers)
            timing = reference_run(ref_db, inputs, work / "reference.log")
            (work / "reference.json").write_text(json.dumps(timing))
        info = run_info({"records": records, "inputs": [str(p.relative_to(args.corpora.parent)) if
                                                         p.is_relative_to(args.corpora.parent) else p.name
                                                         for p in inputs]})
        print(f"reference: {timing}", flush=True)
        reference, ref_counts = memberships(ref_db), table_counts(ref_db)
        ref_bytes = _library_bytes(ref_db)
        out = {**info, "reference": {**timing, "library_mb": round(ref_bytes / 2**20, 1), "tables": ref_counts}}

        def save(loop: dict, full: dict | None = None) -> None:
            cpu = os.times()
            out.update(kill_loop=loop, disk_full=full or {"not run": "yet"},
                       cpu_s_children=round(cpu.children_user + cpu.children_system
                                            - cpu0.children_user - cpu0.children_system, 1),
                       load_average_at_end=[round(x, 2) for x in os.getloadavg()])
            args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

        loop = kill_cycles(work, inputs, reference, ref_counts, timing, args.kills, args.late_kills, rng, save)
        small = [p for p in inputs if p.name in ("icml2024_events", "iclr2020_miniconf")]
        full = {"skipped": "--no-disk-full"} if args.no_disk_full else disk_full(work, small)
        save(loop, full)
    print(f"kills {loop['kills']}, corrupted {loop['corrupted']}, lost {loop['lost']}, last run equal to the "
          f"reference: {loop['final_equal_to_reference']} -> {args.out}")


if __name__ == "__main__":
    main()
