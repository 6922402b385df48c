"""Keyphrases against the authors' own keywords: ICLR 2020 (Mini-Conf export) and ICLR
2017 / 2018 submissions (OpenReview keyword lists).

For each paper with keywords, the top 5 phrases of a system are compared with the author
keywords: precision@5 (matched phrases / 5) and recall@5 (matched keywords / keywords), exact
(lower case, hyphens as spaces) and stemmed (Snowball stems of every word). Systems:
  - yake-style: a re-implementation of YAKE's single-document statistics (Campos et al. 2020:
    casing, position, frequency, context relatedness, sentence spread; n-grams up to 3 without
    stopwords at the ends, score = prod S(w) / (tf * (1 + sum S(w))), lower is better),
  - today's extractor (older source tree: --src DIR --name NAME),
  - the current extractor (keyphrases(doc, exclude=methods, k=5), as derive_facts calls it).

    .venv/bin/python benchmarks/keyphrase_eval.py             -> benchmarks/results/keyphrase_eval.json
    .venv/bin/python benchmarks/keyphrase_eval.py --src OLD/src --name "today (abc1234)"
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import _search_data as data  # noqa: E402  (corpus readers only)

OUT = HERE / "results" / "keyphrase_eval.json"
CORPORA = {"iclr2020": data.iclr2020, "iclr2017": lambda: data.iclr_submissions(2017),
           "iclr2018": lambda: data.iclr_submissions(2018)}
K = 5


# --------------------------------------------------------------------------- YAKE-style baseline

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")


def yake_style(abstract: str, stopwords: frozenset, k: int = K) -> list[str]:
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", abstract) if s.strip()]
    tf, upper, acro = Counter(), Counter(), Counter()
    sent_of: dict[str, list[int]] = defaultdict(list)
    left, right = defaultdict(set), defaultdict(set)
    cands: Counter = Counter()
    surface: dict[tuple, str] = {}
    for si, s in enumerate(sentences):
        toks = _TOKEN.findall(s)
        low = [t.lower() for t in toks]
        for i, (t, w) in enumerate(zip(toks, low)):
            tf[w] += 1
            sent_of[w].append(si)
            if t.isupper() and len(t) > 1:
                acro[w] += 1
            elif t[0].isupper() and i > 0:
                upper[w] += 1
            if i > 0:
                left[w].add(low[i - 1])
            if i + 1 < len(low):
                right[w].add(low[i + 1])
        for n in (1, 2, 3):
            for i in range(len(low) - n + 1):
                gram = tuple(low[i:i + n])
                if gram[0] in stopwords or gram[-1] in stopwords or any(len(g) < 2 for g in gram):
                    continue
                cands[gram] += 1
                surface.setdefault(gram, " ".join(toks[i:i + n]))
    if not tf:
        return []
    content_tf = [v for w, v in tf.items() if w not in stopwords]
    mean = statistics.mean(content_tf) if content_tf else 1.0
    std = statistics.pstdev(content_tf) if len(content_tf) > 1 else 0.0
    max_tf = max(tf.values())
    n_sent = max(len(sentences), 1)

    def word_score(w: str) -> float:
        t = tf[w]
        case = max(upper[w], acro[w]) / (1.0 + math.log(t))
        pos = math.log(math.log(3.0 + statistics.median(sent_of[w])))
        freq = t / (mean + std)
        rel = 1.0 + (len(left[w]) / t + len(right[w]) / t) * (t / max_tf)
        spread = len(set(sent_of[w])) / n_sent
        return rel * pos / (case + freq / rel + spread / rel)

    scores = {w: word_score(w) for w in tf}
    ranked = []
    for gram, count in cands.items():
        inner = [scores[g] for g in gram if g not in stopwords]
        prod = math.prod(inner)
        ranked.append((prod / (count * (1.0 + sum(inner))), gram))
    ranked.sort()
    out, seen = [], set()
    for _, gram in ranked:
        key = " ".join(gram)
        if any(key in s or s in key for s in seen):
            continue
        seen.add(key)
        out.append(surface[gram])
        if len(out) >= k:
            break
    return out


# --------------------------------------------------------------------------- scoring

class Matcher:
    def __init__(self):
        import Stemmer

        self.stem = Stemmer.Stemmer("english").stemWord

    @staticmethod
    def exact(phrase: str) -> str:
        return " ".join(re.findall(r"[a-z0-9]+", phrase.lower()))

    def stemmed(self, phrase: str) -> str:
        return " ".join(self.stem(w) for w in re.findall(r"[a-z0-9]+", phrase.lower()))


def score(pairs: list[tuple[list[str], list[str]]], m: Matcher) -> dict:
    out = {"papers": len(pairs)}
    for mode, norm in (("exact", m.exact), ("stemmed", m.stemmed)):
        p = r = 0.0
        for predicted, gold in pairs:
            g = {norm(x) for x in gold if norm(x)}
            pred = list(dict.fromkeys(norm(x) for x in predicted[:K]))
            hits = sum(1 for x in pred if x in g)
            p += hits / K
            r += len(g & set(pred)) / len(g) if g else 0.0
        out[f"p@5_{mode}"] = round(p / len(pairs), 4)
        out[f"r@5_{mode}"] = round(r / len(pairs), 4)
    out["mean_phrases"] = round(sum(len(pr[:K]) for pr, _ in pairs) / len(pairs), 2)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", help="import paperscope from this source tree (today's extractor)")
    ap.add_argument("--name", default="paperscope")
    args = ap.parse_args()
    if not data.available():
        print("corpora not found: skipped")
        return 0
    if args.src:
        for mod in [m for m in sys.modules if m == "paperscope" or m.startswith("paperscope.")]:
            del sys.modules[mod]
        sys.path.insert(0, str(Path(args.src).resolve()))
    from paperscope.enrich.keyphrases import keyphrases
    from paperscope.enrich.methods import find_methods
    from paperscope.enrich.text import Doc
    try:  # the shared stop words; older trees kept them in enrich/vocab.py
        from paperscope.words import STOP_WORDS as STOPWORDS
    except ImportError:
        from paperscope.enrich.vocab import STOPWORDS
    from paperscope.model import clean_text, latex_to_plain

    m = Matcher()
    result = json.loads(OUT.read_text("utf-8")) if OUT.exists() else {}
    result.setdefault("corpora", {})
    systems = [args.name] if args.src else ["yake-style", args.name]
    for corpus, read in CORPORA.items():
        papers = [r for r in data.dedupe(read()) if r["keywords"]]
        entry = result["corpora"].setdefault(corpus, {})
        for system in systems:
            pairs, t0 = [], time.process_time()
            for r in papers:
                abstract = latex_to_plain(clean_text(r["abstract"]))
                if system == "yake-style":
                    got = yake_style(abstract, STOPWORDS)
                else:
                    doc = Doc.of(abstract)
                    got = keyphrases(doc, exclude=find_methods(doc, r["title"]), k=K)
                pairs.append((got, r["keywords"]))
            entry[system] = {**score(pairs, m), "cpu_s": round(time.process_time() - t0, 2)}
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    from importlib.metadata import version

    result.setdefault("commands", {})[args.name] = (
        "benchmarks/keyphrase_eval.py" + (f" --src OLD/src --name {args.name!r}" if args.src else ""))
    result.update(git_commit=commit, k=K, packages={"PyStemmer": version("PyStemmer")},
                  data=["iclr2020_miniconf/papers.csv (keywords)",
                        "dylanjoo_openreview/ICLR/ICLR17_submissions.csv, ICLR18_submissions.csv (Keyword)"],
                  load_avg_1min=os.getloadavg()[0])
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(f"{'corpus':<10}{'system':<24}{'P@5':>7}{'R@5':>7}{'P@5 st':>8}{'R@5 st':>8}")
    for corpus, entry in result["corpora"].items():
        for system, s in entry.items():
            print(f"{corpus:<10}{system:<24}{s['p@5_exact']:>7.3f}{s['r@5_exact']:>7.3f}"
                  f"{s['p@5_stemmed']:>8.3f}{s['r@5_stemmed']:>8.3f}")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
