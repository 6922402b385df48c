"""The `Library` facade: every operation the CLI, the web app and the tests use.

Business logic lives in the packages (sources, enrich, store, search, analysis, recommend,
export); this class wires them together and owns the database connection.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

from .ingest import IngestReport, Ingester
from .model import InputError, Paper
from .store import Store

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
        report = Ingester(self.store, fmt=fmt, venue=venue, year=year, strict=strict,
                          progress=progress).run(paths)
        self.invalidate()
        report.derived = self.refresh_derived(embed=embed, progress=progress)
        return report

    def refresh_derived(self, *, embed: bool = True, progress: Progress | None = None) -> dict[str, int]:
        """Recompute facts whose text changed and embed papers without a current vector."""
        from .enrich.store import refresh_facts

        out = {"facts": refresh_facts(self.store, progress=progress)}
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
        return [self._decorate(p) for p in self.store.papers(
            venue=venue, year=year, collection=collection, ids=ids, limit=limit, offset=offset)]

    def paper(self, paper_id: str) -> dict[str, Any] | None:
        found = self.store.papers(ids=[paper_id])
        return self._decorate(found[0]) if found else None

    def paper_objects(self, ids: list[str]) -> list[Paper]:
        return self.store.papers(ids=ids)

    def collections(self) -> list[dict[str, Any]]:
        return self.store.collection_stats()

    def stats(self) -> dict[str, Any]:
        return {"papers": self.store.count_papers(), "collections": self.store.collection_stats(),
                "path": str(self.path)}

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
