"""Blind A/B verdicts on development and validation lists, scored.

Each folder of benchmarks/judging/development/ holds a blind sheet of the papers whose label one
change altered (development: ICML 2024 tuning half, ICLR 2020, NIPS 2013-18 and ICLR 2024
papers outside the reported sample; validation: PMLR UAI/COLT 2024, ICML 2016, ICLR 2017/18):
the real title, the label before ("s0") and after ("s1"), shuffled and lettered (key.json), and
the verdicts of independent readers given only benchmarks/judging/RUBRIC.md and the sheet; a TL;DR
sheet shows the TL;DR before ("tldr_old") and after ("tldr_new") instead, as T1 and T2
(verdicts_<part>_<pass>.txt, the recheck's line format). This script counts, per folder, the
marks each kind of candidate got and how often the new label was marked better or worse than
the old one by the same reader. The reported sample (benchmarks/label_judging.py) is not in
these sheets.

    .venv/bin/python benchmarks/label_ab_development.py   -> benchmarks/results/label_ab_development.json
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from _run_info import run_info  # noqa: E402

FOLDER = ROOT / "benchmarks" / "judging" / "development"
OUT = ROOT / "benchmarks" / "results" / "label_ab_development.json"


def verdicts(path: Path) -> dict[str, dict[str, int]]:
    out = {}
    for line in path.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].replace("|", " ").strip()
        if not line:
            continue
        sid, *marks = line.split()
        out[sid] = {m.split(":")[0]: int(m.split(":")[1]) for m in marks if m[-2:] in (":0", ":1")}
    return out


def score(folder: Path) -> dict:
    key = json.loads((folder / "key.json").read_text("utf-8"))
    marks, pairs, readers = Counter(), Counter(), 0
    for path in sorted(folder.glob("verdicts_*.txt")):
        readers += 1
        for sid, got in verdicts(path).items():
            kinds = {kind: letter for letter, ks in {**key[sid]["L"], **key[sid].get("T", {})}.items() for kind in ks}
            for kind, letter in kinds.items():
                if letter in got:
                    marks[f"{kind} accepted"] += got[letter]
                    marks[f"{kind} judged"] += 1
            for a, b in (("s0", "s1"), ("tldr_old", "tldr_new")):  # a label sheet or a TL;DR sheet
                old, new = got.get(kinds.get(a)), got.get(kinds.get(b))
                if old is not None and new is not None:
                    pairs["same" if old == new else ("new better" if new > old else "old better")] += 1
    return {"papers": len(key), "reader files": readers, "marks": dict(marks), "old vs new": dict(pairs)}


def strict_read(folder: Path) -> dict:
    """A level read: one title and one TL;DR per paper marked 0 or 1 ("P101 title:1 tldr:0 # ..."), or the TL;DR
    alone ("P101 | T1:0 # SETUP: ...")."""
    marks, reasons = Counter(), Counter()
    for path in sorted(folder.glob("verdicts_*.txt")):
        for line in path.read_text("utf-8").splitlines():
            m = re.match(r"(P\d+) title:([01]) tldr:([01])(.*)", line)
            if m:
                marks.update({"papers": 1, "titles accepted": int(m.group(2)), "TL;DRs accepted": int(m.group(3))})
                reasons.update(f"{what} {code}" for what, code in re.findall(r"(title|tldr): ([A-Z]+)\b", m.group(4)))
            t = re.match(r"(P\d+)\s*\|\s*T1:([01])\s*(?:#\s*([A-Z]+))?", line)  # a TL;DR-only read, two readers
            if t:
                marks.update({"TL;DR marks": 1, "TL;DRs accepted": int(t.group(2))})
                reasons.update([f"tldr {t.group(3)}"] if t.group(3) and t.group(2) == "0" else [])
    return {"marks": dict(marks), "reasons": dict(reasons.most_common())}


def main() -> int:
    strict = {f.name: strict_read(f) for f in sorted(FOLDER.glob("strict-*"))}
    for name, r in strict.items():
        print(f"{name:22s} {r['marks']}")
    results = {f.name: score(f) for f in sorted(FOLDER.iterdir())
               if (f / "key.json").exists() and f.name not in strict}
    for name, r in results.items():
        m = r["marks"]
        old, new = ("tldr_old", "tldr_new") if "tldr_old judged" in m else ("s0", "s1")
        print(f"{name:22s} papers {r['papers']:3d}  real {m.get('real accepted', 0)}/{m.get('real judged', 0)}  "
              f"old {m.get(old + ' accepted', 0)}/{m.get(old + ' judged', 0)}  new {m.get(new + ' accepted', 0)}/"
              f"{m.get(new + ' judged', 0)}  {r['old vs new']}")
    OUT.write_text(json.dumps({**run_info({"sheets": "benchmarks/judging/development/*/"}), "results": results,
                               "strict_reads": strict}, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
