"""How far can a better choice among paperscope's own label candidates go? Judged blind.

Offline labels are chosen among candidates the enrich rules generate (the contribution headline,
the plain headline, the scored pool of label.candidates). If readers accept some candidate for
nearly every paper, the gap to the target is one of choosing (a better ranker); if not, it is
one of generating. `sheet` takes 120 development papers (40 each from the validation lists, ICLR
2024 outside the reported sample, and the second development slice; never the reported sample),
lists for each the real title, today's label and every other distinct candidate (up to nine in
all), shuffled and lettered, and writes four blind sheets to benchmarks/judging/ceiling/. Two
independent readers judge each sheet with benchmarks/judging/RUBRIC.md (titles only). `score`
writes benchmarks/results/label_ceiling.json: today's label, the best any candidate reaches (a
paper counts for a reader when that reader accepted at least one non-real candidate), the real
titles (the control), acceptance per kind of candidate, and agreement between readers.

    PAPERSCOPE_CORPORA=<corpora> .venv/bin/python benchmarks/label_ceiling.py sheet
    .venv/bin/python benchmarks/label_ceiling.py score
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _run_info import run_info  # noqa: E402

FOLDER = ROOT / "benchmarks" / "judging" / "ceiling"
OUT = ROOT / "benchmarks" / "results" / "label_ceiling.json"
PER_SOURCE, SHEETS, MAX_CANDIDATES = 40, 4, 9  # candidates besides the real title
LETTERS = "ABCDEFGHIJ"


def _slice(parts: list[list[dict]], k: int, second: bool) -> list[dict]:
    """A fixed slice of each list: papers ordered by a hash of their abstract."""
    out = []
    for part in parts:
        part = [p for p in part if len(p.get("abstract", "")) > 200]
        part.sort(key=lambda p: hashlib.sha1(p["abstract"][:200].encode()).hexdigest())
        out += part[k:2 * k] if second else part[:k]
    rows = {hashlib.sha1(p["abstract"][:200].encode()).hexdigest()[:12]: p for p in out}  # one per id
    return [{"id": k, "title": p["title"], "abstract": " ".join(p["abstract"].split())} for k, p in rows.items()]


def sources() -> dict[str, list[dict]]:
    """The three development sources (none of them the reported sample of label_judging.py)."""
    import _search_data as d
    import label_eval as le
    from label_judging import load_iclr, sample_papers

    reported = {p["id"] for p in sample_papers()}
    iclr = [{"id": p["id"], "title": p["title"], "abstract": p["abstract"]} for p in load_iclr() if p["id"] not in reported]
    validation = _slice([d.CORPUS["uai2024"](), d.CORPUS["colt2024"](), d.CORPUS["icml2016"](),
                         d.CORPUS["iclr2017"]() + d.CORPUS["iclr2018"]()], 500, False)
    development = _slice([[p for p in le.load_icml() if p["half"] == "tuning"], d.iclr2020(), d.nips()], 1000, True)
    return {"val": validation, "i24": iclr, "dev2": development}


def candidates(abstract: str, label: str) -> list[tuple[str, str]]:
    """Today's label and the other distinct candidates the rules generate for a title-less paper."""
    from paperscope.enrich import label as lab
    from paperscope.enrich.acronyms import long_forms
    from paperscope.enrich.headline import headline, plain_headline
    from paperscope.enrich.keyphrases import keyphrases
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.paper_type import classify
    from paperscope.enrich.text import Doc
    from paperscope.enrich.tldr import best_sentence

    doc = Doc.of(abstract)
    mentions = find_mentions(doc, None)
    tldr = best_sentence(doc, [m.name for m in mentions])
    best = doc.sentences.index(tldr) if tldr in doc.sentences else None
    forms = long_forms(doc.sentences)
    found = [("label", label), ("lead", headline(doc.sentences, doc.own_start, mentions, 112, forms, best)),
             ("plain", plain_headline(doc.sentences, doc.own_start, mentions, 112, forms))]
    kind, _ = classify(doc.text, None)
    pool = lab.candidates(doc, mentions, tldr, paper_type=kind, keyphrases=keyphrases(doc, exclude=[m.name for m in mentions]))
    ranked = sorted(pool.candidates, key=lambda c: -lab.score(c[0]))
    found += [(f"pool{i}:{f['kind']}", text) for i, (f, text) in enumerate(ranked)]
    seen, out = set(), []
    for kind, text in found:
        if not text:
            continue
        text = text[:1].upper() + text[1:]
        if text.casefold() not in seen:
            seen.add(text.casefold())
            out.append((kind, text))
    return out[:MAX_CANDIDATES]


