"""resolve_eval's per-source stage: a perturbed title-less list, then the venue fetched from the
local test server (tests/source_servers.py, the sources' wire formats built from the corpora)
through `fetch.Fetcher` with one named source, as `resolve` does."""
from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

from _resolve_data import KINDS, list_file, perturb, records, sample_list_abstracts, usable
from _run_info import ROOT

from paperscope.fetch import Fetcher
from paperscope.filters import Filter
from paperscope.ingest import Ingester
from paperscope.model import clean_text, decode_entities, latex_to_plain, match_key
from paperscope.store.sqlite import SQLiteStore

SOURCES = [("openreview", "iclr2024", "ICLR", 2024), ("virtual", "icml2024", "ICML", 2024),
           ("pmlr", "icml2024", "ICML", 2024)]


def _plain(text: str) -> str:
    return latex_to_plain(clean_text(decode_entities(text)))


def run_sources(corpora: Path, n: int, seed: int) -> list[dict]:
    sys.path.insert(0, str(ROOT / "tests"))
    import source_servers

    os.environ.setdefault("PAPERSCOPE_FETCH_INTERVAL", "0")
    rows = []
    with source_servers.from_corpora(corpora) as server, tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        for source, name, venue, year in SOURCES:
            rows.append(_one(server.url, Path(tmp) / source, corpora, source, name, venue, year, n, seed))
            r = rows[-1]
            print(f"source {source:10s} {venue} {year}: fetched {r['fetched']} titles filled {r['titles_filled']} "
                  f"real {r['real_title']}/{r['positives']} wrong {r['wrong_title']} false merges "
                  f"{r['false_merges']}/{r['negatives']} dup {r['duplicates']} {r['seconds']}s", flush=True)
    return rows


def _one(url: str, folder: Path, corpora: Path, source: str, name: str, venue: str, year: int,
         n: int, seed: int) -> dict:
    rng = random.Random(seed)
    recs = usable(records(corpora, name))
    by_key = {match_key(r["abstract"]): r for r in recs}
    samples = [by_key[k] for k in (match_key(a) for a in sample_list_abstracts(ROOT / "examples" / "lists",
                                                                             f"{venue} {year}")) if k in by_key]
    positives = samples + rng.sample([r for r in recs if all(r is not s for s in samples)], n)
    titles = {match_key(r["title"]) for r in recs}
    negatives = rng.sample([r for r in usable(records(corpora, "iclr2020")) if match_key(r["title"]) not in titles],
                           max(20, n // 6))
    items = [(r, r) for r in positives] + [(r, None) for r in negatives]
    rng.shuffle(items)
    listed = [(perturb(r["abstract"], KINDS[i % len(KINDS)], rng), truth) for i, (r, truth) in enumerate(items)]
    folder.mkdir(parents=True)
    store = SQLiteStore(folder / "lib.db")
    Ingester(store, venue=venue, year=year).run([list_file(folder / "list.txt", f"{venue} {year}",
                                                            [t for t, _ in listed])])
    t0, c0 = time.perf_counter(), time.process_time()
    report = Fetcher(store).run(venue, year, source=source, base_url=url)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    at = {m["position"]: p for p in store.papers(Filter.of(collection=f"{venue} {year}"))
          for m in p.collections if Path(m["source"]).name == "list.txt"}
    right = wrong = false_merge = authors_ok = authors_n = 0
    for i, (_, truth) in enumerate(listed):
        p = at[i]
        if truth is None:
            false_merge += p.title is not None
        elif p.title == _plain(truth["title"]):
            right += 1
            if truth["authors"]:
                authors_n += 1
                authors_ok += bool(p.authors)
        elif p.title:
            wrong += 1
    # the source holds every positive: one left untitled is that paper twice in the library
    duplicates = len(positives) - right - wrong
    n_papers = store.count_papers()
    store.close()
    return {"source": source, "venue": f"{venue} {year}", "fetched": report["fetched"], "added": report["added"],
            "titles_filled": report["titles_filled"], "positives": len(positives), "real_title": right,
            "wrong_title": wrong, "negatives": len(negatives), "false_merges": false_merge,
            "with_authors": f"{authors_ok}/{authors_n}" if authors_n else "corpus has none",
            "duplicates": duplicates, "library_papers": n_papers,
            "resolve_rate": round(right / len(positives), 4), "seconds": round(seconds, 2), "cpu_s": round(cpu, 2)}
