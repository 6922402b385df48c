"""`fetch` from each source against a local test server built from the shared corpora: papers
fetched, added / merged, titles filled (the title-less sample lists are ingested first), wrong
titles among those filled, time for fetch + merge apart from derived data (facts, index,
embeddings, topics and map), a resumed fetch and an offline replay. Writes
benchmarks/results/fetch.json.

    .venv/bin/python benchmarks/fetch_speed.py [--corpora ../shared/corpora] [--no-embed]

The 3,500-paper row: one OpenReview venue holding ICLR 2024 (2,261 notes) plus the ICLR 2020,
UAI 2024, COLT 2024 and ICML 2016 papers as API v2 notes (real titles and abstracts; the venue
is the benchmark's), paged 1,000 at a time like api2.openreview.net. The server runs in this
process (its CPU is counted in the CPU time); the pace between requests is 0 (a local server).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import source_data  # noqa: E402
from _run_info import load, run_info  # noqa: E402
from source_servers import SourceServer  # noqa: E402

from paperscope.library import Library  # noqa: E402
from paperscope.model import clean_text, latex_to_plain, match_key  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "fetch.json"
VENUE = "ICLR.cc/2024/Conference"


def _key(text: str) -> str:
    return match_key(latex_to_plain(clean_text(text)), rendered=True)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def big_venue(corpora: Path) -> list[dict]:
    """ICLR 2024's notes plus other corpora's papers as notes of the same venue."""
    notes = source_data.openreview_v2(corpora / "iclr2024_openreview" / "iclr2024_accepted.json", None)[VENUE]
    extra = []
    with open(corpora / "iclr2020_miniconf" / "papers.csv", newline="", encoding="utf-8") as f:
        extra += [(r["UID"], r["title"], r["abstract"], r["authors"].split("|")) for r in csv.DictReader(f)]
    for volume in ("pmlr_v244_uai2024", "pmlr_v247_colt2024", "pmlr_v48_icml2016"):
        _, bib = source_data.pmlr_bib(corpora / volume)
        for block in bib.split("@InProceedings{")[1:]:
            fields = dict(line.strip().rstrip(",").split(" = \t ", 1) for line in block.splitlines()[1:]
                          if " = \t " in line)
            extra.append((block.split(",", 1)[0], fields["title"][1:-1], fields["abstract"][1:-1],
                          fields.get("author", "{}")[1:-1].split(" and ")))
    for number, (ident, title, abstract, authors) in enumerate(extra, len(notes) + 1):
        notes.append({"id": ident, "forum": ident, "number": number, "domain": VENUE,
                      "content": {"title": {"value": title}, "abstract": {"value": abstract},
                                  "authors": {"value": authors}, "venue": {"value": "ICLR 2024 poster"},
                                  "venueid": {"value": VENUE}}})
    return notes


def truth(corpora: Path) -> dict[str, str]:
    """abstract key -> real title, for the sample lists' venues (ICLR 2024, ICML 2024)."""
    out = {_key(r["abstract"]): r["title"] for r in
           json.load(open(corpora / "iclr2024_openreview" / "iclr2024_accepted.json", encoding="utf-8"))}
    events = json.load(open(corpora / "icml2024_events" / "icml2024_events.json", encoding="utf-8"))
    out.update({_key(e["abstract"]): e["name"] for e in events if e.get("type") == "Poster"})
    return out


