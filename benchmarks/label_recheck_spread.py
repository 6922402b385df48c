"""How much of a move between two rechecks is the readers, and how much the texts?

Two rechecks of the reported sample (benchmarks/label_recheck.py) are read by different readers.
For every paper both sheets show, this compares the marks today's label and TL;DR got in each
recheck: where the text is the same, the difference is the spread between sets of readers; where
it changed, it is the change. The earlier recheck is read from git (`--before`, a commit whose
benchmarks/judging/recheck/ holds its sheet, key and verdicts, second read included).

    .venv/bin/python benchmarks/label_recheck_spread.py --before bd31b58
        -> benchmarks/results/label_recheck_spread.json
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from _run_info import run_info  # noqa: E402

RECHECK = "benchmarks/judging/recheck"
PASSES = ("verdicts/pass1.txt", "verdicts/pass2.txt", "verdicts/second-read/pass1.txt", "verdicts/second-read/pass2.txt")
OUT = ROOT / "benchmarks" / "results" / "label_recheck_spread.json"


def _read(commit: str | None, name: str) -> str:
    if commit is None:
        path = ROOT / RECHECK / name
        return path.read_text("utf-8") if path.exists() else ""
    done = subprocess.run(["git", "show", f"{commit}:{RECHECK}/{name}"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else ""


def marks(commit: str | None) -> dict[str, dict[str, tuple[str, list[int]]]]:
    """Per source id and kind ("label", "tldr"): today's text of that recheck and its marks."""
    papers = json.loads(_read(commit, "key.json"))["papers"]
    shown = {m.group(1): dict(re.findall(r"- (T\d|[A-Z]): (.*)", m.group(2)))
             for m in re.finditer(r"## (P\d+)\n(.*?)(?=\n## P|\Z)", _read(commit, "sheet.md"), re.S)}
    out: dict[str, dict[str, tuple[str, list[int]]]] = defaultdict(dict)
    for name in PASSES:
        for line in _read(commit, name).splitlines():
            line = line.split("#", 1)[0].replace("|", " ").strip()
            if not line.startswith("P"):
                continue
            sid, *rest = line.split()
            got = {m.split(":")[0]: int(m.split(":")[1]) for m in rest if m[-2:] in (":0", ":1")}
            entry = papers[sid]
            for kind, slots, want in (("label", entry["letters"], "new"), ("tldr", entry["tldrs"], "tldr_new")):
                slot = next(s for s, kinds in slots.items() if want in kinds)
                text, got_marks = out[entry["source_id"]].get(kind, (shown[sid][slot].strip(), []))
                out[entry["source_id"]][kind] = (text, got_marks + [got[slot]])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="commit of the earlier recheck")
    before, now = marks(parser.parse_args().before), marks(None)
    result = {}
    for kind in ("label", "tldr"):
        rows = {"same text": [0, 0, 0, 0], "changed text": [0, 0, 0, 0]}  # papers, marks, accepted before, accepted now
        for source, kinds in now.items():
            if kind not in kinds or kind not in before.get(source, {}):
                continue
            (text, got), (was, had) = kinds[kind], before[source][kind]
            row = rows["same text" if text == was else "changed text"]
            row[0] += 1
            row[1] += len(got)
            row[2] += sum(had) * len(got) / len(had)  # the earlier readers' share, on as many marks
            row[3] += sum(got)
        result[kind] = {k: {"papers": p, "marks": n, "accepted before": round(b, 1), "accepted now": a}
                        for k, (p, n, b, a) in rows.items()}
    OUT.write_text(json.dumps({**run_info({"before": f"{RECHECK} at the commit given", "now": RECHECK}),
                               "result": result}, indent=1) + "\n", "utf-8")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
