"""Readers: one module per input format. Each streams `Record`s and `Problem`s from a file and
never touches the store.

Contract (used by `Library.ingest`):

    detect(path) -> str                       # format name, by content sniffing
    read(path, fmt=None, venue=None, year=None) -> Iterator[Record | Problem]
    FORMATS: tuple[str, ...]                   # accepted --format values
    expand(paths) -> list[Path]                # directories -> the files inside that readers take

`read` yields a `Problem(fatal=True)` (and nothing else) when the whole file is unreadable.
"""
from __future__ import annotations

from .registry import FORMATS, detect, expand, read

__all__ = ["FORMATS", "detect", "expand", "read"]
