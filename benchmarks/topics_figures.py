"""Real-corpus figures and tables through the Library facade (the same path as the CLI).

Ingests ICML 2024 (posters) and ICLR 2020 into a library (default
~/.cache/paperscope-bench/figures.db, reused across runs), then writes
- benchmarks/results/topics_icml2024.json: the coarse topic table, unassigned share, timings
  (cold = fitted now, warm = served from the library);
- docs/map_icml2024.png and docs/compare_icml2024_iclr2020.png.
Run: .venv/bin/python benchmarks/topics_figures.py [--db PATH]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _topics_data import require_corpora, CACHE, CORPORA, RESULTS, ROOT  # noqa: E402

from paperscope.cli.render_compare import render_compare  # noqa: E402
from paperscope.cli.render_map import render_image  # noqa: E402
from paperscope.library import Library  # noqa: E402


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, round(time.perf_counter() - t, 2)


def main() -> None:
    require_corpora()
    db = Path(sys.argv[sys.argv.index("--db") + 1]) if "--db" in sys.argv else CACHE / "figures.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    with Library.open(db) as lib:
        _, t_ingest_icml = timed(lib.ingest, [CORPORA / "icml2024_events" / "icml2024_events.json"],
                                 venue="ICML", year=2024)
        _, t_ingest_iclr = timed(lib.ingest, [CORPORA / "iclr2020_miniconf" / "papers.csv"],
                                 venue="ICLR", year=2020)
        lib.store.conn.execute("DELETE FROM analysis_runs")  # time a cold fit
        topics, t_topics = timed(lib.topics, venue="ICML", year=2024)
        points, t_map = timed(lib.map, venue="ICML", year=2024)
        _, t_topics_warm = timed(lib.topics, venue="ICML", year=2024)
        _, t_map_warm = timed(lib.map, venue="ICML", year=2024)
        compared, t_compare = timed(lib.compare, "ICML 2024", "ICLR 2020")
        total = len(lib.papers(venue="ICML", year=2024))

    docs = ROOT / "docs"
    render_image(points, topics, docs / "map_icml2024.png",
                 f"ICML 2024: {len(points)} papers, {len(topics)} topics (coarse)")
    render_compare(compared, docs / "compare_icml2024_iclr2020.png")
    assigned = sum(t["size"] for t in topics)
    out = {
        "benchmark": "topics_figures", "papers": total, "topics": len(topics),
        "unassigned": total - assigned, "unassigned_share": round((total - assigned) / max(total, 1), 4),
        "seconds": {"ingest_icml_incl_embedding": t_ingest_icml, "ingest_iclr_incl_embedding": t_ingest_iclr,
                    "topics_cold": t_topics, "map_cold": t_map, "topics_warm": t_topics_warm,
                    "map_warm": t_map_warm, "compare_cold": t_compare},
        "table": [{"id": t["id"], "size": t["size"], "label": t["label"],
                   "representative": t["representative"]["label"]} for t in topics],
        "compare": {"topics": [{k: t[k] for k in ("label", "a", "b", "a_share", "b_share")}
                               for t in compared["topics"]],
                    "distinctive": {k: [d["term"] for d in v[:15]] for k, v in compared["distinctive"].items()},
                    "paper_types": compared["paper_types"]},
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "topics_icml2024.json").write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    print(f"{'#':>3} {'size':>5}  label  |  representative paper")
    for t in out["table"]:
        print(f"{t['id']:>3} {t['size']:>5}  {t['label']}  |  {t['representative']}")
    print(f"unassigned: {out['unassigned']} of {total}; seconds: {out['seconds']}")


if __name__ == "__main__":
    main()
