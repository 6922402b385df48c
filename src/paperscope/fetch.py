"""Fetch: a venue's accepted papers from its source into the library, through ingest.

    Fetcher(store, progress=None, say=None).run(venue, year, source=None, base_url=None,
        save=None, all_submissions=False, venue_id=None, token=None) -> dict (the report)

Each page a source yields (`sources.remote`) is a saved file that `ingest.Ingester` reads like
any list file: the same readers, identity and merges as `paperscope ingest`, one transaction per
batch. Sources are tried in `sources.remote.order_for` order unless one is named; a source that
does not publish the venue (404, no papers), refuses access or keeps failing gives way to the
next, and when none works `FetchError` says what each one answered.

Where pages are saved: `save` (kept: `paperscope ingest DIR` replays them offline), else a
folder per source, venue and year under the per-user cache directory
(`~/.cache/paperscope/fetch/` on Linux), removed once the fetch has completed. Either way a fetch
that was interrupted (Ctrl-C, SIGKILL, a network failure) and is run again reads the pages it
saved instead of asking for them again, and re-reads them through ingest, which changes nothing
for what was already written.

The report: `fetched` (records read), `added`, `merged`, `unchanged`, `duplicates`,
`titles_filled` (papers that had no title and got one), `skipped` with `skip_reasons`,
`left_out` (not papers, and submissions that were not accepted), `pages`, `requests` (network),
`from_saved` (pages read from saved files), `retries`, `attempts` (each source tried and what it
answered), `count_changed` (the source's count moved while paging), `seconds`.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable

from .ingest import IngestReport, Ingester
from .model import InputError
from .sources.remote import SOURCES, FetchError, Plan, order_for
from .sources.venues import canonical_venue
from .store.protocol import Store

PROBLEMS_LISTED = 50
MANIFEST = ".{stem}.fetch.json"  # hidden: `paperscope ingest DIR` skips it


def cache_root() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("paperscope")) / "fetch"


class Fetcher:
    def __init__(self, store: Store, *, progress: Callable[[str, int, int], None] | None = None,
                 say: Callable[[str], None] | None = None, transport_options: dict | None = None):
        self.store = store
        self.progress = progress or (lambda phase, done, total: None)
        self.say = say or (lambda message: None)
        self.transport_options = transport_options or {}

    def run(self, venue: str, year: int | str, *, source: str | None = None, base_url: str | None = None,
            save: str | os.PathLike | None = None, all_submissions: bool = False,
            venue_id: str | None = None, token: str | None = None) -> dict[str, Any]:
        venue_name, year = _venue_year(venue, year)
        if source is not None and source not in SOURCES:
            raise InputError(f"unknown source {source!r}; choose one of: {', '.join(SOURCES)}")
        names = [source] if source else order_for(venue_name, year)
        if not names:
            raise InputError(f"no source publishes {venue_name} {year}: pass --source and --venue-id "
                             f"(an OpenReview venue id, a PMLR volume number)")
        attempts, started = [], time.monotonic()
        for name in names:
            plan = SOURCES[name].plan(venue_name, year, base_url=base_url, venue_id=venue_id,
                                      all_submissions=all_submissions, token=token)
            if plan is None:
                attempts.append({"source": name, "result": "not published here", "reason": ""})
                continue
            try:
                report = self._fetch(plan, save)
            except FetchError as exc:
                attempts.append({"source": name, "result": "not found" if exc.not_found else "failed",
                                 "reason": str(exc)})
                if not (source is None and name != names[-1]):
                    raise FetchError(exc.url, _summary(exc, attempts)) from None
                self.say(f"{name}: {exc.reason}; trying the next source")
                continue
            attempts.append({"source": name, "result": "ok" if report["fetched"] else "no papers", "reason": ""})
            if report["fetched"] or source or name == names[-1]:
                report.update(attempts=attempts, seconds=round(time.monotonic() - started, 3))
                return report
        raise FetchError(venue_name, _summary(None, attempts))

    # ------------------------------------------------------------------ one source
    def _fetch(self, plan: Plan, save) -> dict[str, Any]:
        src = SOURCES[plan.source]
        folder = Path(save) if save is not None else cache_root() / plan.stem
        transport = src.transport(folder, on_wait=self.say, **self.transport_options)
        totals = IngestReport()
        stats = {"pages": 0, "from_saved": 0, "fetched": 0, "not_accepted": 0, "counts": []}
        phase, size = f"fetch {plan.source} (papers)", 0
        _manifest(folder, plan, complete=False)
        try:
            for page in src.pages(transport, plan):
                stats["pages"] += 1
                stats["from_saved"] += page.cached
                stats["not_accepted"] += page.left_out
                if page.total is not None:
                    stats["counts"].append(page.total)
                if page.path is not None:
                    part = Ingester(self.store, progress=_pages_only(self.progress),
                                    origin=plan.source).run([page.path])
                    totals.files.extend(part.files)
                    totals.merges.extend(part.merges[: max(0, 1000 - len(totals.merges))])
                    stats["fetched"] += sum(f.records + f.skipped for f in part.files)
                done = stats["fetched"] + stats["not_accepted"]
                self.progress(phase, done, max(done, page.total or 0))
                size = size or page.raw
                pages = -(-(page.total or 0) // size) if size else 0
                self.progress(f"fetch {plan.source} (pages)", stats["pages"], max(stats["pages"], pages))
        finally:
            transport.close()
        _manifest(folder, plan, complete=True, pages=stats["pages"])
        report = _report(plan, totals, stats, transport, folder if save is not None else None)
        if save is None and totals.ok:
            shutil.rmtree(folder, ignore_errors=True)  # done: the cache only serves resumes
        return report


def _venue_year(venue: str, year: int | str) -> tuple[str, int]:
    name = canonical_venue(str(venue or "").strip())
    if not name:
        raise InputError("a venue is needed (ICLR, NeurIPS, ICML, COLM, UAI, COLT, ...)")
    try:
        year = int(year)
    except (TypeError, ValueError):
        raise InputError(f"year must be a number, not {year!r}") from None
    if not 1950 <= year <= 2099:
        raise InputError(f"year {year} is not a conference year")
    return name, year


def _pages_only(progress):
    return lambda phase, done, total: None if phase == "files" else progress(phase, done, total)


def _manifest(folder: Path, plan: Plan, *, complete: bool, pages: int = 0) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    body = {"source": plan.source, "venue": plan.venue, "year": plan.year, "url": plan.url,
            "query": plan.query, "complete": complete, "pages": pages}
    name = MANIFEST.format(stem=plan.stem)
    tmp = folder / f"{name}.part"
    tmp.write_text(json.dumps(body, indent=1), encoding="utf-8")
    os.replace(tmp, folder / name)


def _report(plan: Plan, totals: IngestReport, stats: dict, transport, saved: Path | None) -> dict[str, Any]:
    counts = stats["counts"]
    problems = [{"source": p.source, "line": p.line, "reason": p.reason}
                for f in totals.files for p in f.problems][:PROBLEMS_LISTED]
    errors = [f.error for f in totals.files if f.error]
    return {"venue": plan.venue, "year": plan.year, "source": plan.source, "url": plan.url,
            "fetched": stats["fetched"], "added": totals.total("added"), "merged": totals.total("merged"),
            "unchanged": totals.total("unchanged"), "duplicates": totals.total("duplicates"),
            "titles_filled": totals.total("titles_filled"), "skipped": totals.total("skipped"),
            "skip_reasons": dict(totals.skip_reasons()),
            "left_out": sum(len(f.left_out) for f in totals.files) + stats["not_accepted"],
            "not_accepted": stats["not_accepted"], "pages": stats["pages"], "requests": transport.requests,
            "from_saved": stats["from_saved"], "retries": transport.retried,
            "count_changed": [counts[0], counts[-1]] if counts and min(counts) != max(counts) else None,
            "saved": str(saved) if saved is not None else None, "errors": errors, "problems": problems,
            "merges": totals.merges}


def _summary(exc: FetchError | None, attempts: list[dict]) -> str:
    tried = "; ".join(f"{a['source']}: {a['result']}" + (f" ({a['reason']})" if a["reason"] else "")
                      for a in attempts)
    if exc is not None and len(attempts) == 1:
        return exc.reason
    return f"no source could be read: {tried}"
