"""Filler among keyphrases: how often a paper's keyphrases hold praise, background or a verb
phrase ("gained considerable popularity", "invaluable tool", "extensive experiments",
"showcases remarkable generalization") instead of a topic a reader would file the paper under.

Corpora (development only): the tuning half of ICML 2024 (label_eval.load_icml) and ICLR 2020
(Mini-Conf export, with the authors' keywords). Keyphrases are computed as derive_facts does
(keyphrases(doc, exclude=<method names found>)). Reported per system and corpus:
  - filler_papers: share of papers with at least one filler keyphrase, and filler_phrases: share
    of keyphrases that are filler. Filler is judged by the word lists of THIS file (praise and
    evaluation, background nouns as a phrase's head, verb forms), written separately from the
    lists the extractor uses, so the extractor is not graded by its own filter;
  - mean_phrases per paper and papers without any keyphrase;
  - ICLR 2020: in_keywords_or_title_all / _any: share of keyphrases all of whose (any of whose)
    stemmed content words occur in the paper's author keywords or title;
    ICML 2024: in_title_any (titles only; no keywords there);
  - hand_sample: 200 keyphrases drawn at random (seeded) from each system's output, judged by
    reading them (the phrases of both systems shuffled together, so a verdict is given without
    knowing which system wrote the phrase): "filler" (praise, background, a verb phrase or a broken fragment: "little
    hope", "geodesic connecting"), "generic" (a lone word naming no topic: "size", "areas")
    or "topical". Verdicts are kept in the result JSON between runs (key "hand_verdicts",
    phrase -> verdict); phrases not judged yet are listed as unjudged.

Before and after in one run: --before OLD/src computes the older tree in a subprocess.

    .venv/bin/python benchmarks/keyphrase_filler.py --before OLD/src --before-commit abc1234
        -> benchmarks/results/keyphrase_filler.json
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "results" / "keyphrase_filler.json"

# ---------------------------------------------------------------- the judge's own word lists
# Praise, evaluation, size of an effect, novelty and time: they grade or narrate, name no topic.
JUDGE_EVALUATIVE = frozenset("""
remarkable impressive promising considerable significant substantial tremendous unprecedented
invaluable excellent outstanding exceptional superior notable noteworthy striking compelling
powerful great huge vast immense enormous extensive comprehensive thorough widespread broad
popular prominent prevalent ubiquitous crucial vital essential pivotal paramount important
fundamental major growing increasing rapid recent emerging state-of-the-art cutting-edge
competitive successful favorable desirable attractive appealing interesting surprising
intriguing inherent intricate elegant unique innovative sophisticated seminal dramatic
profound astonishing amazing exciting unparalleled superb stellar groundbreaking
""".split())
# Nouns that narrate a field's history or grade a result; filler when a phrase ends on them
# ("landscape", "importance", "attention", "gain" stay out: "loss landscape", "feature
# importance", "linear attention", "information gain" are topics).
JUDGE_BACKGROUND = frozenset("""
popularity success successes interest progress advance advances advancement advancements
breakthrough breakthroughs surge years decade decades era tool tools potential promise endeavor
findings benefit benefits gains advantage advantages merit merits drawback drawbacks
shortcoming shortcomings significance community researchers practitioners
literature plethora myriad variety range spectrum growth adoption prevalence
emergence impact contribution contributions effort efforts attempt attempts performance
performances experiment experiments result results improvement improvements capability
capabilities ability abilities
""".split())
# Verbs whose -s, -ed and -ing forms are filler inside a keyphrase (the lemma itself may be a
# noun: "a study", "an offer", so only the inflected forms count; "limit", "advance", "make",
# "measure", "build", "restrict" and "pose" stay out: "infinite-width limits", "advanced",
# "decision making", "risk measures", "building block", "restricted classes", "human poses").
JUDGE_VERBS = """
showcase demonstrate offer enjoy facilitate impede weaken gain attract garner receive draw
exhibit display achieve deliver exceed surpass outperform suffer struggle fail remain become
emerge prevail dominate revolutionize boost enhance hinder hamper
necessitate entail demand raise spark fuel keep hold see master prove derive study examine
envision highlight underscore emphasize reveal uncover indicate imply suggest verify validate
confirm ensure enable allow permit help take give yield obtain attain reach accomplish
excel lack leverage utilize employ adopt exploit harness tackle address overcome alleviate
mitigate resolve solve propose present introduce develop design devise construct
establish investigate explore analyze analyse assess evaluate compare quantify identify
observe find show conduct perform carry provide bring lead contribute pave open motivate
inspire""".split()


def _forms(lemma: str) -> set[str]:
    stem = lemma[:-1] if lemma.endswith("e") else lemma
    out = {lemma + "s", lemma + "es", lemma + "d", lemma + "ed", stem + "ing", stem + "ed"}
    if lemma.endswith("y"):
        out |= {lemma[:-1] + "ies", lemma[:-1] + "ied", lemma + "ing"}
    if re.search(r"[^aeiou][aeiou][bdgmnprt]$", lemma):  # "stop" -> "stopped", "stopping"
        out |= {lemma + lemma[-1] + "ed", lemma + lemma[-1] + "ing"}
    return out


JUDGE_VERB_FORMS = frozenset(f for v in JUDGE_VERBS for f in _forms(v)) | frozenset(
    "shown found made taken given held kept seen drawn become brought".split())


def filler_reason(phrase: str) -> str | None:
    """Why a keyphrase is filler by this file's lists, or None."""
    words = [w for w in re.split(r"\s+", phrase.lower()) if w]
    if not words:
        return None
    for w in words:
        if w in JUDGE_EVALUATIVE:
            return f"evaluative: {w}"
        if w in JUDGE_VERB_FORMS:
            return f"verb: {w}"
    if words[-1] in JUDGE_BACKGROUND:
        return f"background head: {words[-1]}"
    return None


