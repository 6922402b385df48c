"""The `Library` facade: every operation the CLI, the web app, the MCP server and the tests use.

It composes the components, each built from the store and its collaborators, never from the
facade: `SearchEngine(store, embedder)` (lexical + vector indexes, related papers),
`Analysis(store, vectors)` (topics, map, compare), `Recommender(store, vectors)` and
`Expertise(store, engine)`. The store is the only place with SQL. The facade turns loose
arguments into one `Filter` (a collection name included), adds the user's marks to paper JSON,
and forwards `invalidate()` after writes. Its methods carry the CLI's command names (the table
in `names.py`); the analysis, personal-library, expertise, model-label and question-answering
methods live in the mixins `library_analysis`, `library_user`, `library_expertise`, `library_llm`
and `library_ask`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .filters import Filter
from .library_analysis import AnalysisMethods
from .library_ask import AskMethods
from .library_expertise import ExpertiseMethods
from .library_llm import LLMMethods
from .library_user import UserMethods
from .model import Hit, InputError, NotFound, Paper, UsageError
from .store import is_url, open_store
from .store.protocol import Store
from .store.sqlite import DiskFull

__all__ = ["DiskFull", "Library", "default_db_path"]

if TYPE_CHECKING:  # imported on first use: a one-shot command loads only what it needs
    from .analysis.service import Analysis
    from .ingest import IngestReport
    from .expertise.service import Expertise
    from .model import RelatedHit, SearchHit
    from .recommend import Recommender
    from .search.engine import SearchEngine

Progress = Callable[[str, int, int], None]  # (phase, done, total)


def default_db_path() -> Path | str:
    """--db, else $PAPERSCOPE_DB (a file or a postgresql:// URL), else the per-user data
    directory."""
    env = os.environ.get("PAPERSCOPE_DB")
    if env:
        return env if is_url(env) else Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("paperscope", appauthor=False)) / "library.db"


class Library(AnalysisMethods, UserMethods, ExpertiseMethods, LLMMethods, AskMethods):
    """A paper library: a store plus the components that answer questions about it."""

    def __init__(self, store: Store, *, embedder: Any | None = None):
        self.store = store
        self._embedder = embedder
        self._engine: SearchEngine | None = None
        self._analysis: Analysis | None = None
        self._recommender: Recommender | None = None
        self._expertise: Expertise | None = None
        self._memo: dict[tuple, Any] = {}

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, location: str | Path | None = None, *, readonly: bool = False, create: bool = True,
             embedder: Any | None = None) -> "Library":
        """Open the library at `location` (a SQLite file or a postgresql:// URL; None: the
        default one), creating it when missing if `create` and not `readonly`. A location that
        is not a library, or none where one must exist, raises `InputError` naming it."""
        location = default_db_path() if location is None else location
        return cls(open_store(location, readonly=readonly, create=create), embedder=embedder)

    @property
    def path(self) -> Path | str:
        """Where the library lives (a file, or a PostgreSQL URL without its password)."""
        return self.store.path

    def close(self) -> None:
        self.store.close()

    def data_version(self) -> int:
        """A number that moves whenever any connection commits a change to the library."""
        return self.store.data_version()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def engine(self) -> "SearchEngine":
        if self._engine is None:
            from .search.engine import SearchEngine

            self._engine = SearchEngine(self.store, self._embedder)
        return self._engine

    @property
    def analysis(self) -> "Analysis":
        if self._analysis is None:
            from .analysis.service import Analysis

            self._analysis = Analysis(self.store, self.engine.vectors)
        return self._analysis

    @property
    def recommender(self) -> "Recommender":
        if self._recommender is None:
            from .recommend import Recommender

            self._recommender = Recommender(self.store, self.engine.vectors)
        return self._recommender

    @property
    def expertise(self) -> "Expertise":
        if self._expertise is None:
            from .expertise.service import Expertise

            self._expertise = Expertise(self.store, self.engine)
        return self._expertise

    def invalidate(self) -> None:
        """Forget per-process derived state after a write (forwarded to every component)."""
        self._memo.clear()
        for part in (self._engine, self._analysis, self._recommender, self._expertise):
            if part is not None:
                part.invalidate()

    # ------------------------------------------------------------------ ingest
    def ingest(self, paths: Iterable[str | Path], *, fmt: str | None = None,
               venue: str | None = None, year: int | None = None, strict: bool = False,
               embed: bool = True, analyse: bool = True, progress: Progress | None = None) -> IngestReport:
        """Read list files (or folders of them) into the library. Idempotent; one transaction
        per batch; derived data (facts, index, embeddings, each collection's topics and map)
        computed for new or changed papers."""
        from .ingest import Ingester

        report = Ingester(self.store, fmt=fmt, venue=venue, year=year, strict=strict,
                          progress=progress).run(paths)
        self.invalidate()
        try:
            report.derived = self.refresh_derived(embed=embed, analyse=analyse, progress=progress)
        except BaseException as exc:  # Ctrl-C, a full disk: every batch read is in; say so
            exc.ingest_report = report
            raise
        return report

    def fetch(self, venue: str, year: int, *, source: str | None = None, base_url: str | None = None,
              save: str | Path | None = None, all_submissions: bool = False, venue_id: str | None = None,
              token: str | None = None, embed: bool = True, progress: Progress | None = None,
              say: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Fetch a venue's accepted papers from its source (`paperscope.fetch`: sources in order,
        pages saved, merged through ingest) and compute their derived data; the report dict
        has the fetch counts, `seconds` (fetch and merge) and `seconds_derived`."""
        import time

        from .fetch import Fetcher

        report = Fetcher(self.store, progress=progress, say=say).run(
            venue, year, source=source, base_url=base_url, save=save, all_submissions=all_submissions,
            venue_id=venue_id, token=token)
        self.invalidate()
        started = time.monotonic()
        report["derived"] = self.refresh_derived(embed=embed, progress=progress)
        report["seconds_derived"] = round(time.monotonic() - started, 3)
        return report

    def refresh_derived(self, *, embed: bool = True, analyse: bool = True,
                        progress: Progress | None = None) -> dict[str, int]:
        """Recompute facts whose text changed, index new papers, embed new texts; then (with
        embeddings) store each collection's topics and map, so their first view only reads."""
        from .enrich.refresh import refresh_facts

        out = {"facts": refresh_facts(self.store, progress=progress)}
        out.update(self.engine.refresh(embed=embed, progress=progress))
        self.invalidate()
        if embed and analyse:
            out["analysed"] = self.analysis.precompute(progress)
            self.invalidate()
        return out

    def resolve(self, collection: str | None = None, *, dry_run: bool = False, arxiv: bool = True,
                base_url: str | None = None, arxiv_url: str | None = None, embed: bool = True,
                progress: Progress | None = None, say: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Real titles for the title-less papers (of one collection): the venue's accepted papers
        fetched from its source and merged, then arXiv searched for the rest (`resolve.py`).
        `dry_run` says what would change and changes nothing. Returns the report."""
        from .resolve import Resolver

        report = Resolver(self.store, base_url=base_url, arxiv_url=arxiv_url, arxiv=arxiv, progress=progress,
                          say=say).run(collection, dry_run=dry_run)
        if not dry_run:
            self.invalidate()
            report["derived"] = self.refresh_derived(embed=embed, progress=progress)
        return report

    @staticmethod
    def build(paths: Iterable[str | Path], out: str | Path, **options: Any) -> dict[str, Any]:
        """Inputs -> Parquet shards (facts, embeddings, memberships, keys, manifest) in folder
        `out`, on this process or a Ray cluster (`engine=`, `address=`, `workers=`); touches
        no library. See `paperscope.bulk.run.build` for the options."""
        from .bulk import build

        return build(paths, out, **options)

    def load(self, folder: str | Path, *, say: Callable[[str], None] | None = None,
             progress: Progress | None = None) -> dict[str, Any]:
        """Bulk-load a build folder (only shards not loaded yet), then build the search indexes."""
        from .bulk import load_shards

        out = load_shards(self.store, folder, say=say)
        self.invalidate()
        out["derived"] = self.refresh_derived(progress=progress)
        return out

    def copy(self, source: "Library", progress: Progress | None = None) -> dict[str, Any]:
        """Copy every paper, collection, embedding and user mark of `source` (any backend) into
        this library, keeping ids; then rebuild the indexes here."""
        from .store.copy import copy_library

        counts = copy_library(source.store, self.store, progress=progress)
        self.invalidate()
        counts["derived"] = self.refresh_derived(progress=progress)
        return counts

    def remove(self, *, collection: str) -> dict[str, int]:
        """Remove a collection: its memberships, and the papers in no other collection (their
        tags and notes are kept)."""
        name = self.known_collection(collection)["name"]
        with self.store.transaction():
            members, papers = self.store.remove_collection(name)
        self.invalidate()
        return {"memberships": members, "papers_removed": papers}

    @staticmethod
    def db_start(folder: str | Path | None = None, database: str = "paperscope") -> str:
        """Start a local PostgreSQL + pgvector server (if not running); returns its library URL."""
        from .store import server

        return server.start(folder, database)

    @staticmethod
    def db_stop(folder: str | Path | None = None) -> bool:
        """Stop the local server; False when none was running there."""
        from .store import server

        return server.stop(folder)

    # ------------------------------------------------------------------ filters
    def filter(self, *, collection: str | None = None, venue: str | None = None,
               year: str | int | None = None, status: str | None = None, has_code: bool | None = None,
               paper_type: str | None = None, exclude_type: str | None = None,
               topic: int | None = None, ids: Iterable[str] | None = None) -> Filter:
        """One `Filter` from loose arguments. A topic is a coarse topic of the collection (or of
        the venue/year) named beside it. Unknown collection: NotFound."""
        topic_scope = None
        found = self.known_collection(collection) if collection is not None else None
        if topic is not None:
            topic_scope = (self.analysis.scope_key(found["venue"], found["year"]) if found
                           else self.analysis.scope_key(venue, year))
        return Filter.of(collection=collection, venue=venue, year=year, status=status, has_code=has_code,
                         paper_type=paper_type, exclude_type=exclude_type, topic=topic,
                         topic_scope=topic_scope, ids=ids)

    def known_collection(self, name: str) -> dict[str, Any]:
        """A collection by name, case-insensitively; NotFound when the library has none."""
        found = self.find_collection(name)
        if found is None:
            raise NotFound(f"no collection named {name!r} (see `paperscope stats`)")
        return found

    def find_collection(self, name: str | None) -> dict[str, Any] | None:
        """A collection by name, case-insensitively (None if unknown)."""
        if not name:
            return None
        return next((c for c in self.collections() if c["name"].casefold() == name.casefold()), None)

    # ------------------------------------------------------------------ read
    def papers(self, *, venue: str | None = None, year: str | int | None = None,
               collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        f = Filter.of(collection=collection, venue=venue, year=year, ids=ids)
        return self._with_marks([p.to_dict() for p in self.store.papers(f, limit=limit, offset=offset)])

    def show(self, paper_id: str) -> dict[str, Any] | None:
        """One paper by id or by a unique id prefix of at least 4 characters (None if unknown;
        InputError if the prefix is ambiguous)."""
        from .userdata import resolve_id

        try:
            pid = resolve_id(self.store, paper_id)
        except InputError as exc:
            if "ambiguous" in str(exc) or "too short" in str(exc):
                raise
            return None
        found = self.store.papers_by_id([pid]).get(pid)
        return self._with_marks([found.to_dict()])[0] if found else None

    def paper_objects(self, ids: list[str]) -> list[Paper]:
        found = self.store.papers_by_id(ids)
        return [found[i] for i in ids if i in found]

    def collections(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self._cached(("collections",), self.store.collection_stats)]

    def stats(self) -> dict[str, Any]:
        return {"papers": self.store.count_papers(), "collections": self.collections(),
                "path": str(self.path)}

    def papers_page(self, *, limit: int = 50, offset: int = 0, sort: str = "list", **filters: Any) -> dict[str, Any]:
        """One page of papers plus the total: `{"total": n, "papers": [...]}`. Filters are
        `filter()`'s arguments; sort: list | topic | type | title | recent. The ordered id
        list is cached per filter set until the library changes, so paging costs one page."""
        f = self.filter(**filters)

        def compute() -> list[str]:
            if sort != "topic":
                return self.store.ordered_ids(f, sort)
            found = self.store.ordered_ids(f, "list")
            rank = {pid: i for i, pid in enumerate(self.topic_index(filters.get("collection")))}
            return sorted(found, key=lambda pid: rank.get(pid, len(rank)))

        ids = self._cached(("papers_page", sort, f.key()), compute)
        page = ids[offset:offset + limit]
        by_id = {p["id"]: p for p in self.papers(ids=page)}
        return {"total": len(ids), "papers": [by_id[i] for i in page if i in by_id]}

    def facets(self, collection: str | None = None) -> dict[str, dict[str, int]]:
        """Counts by paper type and status (filter menus), cached until the library changes."""
        return self._cached(("facets", collection), lambda: self.store.facet_counts(Filter(collection=collection)))

    def topic_index(self, collection: str | None) -> dict[str, dict[str, Any]]:
        """Paper id -> its coarse topic {id, label} within a collection (or the whole library),
        in topic order; cached until the library changes."""
        return self._cached(("topic_index", collection),
                            lambda: self.analysis.topic_index(self.find_collection(collection)))

    def paper_topics(self, paper: dict[str, Any]) -> list[dict[str, Any]]:
        """The coarse topic of a paper in each of its collections whose topics were already
        computed: [{collection, id, label}]. Never fits."""
        return self.analysis.paper_topics(paper)

    def _cached(self, key: tuple, compute: Callable[[], Any], keep: int = 64) -> Any:
        """Per-process memo of derived read results, dropped by `invalidate()`."""
        if key not in self._memo:
            if len(self._memo) >= keep:
                self._memo.pop(next(iter(self._memo)))
            self._memo[key] = compute()
        return self._memo[key]

    def _with_marks(self, papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Paper JSON plus the user's marks (one query for the lot) and, for a paper without a
        real title, the title its user's model wrote (`generated`: title, tldr, model, ...)."""
        marks = self.store.user_fields([p["id"] for p in papers])
        generated = self.store.generated_labels([p["id"] for p in papers if not p.get("title")])
        return [{**p, **marks[p["id"]], **({"generated": generated[p["id"]]} if p["id"] in generated else {})}
                for p in papers]

    def _hits(self, hits: list[Hit]) -> list[Any]:
        marked = self._with_marks([h.paper for h in hits])
        for h, paper in zip(hits, marked):
            h.paper = paper
        return hits

    # ------------------------------------------------------------------ search
    def search(self, query: str, *, limit: int = 20, mode: str = "hybrid", explain: bool = False,
               **filters: Any) -> list["SearchHit"]:
        """Ranked hits for a query (words, "phrases", prefix*, -exclusions, venue: year: ...);
        `filters` are `filter()`'s arguments (venue, year, status, has_code, paper_type, topic,
        collection)."""
        scope = self.filter(**filters)
        return self._hits(self.engine.search(query, scope=scope, mode=mode, limit=limit, explain=explain))

    def related(self, paper_id: str | None = None, *, text: str | None = None, limit: int = 10,
                **filters: Any) -> list["RelatedHit"]:
        """Papers nearest to a paper (id or unique prefix; never itself nor its duplicates) or
        to a text of your own: exactly one of the two."""
        paper_id = self._one_of(paper_id, text)
        return self._hits(self.engine.related(paper_id, text=text, scope=self.filter(**filters), limit=limit))

    def _one_of(self, paper_id: str | None, text: str | None) -> str | None:
        """Exactly one of a paper (id or unique prefix, returned resolved) or a text."""
        if (paper_id is None or not str(paper_id).strip()) == (text is None or not text.strip()):
            raise UsageError("give exactly one of a paper id or a text")
        if paper_id is None:
            return None
        from .userdata import resolve_id

        return resolve_id(self.store, paper_id)
