"""Title-less labels and TL;DRs measured against real titles: ICML 2024, titles hidden.

For each of the 2,634 ICML 2024 posters the label is derived from the abstract alone and
compared with the real title:
  - rule breaks: share of labels breaking a rule of a readable label (enrich/rules.py: cut,
    too long, opening back-reference or connective, circular, dangling last word, benchmark
    claim, missing "Position:" on a position paper, ...);
  - overlap: share of labels that share a content word (stemmed; stopwords and academic filler
    such as "method", "learning", "neural" do not count) with the real title;
  - ROUGE-L: LCS F1 of lower-cased stemmed word tokens, label vs title (mean).
Position papers (real title "Position: ..."): how many get a "Position:" label, and how many
other papers wrongly do. Systems: the baseline (first clause of the first sentence, cut to 12 words), today's extractor
(run from an older source tree: --src DIR --name NAME) and the current one. Papers are split
by a hash of their virtual-site URL: the tuning half (rules were tuned looking at it) and the
untouched half (only ever scored). TL;DRs get the rule-break share of enrich/rules.py.

    .venv/bin/python benchmarks/label_eval.py                 -> benchmarks/results/label_eval.json
    .venv/bin/python benchmarks/label_eval.py --src OLD/src --name "today (abc1234)"
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", ROOT.parent / "shared" / "corpora"))
OUT = ROOT / "benchmarks" / "results" / "label_eval.json"
FILLER = set("learning deep neural network networks via towards toward using based new novel "
             "approach approaches method methods model models framework frameworks".split())


def load_icml() -> list[dict]:
    from paperscope.model import clean_text, latex_to_plain

    events = json.loads((CORPORA / "icml2024_events" / "icml2024_events.json").read_text("utf-8"))
    out = []
    for e in events:
        if e.get("type") == "Poster" and e.get("abstract"):
            uid = e.get("virtualsite_url") or e["abstract"][:200]
            half = "tuning" if int(hashlib.sha1(uid.encode()).hexdigest(), 16) % 2 == 0 else "untouched"
            out.append({"id": uid, "half": half, "title": latex_to_plain(clean_text(e["name"])),
                        "abstract": latex_to_plain(clean_text(e["abstract"]))})
    return out


def baseline(abstract: str) -> str:
    """First clause of the first sentence, cut to 12 words."""
    from paperscope.enrich.text import Doc

    doc = Doc.of(abstract)
    first = doc.sentences[0] if doc.sentences else ""
    clause = re.split(r"[,;:]\s|\s[-–—]\s", first, maxsplit=1)[0].rstrip(".")
    return " ".join(clause.split()[:12])


class Scorer:
    def __init__(self):
        import Stemmer

        try:  # the shared word lists; older trees kept them in enrich/vocab.py
            from paperscope.words import FILLER_WORDS as GENERIC_WORDS, STOP_WORDS as STOPWORDS
        except ImportError:
            from paperscope.enrich.vocab import GENERIC_WORDS, STOPWORDS
        from paperscope.enrich.rules import label_breaks, tldr_breaks

        self.label_breaks, self.tldr_breaks = label_breaks, tldr_breaks
        self.stem = Stemmer.Stemmer("english").stemWord
        self.skip = STOPWORDS | GENERIC_WORDS | FILLER

    def tokens(self, text: str) -> list[str]:
        return [self.stem(t) for t in re.findall(r"[a-z0-9]+", text.lower())]

    def content(self, text: str) -> set[str]:
        return {self.stem(t) for t in re.findall(r"[a-z0-9]+", text.lower())
                if t not in self.skip and (len(t) > 2 or any(c.isdigit() for c in t))}

    def rouge_l(self, a: str, b: str) -> float:
        x, y = self.tokens(a), self.tokens(b)
        if not x or not y:
            return 0.0
        prev = [0] * (len(y) + 1)
        for xi in x:
            cur = [0]
            for j, yj in enumerate(y):
                cur.append(prev[j] + 1 if xi == yj else max(prev[j + 1], cur[j]))
            prev = cur
        lcs = prev[-1]
        if not lcs:
            return 0.0
        p, r = lcs / len(x), lcs / len(y)
        return 2 * p * r / (p + r)


def score(rows: list[dict], scorer: Scorer) -> dict:
    label_breaks, tldr_breaks = scorer.label_breaks, scorer.tldr_breaks
    n = len(rows)
    breaks, tbreaks = Counter(), Counter()
    broken = overlap = tldr_broken = after = 0
    rouge = 0.0
    for r in rows:
        got = label_breaks(r["label"], position=r["title"].lower().startswith("position:"))
        breaks.update(got)
        broken += bool(got)
        overlap += bool(scorer.content(r["label"]) & scorer.content(r["title"]))
        rouge += scorer.rouge_l(r["label"], r["title"])
        if r.get("tldr") is not None:
            tb = tldr_breaks(r["tldr"])
            tbreaks.update(tb)
            tldr_broken += bool(tb)
            after += tb == ["back-reference"] and _after_antecedent(r["tldr"], r["abstract"])
    out = {"papers": n, "rule_breaks": round(broken / n, 4), "content_overlap": round(overlap / n, 4),
           "rouge_l": round(rouge / n, 4), "mean_chars": round(sum(len(r["label"]) for r in rows) / n, 1),
           "breaks_by_rule": dict(breaks.most_common())}
    # position papers: real title "Position: ..."; labelled: the label says so; false: it says
    # so on a paper whose title does not
    pos = [r["label"].lower().startswith("position:") for r in rows
           if r["title"].lower().startswith("position:")]
    out["position_papers"] = {"papers": len(pos), "labelled": sum(pos), "false": sum(
        r["label"].lower().startswith("position:") for r in rows
        if not r["title"].lower().startswith("position:"))}
    if any(r.get("tldr") is not None for r in rows):
        out["tldr_rule_breaks"] = round(tldr_broken / n, 4)
        out["tldr_breaks_by_rule"] = dict(tbreaks.most_common())
        # of these, two sentences that stand together in the abstract: "this X" in the second points at the
        # first, which the TL;DR shows (the rule's check that the first names the same noun cannot see it)
        out["tldr_back_reference_to_its_first_sentence"] = round(after / n, 4)
    return out


def _after_antecedent(tldr: str, abstract: str) -> bool:
    first, sep, second = tldr.partition(". ")
    if not sep:
        return False
    a, b = first[-40:], second.rstrip(".")[-40:]
    i, j = abstract.find(a), abstract.find(b)
    return i >= 0 and j > i and abstract[i + len(a):j].count(". ") <= 1 and j - i < len(second) + 80


def run_system(papers: list[dict], system: str) -> tuple[list[dict], float]:
    from paperscope.enrich import derive_facts

    rows, t0 = [], time.process_time()
    for p in papers:
        if system == "baseline":
            rows.append({**p, "label": baseline(p["abstract"]), "tldr": None})
        else:
            f = derive_facts(None, p["abstract"])
            rows.append({**p, "label": f["label"], "tldr": f["tldr"]})
    return rows, round(time.process_time() - t0, 2)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", help="import paperscope from this source tree (today's extractor)")
    ap.add_argument("--name", default="paperscope", help="system name in the results")
    ap.add_argument("--show", type=int, default=0, help="print N failing labels of the tuning half")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    if not (CORPORA / "icml2024_events").is_dir():
        print(f"skipped: no corpus at {CORPORA}")
        return 0
    papers = load_icml()
    scorer = Scorer()  # the rules and word lists of this tree judge every system
    if args.src:
        for mod in [m for m in sys.modules if m == "paperscope" or m.startswith("paperscope.")]:
            del sys.modules[mod]
        sys.path.insert(0, str(Path(args.src).resolve()))
    result = json.loads(OUT.read_text("utf-8")) if OUT.exists() else {}
    result.setdefault("systems", {})
    systems = [args.name] if args.src else ["baseline", args.name]
    for system in systems:
        rows, cpu = run_system(papers, system)
        entry = {"cpu_s": cpu}
        for half in ("tuning", "untouched"):
            entry[half] = score([r for r in rows if r["half"] == half], scorer)
        result["systems"][system] = entry
        if args.show and system != "baseline":
            lb = scorer.label_breaks
            bad = [r for r in rows if r["half"] == "tuning" and
                   lb(r["label"], position=r["title"].lower().startswith("position:"))]
            for r in bad[:args.show]:
                print(f"  {lb(r['label'])}  {r['label']!r}\n      title: {r['title']}")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    result.setdefault("commands", {})[args.name] = (
        "benchmarks/label_eval.py" + (f" --src OLD/src --name {args.name!r}" if args.src else ""))
    result.update(git_commit=commit,
                  data="icml2024_events/icml2024_events.json (Poster events)",
                  split="sha1(virtualsite_url) even: tuning, odd: untouched",
                  packages={"PyStemmer": _version("PyStemmer")},
                  load_avg_1min=os.getloadavg()[0])
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(f"{'system':<24}{'half':<11}{'breaks':>8}{'overlap':>9}{'ROUGE-L':>9}{'chars':>7}{'tldr br':>9}")
    for name, entry in result["systems"].items():
        for half in ("tuning", "untouched"):
            s = entry[half]
            tb = f"{s['tldr_rule_breaks']:.3f}" if "tldr_rule_breaks" in s else "-"
            print(f"{name:<24}{half:<11}{s['rule_breaks']:>8.3f}{s['content_overlap']:>9.3f}"
                  f"{s['rouge_l']:>9.3f}{s['mean_chars']:>7.1f}{tb:>9}")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


def _version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    sys.exit(main())
