"""The readers' front door: `detect`, `read`, `expand` and `FORMATS` (contract in __init__).

Detection sniffs the first 64 KiB of content; the file extension only breaks ties (`.csv` with
no abstract column is still a table, so the user hears about the missing column).
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..model import InputError, Problem, Record
from .base import ReadContext, describe_error
from .bibtex import ENTRY_START, read_bibtex
from .fields import ALIASES, norm_key
from .json_records import read_json, read_jsonl
from .paper_list import read_list
from .pmlr import read_pmlr
from .table import read_table, sniff_delimiter
from .textio import TextSource, Unreadable, path_text, shown_path, special_file

Reader = Callable[[object, ReadContext], Iterator["Record | Problem"]]

READERS: dict[str, Reader] = {
    "list": read_list,
    "json": read_json,
    "jsonl": read_jsonl,
    "pmlr": read_pmlr,
    "csv": lambda path, ctx: read_table(path, ctx),
    "tsv": lambda path, ctx: read_table(path, ctx, delimiter="\t"),
    "bibtex": read_bibtex,
}
FORMATS: tuple[str, ...] = tuple(READERS)
HEAD = 1 << 16
MAX_PROBLEMS = 1000  # a file with more, and ten times more problems than records, is not read on
_FRONT_MATTER_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:", re.M)
_NUMBERED = re.compile(r"\[\s*(?:[\w.-]+\s*)?\]\s*[^\s,\]]")  # "[1] We study ...": a list, not JSON


# ---------------------------------------------------------------------------- detect

def detect(path: str | os.PathLike) -> str:
    """The format of a file, by content. Raises InputError naming the file when it is
    unreadable (missing, empty, binary) or matches no format, and never anything else: a
    hostile head must not stop a command that reads other files too."""
    try:
        return _detect(Path(path))
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - the detection boundary
        raise InputError(f"{path}: the format cannot be detected ({describe_error(exc)}): "
                         f"pass --format") from None


def _detect(p: Path) -> str:
    if p.is_dir():
        raise InputError(f"{p}: is a directory (pass the files in it, or use expand())")
    if p.exists() and not p.is_file():
        raise InputError(f"{p}: not a regular file (a pipe?); its format cannot be sniffed "
                         f"without consuming it: pass --format")
    try:
        with TextSource(p) as text:
            head = text.read(HEAD)
    except Unreadable as exc:
        raise InputError(str(exc.problem)) from None
    fmt = sniff(head, p.suffix.lower())
    if fmt is None:
        raise InputError(f"{p}: not a paper list in any known format "
                         f"({', '.join(FORMATS)}): pass --format if it is one")
    return fmt


def sniff(head: str, suffix: str = "") -> str | None:
    """Format name for the first characters of a file (None: nothing matches)."""
    text = head.lstrip()
    if not text:
        return None
    if text.startswith("---") and _FRONT_MATTER_KEY.search(text[3:]):
        return "pmlr"
    if text[0] == "[" and not _NUMBERED.match(text):
        return "json"
    if text[0] == "{":
        return "jsonl" if suffix in (".jsonl", ".ndjson") else _json_or_jsonl(text)
    if _is_bibtex(text, suffix):
        return "bibtex"
    if text[0] == "<":
        return None  # HTML or XML
    table = _table_kind(text, suffix)
    if table:
        return table
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    if any(ch.isalpha() for ch in text[:4096]):
        return "list"
    return None


def _json_or_jsonl(text: str) -> str:
    decoder = json.JSONDecoder()
    try:
        _, end = decoder.raw_decode(text)
    except (ValueError, RecursionError):  # invalid, cut by the 64 KiB head, or too deep
        first = text.split("\n", 1)[0]
        try:  # the first line alone is a whole object: JSON Lines
            json.loads(first)
            return "jsonl"
        except (ValueError, RecursionError):
            return "json"
    return "jsonl" if text[end:].lstrip().startswith("{") else "json"


def _is_bibtex(text: str, suffix: str) -> bool:
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("%"):
            continue
        if ENTRY_START.match(line):
            return True
        break
    return suffix == ".bib" and any(ENTRY_START.match(line) for line in text.splitlines())


def _table_kind(text: str, suffix: str) -> str | None:
    """csv/tsv when the first line is a header row naming an abstract column."""
    header = text.split("\n", 1)[0]
    delimiter = "\t" if suffix == ".tsv" else sniff_delimiter(header)
    cells = [c.strip().strip("\"'") for c in header.split(delimiter)]
    if len(cells) < 2 or any(len(c) > 40 for c in cells):
        return None
    if not {norm_key(c) for c in cells} & set(ALIASES["abstract"]):
        return None
    return "tsv" if delimiter == "\t" else "csv"


# ---------------------------------------------------------------------------- read

def read(path: str | os.PathLike, fmt: str | None = None, venue: str | None = None,
         year: int | str | None = None) -> "Reading":
    """Records and Problems of one file, streamed. A file that cannot be read at all gives
    one fatal Problem and nothing else."""
    if fmt is not None and fmt not in READERS:
        raise InputError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if year not in (None, ""):
        try:
            year = int(year)
        except (TypeError, ValueError):
            raise InputError(f"year must be a number, not {year!r}") from None
    return Reading(path, fmt, venue, year)


class Reading:
    """The Records and Problems of one file (an iterator), and `bytes_read`: how far into the
    file reading has got, for a progress bar whose total is the file's size."""

    def __init__(self, path, fmt, venue, year):
        self.ctx = ReadContext.create(path, venue, year)
        self._items = _read(self.ctx, path, fmt)

    def __iter__(self) -> "Reading":
        return self

    def __next__(self) -> Record | Problem:
        return next(self._items)

    @property
    def bytes_read(self) -> int:
        return self.ctx.bytes_read


