"""Does a title-less list meet its venue's records, and never the wrong ones?

For each venue: a title-less list (the example lists' abstracts of that venue plus a random
sample of the venue's papers) whose abstracts carry the small differences of aggregator lists
(hard wraps, quote styles, LaTeX spacing, a dropped last or middle sentence, typos, all of them
at once), plus NEGATIVE controls: papers held out of the source, and abstracts of another
venue listed under this one. The list and the venue's records (minus the held-out papers) go
through ingest's merge path in both orders (list first, as `resolve` does; source first). Counted:
list papers carrying their real title (and authors where the corpus has them), wrong titles,
negatives that got a title (false merges), duplicate papers.

Stage 1 (dev: ICLR 2024, ICLR 2017, ICLR 2018, NIPS 2018): the score of every list abstract's
best and second candidate, and the threshold grid; the threshold is halfway across the gap
between the best wrong candidate's score and the worst right match's score on dev (rounded to
0.05). Stage 2: ICML 2024 (untouched while tuning) at that
threshold. Stage 3 (benchmarks/_resolve_sources.py): per source (openreview ICLR 2024, virtual and
pmlr ICML 2024), a perturbed title-less list resolved by fetching the venue from the local test
server (tests/source_servers.py) as `resolve` does. Writes benchmarks/results/resolve.json.

    .venv/bin/python benchmarks/resolve_eval.py [--corpora ../shared/corpora] [--sample 300]
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import tempfile
import time
from pathlib import Path

from _resolve_data import KINDS, list_file, perturb, records, sample_list_abstracts, source_file, usable
from _run_info import ROOT, run_info

from paperscope import identity
from paperscope.filters import Filter
from paperscope.ingest import Ingester
from paperscope.model import clean_text, decode_entities, latex_to_plain, match_key
from paperscope.store.sqlite import SQLiteStore

DEV = [("iclr2024", "ICLR", 2024, "nips2016"), ("iclr2017", "ICLR", 2017, "nips2016"),
       ("iclr2018", "ICLR", 2018, "nips2016"), ("nips2018", "NeurIPS", 2018, "iclr2020")]
TEST = [("icml2024", "ICML", 2024, "iclr2020")]
GRID = [round(0.30 + 0.05 * i, 2) for i in range(14)]


def build_case(corpora: Path, name: str, venue: str, year: int, other: str, n: int, seed: int) -> dict:
    """The list (truth per position: the record, or None for a negative) and the source."""
    rng = random.Random(seed)
    recs = usable(records(corpora, name))
    by_key = {match_key(r["abstract"]): r for r in recs}
    samples = [by_key[k] for k in (match_key(a) for a in sample_list_abstracts(ROOT / "examples" / "lists",
                                                                                 f"{venue} {year}")) if k in by_key]
    rest = [r for r in recs if all(r is not s for s in samples)]
    rng.shuffle(rest)
    held = rest[:max(10, n // 10)]
    positives = samples + rest[len(held):len(held) + n]
    titles = {match_key(r["title"]) for r in recs}
    cross = [r for r in usable(records(corpora, other)) if match_key(r["title"]) not in titles]
    cross = rng.sample(cross, min(len(cross), max(20, n // 6)))
    items = [(r, r) for r in positives] + [(r, None) for r in held] + [(r, None) for r in cross]
    rng.shuffle(items)
    kinds = [KINDS[i % len(KINDS)] for i in range(len(items))]
    listed = [(perturb(r["abstract"], k, rng), truth, k, r) for (r, truth), k in zip(items, kinds)]
    held_ids = {id(r) for r in held}
    return {"name": name, "venue": venue, "year": year, "samples": len(samples), "listed": listed,
            "source": [r for r in recs if id(r) not in held_ids], "held_out": len(held), "cross": len(cross)}


def scores(case: dict) -> list[dict]:
    """Best and second candidate of every list abstract among the source's records."""
    index = identity.VenueIndex()
    for i, r in enumerate(case["source"]):
        index.add(str(i), _plain(r["abstract"]), True)
    out = []
    for text, truth, kind, _ in case["listed"]:
        size, ranked = index.ranked(_plain(text))
        top = ranked[0] if ranked else (0.0, "", 0)
        right = truth is not None and bool(ranked) and case["source"][int(top[1])] is truth
        out.append({"kind": kind, "negative": truth is None, "right": right, "top": top[0],
                    "second": ranked[1][0] if len(ranked) > 1 else 0.0, "size": size, "other": top[2]})
    return out


def _plain(text: str) -> str:
    """A text as ingest stores it (entities decoded, LaTeX rendered, single spaces)."""
    return latex_to_plain(clean_text(decode_entities(text)))


def grid(rows: list[dict]) -> list[dict]:
    out = []
    for t in GRID:
        acc = [r for r in rows if identity.acceptable(r["top"], r["second"], r["size"], r["other"], t)]
        pos = sum(not r["negative"] for r in rows)
        out.append({"threshold": t, "resolved": sum(r["right"] for r in acc), "positives": pos,
                    "wrong": sum(not r["right"] for r in acc)})
    return out