# ---------------------------------------------------------------- corpora and keyphrases

def papers() -> dict[str, list[dict]]:
    sys.path.insert(0, str(HERE))
    import _search_data as data  # noqa: E402  (corpus readers)
    from label_eval import load_icml  # noqa: E402
    from paperscope.model import clean_text, latex_to_plain

    icml = [{"title": p["title"], "abstract": p["abstract"], "keywords": []}
            for p in load_icml() if p["half"] == "tuning"]
    iclr = [{"title": latex_to_plain(clean_text(r["title"])),
             "abstract": latex_to_plain(clean_text(r["abstract"])), "keywords": r["keywords"]}
            for r in data.dedupe(data.iclr2020())]
    return {"icml2024_tuning": icml, "iclr2020": iclr}


def dump(src: str | None) -> dict:
    """Keyphrases of every development paper with the paperscope of `src` (or this tree)."""
    sys.path.insert(0, str(Path(src).resolve()) if src else str(ROOT / "src"))
    from paperscope.enrich.keyphrases import keyphrases
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.text import Doc

    out, t0 = {}, time.process_time()
    for corpus, rows in papers().items():
        got = []
        for p in rows:
            doc = Doc.of(p["abstract"])
            methods = [m.name for m in find_mentions(doc, p["title"])]
            got.append(keyphrases(doc, exclude=methods))
        out[corpus] = got
    return {"phrases": out, "cpu_s": round(time.process_time() - t0, 2)}


# ---------------------------------------------------------------- scoring

class Words:
    def __init__(self):
        import Stemmer

        self.stem = Stemmer.Stemmer("english").stemWord

    def content(self, text: str) -> set[str]:
        return {self.stem(t) for t in re.findall(r"[a-z0-9]+", text.lower())
                if len(t) > 2 and t not in {"the", "and", "for", "with", "via", "from", "of"}}


def score(rows: list[dict], got: list[list[str]], words: Words) -> dict:
    n = len(rows)
    phrases = [k for g in got for k in g]
    reasons = Counter()
    filler_papers = 0
    examples: list[str] = []
    for g in got:
        bad = [(k, filler_reason(k)) for k in g]
        bad = [(k, r) for k, r in bad if r]
        filler_papers += bool(bad)
        for k, r in bad:
            reasons[r.split(":")[0]] += 1
            if len(examples) < 25:
                examples.append(f"{k}  ({r})")
    out = {"papers": n, "mean_phrases": round(len(phrases) / n, 3),
           "papers_without_phrases": sum(1 for g in got if not g),
           "filler_papers": round(filler_papers / n, 4),
           "filler_phrases": round(sum(reasons.values()) / max(len(phrases), 1), 4),
           "filler_by_kind": dict(reasons.most_common()), "filler_examples": examples}
    if any(r["keywords"] for r in rows):
        all_in = any_in = total = 0
        for r, g in zip(rows, got):
            if not r["keywords"]:
                continue
            ref = words.content(" ".join(r["keywords"]) + " " + r["title"])
            for k in g:
                c = words.content(k)
                if not c:
                    continue
                total += 1
                all_in += c <= ref
                any_in += bool(c & ref)
        out.update(in_keywords_or_title_all=round(all_in / total, 4),
                   in_keywords_or_title_any=round(any_in / total, 4), phrases_scored=total)
    else:
        any_in = total = 0
        for r, g in zip(rows, got):
            ref = words.content(r["title"])
            for k in g:
                c = words.content(k)
                if c:
                    total += 1
                    any_in += bool(c & ref)
        out.update(in_title_any=round(any_in / total, 4), phrases_scored=total)
    return out


