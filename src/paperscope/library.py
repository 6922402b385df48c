"""The `Library` facade: every operation the CLI, the web app and the tests use.

It composes the components, each built from the store and its collaborators, never from the
facade: `SearchEngine(store, embedder)` (lexical + vector indexes, related papers),
`Analysis(store, vectors)` (topics, map, compare) and `Recommender(store, vectors)`. The store
is the only place with SQL. The facade turns loose arguments into one `Filter`, adds the user's
marks to paper JSON, and forwards `invalidate()` after writes.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .filters import Filter
from .model import Hit, InputError, Paper
from .store import is_url, open_store
from .store.protocol import Store

if TYPE_CHECKING:  # imported on first use: a one-shot command loads only what it needs
    from .analysis.service import Analysis
    from .ingest import IngestReport
    from .expertise.profile import Profile
    from .expertise.results import AuthorSuggestion, MatchHit
    from .expertise.service import Expertise
    from .model import Recommendation, RelatedHit, SearchHit
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


class Library:
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
    def build(inputs: Iterable[str | Path], out: str | Path, **options: Any) -> dict[str, Any]:
        """Inputs -> Parquet shards (facts, embeddings, memberships, keys, manifest) in folder
        `out`, on this process or a Ray cluster (`engine=`, `address=`, `workers=`); touches
        no library. See `paperscope.build.run.build` for the options."""
        from .build import build

        return build(inputs, out, **options)

    def load(self, folder: str | Path, *, say: Callable[[str], None] | None = None,
             progress: Progress | None = None) -> dict[str, Any]:
        """Bulk-load a build folder (only shards not loaded yet), then build the search indexes."""
        from .build import load_shards

        out = load_shards(self.store, folder, say=say)
        self.invalidate()
        out["derived"] = self.refresh_derived(progress=progress)
        return out

    def copy_from(self, source: "Library", progress: Progress | None = None) -> dict[str, Any]:
        """Copy every paper, collection, embedding and user mark of `source` (any backend) into
        this library, keeping ids; then rebuild the indexes here."""
        from .store.copy import copy_library

        counts = copy_library(source.store, self.store, progress=progress)
        self.invalidate()
        counts["derived"] = self.refresh_derived(progress=progress)
        return counts

    def remove_collection(self, name: str) -> dict[str, int]:
        with self.store.transaction():
            members, papers = self.store.remove_collection(name)
        if members < 0:
            raise InputError(f"no collection named {name!r} (see `paperscope stats`)")
        self.invalidate()
        return {"memberships": members, "papers_removed": papers}

    # ------------------------------------------------------------------ filters
    def filter(self, *, collection: str | None = None, venue: str | None = None,
               year: str | int | None = None, status: str | None = None, has_code: bool | None = None,
               paper_type: str | None = None, exclude_type: str | None = None,
               topic: int | None = None, ids: Iterable[str] | None = None) -> Filter:
        """One `Filter` from loose arguments. A topic is a coarse topic of the collection (or of
        the venue/year) named beside it. Unknown collection: InputError."""
        topic_scope = None
        if collection is not None and self.find_collection(collection) is None:
            raise InputError(f"no collection named {collection!r} (see `paperscope stats`)")
        if topic is not None:
            found = self.find_collection(collection) if collection else None
            topic_scope = (self.analysis.scope_key(found["venue"], found["year"]) if found
                           else self.analysis.scope_key(venue, year))
        return Filter.of(collection=collection, venue=venue, year=year, status=status, has_code=has_code,
                         paper_type=paper_type, exclude_type=exclude_type, topic=topic,
                         topic_scope=topic_scope, ids=ids)

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

    def paper(self, paper_id: str) -> dict[str, Any] | None:
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

    def browse(self, *, limit: int = 50, offset: int = 0, sort: str = "list", **filters: Any) -> dict[str, Any]:
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

        ids = self._cached(("browse", sort, f.key()), compute)
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
        """Paper JSON plus the user's marks (one query for the lot)."""
        marks = self.store.user_fields([p["id"] for p in papers])
        return [{**p, **marks[p["id"]]} for p in papers]

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
        to a text of your own."""
        if paper_id is not None:
            from .userdata import resolve_id

            paper_id = resolve_id(self.store, paper_id)
        return self._hits(self.engine.related(paper_id, text=text, scope=self.filter(**filters), limit=limit))

    # ---- analysis
    def topics(self, *, venue: str | None = None, year: int | None = None, level: str | int = "coarse",
               ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Topics (id, label, size, share, terms, representative, papers) of a venue/year scope
        (stored in the library) or of an explicit set of papers."""
        return self.analysis.topics(venue=venue, year=year, level=level, ids=ids)

    @staticmethod
    def topic_warnings(topics: list[dict[str, Any]]) -> list[str]:
        """What to tell the user about `topics` (the result of `topics()`): empty unless they
        rest on too few papers (under 100 in all, or under 10 a topic on average)."""
        from .analysis.topics import small_sample_warnings

        return small_sample_warnings(topics)

    def map_points(self, *, venue: str | None = None, year: int | None = None) -> list[dict[str, Any]]:
        """2-D map: (id, x, y, topic, topic_label, label) per paper (stored in the library)."""
        return self.analysis.map_points(venue=venue, year=year)

    def compare(self, a: str, b: str) -> dict[str, Any]:
        """Two venues side by side: topic shares, distinctive terms, paper types."""
        return self.analysis.compare(a, b)

    def trends(self, query: str, *, venue: str | None = None) -> dict[str, Any]:
        """Share of papers containing every query term, per year (collection) of a venue."""
        from .analysis.trends import query_trend

        def search(text: str, *, collection: str, limit: int) -> list[Any]:
            return self.engine.search(text, scope=Filter.of(collection=collection), mode="lexical",
                                      limit=limit, explain=True)

        return query_trend(self.collections(), search, query, venue)

    def topic_growth(self, earlier: str, later: str) -> dict[str, Any]:
        """Topics of two collections (e.g. two years of a venue) ordered by how much they grew."""
        from .analysis.trends import topic_growth

        return topic_growth(self.compare, earlier, later)

    # ---- personal library
    def _user_write(self, fn, *args, **kwargs):
        with self.store.transaction():
            out = fn(self.store, *args, **kwargs)
        self._memo.clear()
        return out

    def _ids(self, refs: str | list[str]) -> list[str]:
        from .userdata import resolve_ids

        return resolve_ids(self.store, [refs] if isinstance(refs, str) else refs)

    def tag(self, paper_ids: str | list[str], tags: str | list[str]) -> dict[str, Any]:
        """Tag papers (ids or unique id prefixes); returns {papers, tags, added}."""
        from .userdata import add_tags

        ids, tags = self._ids(paper_ids), [tags] if isinstance(tags, str) else list(tags)
        return {"papers": ids, "tags": tags, "added": self._user_write(add_tags, ids, tags)}

    def untag(self, paper_ids: str | list[str], tags: str | list[str]) -> dict[str, Any]:
        from .userdata import remove_tags

        ids, tags = self._ids(paper_ids), [tags] if isinstance(tags, str) else list(tags)
        return {"papers": ids, "tags": tags, "removed": self._user_write(remove_tags, ids, tags)}

    def tags(self) -> list[dict[str, Any]]:
        """Every tag with its paper count."""
        return self.store.tag_counts()

    def _mark(self, fn, paper_id: str, *args) -> dict[str, Any]:
        pid = self._ids(paper_id)[0]
        self._user_write(fn, pid, *args)
        return self.paper(pid)

    def note(self, paper_id: str, text: str | None) -> dict[str, Any]:
        """Set (empty text: clear) a paper's note; returns the paper."""
        from .userdata import set_note

        return self._mark(set_note, paper_id, text)

    def star(self, paper_id: str, on: bool = True) -> dict[str, Any]:
        from .userdata import set_starred

        return self._mark(set_starred, paper_id, on)

    def mark_read(self, paper_id: str, on: bool = True) -> dict[str, Any]:
        from .userdata import set_read

        return self._mark(set_read, paper_id, on)

    def mark_irrelevant(self, paper_id: str, on: bool = True, tag: str | None = None) -> dict[str, Any]:
        """"Not relevant" (for `tag`, or for every tag): an explicit negative for recommend."""
        from .userdata import set_irrelevant

        return self._mark(set_irrelevant, paper_id, on, tag)

    def my_papers(self, *, tag: str | None = None, starred: bool = False, read: bool = False,
                  noted: bool = False) -> list[dict[str, Any]]:
        """The user's papers: tagged `tag`, or starred / read / with a note (newest first)."""
        from .userdata import tagged_ids

        ids = tagged_ids(self.store, tag) if tag else self.store.marked_ids(starred=starred, read=read, noted=noted)
        by_id = {p["id"]: p for p in self.papers(ids=ids)}
        return [by_id[i] for i in ids if i in by_id]

    def recommend(self, *, tag: str | None = None, ids: list[str] | None = None, limit: int = 10,
                  explain: bool = True, **filters: Any) -> list["Recommendation"]:
        """Papers ranked for a tag (its papers positive, "not relevant" ones negative) or for an
        ad-hoc set of ids ("more like these"); each with its score and explanation."""
        from .userdata import dismissed_ids, tagged_ids

        if bool(tag) == bool(ids):
            raise InputError("give either a tag or a list of paper ids")
        positives = tagged_ids(self.store, tag) if tag else self._ids(ids)
        if tag and not positives:
            raise InputError(f"no papers tagged {tag!r} (see `paperscope tags`)")
        return self._hits(self.recommender.recommend(
            positives=positives, negatives=dismissed_ids(self.store, tag), scope=self.filter(**filters),
            limit=limit, explain=explain))

    # ---- expertise
    def profile(self, profile: Any) -> "Profile":
        """A profile (a person's papers) from a file of papers (BibTeX, RIS, CSL JSON, JSON/JSONL,
        CSV), a tag, a list of paper ids or a list of texts."""
        from .expertise.profile import resolve

        return resolve(self.store, profile, self.expertise.matcher)

    def match(self, profile: Any, *, venue: str | None = None, year: str | int | None = None,
              limit: int | None = None, explain: bool = True, aggregate: str | None = None,
              recency: float | None = None, **filters: Any) -> list["MatchHit"]:
        """Papers (of a venue / year, or the whole library) ranked by fit to a profile
        (`profile()`'s argument, or a Profile), each with the profile papers and words
        driving it; limit None ranks them all. `aggregate`: facets | centroid | fused;
        `recency`: half-life in years for older profile papers."""
        prof = self.profile(profile)
        scope = self.filter(venue=venue, year=year, **filters)
        return self._hits(self.expertise.match(prof, scope=scope, limit=limit, explain=explain,
                                               aggregate=aggregate, recency=recency))

    def reviewers(self, paper_id: str | None = None, *, text: str | None = None, limit: int = 10,
                  exclude_authors: bool = True, exclude_coauthors: bool = True,
                  conflicts: list[str] | None = None, min_papers: int = 2, aggregate: str | None = None,
                  recency: float | None = None, **filters: Any) -> dict[str, Any]:
        """Authors of the library suggested for a paper (id or unique prefix) or a text, each
        with the papers that make them fit; the paper's authors, their co-authors and named
        `conflicts` are left out unless told otherwise. Returns {query, own_authors,
        conflicts_excluded, reviewers: [AuthorSuggestion]}. `aggregate`: centroid | facets |
        fused over each author's papers; `recency`: half-life in years for older papers."""
        if paper_id is not None:
            from .userdata import resolve_id

            paper_id = resolve_id(self.store, paper_id)
        return self.expertise.reviewers(paper_id, text=text, limit=limit, exclude_authors=exclude_authors,
                                        exclude_coauthors=exclude_coauthors, conflicts=conflicts,
                                        min_papers=min_papers, scope=self.filter(**filters),
                                        aggregate=aggregate, recency=recency)

    def experts(self, text: str, *, limit: int = 10, min_papers: int = 2,
                **filters: Any) -> list["AuthorSuggestion"]:
        """Who here works on a topic: authors ranked by fit to some words, with evidence."""
        return self.expertise.experts(text, limit=limit, min_papers=min_papers, scope=self.filter(**filters))

    def export(self, fmt: str, *, tag: str | None = None, query: str | None = None,
               collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None, skip_untitled: bool = False,
               on_missing: Callable[[str], None] | None = None,
               on_report: Callable[[Any], None] | None = None) -> str:
        """bibtex | ris | csljson | csv | jsonl | markdown text of a tag, a search, a
        collection, some ids or the whole library. Entries whose title is derived or whose
        authors are unknown say so in the entry; `on_missing` hears a one-line summary and
        `on_report` the counts (`export.MissingReport`); `skip_untitled` leaves out papers the
        source gave no title."""
        from .export.select import export

        def search(text: str, n: int) -> list[str]:
            return [h.id for h in self.engine.search(text, limit=n)]

        return export(self.store, search, fmt, tag=tag, query=query, collection=collection, ids=ids,
                      limit=limit, skip_untitled=skip_untitled, on_missing=on_missing,
                      on_report=on_report)

    def import_library(self, path: str | Path, *, tag: str = "mine") -> dict[str, Any]:
        """Tag the papers a user's BibTeX / RIS / CSL JSON / CSV library matches; report the rest."""
        from .export.importer import import_library

        out = import_library(self.store, path, tag=tag)
        self._memo.clear()
        return out