def run_case(case: dict, order: str, tmp: Path) -> dict:
    """Ingest list and source in `order`; what each list position ended up with."""
    folder = Path(tempfile.mkdtemp(dir=tmp))
    lst = list_file(folder / "list.txt", f"{case['venue']} {case['year']}", [t for t, *_ in case["listed"]])
    src = source_file(folder / "source.json", case["source"])
    store = SQLiteStore(folder / "lib.db")
    t0, c0 = time.perf_counter(), time.process_time()
    paths = [lst, src] if order == "list first" else [src, lst]
    report = Ingester(store, venue=case["venue"], year=case["year"]).run(paths)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    at = {}
    for p in store.papers(Filter.of(collection=f"{case['venue']} {case['year']}")):
        for m in p.collections:
            if Path(m["source"]).name == "list.txt":
                at[m["position"]] = p
    n_papers = store.count_papers()
    store.close()
    right = wrong = missing = false_merge = authors_ok = with_authors = 0
    for i, (_, truth, _, _) in enumerate(case["listed"]):
        p = at.get(i)
        title = p.title if p else None
        if truth is None:
            false_merge += title is not None
        elif title is None:
            missing += 1
        elif title == _plain(truth["title"]):
            right += 1
            if truth["authors"]:
                with_authors += 1
                authors_ok += p.authors == truth["authors"]
        else:
            wrong += 1
    negatives = case["held_out"] + case["cross"]
    positives = len(case["listed"]) - negatives
    return {"order": order, "positives": positives, "real_title": right, "wrong_title": wrong,
            "untitled": missing, "negatives": negatives, "false_merges": false_merge,
            "authors_checked": with_authors, "authors_right": authors_ok,
            "duplicates": n_papers - (len(case["source"]) + negatives),
            "fuzzy_merges": sum(1 for m in report.merges if m.get("match") == "fuzzy"),
            "resolve_rate": round(right / positives, 4), "seconds": round(seconds, 2), "cpu_s": round(cpu, 2),
            "source_papers": len(case["source"])}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--sample", type=int, default=300, help="random papers per venue besides the examples")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-sources", action="store_true", help="skip the stage against the local test server")
    args = ap.parse_args()
    info = run_info({"corpora": [c for c, *_ in DEV + TEST] + ["examples/lists"]})
    out = {**info, "threshold_shipped": identity.THRESHOLD, "margin": identity.MARGIN,
           "min_ratio": identity.MIN_RATIO, "min_words": identity.MIN_WORDS, "dev": {}, "test": {}}
    dev_rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for stage, cases in (("dev", DEV), ("test", TEST)):
            for name, venue, year, other in cases:
                case = build_case(args.corpora, name, venue, year, other, args.sample, args.seed)
                rows = scores(case)
                if stage == "dev":
                    dev_rows += rows
                runs = [run_case(case, order, Path(tmp)) for order in ("list first", "source first")]
                out[stage][name] = {"examples_in_list": case["samples"], "held_out": case["held_out"],
                                    "cross_venue": case["cross"], "runs": runs, **_score_summary(rows)}
                for r in runs:
                    print(f"{stage:4s} {name:9s} {r['order']:12s} real {r['real_title']}/{r['positives']} "
                          f"wrong {r['wrong_title']} untitled {r['untitled']} false merges "
                          f"{r['false_merges']}/{r['negatives']} dup {r['duplicates']} {r['seconds']}s", flush=True)
            if stage == "dev":
                out["dev_grid"] = grid(dev_rows)
                right = [r["top"] for r in dev_rows if r["right"]]
                other = [r["top"] for r in dev_rows if not r["right"]]
                middle = (max(other) + min(right)) / 2  # halfway across the gap dev leaves
                out["threshold_chosen_on_dev"] = round(round(middle / 0.05) * 0.05, 2)
                print("threshold chosen on dev:", out["threshold_chosen_on_dev"], "shipped:", identity.THRESHOLD)
                print("dev grid:", [(g["threshold"], g["resolved"], g["wrong"]) for g in out["dev_grid"]])
    if not args.no_sources:
        from _resolve_sources import run_sources

        out["sources"] = run_sources(args.corpora, 200, args.seed)
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    dest = ROOT / "benchmarks" / "results" / "resolve.json"
    dest.write_text(json.dumps(out, indent=2, ensure_ascii=False))
    print(f"-> {dest.relative_to(ROOT)}")


def _score_summary(rows: list[dict]) -> dict:
    pos = sorted(r["top"] for r in rows if r["right"])
    neg = sorted(r["top"] for r in rows if not r["right"])
    by_kind = {}
    for k in KINDS:
        sel = sorted(r["top"] for r in rows if r["kind"] == k and r["right"])
        by_kind[k] = {"n": len(sel), "min": sel[0] if sel else None}
    return {"score_right_min": pos[0] if pos else None,
            "score_right_p05": pos[len(pos) // 20] if pos else None,
            "score_other_max": neg[-1] if neg else None, "score_right_by_kind": by_kind}


if __name__ == "__main__":
    main()
