"""Resolve: real titles for the title-less papers of a library.

    Resolver(store, base_url=None, arxiv_url=None, arxiv=True, ...).run(collection=None,
        dry_run=False) -> report dict

1. **The venue's source.** For each collection (venue and year) holding title-less papers, the
   venue's accepted papers are fetched (`fetch.Fetcher`: the sources in `sources.remote`'s order,
   openreview, then virtual, then pmlr; one that fails or does not publish the venue is reported
   and the next one tried) and ingested: the exact keys and the fuzzy identity step
   (`identity.py`) give each title-less paper its record.
2. **arXiv.** Each paper still untitled is searched on arXiv by three distinctive phrases of its
   abstract (one request, at most one every 3 s); a candidate is accepted only when its
   abstract scores at least `identity.THRESHOLD` against the paper's and clearly beats the other
   candidates, when no other paper of the library already is that candidate, and when the fuzzy
   step would choose this very paper. Accepted candidates are saved as one JSON file per
   collection and ingested like any list file, with `arxiv` as their title's origin.

A real title is never overwritten (ingest only fills gaps; titled papers are not even
searched). `dry_run` runs both steps against a scratch library holding copies of the title-less
papers, so the report says what would change while the library itself is not touched.
"""
from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import identity
from .store.protocol import Store
from .filters import Filter
from .ingest import Ingester
from .model import InputError, clean_text, content_hash, latex_to_plain, match_key

ARXIV_RESULTS = 5  # candidates asked per paper
ARXIV_GIVE_UP = 3  # consecutive failed searches that end the arXiv step
MIN_TITLE_KEY = 12


@dataclass
class Group:
    """The title-less papers of one collection."""

    name: str
    venue: str
    year: int | None
    papers: list[Any] = field(default_factory=list)


class Resolver:
    def __init__(self, store: Store, *, base_url: str | None = None, arxiv_url: str | None = None,
                 arxiv: bool = True, save: str | Path | None = None,
                 progress: Callable[[str, int, int], None] | None = None,
                 say: Callable[[str], None] | None = None, transport_options: dict | None = None):
        self.store = store
        self.base_url = base_url
        self.arxiv_url = arxiv_url
        self.use_arxiv = arxiv
        self.save = Path(save) if save is not None else None
        self.progress = progress or (lambda phase, done, total: None)
        self.say = say or (lambda message: None)
        self.transport_options = transport_options or {}

    def run(self, collection: str | None = None, *, dry_run: bool = False) -> dict[str, Any]:
        groups = untitled_groups(self.store, collection)
        before = {p.id: g.name for g in groups for p in g.papers}
        report: dict[str, Any] = {"dry_run": dry_run, "untitled_before": len(before), "venue_sources": [],
                                  "arxiv": {"searched": 0, "requests": 0, "errors": []}, "rejected": []}
        with tempfile.TemporaryDirectory(prefix="paperscope-resolve-") as tmp:
            target = scratch_copy(groups, Path(tmp)) if dry_run else self.store
            try:
                self._from_venues(target, groups, report)
                still = [p for p in _untitled(target, groups)]
                by_venue = len(before) - sum(len(g.papers) for g in still)
                if self.use_arxiv and any(g.papers for g in still):
                    self._from_arxiv(target, still, report, Path(tmp))
                report["papers"] = _changes(target, before)
            finally:
                if dry_run:
                    target.close()
        counts = {"venue": 0, "arxiv": 0}
        for p in report["papers"]:
            counts["arxiv" if p["origin"] == "arxiv" else "venue"] += 1
        report.update(resolved_by_venue=by_venue, resolved_by_arxiv=counts["arxiv"],
                      still_untitled=len(before) - by_venue - counts["arxiv"])
        return report

    # ------------------------------------------------------------------ 1. the venue's source
    def _from_venues(self, target, groups: list[Group], report: dict) -> None:
        from .fetch import Fetcher
        from .sources.remote import FetchError

        for g in groups:
            entry: dict[str, Any] = {"collection": g.name, "untitled": len(g.papers)}
            report["venue_sources"].append(entry)
            if g.year is None:
                entry["error"] = "the collection has no year: no venue source to ask"
                continue
            fetcher = Fetcher(target, progress=self.progress, say=self.say,
                              transport_options=self.transport_options)
            try:
                got = fetcher.run(g.venue, g.year, base_url=self.base_url)
            except (FetchError, InputError) as exc:
                entry["error"] = str(exc)
                continue
            entry.update({k: got.get(k) for k in ("source", "fetched", "added", "merged", "titles_filled",
                                                  "attempts", "seconds")})

    # ------------------------------------------------------------------ 2. arXiv
    def _from_arxiv(self, target, groups: list[Group], report: dict, tmp: Path) -> None:
        from .sources.remote import FetchError
        from .sources.remote.arxiv import Arxiv, ArxivError

        source = Arxiv()
        transport = source.transport(None, on_wait=self.say, **self.transport_options)
        total, done, failures = sum(len(g.papers) for g in groups), 0, 0
        stats = report["arxiv"]
        try:
            for g in groups:
                checker, accepted = identity.FuzzyIdentity(target), {}
                for paper in g.papers:
                    self.progress("resolve arxiv (papers)", done, total)
                    done += 1
                    stats["searched"] += 1
                    try:
                        entries = source.search(transport, paper.abstract, base_url=self.arxiv_url,
                                                max_results=ARXIV_RESULTS)
                        failures = 0
                    except (FetchError, ArxivError) as exc:
                        failures += 1
                        stats["errors"].append({"paper": paper.id, "reason": str(exc)})
                        if failures >= ARXIV_GIVE_UP:
                            stats["stopped"] = f"arXiv failed {failures} times in a row: {exc}"
                            self.say(stats["stopped"])
                            return
                        continue
                    verdict = _judge(target, checker, g, paper, entries)
                    if "entry" in verdict and verdict["entry"].arxiv_id not in accepted:
                        accepted[verdict["entry"].arxiv_id] = (paper, verdict)
                    else:
                        report["rejected"].append({"paper": paper.id, "collection": g.name,
                                                   "best_score": verdict.get("score", 0.0),
                                                   "best_title": verdict.get("title"),
                                                   "reason": verdict.get("reason", "already taken")})
                self._ingest_accepted(target, g, list(accepted.values()), tmp)
        finally:
            self.progress("resolve arxiv (papers)", done, total)
            stats["requests"] = transport.requests
            transport.close()

    def _ingest_accepted(self, target, g: Group, accepted: list, tmp: Path) -> None:
        if not accepted:
            return
        folder = self.save or tmp
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"arxiv-{_slug(g.name)}-resolve.json"
        rows = [{"title": v["entry"].title, "abstract": v["entry"].abstract, "authors": v["entry"].authors,
                 "venue": g.venue, "year": g.year, "url": v["entry"].url, "pdf": v["entry"].pdf,
                 "arxivid": v["entry"].arxiv_id} for _, v in accepted]
        path.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
        Ingester(target, venue=g.venue, year=g.year, origin="arxiv").run([path])


