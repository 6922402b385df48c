"""The embedded library file: SQLite in WAL mode, migrations from `migrations/*.sql`, and the
paper/collection/membership queries; the other areas' queries come from the mixins
(`sqlite_browse`, `sqlite_index`, `sqlite_user`, `sqlite_analysis`). Every statement is
parameterised; this package is the only place in paperscope that speaks SQL."""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator
from urllib.parse import quote

from ..model import InputError, Paper
from . import opening
from .filter_sql import SQLITE
from .rows import COPY_COLUMNS, ORDER_BY, PAPER_COLUMNS, membership_dict, paper_from_row
from .shared import SharedQueries
from .shared_generated import GeneratedQueries
from .sqlite_analysis import AnalysisData
from .sqlite_browse import BrowseQueries
from .sqlite_bulk import BulkData, inserted_id
from .sqlite_index import IndexData
from .sqlite_user import UserData

class DiskFull(InputError):
    """The library file could not grow (SQLITE_FULL): the transaction in flight was rolled
    back, everything committed before it is kept."""


def _is_full(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and (
        getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc))


def _migrations() -> list[tuple[str, str]]:
    folder = resources.files("paperscope.store") / "migrations"
    files = sorted((p.name, p.read_text("utf-8")) for p in folder.iterdir() if p.name.endswith(".sql"))
    return files


