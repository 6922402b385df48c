"""Recommendation and export speed.

Core (paperscope.recommend) on 1k / 4k / 8k real abstracts (ICML 2024, ICLR 2017/18/20, NIPS
2013-18): building the features (TF-IDF fit; done once per process and cached until the
papers change), ranking for a tag of 10 papers with 2 "not relevant" marks (TF-IDF alone, and
fused with embeddings; random unit vectors stand in for embeddings since only time is measured
here), and explaining 10 results.

End to end (Library): a library holding the ICML 2024 export (2,634 papers, ingested without
embeddings): the first `recommend` of a process (features cold), later ones (warm), and
exporting every paper as BibTeX and RIS.

Run: .venv/bin/python benchmarks/recommend_speed.py
Writes benchmarks/results/recommend_speed.json and prints a table.
"""
from __future__ import annotations

import csv
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recommend_data import CORPORA, load_all  # noqa: E402

from paperscope.recommend import build_features, nearest_positives, rank, top_terms  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def texts() -> list[str]:
    out = []
    events = json.loads((CORPORA / "icml2024_events" / "icml2024_events.json").read_text(encoding="utf-8"))
    out += [f"{e['name']}. {e['abstract']}" for e in events if e.get("type") == "Poster" and e.get("abstract")]
    for corpus in load_all():
        out += corpus.texts
    csv.field_size_limit(1 << 24)
    for path in sorted((CORPORA / "dylanjoo_openreview" / "NIPS").glob("NIPS*_paper.csv")):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                title = row.get("Title") or row.get("title") or ""
                abstract = row.get("Abstract") or row.get("abstract") or ""
                if abstract.strip():
                    out.append(f"{title}. {abstract}")
    return out


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def core(all_texts: list[str], sizes: list[int]) -> list[dict]:
    rng = np.random.default_rng(0)
    rows = []
    for n in sizes:
        sample = all_texts[:n]
        ids = [str(i) for i in range(n)]
        emb = rng.standard_normal((n, 384)).astype(np.float32)
        emb /= np.linalg.norm(emb, axis=1, keepdims=True)
        t_build, lexical = timed(lambda: build_features(ids, sample))
        fused = build_features(ids, sample, ids, emb)
        pos = rng.choice(n, 10, replace=False)
        neg = np.setdiff1d(rng.choice(n, 2, replace=False), pos)
        t_lex, _ = timed(lambda: rank(lexical, pos, neg), repeat=5)
        t_fused, ranking = timed(lambda: rank(fused, pos, neg), repeat=5)
        top = np.argsort(-ranking.scores)[:10]
        t_explain, _ = timed(lambda: [(top_terms(fused, ranking.coef, int(i)), nearest_positives(fused, int(i), pos))
                                      for i in top], repeat=5)
        rows.append({"papers": n, "vocabulary": int(lexical.tfidf.shape[1]),
                     "build_features_s": round(t_build, 3), "rank_tfidf_ms": round(1000 * t_lex, 1),
                     "rank_fused_ms": round(1000 * t_fused, 1), "explain_10_ms": round(1000 * t_explain, 1)})
        print(rows[-1], file=sys.stderr)
    return rows


def end_to_end() -> dict:
    from paperscope.library import Library

    with tempfile.TemporaryDirectory() as tmp:
        with Library.open(Path(tmp) / "lib.db") as lib:
            t_ingest, _ = timed(lambda: lib.ingest([CORPORA / "icml2024_events" / "icml2024_events.json"],
                                                   embed=False))
            ids = [p["id"] for p in lib.papers(limit=10)]
            lib.tag(ids, "bench")
            lib.invalidate()
            t_cold, _ = timed(lambda: lib.recommend(tag="bench", limit=10))
            t_warm, _ = timed(lambda: lib.recommend(tag="bench", limit=10), repeat=5)
            t_bib, bib = timed(lambda: lib.export("bibtex"))
            t_ris, _ = timed(lambda: lib.export("ris"))
            n = lib.stats()["papers"]
    return {"papers": n, "ingest_s": round(t_ingest, 1), "recommend_cold_s": round(t_cold, 2),
            "recommend_warm_ms": round(1000 * t_warm, 1), "export_bibtex_s": round(t_bib, 2),
            "export_ris_s": round(t_ris, 2), "bibtex_bytes": len(bib)}


def main() -> None:
    if not CORPORA.is_dir():
        sys.exit(f"corpora not found at {CORPORA}")
    all_texts = texts()
    sizes = [s for s in (1000, 4000, 8000) if s <= len(all_texts)]
    report = {"benchmark": "recommend_speed", "machine": platform.platform(), "texts": len(all_texts),
              "core": core(all_texts, sizes), "library": end_to_end()}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "recommend_speed.json").write_text(json.dumps(report, indent=2) + "\n")
    print("| papers | vocabulary | build features | rank (tfidf) | rank (tfidf+emb) | explain 10 |")
    print("|---|---|---|---|---|---|")
    for r in report["core"]:
        print(f"| {r['papers']} | {r['vocabulary']} | {r['build_features_s']} s | {r['rank_tfidf_ms']} ms | "
              f"{r['rank_fused_ms']} ms | {r['explain_10_ms']} ms |")
    lib = report["library"]
    print(f"\nlibrary of {lib['papers']} papers: recommend cold {lib['recommend_cold_s']} s, warm "
          f"{lib['recommend_warm_ms']} ms; export all as BibTeX {lib['export_bibtex_s']} s, RIS {lib['export_ris_s']} s")


if __name__ == "__main__":
    main()