def _judge(target, checker: identity.FuzzyIdentity, g: Group, paper, entries: list) -> dict[str, Any]:
    """The one arXiv entry that is this paper, or why none is: {entry, score} or {score, title, reason}."""
    if not entries:
        return {"score": 0.0, "title": None, "reason": "no candidates"}
    scored = sorted(((identity.score(paper.abstract, latex_to_plain(clean_text(e.abstract))), i)
                     for i, e in enumerate(entries)), reverse=True)
    top, i = scored[0]
    entry = entries[i]
    second = scored[1][0] if len(scored) > 1 else 0.0
    size = len(identity.words(paper.abstract))
    other = len(identity.words(entry.abstract))
    if not identity.acceptable(top, second, size, other):
        return {"score": round(top, 4), "title": entry.title, "reason": "below the threshold or ambiguous"}
    plain = latex_to_plain(clean_text(entry.abstract))
    keys = [f"a:{match_key(plain, rendered=True)}"]
    tkey = match_key(latex_to_plain(clean_text(entry.title)), rendered=True)
    if len(tkey) >= MIN_TITLE_KEY:
        keys.append(f"t:{tkey}:{g.year or ''}")
    existing = target.paper_for_keys(keys)
    if existing is None:
        found = checker.find(g.venue, g.year, plain, True)
        existing = found.paper_id if found else None
    if existing != paper.id:
        return {"score": round(top, 4), "title": entry.title,
                "reason": "another paper of the library is that candidate" if existing else "ambiguous"}
    return {"entry": entry, "score": round(top, 4)}


# ---------------------------------------------------------------------- the papers in question
def untitled_groups(store: Store, collection: str | None = None) -> list[Group]:
    """The title-less papers of each collection (of one, when named), each paper once."""
    collections = store.collection_stats()
    if collection is not None:
        collections = [c for c in collections if c["name"].casefold() == collection.casefold()]
        if not collections:
            raise InputError(f"no collection named {collection!r} (see `paperscope stats`)")
    seen: set[str] = set()
    groups = []
    for c in collections:
        every = store.ordered_ids(Filter.of(collection=c["name"]), "list")
        titled = set(store.ordered_ids(Filter.of(collection=c["name"], has=["title"]), "list"))
        ids = [pid for pid in every if pid not in titled and pid not in seen]
        seen.update(ids)
        if ids:
            found = store.papers_by_id(ids)
            groups.append(Group(c["name"], c["venue"], c["year"], [found[i] for i in ids if i in found]))
    return groups


def _untitled(store: Store, groups: list[Group]) -> list[Group]:
    out = []
    for g in groups:
        now = store.papers_by_id([p.id for p in g.papers])
        out.append(Group(g.name, g.venue, g.year, [now[p.id] for p in g.papers if p.id in now and not now[p.id].title]))
    return out


def _changes(store: Store, before: dict[str, str]) -> list[dict[str, Any]]:
    now = store.papers_by_id(list(before))
    return [{"id": pid, "collection": before[pid], "title": p.title, "origin": p.title_origin,
             "score": p.title_score, "authors": len(p.authors)}
            for pid, p in now.items() if p.title]


def scratch_copy(groups: list[Group], folder: Path):
    """A throw-away SQLite library holding copies of the title-less papers (same ids, same
    collections): what a dry run changes instead of the library."""
    from .store.sqlite import SQLiteStore

    scratch = SQLiteStore(folder / "dry-run.db")
    with scratch.transaction():
        source = scratch.source_id("(the library)", "", "library")
        for g in groups:
            cid = scratch.collection_id(g.venue, g.year)
            for position, p in enumerate(g.papers):
                scratch.insert_paper({
                    "id": p.id, "title": None, "abstract": p.abstract, "abstract_source": p.abstract_source,
                    "authors": list(p.authors), "keywords": list(p.keywords), "status": p.status,
                    "urls": dict(p.urls), "label": p.facts.get("label"),
                    "text_hash": content_hash(None, p.abstract)})
                scratch.add_keys(p.id, [f"a:{match_key(p.abstract, rendered=True)}"])
                scratch.add_membership(p.id, cid, source, position, p.status)
    return scratch


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.casefold()).strip("-") or "collection"
