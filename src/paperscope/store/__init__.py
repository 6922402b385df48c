"""Storage: the only package that speaks SQL. `open_store(location)` gives the backend for a
library location: a SQLite file (the embedded default). Every backend offers the same methods
(papers and collections, filtered id lists, index data, user data, analysis runs), takes a
`paperscope.filters.Filter` for "which papers" and returns plain values."""
from __future__ import annotations

from pathlib import Path

from .sqlite import SQLiteStore, Store
from .sqlite_user import ANY_TAG

__all__ = ["ANY_TAG", "SQLiteStore", "Store", "open_store"]


def open_store(location: str | Path, *, readonly: bool = False) -> SQLiteStore:
    return SQLiteStore(Path(location).expanduser(), readonly=readonly)
