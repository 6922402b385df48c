"""Ingest: records from the readers -> papers, collections and memberships in the store.

Identity: a paper is found again by its normalised abstract (`a:` key) or, failing that, by its
normalised title and year (`t:` key), or, when one side has no title, by a fuzzy match of the
abstracts within the venue and year (`identity.py`; its score goes into the report and, when
it fills the title, into `title_score`). A match fills the stored paper's gaps (title, authors,
keywords, status, urls) and never overwrites known values with empty ones; `title_origin` says
where a title came from (the file's name, or the remote source's).

Atomicity: each batch of records is one transaction; Ctrl-C or a crash rolls back the batch in
flight and leaves earlier batches whole. With `strict`, a file with any problem is rejected
before anything is written. An exception that stops a run (Ctrl-C, a full disk) carries the
report of what the committed batches hold as `exc.ingest_report`.
"""
from __future__ import annotations

import hashlib
import os
import select
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from . import sources
from .identity import FuzzyIdentity
from .sources.fields import YEAR_MAX, YEAR_MIN, is_year
from .sources.textio import path_text
from .model import InputError, Problem, Record, clean_text, content_hash, latex_to_plain, match_key, paper_id_for
from .store.protocol import Store

BATCH = 500
MAX_MERGES_LISTED = 1000  # the report lists the first merges; counts cover all of them
MIN_TITLE_KEY = 12  # shorter normalised titles are too generic to identify a paper


@dataclass
class FileReport:
    path: str
    format: str = ""
    records: int = 0
    added: int = 0
    merged: int = 0
    unchanged: int = 0
    duplicates: int = 0  # same paper twice in one file
    skipped: int = 0
    titles_filled: int = 0  # merged papers that had no title and got this record's
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # nothing lost, but worth knowing
    left_out: list[Problem] = field(default_factory=list)  # not papers (workshops, prefaces)
    error: str | None = None  # the whole file was rejected
    seen: set = field(default_factory=set, repr=False)  # paper ids met in this file

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "records": self.records,
                "added": self.added, "merged": self.merged, "unchanged": self.unchanged,
                "duplicates": self.duplicates, "skipped": self.skipped,
                "titles_filled": self.titles_filled, "error": self.error,
                "left_out": [{"source": p.source, "line": p.line, "reason": p.reason} for p in self.left_out],
                "problems": [{"source": p.source, "line": p.line, "reason": p.reason} for p in self.problems],
                "warnings": [{"source": p.source, "line": p.line, "reason": p.reason} for p in self.warnings]}


@dataclass
class IngestReport:
    files: list[FileReport] = field(default_factory=list)
    merges: list[dict[str, Any]] = field(default_factory=list)  # what was merged into what
    derived: dict[str, int] = field(default_factory=dict)
    batches: int = 0  # transactions committed (each a whole batch of records)
    read_all: bool = False  # every file was read and its batches committed

    def total(self, name: str) -> int:
        return sum(getattr(f, name) for f in self.files)

    @property
    def ok(self) -> bool:
        return not any(f.error for f in self.files)

    def skip_reasons(self) -> Counter:
        return Counter(_reason_kind(p.reason) for f in self.files for p in f.problems)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.total("added"), "merged": self.total("merged"),
                "unchanged": self.total("unchanged"), "duplicates": self.total("duplicates"),
                "skipped": self.total("skipped"), "titles_filled": self.total("titles_filled"),
                "skip_reasons": dict(self.skip_reasons()),
                "left_out": sum(len(f.left_out) for f in self.files),
                "files": [f.to_dict() for f in self.files], "merges": self.merges,
                "derived": self.derived}


def _reason_kind(reason: str) -> str:
    return reason.split(":")[0].split("(")[0].strip()[:60]