def _read(ctx: ReadContext, path, fmt) -> Iterator[Record | Problem]:
    if fmt is None:
        try:
            fmt = detect(path)
        except InputError as exc:
            yield Problem(ctx.source, 0, str(exc), fatal=True)
            return
    items = READERS[fmt](path, ctx)
    bad = 0
    try:  # the reader boundary: whatever a reader raises ends this file with a Problem
        for item in items:
            yield item
            if isinstance(item, Problem) and not item.warning:
                bad += 1
                if bad >= MAX_PROBLEMS and bad > 10 * ctx.records:  # garbage, not a list with flaws
                    items.close()
                    yield Problem(ctx.source, item.line, f"too many problems: stopped reading after {bad:,} "
                                  f"problems and {ctx.records:,} records (is this file a {fmt} file?)")
                    return
    except Unreadable as exc:
        yield exc.problem if ctx.yielded == 0 else Problem(
            ctx.source, exc.problem.line, exc.problem.reason)
    except OSError as exc:
        reason = f"unreadable: {exc.strerror or exc}"
        yield Problem(ctx.source, ctx.at, reason, fatal=ctx.yielded == 0)
    except Exception as exc:  # noqa: BLE001 - report it with the file and the place, go on
        after = f" after {ctx.where}" if ctx.where else ""
        kept = "; the records before it are kept" if ctx.records else ""
        reason = f"unreadable: reading stopped{after} ({describe_error(exc)}){kept}"
        yield Problem(ctx.source, ctx.at, reason, fatal=ctx.yielded == 0)


# ---------------------------------------------------------------------------- expand

def expand(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files to read for the given paths: a file (or a pipe) stands for itself; a PMLR volume
    folder (one holding `_posts/`) for its `_posts/*.md`; any other folder for every file
    inside, recursively, in name order, skipping hidden files and folders and `_config.yml`.
    InputError for what cannot be a list: a missing path, a device, /proc or /sys, a folder
    that cannot be read (naming it; nothing is read then)."""
    out: list[Path] = []
    seen: set[str] = set()
    for given in paths:
        p = Path(given)
        try:
            st = os.stat(p)
        except FileNotFoundError:
            raise InputError(f"{shown_path(p)}: no such file or directory") from None
        except (OSError, ValueError) as exc:
            raise InputError(f"{shown_path(p)}: {getattr(exc, 'strerror', None) or exc}") from None
        if stat.S_ISDIR(st.st_mode):
            if st.st_dev in virtual_devices():
                raise InputError(f"{shown_path(p)} is a virtual file system (kernel and process information), "
                                 "not a folder of paper lists")
            files = _folder_files(p)
        elif special_file(p):
            raise InputError(f"{shown_path(p)} is {special_file(p)}, not a list file")
        else:
            files = [p]
        for f in files:
            key = os.path.realpath(f)
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def virtual_devices() -> set[int]:
    out = set()
    for mount in ("/proc", "/sys"):
        try:
            out.add(os.stat(mount).st_dev)
        except OSError:
            pass
    return out


def _folder_files(root: Path) -> list[Path]:
    """The files under `root` in name order, depth first, without recursion (a folder nested
    thousands deep is walked like any other)."""
    files: list[Path] = []
    visited: set[tuple[int, int]] = set()
    stack = [iter([root])]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if child is not root and (child.name.startswith(".") or child.name == "_config.yml"):
            continue
        try:
            if child.is_dir():
                st = child.stat()  # (device, inode), not realpath: that costs the depth per folder
                if (st.st_dev, st.st_ino) in visited:
                    continue  # a symlink loop
                visited.add((st.st_dev, st.st_ino))
                if child.name == "_posts":
                    files.extend(sorted(f for f in _listed(child) if f.suffix == ".md" and f.is_file()
                                        and not f.name.startswith(".")))
                elif (child / "_posts").is_dir():
                    stack.append(iter([child / "_posts"]))
                else:
                    stack.append(iter(sorted(_listed(child), key=lambda c: c.name)))
            elif child.is_file():
                files.append(child)
        except OSError as exc:
            raise InputError(f"cannot read {shown_path(child)}: {exc.strerror or exc}") from None
    return files


def _listed(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError as exc:
        raise InputError(f"cannot read folder {shown_path(folder)}: {exc.strerror or exc}") from None
