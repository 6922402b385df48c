"""Storage: the only package that speaks SQL. `open_store(location)` gives the backend for a
library location: a SQLite file (the embedded default) or a `postgresql://` URL (a shared
server; the `postgres` extra). Both backends offer the same methods (papers and collections,
filtered id lists, index data, user data, analysis runs), take a `paperscope.filters.Filter`
for "which papers" and return plain values. `Store` (`protocol.py`) is the contract both
backends keep and the rest of paperscope types against."""
from __future__ import annotations

from pathlib import Path

from ..model import InputError
from .protocol import Store
from .rows import ANY_TAG
from .sqlite import SQLiteStore

__all__ = ["ANY_TAG", "SQLiteStore", "Store", "is_url", "open_store"]


def is_url(location: object) -> bool:
    """True for a PostgreSQL URL (postgresql://... or postgres://...)."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def open_store(location: str | Path, *, readonly: bool = False, create: bool = True) -> Store:
    """The library at `location`. Unless `create`, only an existing one: a missing file or an
    empty database is refused (read commands never leave an empty library behind). A location
    that is not a library (a folder, another kind of file, a damaged one, a malformed URL) is
    refused with an `InputError` naming it."""
    if not str(location).strip():
        raise InputError("the library location is empty: name a SQLite file or a postgresql:// URL")
    if is_url(location):
        from .postgres import PostgresStore

        return PostgresStore(str(location), readonly=readonly, create=create)
    return SQLiteStore(Path(location).expanduser(), readonly=readonly, create=create)
