"""Fuzz profile of the command line (the readers' is benchmarks/fuzz_readers.py): hostile
argv, file names and special files from tests/fuzz_cli_support.py, each run as a real
`python -m paperscope` process (argv as raw bytes, as a shell passes them) on one library
seeded with the example lists, under a watchdog: a process that takes over --timeout seconds
is a hang (killed). Per family: cases, ok, clean errors, crashes, hangs, slowest case.
Writes benchmarks/results/fuzz_cli.json.

    .venv/bin/python benchmarks/fuzz_cli.py [--argv 300] [--names 40] [--timeout 60]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run_info import run_info  # noqa: E402
from fuzz_cli_support import (EXAMPLE, argv_cases, feed_pipe, file_names, judge, materialise,  # noqa: E402
                              name_cases, remove_deep, special_cases, special_paths)


class Runner:
    def __init__(self, work: Path, timeout: float):
        self.work, self.timeout = work, timeout
        self.db = work / "lib.db"
        self.env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        self.busy = socket.socket()
        self.busy.bind(("127.0.0.1", 0))
        self.busy.listen(1)
        self.n = 0
        seeded = self.run([b"ingest", b"--no-embed", os.fsencode(EXAMPLE)])
        assert seeded["kind"] == "ok", seeded
        out = subprocess.run([sys.executable, "-m", "paperscope", "--db", str(self.db), "list", "--json",
                              "--limit", "1"], capture_output=True, text=True, env=self.env, timeout=300)
        self.paper_id = json.loads(out.stdout)[0]["id"]

    def run(self, argv: list[bytes]) -> dict:
        self.n += 1
        tmp = self.work / f"case{self.n}"
        args = materialise(argv, getattr(self, "paper_id", ""), tmp, self.busy.getsockname()[1])
        writers = [w for w in (feed_pipe(a) for a in args) if w]
        cmd = [os.fsencode(sys.executable), b"-m", b"paperscope", b"--db", os.fsencode(self.db), *args]
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=self.timeout, env=self.env, cwd=self.work)
        except subprocess.TimeoutExpired:
            return {"kind": "hang", "seconds": self.timeout, "argv": _shown(args)}
        finally:
            for w in writers:
                w.join(timeout=5)
        outcome = judge(proc.returncode, proc.stderr.decode("utf-8", "replace"))
        return {"kind": outcome.kind, "detail": scrub(outcome.detail), "seconds": time.perf_counter() - t0,
                "argv": _shown(args)}


_MACHINE_PATH = re.compile(r"/[^\s\"']*?/(site-packages|src)/")


def scrub(text: str | None) -> str | None:
    """A traceback without the machine's folders: `<site-packages>/...`, `src/...`."""
    if text is None:
        return None
    return _MACHINE_PATH.sub(lambda m: "<site-packages>/" if m.group(1) == "site-packages" else "src/", text)


def _shown(args: list[bytes]) -> str:
    text = " ".join(os.fsdecode(a) for a in args).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    text = re.sub(re.escape(tempfile.gettempdir()) + r"/[^/\s]+", "<tmp>", text)  # no machine folders in results
    return text if len(text) < 200 else text[:200] + "..."


def family(name: str, cases, runner: Runner) -> dict:
    row = {"family": name, "cases": 0, "ok": 0, "clean": 0, "crash": 0, "hang": 0, "slowest_s": 0.0, "failures": []}
    t0 = time.perf_counter()
    for argv in cases:
        answer = runner.run(argv)
        row["cases"] += 1
        row[answer["kind"]] += 1
        row["slowest_s"] = round(max(row["slowest_s"], answer["seconds"]), 2)
        if answer["kind"] in ("crash", "hang") and len(row["failures"]) < 20:
            row["failures"].append({k: answer.get(k) for k in ("kind", "argv", "detail")})
    row["wall_s"] = round(time.perf_counter() - t0, 1)
    print(f"{name:13s} cases {row['cases']:4d}  ok {row['ok']:4d}  clean {row['clean']:4d}  crashes {row['crash']:3d}  "
          f"hangs {row['hang']:3d}  slowest {row['slowest_s']:.1f}s  ({row['wall_s']} s)", flush=True)
    return row


def drawn(strategy, n: int, seed: int) -> list:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed

    out: list = []

    @fixed_seed(seed)
    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(x):
        out.append(x)

    collect()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--argv", type=int, default=300, help="fuzzed command lines")
    ap.add_argument("--names", type=int, default=40, help="fuzzed file names (4 commands each)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds after which a command is a hang")
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz_cli.json")
    args = ap.parse_args()
    info = run_info({"seed_list": "examples/lists/" + EXAMPLE.name}, "hypothesis", "typer", "rich")
    cpu0 = os.times()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        runner = Runner(work, args.timeout)
        argv = drawn(argv_cases(), args.argv, args.seed)
        names = [c for i, name in enumerate(drawn(file_names(), args.names, args.seed))
                 for c in name_cases(work / f"names{i}", name)]
        specials = [argv for _, argv in special_cases(special_paths(work / "special"))]
        rows = [family("argv", argv, runner), family("file names", names, runner),
                family("special files", specials, runner)]
        remove_deep(work / "special" / "deep")
    cpu = os.times()
    total = {k: sum(r[k] for r in rows) for k in ("cases", "ok", "clean", "crash", "hang")}
    out = {**info, "settings": {"argv": args.argv, "names": args.names, "watchdog_s": args.timeout, "seed": args.seed},
           "families": rows, "total": total,
           "cpu_s_children": round(cpu.children_user + cpu.children_system - cpu0.children_user - cpu0.children_system, 1),
           "load_average_at_end": [round(x, 2) for x in os.getloadavg()]}
    args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"total {total} -> {args.out.name}")


if __name__ == "__main__":
    main()
