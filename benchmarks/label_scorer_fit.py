"""Fit the word model of the title-less label scorer (enrich/label.py WORD_W) on development
data only: the tuning half of ICML 2024 (label_eval.py's split), ICLR 2020 and NIPS 2013-2018.

For every content word of an abstract, enrich/label.py computes a few hints that a title would
name it (how widely the sentences use it, where it first appears, TL;DR sentence, first
keyphrases, description of the introduced name, shape). A logistic regression on "the real
title holds this word" turns them into a probability; a candidate label's chance of naming
something the title names is 1 - prod(1 - p) over its words, and its log-odds join the
hand-set score of label.py with weight W["hit"]. Deterministic (lbfgs, no sampling).

    .venv/bin/python benchmarks/label_scorer_fit.py          # prints WORD_W for label.py
    .venv/bin/python benchmarks/label_scorer_fit.py --check  # exit 1 if label.py's WORD_W differs
"""
from __future__ import annotations

import argparse
import csv
import glob
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
csv.field_size_limit(10 ** 8)


def dev_papers() -> list[dict]:
    import label_eval as le
    from paperscope.model import clean_text, latex_to_plain

    out = [p for p in le.load_icml() if p["half"] == "tuning"]
    iclr = le.CORPORA / "iclr2020_miniconf" / "papers.csv"
    nips = sorted(glob.glob(str(le.CORPORA / "dylanjoo_openreview" / "NIPS" / "NIPS1*_paper.csv")))
    for path, t, a in [(iclr, "title", "abstract")] + [(Path(f), "Title", "Abstract") for f in nips]:
        if not path.exists():
            continue
        with path.open(encoding="utf-8") as fh:
            for r in csv.DictReader(fh):
                if r.get(t) and r.get(a):
                    out.append({"title": latex_to_plain(clean_text(r[t])),
                                "abstract": latex_to_plain(clean_text(r[a]))})
    return out


def word_rows(papers: list[dict]):
    from paperscope.enrich.keyphrases import keyphrases
    from paperscope.enrich.label import candidates
    from paperscope.enrich.label_words import content_words as _content
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.paper_type import classify
    from paperscope.enrich.text import Doc
    from paperscope.enrich.tldr import best_sentence

    X, y = [], []
    for p in papers:
        doc = Doc.of(p["abstract"])
        if not doc.sentences:
            continue
        mentions = find_mentions(doc, None)
        methods = [m.name for m in mentions]
        pool = candidates(doc, mentions, best_sentence(doc, methods),
                          paper_type=classify(doc.text, None)[0],
                          keyphrases=keyphrases(doc, exclude=methods))
        title = _content(p["title"])
        for w, x in pool.word_features.items():
            X.append(x)
            y.append(w in title)
    return X, y


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    from sklearn.linear_model import LogisticRegression

    from paperscope.enrich.label_words import WORD_FEATURES, WORD_W

    papers = dev_papers()
    X, y = word_rows(papers)
    m = LogisticRegression(C=1.0, max_iter=5000).fit(X, y)
    fitted = {"intercept": round(float(m.intercept_[0]), 2)}
    fitted.update({k: round(float(v), 2) for k, v in zip(WORD_FEATURES, m.coef_[0])})
    print(f"{len(papers)} development papers, {len(y)} words, {sum(y)} in their titles")
    print("WORD_W = " + repr(fitted))
    if args.check and fitted != WORD_W:
        print("label.py's WORD_W differs from the fit")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
