"""Topic labels against author keywords: does the term vocabulary (stop words, filler words,
plural folding) name a topic the way its authors do?

ICLR 2020 papers grouped by their first author keyword (classes of 5+ papers): the grouping is
fixed, so only the labelling changes between two source trees. For each class the shipped
labeller (analysis/terms.py: c-TF-IDF terms, then `label_from_terms`) names it; a class counts
as named when its label shares a word with the keyword (lower case, plural folded, stop words
left out), and as found when the keyword's words are among its 8 best terms. Run once per
source tree; each run also says how many labels are identical to every earlier run's:

    .venv/bin/python benchmarks/topic_labels.py --src OLD/src --name "before (abc1234)"
    .venv/bin/python benchmarks/topic_labels.py --name after
JSON: benchmarks/results/topic_labels.json (one row per --name, merged)
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--src", type=Path, default=None, help="source folder of another paperscope tree")
ap.add_argument("--name", default="current")
args = ap.parse_args()
if args.src is not None:  # that tree's package, imported before anything else can load ours
    sys.path.insert(0, str(args.src.resolve()))

import numpy as np  # noqa: E402

sys.path.insert(1, str(Path(__file__).resolve().parent))
from _run_info import run_info  # noqa: E402
from _topics_data import RESULTS, iclr2020, paper_text, require_corpora  # noqa: E402

MIN_CLASS = 5
# The measure's own words (not the library's): a label word matches a keyword word when both
# lower-case to the same form once a plural s is dropped.
_MEASURE_STOP = {"a", "an", "the", "of", "for", "and", "in", "on", "to", "with", "via", "learning"}


def _words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        w = w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        if w not in _MEASURE_STOP:
            out.add(w)
    return out


def main() -> int:
    require_corpora()
    from paperscope.analysis.terms import Terms, class_tfidf, top_terms
    from paperscope.analysis.topics import _unique_labels

    papers = [p for p in iclr2020() if p["keywords"]]
    first = Counter(p["keywords"][0].lower() for p in papers)
    classes = sorted(k for k, n in first.items() if n >= MIN_CLASS and _words(k))
    index = {k: i for i, k in enumerate(classes)}
    kept = [p for p in papers if p["keywords"][0].lower() in index]
    assign = np.array([index[p["keywords"][0].lower()] for p in kept])
    t, c = time.time(), time.process_time()
    terms = Terms([paper_text(p) for p in kept], min_df=2)
    candidates = top_terms(class_tfidf(terms, assign, len(classes)), terms)
    labels = _unique_labels(candidates)
    seconds = (round(time.time() - t, 2), round(time.process_time() - c, 2))
    named = [bool(_words(lab) & _words(k)) for lab, k in zip(labels, classes)]
    found = [_words(k) <= set().union(*(_words(x) for x in cands[:8])) for cands, k in zip(candidates, classes)]
    out = RESULTS / "topic_labels.json"
    result = json.loads(out.read_text()) if out.is_file() else {}
    same = {name: sum(a == b for a, b in zip(labels, row["labels"].values())) for name, row in result.items()
            if name != args.name and list(row["labels"]) == classes}
    row = {"classes": len(classes), "papers": len(kept),
           "label_names_keyword": round(sum(named) / len(classes), 4),
           "keyword_in_top8_terms": round(sum(found) / len(classes), 4),
           "labels_identical_to": {k: f"{v}/{len(classes)}" for k, v in same.items()},
           "wall_cpu_s": seconds,
           "labels": dict(zip(classes, labels)),
           "run": run_info({"corpus": "iclr2020_miniconf/papers.csv (first keyword as the class)"},
                           "numpy", "scipy", "scikit-learn")}
    result[args.name] = row
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({args.name: {k: v for k, v in row.items() if k not in ("labels", "run")}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