def hand_sample(got: dict[str, list[list[str]]], verdicts: dict[str, str], seed: int = 24,
                size: int = 200) -> dict:
    pool = [k for corpus in sorted(got) for g in got[corpus] for k in g]
    sample = random.Random(seed).sample(pool, min(size, len(pool)))
    judged = [(k, verdicts.get(k)) for k in sample]
    known = [v for _, v in judged if v]
    share = (lambda x: round(sum(v == x for v in known) / len(known), 3) if known else None)
    return {"size": len(sample), "judged": len(known),
            "filler": sum(v == "filler" for v in known), "filler_share": share("filler"),
            "generic": sum(v == "generic" for v in known), "generic_share": share("generic"),
            "filler_phrases": [k for k, v in judged if v == "filler"],
            "generic_phrases": [k for k, v in judged if v == "generic"],
            "unjudged": [k for k, v in judged if not v]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="source tree of the starting commit (OLD/src)")
    ap.add_argument("--before-commit", help="which commit OLD/src holds, for the record")
    ap.add_argument("--dump", help=argparse.SUPPRESS)
    ap.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump is not None or args.here:
        json.dump(dump(args.dump or None), sys.stdout)
        return 0
    sys.path.insert(0, str(ROOT / "src"))
    sys.path.insert(0, str(HERE))
    from _run_info import run_info
    from label_eval import CORPORA

    if not (CORPORA / "icml2024_events").is_dir() or not (CORPORA / "iclr2020_miniconf").is_dir():
        print("corpora not found: skipped")
        return 0
    previous = json.loads(OUT.read_text("utf-8")) if OUT.exists() else {}
    verdicts = previous.get("hand_verdicts", {})
    rows = papers()
    words = Words()
    runs = {}
    if args.before:
        runs["before"] = [sys.executable, __file__, "--dump", str(Path(args.before).resolve())]
    runs["after"] = [sys.executable, __file__, "--here"]
    systems = {}
    for name, cmd in runs.items():
        res = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        systems[name] = {"cpu_s": res["cpu_s"],
                         **{c: score(rows[c], res["phrases"][c], words) for c in rows},
                         "hand_sample": hand_sample(res["phrases"], verdicts)}
        systems[name]["_phrases"] = res["phrases"]
    if "before" in systems:
        changed = []
        for c in rows:
            for r, b, a in zip(rows[c], systems["before"]["_phrases"][c], systems["after"]["_phrases"][c]):
                if b != a and len(changed) < 30:
                    changed.append({"title": r["title"], "before": b, "after": a})
        random.Random(7).shuffle(changed)
    for s in systems.values():
        del s["_phrases"]
    result = {
        **run_info({"icml2024_tuning": "icml2024_events/icml2024_events.json (Poster events, "
                                       "sha1(virtualsite_url) even: the tuning half)",
                    "iclr2020": "iclr2020_miniconf/papers.csv (abstracts, titles, keywords)"},
                   "PyStemmer"),
        "before_source": args.before_commit if args.before else None,
        "systems": systems,
        "judge": {"evaluative": len(JUDGE_EVALUATIVE), "background_heads": len(JUDGE_BACKGROUND),
                  "verb_lemmas": len(JUDGE_VERBS)},
        "hand_verdicts": verdicts,
    }
    if "before" in systems:
        result["changed_examples"] = changed[:20]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(f"{'system':<8}{'corpus':<17}{'filler papers':>14}{'filler kp':>10}{'kp/paper':>9}"
          f"{'in kw/title all':>16}{'any':>7}")
    for name, s in systems.items():
        for c in rows:
            e = s[c]
            print(f"{name:<8}{c:<17}{e['filler_papers']:>14.3f}{e['filler_phrases']:>10.3f}"
                  f"{e['mean_phrases']:>9.2f}{e.get('in_keywords_or_title_all', float('nan')):>16.3f}"
                  f"{e.get('in_keywords_or_title_any', e.get('in_title_any')):>7.3f}")
        h = s["hand_sample"]
        print(f"{name:<8}hand sample: {h['filler']} filler, {h['generic']} generic of {h['judged']} "
              f"judged ({h['size']} drawn)")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
