"""Checks before and while a SQLite library is opened, so that a location that is not what it
seems (a folder, a file of another kind, a truncated copy, another program's database, a file
this user may not write, a library another writer holds, a full disk) is refused with a message
naming it, and nothing is created where there was no library unless asked to."""
from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

from ..model import InputError

HEADER = b"SQLite format 3\x00"
BUSY_SECONDS = 30  # how long a write waits for another writer before giving up
SIDE_SUFFIX = "-journal"  # the longest name SQLite adds to the library's for a file beside it


class LibraryBusy(InputError):
    """Another process held the library's write lock for longer than `BUSY_SECONDS`."""


def no_library(where: object) -> InputError:
    return InputError(f"no library at {where}: run `paperscope ingest` first")


def check_location(path: Path, *, readonly: bool, create: bool) -> None:
    """Refuse a location that cannot be a library before SQLite touches it (SQLite would
    create an empty file at a missing path, and reads a foreign file only at the first query)."""
    if not str(path).strip():
        raise InputError("the library location is empty: name a SQLite file or a postgresql:// URL")
    try:
        is_dir, exists = path.is_dir(), path.exists()
    except OSError as exc:  # a name too long, a folder on the way that cannot be searched
        from ..sources.textio import shown_path

        raise InputError(f"{shown_path(path)}: {exc.strerror or exc}") from None
    if is_dir:
        raise InputError(f"{path} is a folder, not a library file: name a file in it, e.g. {path / 'library.db'}")
    if not exists:
        if readonly or not create:
            raise no_library(path)
        check_name_lengths(path)
        return
    if not path.is_file():
        raise InputError(f"{path} is not a regular file, so it cannot be a library")
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise InputError(f"cannot read the library {path}: {exc.strerror or exc}") from None
    if not head:
        if readonly or not create:
            raise no_library(path)
        return
    if not head.startswith(HEADER):
        raise InputError(f"{path} is not a paperscope library (not a SQLite file)")
    _check_size(path, head)


def check_name_lengths(path: Path) -> None:
    """Refuse, before anything is created for it, a new library path the file system cannot
    hold: a folder name over its limit (255 bytes on most), or a file name without room for
    the "-journal" SQLite writes beside it (SQLite would then say only "unable to open", after
    the folders and an empty file were made)."""
    from ..sources.textio import shown_path

    limit = _name_max(path)
    room = limit - len(SIDE_SUFFIX)
    for part in path.parts[:-1]:
        if len(os.fsencode(part)) > limit:
            raise InputError(f"{shown_path(path)}: File name too long (a folder name of "
                             f"{len(os.fsencode(part))} bytes; at most {limit} here): name a shorter one")
    size = len(os.fsencode(path.name))
    if size > room:
        raise InputError(f"{shown_path(path)}: File name too long (a library file name of {size} bytes; "
                         f"at most {room} here, as SQLite keeps a file named it + {SIDE_SUFFIX!r} "
                         "beside it): name a shorter one")


def _name_max(path: Path) -> int:
    """The longest file name (in bytes) the file system holding `path` takes."""
    try:
        folder = next((p for p in path.absolute().parents if p.is_dir()), Path("/"))
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def _check_size(path: Path, head: bytes) -> None:
    """A file shorter than the size its header records was cut off (a copy that stopped, a
    full disk). The header's size is trusted only when it is current (bytes 92-95 equal the
    change counter) and no write-ahead log still holds pages for the file."""
    if len(head) < 100 or head[92:96] != head[24:28]:
        return
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if pages and path.stat().st_size < page * pages:
        raise InputError(f"{path} is truncated ({path.stat().st_size} bytes of {page * pages}): "
                         "restore it from a copy, or ingest again into a new file")


def read_only_here(path: Path) -> bool:
    """True for an existing library this user may read but not change: the file, or its folder
    (SQLite keeps its write-ahead log beside the file), is not writable."""
    return path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK))


def immutable(path: Path) -> bool:
    """A library on read-only media with no shared-memory file beside it can only be read as
    immutable (nobody can change it there anyway)."""
    return not os.access(path.parent, os.W_OK) and not Path(f"{path}-shm").exists()


def read_only_error(path: Path) -> InputError:
    return InputError(f"the library {path} is read-only for this user (the file or its folder cannot be "
                      "written): this command changes it; reading commands still work")


def check_schema(conn: sqlite3.Connection, path: Path, migrations: list[str], *, readonly: bool,
                 create: bool) -> None:
    """Refuse another program's SQLite database (paperscope would add its tables to it), and,
    when not creating, a SQLite file with no library in it."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_migrations" in tables:
        done = {r[0] for r in conn.execute("SELECT name FROM schema_migrations")}
        if done and not done & set(migrations):
            raise InputError(f"{path} is a SQLite database of another program, not a paperscope library")
        return
    if tables:
        names = ", ".join(sorted(tables)[:5])
        raise InputError(f"{path} is a SQLite database of another program (tables {names}), "
                         "not a paperscope library")
    if readonly or not create:
        raise no_library(path)


def open_error(path: Path, exc: sqlite3.Error) -> InputError:
    """The message for a SQLite error met while opening or writing the library."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == sqlite3.SQLITE_BUSY or "locked" in str(exc):
        return LibraryBusy(f"the library {path} is locked by another writer (waited {BUSY_SECONDS} s): "
                           "run the command again when the other one has finished")
    if code == sqlite3.SQLITE_FULL or _disk_full(path):
        return InputError(f"disk full: the library {path} cannot be opened for use (SQLite needs room "
                          "beside it for its write-ahead log); free some space and run the command again")
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return InputError(f"{path} is damaged or not a paperscope library ({exc}): restore it from a copy")
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_AUTH):
        return InputError(f"cannot open the library {path} for writing ({exc}): check the permissions "
                          "of the file and its folder")
    return InputError(f"cannot use the library {path}: {exc}")


def _disk_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.parent).free < 64 * 1024
    except OSError:
        return False
