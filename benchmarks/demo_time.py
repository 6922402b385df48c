"""Time from a fresh clone to a serving demo: `git clone` of this repository's HEAD into a
temporary folder, then `make demo` there (venv, pip install, ingest of the bundled examples,
serve), until the home page answers 200. The machine's pip cache and the cached int8 model
are what a second run on the same machine sees; say so when comparing with a truly new machine.

    .venv/bin/python benchmarks/demo_time.py [--port 8765] [--timeout 900]
JSON: benchmarks/results/demo_time.json
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _run_info import ROOT, run_info  # noqa: E402


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args()
    if answers(args.port):
        raise SystemExit(f"port {args.port} already answers: choose another with --port")
    info = run_info({"examples": "examples/lists + examples/proceedings (make ingest-examples)"})
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "paperscope"
        start = time.monotonic()
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        log = (Path(tmp) / "demo.log").open("w")
        proc = subprocess.Popen(["make", "demo", f"PORT={args.port}"], cwd=clone, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        marks: dict[str, float] = {}
        try:
            while not answers(args.port):
                if proc.poll() is not None:
                    raise SystemExit(f"make demo exited with {proc.returncode}: see its log")
                if time.monotonic() - start > args.timeout:
                    raise SystemExit("no answer within the timeout")
                text = (Path(tmp) / "demo.log").read_text(errors="replace")
                for name, pattern in (("installed", r"touch \.venv/\.installed"), ("ingested", r"paperscope stats")):
                    if name not in marks and re.search(pattern, text):
                        marks[name] = round(time.monotonic() - start, 1)
                time.sleep(0.5)
            total = round(time.monotonic() - start, 1)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        papers = re.search(r"library: (\d+) papers", (Path(tmp) / "demo.log").read_text(errors="replace"))
    out = {"seconds_to_serving": total, "seconds_to_installed": marks.get("installed"),
           "seconds_to_ingested": marks.get("ingested"), "papers": int(papers.group(1)) if papers else None,
           "load_average_after": [round(x, 2) for x in os.getloadavg()], **info}
    (HERE / "results" / "demo_time.json").write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
