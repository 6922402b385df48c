"""Long fuzz profile of every reader (the fast one runs in the tests): hostile inputs from
tests/fuzz_support.py ingested one by one through `Ingester`, in a worker process watched by a
watchdog: an input that takes over --timeout seconds is a hang (the worker is killed and a new
one carries on with the same library). Per reader: inputs, accepted, clean errors, crashes,
hangs, slowest input. Writes benchmarks/results/fuzz_readers.json.

    .venv/bin/python benchmarks/fuzz_readers.py [--examples 2000] [--timeout 10] [--readers list,json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run_info import run_info  # noqa: E402
from fuzz_support import READERS, ingest_one, library_consistent, mutated, place, seeds  # noqa: E402

MEMORY_LIMIT = 3 << 30  # bytes of address space for the worker: a memory bomb fails, not the machine


# ---------------------------------------------------------------------------- worker

def worker(db: str) -> None:
    """Ingest the files named on stdin (one JSON request a line) into one library."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    from paperscope.store import SQLiteStore

    store = SQLiteStore(db)
    for line in sys.stdin:
        request = json.loads(line)
        t0 = time.perf_counter()
        if request.get("check"):
            answer = {"kind": "check", "detail": library_consistent(store) or ""}
        else:
            outcome = ingest_one(store, Path(request["path"]), request["fmt"])
            answer = {"kind": outcome.kind, "detail": outcome.detail}
        answer["seconds"] = time.perf_counter() - t0
        print(json.dumps(answer), flush=True)
    store.close()


class Worker:
    def __init__(self, db: Path):
        self.db = db
        self.proc = self._start()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, __file__, "--worker", str(self.db)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, request: dict, timeout: float) -> dict | None:
        """The worker's answer, or None after `timeout` seconds (the worker is then replaced)."""
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        code = self.proc.poll()
        self.restart()
        return None if code is None else {"kind": "crash", "detail": f"worker died (exit {code})", "seconds": 0}

    def restart(self) -> None:
        self.proc.kill()
        self.proc.wait()
        self.proc = self._start()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


# ---------------------------------------------------------------------------- one reader

def fuzz_reader(reader: str, seed_files: list[bytes], work: Path, examples: int, timeout: float,
                huge: int, seed: int, keep: Path | None = None) -> dict:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis import strategies as st

    w = Worker(work / f"{reader}.db")
    row = {"reader": reader, "inputs": 0, "accepted": 0, "clean_errors": 0, "crashes": 0, "hangs": 0,
           "slowest_s": 0.0, "bytes_max": 0, "failures": []}
    n = iter(range(10**9))

    @fixed_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(data=mutated(seed_files, huge=huge), forced=st.booleans())
    def run(data, forced):
        path = place(work / reader, reader, data, next(n))
        answer = w.ask({"path": str(path), "fmt": reader if forced else None}, timeout)
        row["inputs"] += 1
        row["bytes_max"] = max(row["bytes_max"], len(data))
        if answer is None or answer["kind"] == "crash":
            if keep:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"{reader}-{row['inputs']}-{'hang' if answer is None else 'crash'}.bin").write_bytes(data)
        if answer is None:
            row["hangs"] += 1
            row["failures"].append({"kind": "hang", "bytes": len(data), "forced": forced, "head": repr(data[:160])})
            return
        row["slowest_s"] = max(row["slowest_s"], round(answer["seconds"], 3))
        if answer["kind"] == "crash":
            row["crashes"] += 1
            if len(row["failures"]) < 10:
                row["failures"].append({"kind": "crash", "bytes": len(data), "forced": forced,
                                        "detail": answer["detail"][-800:], "head": repr(data[:160])})
        else:
            row["accepted" if answer["kind"] == "accepted" else "clean_errors"] += 1

    t0 = time.perf_counter()
    run()
    check = w.ask({"check": True}, 120)
    w.close()
    row["library_check"] = (check or {}).get("detail") or "ok"
    row["wall_s"] = round(time.perf_counter() - t0, 1)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=2000, help="inputs per reader")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds after which an input is a hang")
    ap.add_argument("--huge", type=int, default=2_000_000, help="bound on huge lines and nesting (bytes)")
    ap.add_argument("--readers", default=",".join(READERS))
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--keep", type=Path, default=None, help="folder to keep the inputs that crash or hang")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz_readers.json")
    args = ap.parse_args()
    corpora = args.corpora if args.corpora.is_dir() else None
    seed_files = seeds(corpora)
    info = run_info({"seeds": {r: len(v) for r, v in seed_files.items()},
                     "seed_sources": "examples/lists" + (", slices of ../shared/corpora" if corpora else "")},
                    "hypothesis", "PyYAML", "bibtexparser")
    cpu0 = os.times()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "inputs"
        work.mkdir()
        for reader in args.readers.split(","):
            row = fuzz_reader(reader, seed_files[reader], work, args.examples, args.timeout, args.huge, args.seed,
                              args.keep)
            rows.append(row)
            print(f"{reader:7s} inputs {row['inputs']:5d}  accepted {row['accepted']:5d}  clean errors "
                  f"{row['clean_errors']:5d}  crashes {row['crashes']:3d}  hangs {row['hangs']:3d}  "
                  f"slowest {row['slowest_s']:.2f}s  library {row['library_check']}  ({row['wall_s']} s)", flush=True)
    cpu = os.times()
    out = {**info, "settings": {"examples_per_reader": args.examples, "watchdog_s": args.timeout,
                                "huge_bytes": args.huge, "seed": args.seed},
           "readers": rows,
           "total": {k: sum(r[k] for r in rows) for k in ("inputs", "accepted", "clean_errors", "crashes", "hangs")},
           "cpu_s_workers": round(cpu.children_user + cpu.children_system - cpu0.children_user - cpu0.children_system, 1),
           "load_average_at_end": [round(x, 2) for x in os.getloadavg()]}
    args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"total {out['total']} -> {args.out}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
