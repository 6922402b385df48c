"""Do the derived labels help or hurt search? The label is a BM25F field, so a change to labels
can move known-item search. ICML 2024 with titles hidden (the cached benchmark library of
search_quality.py), facts re-derived by the library code under test, then every real title
as a query: MRR@10 of the shipped hybrid and of BM25F alone. Run once per source tree:

    .venv/bin/python benchmarks/label_search.py                      # this tree
    .venv/bin/python benchmarks/label_search.py --src OLD/src --name "before (abc1234)"
JSON: benchmarks/results/label_search.json (one row per --name, merged)
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--src", type=Path, default=None, help="source folder of another paperscope tree")
ap.add_argument("--name", default="current")
args = ap.parse_args()
if args.src is not None:  # that tree's package, imported before anything else can load ours
    sys.path.insert(0, str(args.src.resolve()))
import paperscope  # noqa: E402

sys.path.insert(1, str(Path(__file__).resolve().parent))
import _search_data as data  # noqa: E402
import _search_eval as ev  # noqa: E402
from _run_info import run_info  # noqa: E402


def _stale_facts(db: Path) -> int | None:
    """How many papers of the cached library hold facts of another extractor version than this tree's."""
    if not db.is_file():
        return None
    from paperscope.enrich import FACTS_VERSION
    from paperscope.library import Library

    lib = Library.open(db)
    try:
        return lib.store.stale_facts_count(f":{FACTS_VERSION}")
    finally:
        lib.close()


def main() -> int:
    from paperscope.library import Library
    from paperscope.search import hybrid

    if not data.available():
        print("corpora not found: skipped")
        return 0
    records = data.dedupe(data.CORPUS["icml2024"]())
    stale = _stale_facts(data.CACHE / "icml2024-notitle.db")
    cached = data.library("icml2024", records, titles=False)  # builds the cache on first use, and re-derives
    cached.close()  # the facts (labels) this tree's extractors make differently: `stale` of them
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "icml2024.db"
        src, dst = sqlite3.connect(data.CACHE / "icml2024-notitle.db"), sqlite3.connect(db)
        src.backup(dst)
        src.close(), dst.close()
        lib = Library.open(db)
        t, c = time.time(), time.process_time()
        refreshed = lib.refresh_derived(embed=True)  # facts (labels) of this tree, index rebuilt
        refresh_s = (round(time.time() - t, 1), round(time.process_time() - c, 1))
        index, _, queries, targets = ev.known_items(lib, records)
        qs = [hybrid.prepare(q) for q in queries]
        qvecs = lib.engine.embed([q.text for q in qs])
        hybrid_ranks = ev.shipped_ranks(lib, qs, qvecs, targets)
        bm25f = []
        for q, target in zip(qs, targets):
            groups, _ = hybrid.query_groups(lib.engine, index, q)
            bm25f.append(ev.rank_of(index.scores(groups), target))
        lib.close()
    row = {"library_code": str(Path(paperscope.__file__).parent.parent.name if args.src else "this tree"),
           "facts_refreshed": stale if stale is not None else refreshed.get("facts"), "refresh_wall_cpu_s": refresh_s,
           "hybrid (shipped)": ev.metrics(hybrid_ranks), "BM25F alone": ev.metrics(bm25f),
           "run": run_info({"known_item": "ICML 2024 posters, titles hidden (search_quality.py's cached library)"},
                           "numpy", "onnxruntime")}
    out = data.RESULTS / "label_search.json"
    result = json.loads(out.read_text()) if out.is_file() else {}
    result[args.name] = row
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({args.name: {k: row[k] for k in ("hybrid (shipped)", "BM25F alone")}}, indent=1))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PAPERSCOPE_LOG", "warning")
    sys.exit(main())
