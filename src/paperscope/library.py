"""The `Library` facade: every operation the CLI, the web app and the tests use.

Business logic lives in the packages (sources, enrich, store, search, analysis, recommend,
export); this class wires them together and owns the database connection.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .model import InputError, Paper
from .store import Store

if TYPE_CHECKING:  # the readers are imported on first ingest: a search need not load them
    from .ingest import IngestReport

Progress = Callable[[str, int, int], None]  # (phase, done, total)


def default_db_path() -> Path:
    """--db, else $PAPERSCOPE_DB, else the per-user data directory."""
    env = os.environ.get("PAPERSCOPE_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("paperscope", appauthor=False)) / "library.db"


class Library:
    """A paper library in one SQLite file."""

    def __init__(self, store: Store):
        self.store = store
        self._cache: dict[str, Any] = {}  # per-process derived state (vector matrix, models)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, path: str | Path | None = None, *, readonly: bool = False) -> "Library":
        path = Path(path).expanduser() if path else default_db_path()
        if readonly and not path.exists():
            raise InputError(f"no library at {path}: run `paperscope ingest` first")
        return cls(Store(path, readonly=readonly))

    @property
    def path(self) -> Path:
        return self.store.path

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def invalidate(self) -> None:
        """Forget per-process derived state after a write."""
        self._cache.clear()

    # ------------------------------------------------------------------ ingest
    def ingest(self, paths: Iterable[str | Path], *, fmt: str | None = None,
               venue: str | None = None, year: int | None = None, strict: bool = False,
               embed: bool = True, progress: Progress | None = None) -> IngestReport:
        """Read list files (or folders of them) into the library. Idempotent; one transaction
        per batch; derived data (facts, embeddings) computed for new or changed papers only."""
        from .ingest import Ingester

        report = Ingester(self.store, fmt=fmt, venue=venue, year=year, strict=strict,
                          progress=progress).run(paths)
        self.invalidate()
        report.derived = self.refresh_derived(embed=embed, progress=progress)
        return report

    def refresh_derived(self, *, embed: bool = True, progress: Progress | None = None) -> dict[str, int]:
        """Recompute facts whose text changed and embed papers without a current vector."""
        from .enrich.store import refresh_facts

        out = {"facts": refresh_facts(self.store, progress=progress)}
        from .search.lexical import refresh as refresh_lexical

        out["indexed"] = refresh_lexical(self.store, progress=progress)
        if embed:
            from .search.semantic import embed_missing

            out["embedded"] = embed_missing(self, progress=progress)
        self.invalidate()
        return out

    def remove_collection(self, name: str) -> dict[str, int]:
        with self.store.transaction():
            members, papers = self.store.remove_collection(name)
        if members < 0:
            raise InputError(f"no collection named {name!r} (see `paperscope stats`)")
        self.invalidate()
        return {"memberships": members, "papers_removed": papers}

    # ------------------------------------------------------------------ read
    def papers(self, *, venue: str | None = None, year: int | None = None,
               collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        found = self.store.papers(venue=venue, year=year, collection=collection, ids=ids,
                                  limit=limit, offset=offset)
        try:
            from .userdata import user_fields_many
        except ImportError:  # user data package not present yet
            return [p.to_dict() for p in found]
        marks = user_fields_many(self.store, [p.id for p in found])  # one query for the lot
        return [{**p.to_dict(), **marks[p.id]} for p in found]

    def paper(self, paper_id: str) -> dict[str, Any] | None:
        """One paper by id or by a unique id prefix of at least 4 characters (None if unknown;
        InputError if the prefix is ambiguous)."""
        found = self.store.papers(ids=[paper_id])
        if not found and len(paper_id) >= 4:
            from .userdata import resolve_id

            try:
                found = self.store.papers(ids=[resolve_id(self.store, paper_id)])
            except InputError as exc:
                if "ambiguous" in str(exc):
                    raise
                return None
        return self._decorate(found[0]) if found else None

    def paper_objects(self, ids: list[str]) -> list[Paper]:
        return self.store.papers(ids=ids)

    def collections(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self._cached(("collections",), self.store.collection_stats)]

    def stats(self) -> dict[str, Any]:
        return {"papers": self.store.count_papers(), "collections": self.collections(),
                "path": str(self.path)}

    def browse(self, *, limit: int = 50, offset: int = 0, **filters: Any) -> dict[str, Any]:
        """One page of papers plus the total: `{"total": n, "papers": [...]}`. Filters:
        collection, venue, year, sort (list|topic|type|title|recent), paper_type, exclude_type,
        has_code, status, ids (see `store.browse`). The ordered id list is cached per filter
        set until the library changes, so paging costs one page of papers."""
        from .store.browse import ordered_ids

        def compute() -> list[str]:
            if filters.get("sort") != "topic":
                return ordered_ids(self.store, **filters)
            found = ordered_ids(self.store, **{**filters, "sort": "list"})
            index = self.topic_index(filters.get("collection"))
            rank = {pid: i for i, pid in enumerate(index)}  # largest topic first, typical papers first
            return sorted(found, key=lambda pid: rank.get(pid, len(rank)))

        ids = self._cached(("browse", repr(sorted(filters.items()))), compute)
        page = ids[offset:offset + limit]
        by_id = {p["id"]: p for p in self.papers(ids=page)}
        return {"total": len(ids), "papers": [by_id[i] for i in page if i in by_id]}

    def facets(self, collection: str | None = None) -> dict[str, dict[str, int]]:
        """Counts by paper type and status (filter menus), cached until the library changes."""
        from .store.browse import facet_counts

        return self._cached(("facets", collection), lambda: facet_counts(self.store, collection=collection))

    def topic_index(self, collection: str | None) -> dict[str, dict[str, Any]]:
        """Paper id -> its coarse topic {id, label} within a collection (or the whole library),
        in topic order; cached until the library changes."""
        def compute() -> dict[str, dict[str, Any]]:
            found = next((c for c in self.collections() if collection and c["name"].casefold() == collection.casefold()), None)
            scope = {"venue": found["venue"], "year": found["year"]} if found else {}
            return {pid: {"id": tp["id"], "label": tp["label"]} for tp in self.topics(**scope) for pid in tp["papers"]}

        return self._cached(("topic_index", collection), compute)

    def paper_topics(self, paper: dict[str, Any]) -> list[dict[str, Any]]:
        """The coarse topic of a paper in each of its collections whose topics were already
        computed: [{collection, id, label}]. Cheap: reads stored runs, never fits."""
        from .analysis.service import scope_key
        from .store.browse import stored_topic

        out = []
        for c in paper.get("collections", []):
            found = stored_topic(self.store, paper["id"], scope_key(venue=c["venue"], year=c["year"]))
            if found and all(o["collection"] != c["name"] for o in out):
                out.append({"collection": c["name"], **found})
        return out

    def _cached(self, key: tuple, compute: Callable[[], Any], keep: int = 64) -> Any:
        """Per-process memo of derived read results, dropped by `invalidate()`."""
        memo = self._cache.setdefault("memo", {})
        if key not in memo:
            if len(memo) >= keep:
                memo.pop(next(iter(memo)))
            memo[key] = compute()
        return memo[key]

    def _decorate(self, paper: Paper) -> dict[str, Any]:
        """Paper JSON: stored fields + facts + user data."""
        d = paper.to_dict()
        try:
            from .userdata import user_fields
        except ImportError:  # user data package not present yet
            return d
        d.update(user_fields(self.store, paper.id))
        return d

    # ------------------------------------------------------------------ search
    def search(self, query: str, *, limit: int = 20, mode: str = "hybrid",
               venue: str | None = None, year: int | None = None,
               explain: bool = False) -> list[dict[str, Any]]:
        from .search.hybrid import search

        return search(self, query, limit=limit, mode=mode, venue=venue, year=year, explain=explain)

    def related(self, paper_id: str | None = None, *, text: str | None = None, limit: int = 10,
                venue: str | None = None, year: int | None = None) -> list[dict[str, Any]]:
        from .search.related import related

        return related(self, paper_id=paper_id, text=text, limit=limit, venue=venue, year=year)

    # ---- analysis
    def topics(self, *, venue: str | None = None, year: int | None = None, level: str | int = "coarse",
               ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Topics (id, label, size, share, terms, representative, papers) of a venue/year scope
        (cached in the library) or of an explicit set of papers."""
        from .analysis.service import topics

        return topics(self, venue=venue, year=year, level=level, ids=ids)

    def map_points(self, *, venue: str | None = None, year: int | None = None) -> list[dict[str, Any]]:
        """2-D map: (id, x, y, topic, topic_label, label) per paper (cached in the library)."""
        from .analysis.service import map_points

        return map_points(self, venue=venue, year=year)

    def compare(self, a: str, b: str) -> dict[str, Any]:
        """Two venues side by side: topic shares, distinctive terms, paper types."""
        from .analysis.compare import compare

        return compare(self, a, b)

    # ---- personal library
    def _user_write(self, fn, *args, **kwargs):
        with self.store.transaction():
            return fn(self.store, *args, **kwargs)

    def tag(self, paper_ids: str | list[str], tags: str | list[str]) -> dict[str, Any]:
        """Tag papers (ids or unique id prefixes); returns {papers, tags, added}."""
        from .userdata import add_tags, resolve_ids

        ids = resolve_ids(self.store, [paper_ids] if isinstance(paper_ids, str) else paper_ids)
        tags = [tags] if isinstance(tags, str) else list(tags)
        return {"papers": ids, "tags": tags, "added": self._user_write(add_tags, ids, tags)}

    def untag(self, paper_ids: str | list[str], tags: str | list[str]) -> dict[str, Any]:
        from .userdata import remove_tags, resolve_ids

        ids = resolve_ids(self.store, [paper_ids] if isinstance(paper_ids, str) else paper_ids)
        tags = [tags] if isinstance(tags, str) else list(tags)
        return {"papers": ids, "tags": tags, "removed": self._user_write(remove_tags, ids, tags)}

    def tags(self) -> list[dict[str, Any]]:
        """Every tag with its paper count."""
        from .userdata import tag_counts

        return tag_counts(self.store)

    def note(self, paper_id: str, text: str | None) -> dict[str, Any]:
        """Set (empty text: clear) a paper's note; returns the paper."""
        from .userdata import resolve_id, set_note

        pid = resolve_id(self.store, paper_id)
        self._user_write(set_note, pid, text)
        return self.paper(pid)

    def star(self, paper_id: str, on: bool = True) -> dict[str, Any]:
        from .userdata import resolve_id, set_starred

        pid = resolve_id(self.store, paper_id)
        self._user_write(set_starred, pid, on)
        return self.paper(pid)

    def mark_read(self, paper_id: str, on: bool = True) -> dict[str, Any]:
        from .userdata import resolve_id, set_read

        pid = resolve_id(self.store, paper_id)
        self._user_write(set_read, pid, on)
        return self.paper(pid)

    def mark_irrelevant(self, paper_id: str, on: bool = True, tag: str | None = None) -> dict[str, Any]:
        """"Not relevant" (for `tag`, or for every tag): an explicit negative for recommend."""
        from .userdata import resolve_id, set_irrelevant

        pid = resolve_id(self.store, paper_id)
        self._user_write(set_irrelevant, pid, on, tag)
        return self.paper(pid)

    def my_papers(self, *, tag: str | None = None, starred: bool = False, read: bool = False,
                  noted: bool = False) -> list[dict[str, Any]]:
        """The user's papers: tagged `tag`, or starred / read / with a note (newest first)."""
        from .userdata import marked_ids, tagged_ids

        ids = tagged_ids(self.store, tag) if tag else marked_ids(self.store, starred=starred, read=read, noted=noted)
        by_id = {p["id"]: p for p in self.papers(ids=ids)}
        return [by_id[i] for i in ids if i in by_id]

    def recommend(self, *, tag: str | None = None, ids: list[str] | None = None,
                  venue: str | None = None, year: int | None = None, limit: int = 10,
                  explain: bool = True) -> list[dict[str, Any]]:
        """Papers ranked for a tag (its papers positive, "not relevant" ones negative) or for an
        ad-hoc set of ids ("more like these"); each with `score` and `explanation`."""
        from .recommend import recommend
        from .userdata import dismissed_ids, resolve_ids, tagged_ids

        if bool(tag) == bool(ids):
            raise InputError("give either a tag or a list of paper ids")
        positives = tagged_ids(self.store, tag) if tag else resolve_ids(self.store, ids)
        if tag and not positives:
            raise InputError(f"no papers tagged {tag!r} (see `paperscope tags`)")
        return recommend(self, positives=positives, negatives=dismissed_ids(self.store, tag),
                         venue=venue, year=year, limit=limit, explain=explain)

    def export(self, fmt: str, *, tag: str | None = None, query: str | None = None,
               collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None) -> str:
        """bibtex | ris | csljson | csv | jsonl | markdown text of a tag, a search, a
        collection, some ids or the whole library."""
        from .export.select import export

        return export(self, fmt, tag=tag, query=query, collection=collection, ids=ids, limit=limit)

    def import_library(self, path: str | Path, *, tag: str = "mine") -> dict[str, Any]:
        """Tag the papers a user's BibTeX / RIS / CSL JSON / CSV library matches; report the rest."""
        from .export.importer import import_library

        return import_library(self, path, tag=tag)
