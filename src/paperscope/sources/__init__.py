"""Readers: one module per input format. Each streams `Record`s and `Problem`s from a file and
never touches the store.

Contract (used by `Library.ingest`):

    detect(path) -> str                       # format name, by content sniffing
    read(path, fmt=None, venue=None, year=None) -> Iterator[Record | Problem]
    FORMATS: tuple[str, ...]                   # accepted --format values
    expand(paths) -> list[Path]                # directories -> the files inside that readers take

`read` yields a `Problem(fatal=True)` (and nothing else) when the whole file is unreadable,
`Problem(warning=True)` for what was kept with a note (an encoding fallback, a cut field) and
`LeftOut` (a warning) for a record that is not a paper on purpose (a workshop, a preface).
`read` and `detect` never raise for a file's content: every reader runs behind one boundary
(`registry._read`) that turns any failure into a Problem naming the file and the record, and
each record is built behind `ReadContext.emit`, so one bad record costs only itself.

Formats: list (paper-list text: `paper_list.py`), json / jsonl (`json_records.py`, generic,
OpenReview, arXiv, virtual-site exports), pmlr (`pmlr.py`), csv / tsv (`table.py`), bibtex
(`bibtex.py`). Shared: `textio.py` (bounded-memory decoding, encoding policy), `base.py`
(venue/year rules, minimum abstract length), `fields.py` (field aliases), `venues.py`.
`Record.line` / `Problem.line` is the physical line where the record starts, except in a JSON
list, where it is the record number; 0 when a Problem concerns the whole file.
"""
from __future__ import annotations

from .base import LeftOut
from .registry import FORMATS, detect, expand, read

__all__ = ["FORMATS", "LeftOut", "detect", "expand", "read"]