class Ingester:
    def __init__(self, store: Store, *, fmt: str | None = None, venue: str | None = None,
                 year: int | None = None, strict: bool = False,
                 progress: Callable[[str, int, int], None] | None = None, origin: str | None = None):
        self.store = store
        self.fmt = fmt
        self.venue = venue
        self.year = year
        self.strict = strict
        self.progress = progress or (lambda phase, done, total: None)
        self.identity = FuzzyIdentity(store)
        self.origin = origin  # a remote source's name (fetch, resolve): where titles come from
        if fmt and fmt not in sources.FORMATS:
            raise InputError(f"unknown format {fmt!r}; choose one of: {', '.join(sources.FORMATS)}")
        if year is not None and not is_year(year):
            raise InputError(f"--year {year!r} is not a year between {YEAR_MIN} and {YEAR_MAX}")

    def run(self, paths: Iterable[str | Path]) -> IngestReport:
        report = IngestReport()
        given = [_given_path(p) for p in paths]
        files = sources.expand(given)  # InputError for a missing path, a device, an unreadable folder
        if not files:
            raise InputError(f"no list files found in: {', '.join(map(str, given))}")
        try:
            for i, path in enumerate(files):
                self.progress("files", i, len(files))
                self._ingest_file(path, report)
            report.read_all = True
            _hold_for_tests("read")
        except BaseException as exc:  # Ctrl-C, a full disk: say what the committed batches hold
            exc.ingest_report = report
            raise
        self.progress("files", len(files), len(files))
        return report

    # ------------------------------------------------------------------ one file
    def _ingest_file(self, path: Path, report: IngestReport) -> FileReport:
        fr = FileReport(path=path_text(path))
        report.files.append(fr)
        try:
            fmt = self.fmt or sources.detect(path)
        except InputError as exc:
            fr.error = str(exc)
            return fr
        fr.format = fmt
        if self.strict:
            bad = [item for item in sources.read(path, fmt, self.venue, self.year)
                   if isinstance(item, Problem) and not item.warning]
            if bad:
                fr.problems = bad
                fr.skipped = sum(1 for p in bad if not p.fatal)
                fr.error = f"{len(bad)} problem(s) with --strict; nothing written from this file: {bad[0]}"
                return fr
        digest = _sha256(path) if path.is_file() else ""  # a pipe is read once: no hash first
        batch: list[Record] = []
        size = max(1, path.stat().st_size)
        reading = sources.read(path, fmt, self.venue, self.year)
        for item in reading:
            if isinstance(item, Problem) and item.warning:
                (fr.left_out if isinstance(item, sources.LeftOut) else fr.warnings).append(item)
                continue
            if isinstance(item, Problem):
                fr.problems.append(item)
                if item.fatal:
                    fr.error = str(item)
                    return fr
                fr.skipped += 1
                continue
            fr.records += 1
            batch.append(item)
            if len(batch) >= BATCH:
                self._write_batch(batch, fr, digest, fmt, report)
                batch = []
                self.progress(f"read {path.name} (KiB)", min(reading.bytes_read, size) >> 10, size >> 10)
        if batch:
            self._write_batch(batch, fr, digest, fmt, report)
        if fr.records > BATCH:
            self.progress(f"read {path.name} (KiB)", size >> 10, size >> 10)
        if fr.records == 0 and not fr.error:
            fr.error = f"{path}: no papers found"
        return fr

    def _write_batch(self, batch: list[Record], fr: FileReport, digest: str, fmt: str,
                     report: IngestReport) -> None:
        """One transaction; when it fails, the report forgets what the batch had counted."""
        counts = {k: getattr(fr, k) for k in ("records", "added", "merged", "unchanged", "duplicates", "skipped",
                                              "titles_filled")}
        lengths = (len(fr.problems), len(report.merges))
        self._new_ids: list[str] = []
        try:
            self._write(batch, fr, digest, fmt, report)
            report.batches += 1
        except BaseException:
            for k, v in counts.items():
                setattr(fr, k, v)
            del fr.problems[lengths[0]:], report.merges[lengths[1]:]
            fr.seen.difference_update(self._new_ids)
            fr.records -= len(batch)  # read but not kept
            raise
        _hold_for_tests(report.batches)

    def _write(self, batch: list[Record], fr: FileReport, digest: str, fmt: str,
               report: IngestReport) -> None:
        store = self.store
        seen_here = fr.seen
        with store.transaction():
            source_id = store.source_id(path_text(Path(fr.path).resolve()), digest, fmt)
            for rec in batch:
                venue = rec.venue or self.venue
                year = rec.year or self.year
                if not venue:
                    fr.problems.append(Problem(rec.source, rec.line, "no venue: pass --venue/--year"))
                    fr.skipped += 1
                    fr.records -= 1
                    continue
                outcome = self._upsert(rec, venue, year, seen_here)
                pid = outcome[1]
                cid = store.collection_id(venue, year)
                new_member = store.add_membership(pid, cid, source_id, rec.position, rec.status)
                kind = outcome[0]
                if pid in seen_here and kind != "added":
                    fr.duplicates += 1
                    fr.problems.append(Problem(rec.source, rec.line, "duplicate: same paper earlier in this file"))
                elif kind == "added":
                    fr.added += 1
                elif kind == "merged" or new_member:
                    fr.merged += 1
                    fr.titles_filled += "title" in outcome[2]
                    if len(report.merges) < MAX_MERGES_LISTED:
                        report.merges.append({"paper": pid, "from": f"{rec.source}:{rec.line}",
                                              "filled": outcome[2], **outcome[3]})
                else:
                    fr.unchanged += 1
                if pid not in seen_here:
                    seen_here.add(pid)
                    self._new_ids.append(pid)

    def _upsert(self, rec: Record, venue: str, year: int | None, seen: set) -> tuple[str, str, list[str], dict]:
        """Insert or merge one record; returns (added|merged|unchanged, paper id, filled fields,
        {"match": "fuzzy", "score": s} when the paper was found by a fuzzy match)."""
        store = self.store
        abstract_src = clean_text(rec.abstract)
        title_src = clean_text(rec.title) or None
        abstract = latex_to_plain(abstract_src)
        title = latex_to_plain(title_src) if title_src else None
        keys = [f"a:{match_key(abstract, rendered=True)}"]
        tkey = match_key(title, rendered=True) if title else ""
        if len(tkey) >= MIN_TITLE_KEY:
            keys.append(f"t:{tkey}:{year or ''}")
        existing = store.paper_for_keys(keys)
        via_legacy = existing is None and bool(rec.legacy_keys)
        if via_legacy:
            existing = store.paper_for_keys(rec.legacy_keys)
        fuzzy = self.identity.find(venue, year, abstract, bool(title), seen) if existing is None else None
        existing = fuzzy.paper_id if fuzzy else existing
        origin = rec.origin or self.origin or Path(rec.source).name
        authors = [clean_text(a) for a in rec.authors if clean_text(a)]
        keywords = [clean_text(k) for k in rec.keywords if clean_text(k)]
        urls = {k: v.strip() for k, v in rec.urls.items() if v and v.strip()}
        if existing is None:
            pid = paper_id_for(keys[0])
            store.insert_paper({
                "id": pid, "title": title, "title_source": title_src, "abstract": abstract,
                "abstract_source": abstract_src, "authors": authors,
                "keywords": keywords, "status": rec.status,
                "urls": urls, "external_id": rec.external_id,
                "label": title, "text_hash": content_hash(title, abstract),
                "title_origin": origin if title else None,
            })
            store.add_keys(pid, keys)
            self.identity.added(venue, year, pid, abstract, bool(title))
            return "added", pid, [], {}
        row = store.paper_row(existing)
        changes: dict[str, Any] = {}
        if via_legacy and row["abstract"] != abstract:  # stored with its HTML entities: decode
            changes.update(abstract=abstract, abstract_source=abstract_src)
        if not row["title"] and title:
            changes.update(title=title, title_source=title_src, title_origin=origin,
                           title_score=fuzzy.score if fuzzy else None)
            self.identity.titled(venue, year, existing)
        if not row["authors"] and authors:
            changes["authors"] = authors
        if not row["keywords"] and keywords:
            changes["keywords"] = keywords
        if not row["status"] and rec.status:
            changes["status"] = rec.status
        if not row["external_id"] and rec.external_id:
            changes["external_id"] = rec.external_id
        old_urls = row["urls"]
        merged_urls = {**urls, **old_urls}
        if merged_urls != old_urls:
            changes["urls"] = merged_urls
        if "title" in changes or "abstract" in changes:
            changes["text_hash"] = content_hash(changes.get("title", row["title"]),
                                                changes.get("abstract", row["abstract"]))
        if "title" in changes:
            changes["label"] = changes["title"]
        store.update_paper(existing, changes)
        store.add_keys(existing, keys)
        filled = sorted(k for k in changes if k not in ("title_source", "text_hash", "label", "title_origin",
                                                        "title_score"))
        match = {"match": "fuzzy", "score": fuzzy.score} if fuzzy else {}
        return ("merged" if filled else "unchanged"), existing, filled, match


def _hold_for_tests(point: int | str) -> None:
    """For tests that interrupt an ingest at a known point: with PAPERSCOPE_TEST_HOLD="N:FIFO",
    the run stops after its N-th committed batch (N="read": after every file was read, before
    derived data) and waits on the named pipe FIFO until the test writes to it (or signals the
    process, which is the point). Unset: nothing happens."""
    hold = os.environ.get("PAPERSCOPE_TEST_HOLD")
    if hold and hold.partition(":")[0] == str(point):
        with open(hold.partition(":")[2], "rb", buffering=0) as fifo:
            # a blocking read could miss a signal that lands just before it starts; a short
            # select returns to the interpreter, which then runs the pending signal's handler
            while not select.select([fifo], [], [], 0.2)[0]:
                pass
            fifo.read(1)


def _given_path(p: str | Path) -> Path:
    """A path the user named; an empty one is refused (Path("") would be the current folder)."""
    if not str(p).strip():
        raise InputError("empty path: name a list file or a folder of them")
    return Path(p)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
