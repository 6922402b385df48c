"""Blind judged labels and TL;DRs: sheets for readers, and their verdicts scored.

`sheet` draws a fixed sample of title-less papers: 100 ICML 2024 posters of the untouched half
(benchmarks/label_eval.py's split, sha1 of the virtual-site URL) and 100 ICLR 2024 papers
(OpenReview), leaving out the abstracts of the bundled sample lists (used while developing).
Each paper shows its abstract and its candidate titles, shuffled with a fixed seed and
lettered A, B, C, ...:
  - real:     the paper's real title (the control: a reader accepts >= 95 % or the judging is off)
  - before:   the label paperscope shipped before this benchmark (computed once, stored in
              benchmarks/judging/before.json, and read from there afterwards)
  - baseline: the first clause of the abstract's first sentence, cut to 12 words
              (label_eval.baseline)
  - after:    the label of the current source tree
and its TL;DRs T1, T2 (before, after; shuffled). The corpora hold no author TL;DRs, so there is
no TL;DR control. Candidates that are the same text are shown once (the key lists every kind
a letter stands for). The sheet is split into four parts of 50 papers; the key
(benchmarks/judging/key.json) maps letters to kinds and is never shown to the readers.

`score` reads the verdicts of two independent passes (benchmarks/judging/verdicts/pass1/,
pass2/, one file per part, format in benchmarks/judging/RUBRIC.md) and writes
benchmarks/results/label_judging.json: per kind the share acceptable (Wilson 95 % CI) per pass,
averaged over both passes and accepted by both; agreement between passes (percent, Cohen's kappa).

    .venv/bin/python benchmarks/label_judging.py sheet
    .venv/bin/python benchmarks/label_judging.py score [--verdicts benchmarks/judging/verdicts]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _run_info import run_info  # noqa: E402
from label_eval import CORPORA, baseline, load_icml  # noqa: E402

JUDGING = ROOT / "benchmarks" / "judging"
OUT = ROOT / "benchmarks" / "results" / "label_judging.json"
PER_CORPUS, PARTS, SEED = 100, 4, 2024
LABEL_KINDS = ("real", "before", "baseline", "after")
TLDR_KINDS = ("tldr_before", "tldr_after")


def _rank(uid: str) -> str:
    return hashlib.sha1(f"judging:{uid}".encode()).hexdigest()


def load_iclr() -> list[dict]:
    from paperscope.model import clean_text, latex_to_plain

    rows = json.loads((CORPORA / "iclr2024_openreview" / "iclr2024_accepted.json").read_text("utf-8"))
    return [{"id": r["forum"], "corpus": "iclr2024", "title": latex_to_plain(clean_text(r["title"])),
             "abstract": latex_to_plain(clean_text(r["abstract"]))} for r in rows if r.get("abstract")]


def sample_papers() -> list[dict]:
    """The fixed sample: untouched ICML 2024 + ICLR 2024, minus the development samples."""
    from paperscope.enrich.evaluation import match_key, sample_abstracts

    dev = set(sample_abstracts(ROOT / "examples" / "lists"))
    icml = [{**p, "corpus": "icml2024"} for p in load_icml() if p["half"] == "untouched"]
    picked = []
    for pool in (icml, load_iclr()):
        pool = [p for p in pool if match_key(p["abstract"])[:48] not in dev]
        picked += sorted(pool, key=lambda p: _rank(p["id"]))[:PER_CORPUS]
    picked.sort(key=lambda p: _rank(p["id"]))  # both corpora in every part
    for i, p in enumerate(picked, 1):
        p["sid"] = f"P{i:03d}"
    return picked


def _before(papers: list[dict]) -> dict[str, dict]:
    """Label and TL;DR shipped before; computed the first time, then read from the file."""
    path = JUDGING / "before.json"
    if path.exists():
        return json.loads(path.read_text("utf-8"))["papers"]
    from paperscope.enrich import derive_facts

    out = {}
    for p in papers:
        f = derive_facts(None, p["abstract"])
        out[p["id"]] = {"label": f["label"], "tldr": f["tldr"]}
    JUDGING.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"note": "labels and TL;DRs of the code before this benchmark",
                                **run_info({}), "papers": out}, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return out


def _letters(texts: dict[str, str], rng: random.Random, first: str = "A") -> dict[str, list[str]]:
    """Letter -> kinds, one letter per distinct text, in a shuffled order."""
    by_text: dict[str, list[str]] = {}
    for kind, text in texts.items():
        by_text.setdefault(text.strip(), []).append(kind)
    groups = list(by_text.values())
    rng.shuffle(groups)
    if first == "A":
        return {chr(ord("A") + i): g for i, g in enumerate(groups)}
    return {f"T{i + 1}": g for i, g in enumerate(groups)}


def make_sheet() -> int:
    from paperscope.enrich import derive_facts

    info = run_info({"icml2024": "icml2024_events.json (untouched half)",
                     "iclr2024": "iclr2024_accepted.json"})  # before the sheets change the tree
    papers = sample_papers()
    before = _before(papers)
    rng = random.Random(SEED)
    key, parts = {}, [[] for _ in range(PARTS)]
    t0 = time.process_time()
    for n, p in enumerate(papers):
        after = derive_facts(None, p["abstract"])
        labels = {"real": p["title"], "before": before[p["id"]]["label"],
                  "baseline": baseline(p["abstract"]), "after": after["label"]}
        tldrs = {"tldr_before": before[p["id"]]["tldr"], "tldr_after": after["tldr"]}
        lab, tl = _letters(labels, rng), _letters(tldrs, rng, first="T")
        texts = {**labels, **tldrs}
        key[p["sid"]] = {"corpus": p["corpus"], "source_id": p["id"], "part": n * PARTS // len(papers) + 1,
                         "letters": lab, "tldrs": tl,
                         "texts": {k: texts[v[0]] for k, v in {**lab, **tl}.items()}}
        parts[n * PARTS // len(papers)].append((p, lab, tl, texts))
    for i, rows in enumerate(parts, 1):
        _write_part(i, rows)
    (JUDGING / "key.json").write_text(json.dumps({**info, "cpu_s_after": round(time.process_time() - t0, 2),
                                      "papers": key}, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {len(papers)} papers in {PARTS} parts to {JUDGING.relative_to(ROOT)}/")
    return 0


def _write_part(i: int, rows: list) -> None:
    lines = [f"# Sheet {i} of {PARTS}: {len(rows)} papers", "",
             "Judge every candidate title and every TL;DR against the abstract, using only RUBRIC.md.",
             f"Write your verdicts to verdicts/passN/sheet_{i}.txt (template: sheet_{i}_template.txt).", ""]
    template = []
    for p, lab, tl, texts in rows:
        lines += [f"## {p['sid']}", "", "Abstract:", "", p["abstract"], "", "Candidate titles:", ""]
        lines += [f"- {letter}: {texts[kinds[0]]}" for letter, kinds in lab.items()]
        lines += ["", "TL;DRs:", ""]
        lines += [f"- {t}: {texts[kinds[0]] or '(empty)'}" for t, kinds in tl.items()]
        lines += [""]
        template.append(f"{p['sid']} " + " ".join(f"{x}:" for x in lab) + " | " + " ".join(f"{t}:" for t in tl))
    (JUDGING / f"sheet_{i}.md").write_text("\n".join(lines), "utf-8")
    (JUDGING / f"sheet_{i}_template.txt").write_text("\n".join(template) + "\n", "utf-8")


_LINE = re.compile(r"^(P\d{3})\s+((?:[A-Z]:[01]\s*)+)\|\s*((?:T\d:[01]\s*)+)$")


class VerdictError(ValueError):
    pass


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return path.name


def read_pass(folder: Path, key: dict) -> dict[str, dict[str, int]]:
    """sid -> {letter or T-number: 0/1} for every verdict file in a pass folder."""
    out: dict[str, dict[str, int]] = {}
    files = sorted(folder.glob("sheet_*.txt"))
    if not files:
        raise VerdictError(f"{_shown(folder)}: no verdict files sheet_*.txt")
    for path in files:
        for no, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            m = _LINE.match(line)
            where = f"{_shown(path)}:{no}"
            if not m:
                raise VerdictError(f"{where}: not a verdict line (want 'P001 A:1 B:0 ... | T1:1 T2:0'): {line!r}")
            sid = m.group(1)
            if sid not in key:
                raise VerdictError(f"{where}: unknown paper {sid}")
            marks = dict(x.split(":") for x in (m.group(2) + " " + m.group(3)).split())
            want = set(key[sid]["letters"]) | set(key[sid]["tldrs"])
            if set(marks) != want:
                raise VerdictError(f"{where}: {sid} needs verdicts for {' '.join(sorted(want))}")
            if sid in out:
                raise VerdictError(f"{where}: {sid} judged twice in this pass")
            out[sid] = {k: int(v) for k, v in marks.items()}
    return out


def by_kind(verdicts: dict[str, dict[str, int]], key: dict) -> dict[str, dict[str, int]]:
    """kind -> sid -> 0/1."""
    out: dict[str, dict[str, int]] = {}
    for sid, marks in verdicts.items():
        entry = key[sid]
        for letter, kinds in {**entry["letters"], **entry["tldrs"]}.items():
            for kind in kinds:
                out.setdefault(kind, {})[sid] = marks[letter]
    return out


def wilson(k: float, n: int, z: float = 1.96) -> list[float]:
    if not n:
        return [0.0, 0.0]
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(max(0.0, c - h), 4), round(min(1.0, c + h), 4)]


def kappa(a: list[int], b: list[int]) -> float | None:
    n = len(a)
    if not n:
        return None
    po = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    return round((po - pe) / (1 - pe), 4) if pe < 1 else 1.0


def share(marks: list[int]) -> dict:
    return {"n": len(marks), "acceptable": round(sum(marks) / len(marks), 4) if marks else None,
            "ci95": wilson(sum(marks), len(marks))}


def score_passes(folder: Path) -> int:
    key = json.loads((JUDGING / "key.json").read_text("utf-8"))["papers"]
    try:
        passes = [by_kind(read_pass(folder / name, key), key) for name in ("pass1", "pass2")]
    except (VerdictError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    result = {"kinds": {}, "agreement": {}}
    for kind in LABEL_KINDS + TLDR_KINDS:
        p1, p2 = passes[0].get(kind, {}), passes[1].get(kind, {})
        both = sorted(set(p1) & set(p2))
        mean = [(p1[s] + p2[s]) / 2 for s in both]
        result["kinds"][kind] = {
            "pass1": share(list(p1.values())), "pass2": share(list(p2.values())),
            "mean_of_passes": {"n": len(both), "acceptable": round(sum(mean) / len(both), 4) if both else None,
                               "ci95": wilson(sum(mean), len(both))},
            "both_accept": share([p1[s] * p2[s] for s in both]),
            "by_corpus": {c: share([p1[s] * p2[s] for s in both if key[s]["corpus"] == c])
                          for c in ("icml2024", "iclr2024")}}
    for group, kinds in (("labels", LABEL_KINDS), ("tldrs", TLDR_KINDS)):
        a, b = [], []
        for sid, entry in key.items():
            for letter in entry["letters" if group == "labels" else "tldrs"]:
                kind = entry["letters" if group == "labels" else "tldrs"][letter][0]
                if sid in passes[0].get(kind, {}) and sid in passes[1].get(kind, {}):
                    a.append(passes[0][kind][sid])
                    b.append(passes[1][kind][sid])
        result["agreement"][group] = {"items": len(a), "percent": round(100 * sum(x == y for x, y in zip(a, b))
                                                                        / len(a), 1) if a else None,
                                      "cohen_kappa": kappa(a, b)}
    real = [result["kinds"]["real"][p]["acceptable"] for p in ("pass1", "pass2")]
    result["control_ok"] = all(r is not None and r >= 0.95 for r in real)
    result.update(run_info({"verdicts": _shown(folder), "key": "benchmarks/judging/key.json"}))
    OUT.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    for kind, r in result["kinds"].items():
        print(f"{kind:<12} pass1 {r['pass1']['acceptable']}  pass2 {r['pass2']['acceptable']}  "
              f"mean {r['mean_of_passes']['acceptable']}  both {r['both_accept']['acceptable']}")
    print(f"agreement {result['agreement']}; control ok: {result['control_ok']}")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0 if result["control_ok"] else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("sheet", help="write the sheets, templates and key to benchmarks/judging/")
    sc = sub.add_parser("score", help="score two passes of verdicts")
    sc.add_argument("--verdicts", type=Path, default=JUDGING / "verdicts")
    args = ap.parse_args()
    if args.cmd == "sheet":
        return make_sheet()
    return score_passes(args.verdicts.resolve())


if __name__ == "__main__":
    sys.exit(main())
