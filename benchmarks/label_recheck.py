"""Re-judge only what changed since the judged sheets (benchmarks/label_judging.py).

The four judged sheets hold 200 papers with the label and TL;DR of the tree they were made from
("after"). Re-judging all 200 after every change is costly and adds the noise of new readers to
papers that did not change. `sheet` finds the papers of that fixed sample whose label or TL;DR
the current tree derives differently and writes one blind sheet of just those (real title, the
sheets' label, today's label, shuffled; the sheets' TL;DR and today's TL;DR, shuffled) to
benchmarks/judging/recheck/, with its key. `score` reads two independent passes
(recheck/verdicts/pass1.txt, pass2.txt; same rubric and line format as the judged sheets) and
writes benchmarks/results/label_recheck.json: the verdicts on the old and the new texts of the
changed papers, how often the two passes agree, and the estimate for all 200 papers: the judged sheets' verdicts with the changed
papers' old verdicts replaced by their new ones (labels and TL;DRs separately).

    .venv/bin/python benchmarks/label_recheck.py sheet
    .venv/bin/python benchmarks/label_recheck.py score
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _run_info import run_info  # noqa: E402
from label_judging import JUDGING, _letters, sample_papers  # noqa: E402

RECHECK = JUDGING / "recheck"
OUT = ROOT / "benchmarks" / "results" / "label_recheck.json"
SEED = 7


def _judged() -> dict[str, dict[str, str]]:
    """Per source id: the real title, the sheets' label and TL;DR ("after")."""
    key = json.loads((JUDGING / "key.json").read_text("utf-8"))["papers"]
    out = {}
    for entry in key.values():
        texts = entry["texts"]
        kinds = {k: texts[letter] for letter, ks in {**entry["letters"], **entry["tldrs"]}.items() for k in ks}
        out[entry["source_id"]] = {"real": kinds["real"], "label": kinds["after"], "tldr": kinds["tldr_after"]}
    return out


def make_sheet() -> int:
    from paperscope.enrich import derive_facts

    info = run_info({"sample": "benchmarks/label_judging.py's 200 papers", "judged": "benchmarks/judging/key.json"})
    judged, rng = _judged(), random.Random(SEED)
    lines = ["# Re-check sheet: judge every candidate title and every TL;DR against the abstract, using only "
             "RUBRIC.md.", ""]
    key, template = {}, []
    for p in sample_papers():
        now, was = derive_facts(None, p["abstract"]), judged[p["id"]]
        if now["label"].strip() == was["label"].strip() and now["tldr"].strip() == was["tldr"].strip():
            continue
        sid = f"P{len(key) + 1:03d}"
        lab = _letters({"real": was["real"], "old": was["label"], "new": now["label"]}, rng)
        tl = _letters({"tldr_old": was["tldr"], "tldr_new": now["tldr"]}, rng, first="T")
        texts = {"real": was["real"], "old": was["label"], "new": now["label"],
                 "tldr_old": was["tldr"], "tldr_new": now["tldr"]}
        key[sid] = {"source_id": p["id"], "corpus": p["corpus"], "letters": lab, "tldrs": tl,
                    "label_changed": now["label"].strip() != was["label"].strip(),
                    "tldr_changed": now["tldr"].strip() != was["tldr"].strip()}
        lines += [f"## {sid}", "", "Abstract:", "", p["abstract"], "", "Candidate titles:", ""]
        lines += [f"- {letter}: {texts[kinds[0]]}" for letter, kinds in lab.items()]
        lines += ["", "TL;DRs:", ""] + [f"- {t}: {texts[kinds[0]]}" for t, kinds in tl.items()] + [""]
        template.append(f"{sid} " + " ".join(f"{x}:" for x in lab) + " | " + " ".join(f"{t}:" for t in tl))
    RECHECK.mkdir(parents=True, exist_ok=True)
    (RECHECK / "sheet.md").write_text("\n".join(lines), "utf-8")
    (RECHECK / "template.txt").write_text("\n".join(template) + "\n", "utf-8")
    (RECHECK / "key.json").write_text(json.dumps({**info, "papers": key}, indent=1, ensure_ascii=False) + "\n",
                                      "utf-8")
    print(f"{len(key)} of 200 papers changed; sheet in {RECHECK.relative_to(ROOT)}/")
    return 0


def _verdicts(path: Path, key: dict) -> dict[str, dict[str, int]]:
    """Per paper, per kind: 1 or 0. Every letter of the key must be marked."""
    out = {}
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        sid = body.split()[0]
        marks = dict(re.findall(r"\b([A-Z]|T\d):([01])\b", body))
        want = set(key[sid]["letters"]) | set(key[sid]["tldrs"])
        if set(marks) != want:
            raise SystemExit(f"{path.relative_to(ROOT)}:{n}: expected marks for {sorted(want)}")
        out[sid] = {kind: int(v) for x, v in marks.items()
                    for kind in {**key[sid]["letters"], **key[sid]["tldrs"]}[x]}
    if set(out) != set(key):
        raise SystemExit(f"{path.relative_to(ROOT)}: papers missing: {sorted(set(key) - set(out))}")
    return out


def score() -> int:
    key = json.loads((RECHECK / "key.json").read_text("utf-8"))
    judged = json.loads((ROOT / "benchmarks" / "results" / "label_judging.json").read_text("utf-8"))["kinds"]
    passes = [_verdicts(RECHECK / "verdicts" / f"pass{i}.txt", key["papers"]) for i in (1, 2)]
    out = {"changed_papers": len(key["papers"]), "made_at": key["git_commit"]}
    for what, old, new in (("labels", "old", "new"), ("tldrs", "tldr_old", "tldr_new")):
        flag = "label_changed" if what == "labels" else "tldr_changed"
        sids = [s for s, e in key["papers"].items() if e[flag]]
        was = sum(v[s][old] for v in passes for s in sids)
        now = sum(v[s][new] for v in passes for s in sids)
        sheets = judged["after" if what == "labels" else "tldr_after"]["mean_of_passes"]
        total = 2 * sheets["n"]
        accepted = round(sheets["acceptable"] * total)
        out[what] = {"changed": len(sids), "verdicts_old": f"{was}/{2 * len(sids)}",
                     "verdicts_new": f"{now}/{2 * len(sids)}", "judged_sheets": round(accepted / total, 4),
                     "estimate_now": round((accepted - was + now) / total, 4)}
    real = [v[s]["real"] for v in passes for s in key["papers"]]
    out["real_titles"] = f"{sum(real)}/{len(real)}"
    pairs = [(passes[0][s][k], passes[1][s][k]) for s in key["papers"] for k in passes[0][s]]
    out["passes_agree"] = round(sum(a == b for a, b in pairs) / len(pairs), 4)
    out["run"] = run_info({"key": "benchmarks/judging/recheck/key.json",
                           "verdicts": "benchmarks/judging/recheck/verdicts/pass1.txt, pass2.txt"})
    OUT.write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    print(json.dumps({k: v for k, v in out.items() if k != "run"}, indent=1))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("what", choices=("sheet", "score"))
    return make_sheet() if ap.parse_args().what == "sheet" else score()


if __name__ == "__main__":
    sys.exit(main())
