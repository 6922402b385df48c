"""Ingest every shared corpus into a fresh library (no embeddings): real counts, papers/s,
peak RSS. Writes benchmarks/results/ingest_corpora.json.

    .venv/bin/python benchmarks/ingest_corpora.py [--corpora ../shared/corpora]
"""
from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from paperscope.library import Library

ROOT = Path(__file__).resolve().parents[1]
CORPORA = [
    ("samples (5 lists)", ROOT / "examples" / "lists"),
    ("ICML 2024 events", "icml2024_events"),
    ("ICLR 2020 miniconf", "iclr2020_miniconf"),
    ("UAI 2024 (PMLR 244)", "pmlr_v244_uai2024"),
    ("COLT 2024 (PMLR 247)", "pmlr_v247_colt2024"),
    ("ICML 2016 (PMLR 48)", "pmlr_v48_icml2016"),
    ("ICLR 2017/18 submissions", "dylanjoo_openreview/ICLR"),
    ("NIPS 2013-18", "dylanjoo_openreview/NIPS"),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.open(Path(tmp) / "bench.db")
        for name, rel in CORPORA:
            path = rel if isinstance(rel, Path) else args.corpora / rel
            before = lib.stats()["papers"]
            t0 = time.perf_counter()
            report = lib.ingest([path], embed=False)
            dt = time.perf_counter() - t0
            records = report.total("added") + report.total("merged") + report.total("unchanged") + report.total("duplicates")
            rows.append({"corpus": name, "records": records, "added": report.total("added"),
                         "merged": report.total("merged"), "duplicates": report.total("duplicates"),
                         "skipped": report.total("skipped"), "skip_reasons": dict(report.skip_reasons()),
                         "seconds": round(dt, 2), "papers_per_s": round(records / dt, 1) if dt else None,
                         "library_papers": lib.stats()["papers"], "new_in_library": lib.stats()["papers"] - before})
            print(f"{name:28s} records {records:6d} added {rows[-1]['added']:6d} merged {rows[-1]['merged']:4d} "
                  f"skipped {rows[-1]['skipped']:3d}  {dt:6.2f}s  {rows[-1]['papers_per_s']} papers/s", flush=True)
        collections = lib.stats()["collections"]
        lib.close()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"corpora": rows, "collections": collections, "peak_rss_mb": round(peak_mb, 1)}
    dest = ROOT / "benchmarks" / "results" / "ingest_corpora.json"
    dest.write_text(json.dumps(out, indent=2, ensure_ascii=False))
    print(f"peak RSS {peak_mb:.0f} MB -> {dest}")


if __name__ == "__main__":
    main()