class SQLiteStore(BrowseQueries, IndexData, UserData, AnalysisData, BulkData, GeneratedQueries, SharedQueries):
    """One SQLite library file. Writes go through `transaction()`; reads may run anywhere.
    The queries are grouped by area in the mixins (browse, index, user, analysis, bulk); those
    written the same way for PostgreSQL come from `SharedQueries`."""

    dialect = SQLITE

    def __init__(self, path: str | Path, *, readonly: bool = False, create: bool = True):
        """Open the library file at `path`; unless `create`, only one that exists (a missing
        path is refused, nothing is created). A location that is not a library is refused
        with a message naming it (`opening.py`)."""
        self.path = Path(path)
        opening.check_location(self.path, readonly=readonly, create=create)
        if not readonly and opening.read_only_here(self.path):
            if create:  # a command that writes (ingest, load)
                raise opening.read_only_error(self.path)
            readonly = True  # reading commands work; a write is refused in `transaction()`
        self.readonly = readonly
        if not readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        where = quote(str(self.path), safe="/")  # a "?" or "#" in a file name is part of the name
        mode = ("?mode=ro&immutable=1" if opening.immutable(self.path) else "?mode=ro") if readonly else ""
        uri = f"file:{where}{mode}"
        try:
            self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                                        timeout=opening.BUSY_SECONDS)
        except sqlite3.Error as exc:
            raise opening.open_error(self.path, exc) from None
        try:
            self._prepare(create)
        except BaseException as exc:
            self.conn.close()
            if isinstance(exc, sqlite3.Error):
                raise opening.open_error(self.path, exc) from None
            raise

    def _prepare(self, create: bool) -> None:
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute(f"PRAGMA busy_timeout = {int(opening.BUSY_SECONDS * 1000)}")
        opening.check_schema(self.conn, self.path, [name for name, _ in _migrations()],
                             readonly=self.readonly, create=create)
        if not self.readonly:
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self.migrate()

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """BEGIN IMMEDIATE .. COMMIT; any exception (KeyboardInterrupt included) rolls back.
        SQLite rolls back by itself on some errors (a full disk): then there is nothing to roll
        back, and the error the user sees is the original one, as DiskFull when the disk is full."""
        if self.readonly:
            raise opening.read_only_error(self.path)
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:  # another writer held the lock too long, a full disk ...
            raise opening.open_error(self.path, exc) from None
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the original error says more
            if _is_full(exc):
                raise DiskFull(f"disk full: the library {self.path} cannot grow; the last change was "
                               f"rolled back and everything written before it is kept. Free some space "
                               f"and run the command again to finish.") from exc
            raise

    def migrate(self) -> list[str]:
        """Apply every migration file not yet recorded, each in its own transaction."""
        c = self.conn
        c.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, "
                  "applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))")
        done = {r[0] for r in c.execute("SELECT name FROM schema_migrations")}
        applied = []
        for name, sql in _migrations():
            if name in done:
                continue
            with self.transaction():
                for statement in _split_sql(sql):
                    c.execute(statement)
                c.execute("INSERT INTO schema_migrations(name) VALUES (?)", (name,))
            applied.append(name)
        return applied

    def schema_version(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM schema_migrations ORDER BY name")]

    def _many(self, text: str, rows: list) -> None:
        self.conn.executemany(text, rows)

    # ------------------------------------------------------------------ identity
    def add_keys(self, paper_id: str, keys: Iterable[str]) -> None:
        self.conn.executemany("INSERT OR IGNORE INTO paper_keys(key, paper_id) VALUES (?, ?)",
                              [(k, paper_id) for k in keys])

    # ------------------------------------------------------------------ papers
    def _update_row(self, paper_id: str, values: dict[str, Any]) -> None:
        if not values:
            return
        sets = ", ".join(f"{k} = ?" for k in values)
        self.conn.execute(
            f"UPDATE papers SET {sets}, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ?",
            [*values.values(), paper_id],
        )

    def collection_id(self, venue: str, year: int | None) -> int:
        name = f"{venue} {year}" if year else venue
        row = self.conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()
        if row:
            return row[0]
        cur = self.conn.execute("INSERT INTO collections(name, venue, year) VALUES (?, ?, ?)",
                                (name, venue, year))
        return inserted_id(cur)

    def source_id(self, path: str, sha256: str, fmt: str) -> int:
        row = self.conn.execute("SELECT id, sha256 FROM sources WHERE path = ?", (path,)).fetchone()
        if row:
            if row[1] != sha256:
                self.conn.execute("UPDATE sources SET sha256 = ?, format = ?, "
                                  "ingested_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ?",
                                  (sha256, fmt, row[0]))
            return row[0]
        cur = self.conn.execute("INSERT INTO sources(path, sha256, format) VALUES (?, ?, ?)",
                                (path, sha256, fmt))
        return inserted_id(cur)

    def add_membership(self, paper_id: str, collection_id: int, source_id: int, position: int,
                       status: str | None) -> bool:
        """True when the membership is new."""
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO memberships(paper_id, collection_id, source_id, position, status) "
            "VALUES (?, ?, ?, ?, ?)", (paper_id, collection_id, source_id, position, status))
        return cur.rowcount > 0

    def memberships(self, paper_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {pid: [] for pid in paper_ids}
        for chunk in _chunks(paper_ids, 500):
            marks = ",".join("?" for _ in chunk)
            rows = self.conn.execute(
                f"SELECT m.paper_id, c.name, c.venue, c.year, s.path, m.position, m.status "
                f"FROM memberships m JOIN collections c ON c.id = m.collection_id "
                f"JOIN sources s ON s.id = m.source_id WHERE m.paper_id IN ({marks}) "
                f"ORDER BY c.id, s.id", chunk)
            for r in rows:
                out[r[0]].append(membership_dict(*r[1:]))
        return out

    def papers_by_id(self, ids: list[str]) -> dict[str, Paper]:
        """{id: Paper} for the given ids (unknown ids are absent)."""
        rows: list[sqlite3.Row] = []
        for chunk in _chunks(list(dict.fromkeys(ids)), 500):
            marks = ",".join("?" for _ in chunk)
            rows += self.conn.execute(f"SELECT {PAPER_COLUMNS} FROM papers WHERE id IN ({marks})", chunk).fetchall()
        return {p.id: p for p in self._to_papers(rows)}

    def _to_papers(self, rows: list[sqlite3.Row]) -> list[Paper]:
        members = self.memberships([r["id"] for r in rows])
        return [paper_from_row(r, members.get(r["id"], [])) for r in rows]

    def remove_collection(self, name: str) -> tuple[int, int]:
        """Delete a collection; papers left in no collection go too (user data stays, keyed by
        paper id, and reattaches when the paper comes back). Returns (memberships, papers)."""
        row = self.conn.execute("SELECT id FROM collections WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
        if not row:
            return (-1, 0)
        cid = row[0]
        n_members = self.conn.execute("SELECT COUNT(*) FROM memberships WHERE collection_id = ?", (cid,)).fetchone()[0]
        self.conn.execute("DELETE FROM memberships WHERE collection_id = ?", (cid,))
        self.conn.execute("DELETE FROM collections WHERE id = ?", (cid,))
        cur = self.conn.execute("DELETE FROM papers WHERE id NOT IN (SELECT paper_id FROM memberships)")
        self.conn.execute("DELETE FROM sources WHERE id NOT IN (SELECT source_id FROM memberships)")
        return n_members, cur.rowcount


    # ------------------------------------------------------------------ copying a library
    def dump_table(self, name: str) -> Iterator[tuple]:
        """Rows of a copied table (`rows.COPY_COLUMNS`), oldest first."""
        cols = ", ".join(COPY_COLUMNS[name])
        yield from self.conn.execute(f"SELECT {cols} FROM {name} ORDER BY {ORDER_BY.get(name, 'rowid')}")

    def load_table(self, name: str, rows: Iterable[tuple]) -> None:
        """Insert copied rows (existing ones are kept); inside a transaction."""
        cols = COPY_COLUMNS[name]
        self.conn.executemany(f"INSERT OR IGNORE INTO {name} ({', '.join(cols)}) "
                              f"VALUES ({', '.join('?' for _ in cols)})", rows)

    def load_memberships(self, rows: Iterable[tuple]) -> None:
        cids = dict(self.conn.execute("SELECT name, id FROM collections"))
        sids = dict(self.conn.execute("SELECT path, id FROM sources"))
        self.conn.executemany("INSERT OR IGNORE INTO memberships(paper_id, collection_id, source_id, position, status) "
                              "VALUES (?, ?, ?, ?, ?)", [(p, cids[c], sids[s], pos, st) for p, c, s, pos, st in rows])

    def dump_embeddings(self) -> Iterator[tuple[str, str, int, bytes]]:
        """(model, text hash, dim, float16 vector bytes) of every stored embedding."""
        yield from self.conn.execute("SELECT model, text_hash, dim, vector FROM embeddings ORDER BY rowid")


def _chunks(items: list, n: int) -> Iterator[list]:
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _split_sql(script: str) -> list[str]:
    """Split a migration script into statements (sqlite3.complete_statement aware, so trigger
    bodies with inner semicolons stay whole)."""
    statements, buf = [], ""
    for line in script.splitlines(keepends=True):
        if not buf and line.strip().startswith("--"):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                statements.append(buf.strip())
            buf = ""
    if buf.strip():
        statements.append(buf.strip())
    return statements