def run(lib: Library, server: SourceServer, name: str, venue: str, year: int, *, untitled: set[str],
        real: dict[str, str], embed: bool = False, **kw) -> dict:
    before = {p["id"] for p in lib.papers(limit=1_000_000) if not p["title"]}
    requests, cpu, t0 = sum(server.requests.values()), _cpu(), time.perf_counter()
    report = lib.fetch(venue, year, base_url=server.url, embed=embed, **kw)
    wall = time.perf_counter() - t0
    filled = [p for p in lib.papers(limit=1_000_000) if p["id"] in before and p["title"]]
    wrong = [p["id"] for p in filled if _key(p["abstract"]) in real and
             _key(real[_key(p["abstract"])]) != _key(p["title"])]
    row = {"row": name, "source": report["source"], "venue": f"{venue} {year}",
           "fetched": report["fetched"], "added": report["added"], "merged": report["merged"],
           "titles_filled": report["titles_filled"], "wrong_titles": len(wrong),
           "not_accepted": report["not_accepted"], "duplicates": report["duplicates"],
           "skipped": report["skipped"], "pages": report["pages"], "from_saved": report["from_saved"],
           "requests": sum(server.requests.values()) - requests,
           "seconds_fetch_merge": report["seconds"], "seconds_derived": report["seconds_derived"],
           "seconds_total": round(wall, 2), "cpu_seconds": round(_cpu() - cpu, 2), "embedded": embed}
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--no-embed", action="store_true", help="skip embeddings in the 3,500-paper row")
    args = ap.parse_args()
    os.environ["PAPERSCOPE_FETCH_INTERVAL"] = "0"
    c = args.corpora
    real = truth(c)
    big = big_venue(c)
    pmlr = dict(source_data.pmlr_bib(c / v) for v in ("pmlr_v244_uai2024", "pmlr_v247_colt2024", "pmlr_v48_icml2016"))
    pmlr.update([source_data.pmlr_bib_from_events(c / "icml2024_events" / "icml2024_events.json")])
    server = SourceServer(openreview={VENUE: big},
                          openreview_v1=source_data.openreview_v1(c / "dylanjoo_openreview" / "ICLR" / "ICLR18_submissions.csv"),
                          virtual={("icml", 2024): source_data.virtual_results(c / "icml2024_events" / "icml2024_events.json")},
                          pmlr=pmlr)
    rows, started = [], load()
    with server, tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        saved = Path(tmp) / "saved"
        with Library.open(Path(tmp) / "lib.db") as lib:
            lib.ingest([ROOT / "examples" / "lists"], embed=False)
            untitled = {p["id"] for p in lib.papers(limit=1000) if not p["title"]}
            kw = {"untitled": untitled, "real": real}
            rows.append(run(lib, server, f"openreview v2, {len(big):,}-paper venue (+ samples)", "ICLR", 2024,
                            embed=not args.no_embed, save=saved, **kw))
            rows.append(run(lib, server, "openreview v2, same fetch resumed from saved pages", "ICLR", 2024,
                            save=saved, **kw))
            rows.append(run(lib, server, "openreview v1, ICLR 2018 (accepted of 911)", "ICLR", 2018, **kw))
            rows.append(run(lib, server, "virtual, ICML 2024 orals-posters (+ samples)", "ICML", 2024,
                            source="virtual", **kw))
            for venue, year in (("ICML", 2024), ("UAI", 2024), ("COLT", 2024), ("ICML", 2016)):
                rows.append(run(lib, server, f"pmlr, {venue} {year} bibliography", venue, year, source="pmlr", **kw))
        with Library.open(Path(tmp) / "replay.db") as lib:
            t0, cpu = time.perf_counter(), _cpu()
            report = lib.ingest([saved], embed=False)
            rows.append({"row": "replay: paperscope ingest SAVED (no server)", "source": "files",
                         "fetched": report.total("added") + report.total("merged") + report.total("unchanged"),
                         "added": report.total("added"), "seconds_total": round(time.perf_counter() - t0, 2),
                         "cpu_seconds": round(_cpu() - cpu, 2)})
            print(json.dumps(rows[-1]), flush=True)
    result = {**run_info({"corpora": [c.name for c in (c / "iclr2024_openreview", c / "iclr2020_miniconf",
                                                         c / "pmlr_v244_uai2024", c / "pmlr_v247_colt2024",
                                                         c / "pmlr_v48_icml2016", c / "icml2024_events",
                                                         c / "dylanjoo_openreview")],
                          "samples": "examples/lists"}, "httpx"),
              "load_average_at_end": load(), "load_average_at_start": started, "rows": rows}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