def make_sheets() -> int:
    from paperscope.enrich import derive_facts

    rows = []
    for source, papers in sources().items():
        ids = sorted(range(len(papers)), key=lambda i: papers[i]["id"])
        random.Random(2026).shuffle(ids)
        rows += [(source, papers[i]) for i in ids[:PER_SOURCE]]
    rng = random.Random(5)
    rng.shuffle(rows)
    FOLDER.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "benchmarks" / "judging" / "RUBRIC.md", FOLDER / "RUBRIC.md")
    key, per = {}, len(rows) // SHEETS
    for n in range(SHEETS):
        lines, template = [f"# Sheet {n + 1}", ""], []
        for j, (source, p) in enumerate(rows[n * per:(n + 1) * per]):
            sid = f"P{n + 1}{j + 1:02d}"
            texts = [("real", p["title"])] + candidates(p["abstract"], derive_facts(None, p["abstract"])["label"])
            rng.shuffle(texts)
            lines += [f"## {sid}", "", f"**Abstract.** {p['abstract']}", "", "**Candidate titles**", ""]
            lines += [f"- {LETTERS[i]}: {text}" for i, (_, text) in enumerate(texts)] + [""]
            template.append(f"{sid} " + " ".join(f"{LETTERS[i]}:" for i in range(len(texts))))
            key[sid] = {"source": source, "id": p["id"], "letters": {LETTERS[i]: list(t) for i, t in enumerate(texts)}}
        (FOLDER / f"sheet_{n + 1}.md").write_text("\n".join(lines), "utf-8")
        (FOLDER / f"template_{n + 1}.txt").write_text("\n".join(template) + "\n", "utf-8")
    info = run_info({"sources": "PMLR UAI/COLT 2024, ICML 2016, ICLR 2017/18 (val); ICLR 2024 outside the reported "
                     "sample (i24); ICML 2024 tuning half, ICLR 2020, NIPS 2013-18, second slice (dev2)"})
    (FOLDER / "key.json").write_text(json.dumps({"made": info, "papers": key}, indent=1, ensure_ascii=False), "utf-8")
    print(f"{len(key)} papers, {sum(len(v['letters']) for v in key.values())} candidates -> {FOLDER.relative_to(ROOT)}")
    return 0


def _verdicts(path: Path) -> dict[str, dict[str, int]]:
    out = {}
    for line in path.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            sid, *marks = line.split()
            out[sid] = {m.split(":")[0]: int(m.split(":")[1]) for m in marks if m[-2:] in (":0", ":1")}
    return out


def score() -> int:
    key = json.loads((FOLDER / "key.json").read_text("utf-8"))["papers"]
    readers = {r: {} for r in ("a", "b")}
    for r in readers:
        for path in sorted(FOLDER.glob(f"verdicts_*_{r}.txt")):
            readers[r].update(_verdicts(path))
    kinds, papers, agree = Counter(), Counter(), Counter()
    for sid, entry in key.items():
        for r, got in readers.items():
            marks = {kind: got[sid][letter] for letter, (kind, _) in entry["letters"].items()}
            papers["label"] += marks["label"]
            papers["real"] += marks["real"]
            papers["any candidate"] += max(v for k, v in marks.items() if k != "real")
            for kind, v in marks.items():
                kind = kind.split(":")[-1]
                kinds[kind, "accepted"] += v
                kinds[kind, "judged"] += 1
        none = all(not got[sid][letter] for got in readers.values() for letter, (kind, _) in entry["letters"].items()
                   if kind != "real")
        papers["no candidate either reader accepts (papers)"] += 2 * none
        for letter in entry["letters"]:
            agree["same"] += readers["a"][sid][letter] == readers["b"][sid][letter]
            agree["all"] += 1
    n = 2 * len(key)
    result = {"papers": len(key), "readers per paper": 2,
              "acceptable (share of paper verdicts)": {k: round(v / n, 4) for k, v in papers.items()},
              "per kind of candidate": {k: {"judged": kinds[k, "judged"], "accepted": kinds[k, "accepted"]}
                                        for k in sorted({k for k, _ in kinds})},
              "agreement between readers (marks)": round(agree["same"] / agree["all"], 4)}
    OUT.write_text(json.dumps({**run_info({"key": "benchmarks/judging/ceiling/key.json",
                                           "verdicts": "benchmarks/judging/ceiling/verdicts_*_{a,b}.txt"}),
                               "result": result}, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(json.dumps(result["acceptable (share of paper verdicts)"]), "agreement", result["agreement between readers (marks)"])
    return 0 if result["acceptable (share of paper verdicts)"]["real"] >= 0.95 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["sheet", "score"])
    return make_sheets() if parser.parse_args().step == "sheet" else score()


if __name__ == "__main__":
    sys.exit(main())
