"""A shared library in PostgreSQL (14+ with the `vector` extension): the same methods as the
SQLite store, in PostgreSQL's dialect. One connection per store handle (autocommit; writes go
through `transaction()`), migrations from `migrations/postgres/*.sql` applied under an
advisory lock so several processes may open a new database at once. Every statement is
parameterised. Needs the `postgres` extra: `pip install 'paperscope[postgres]'`."""
from __future__ import annotations

import re
from contextlib import contextmanager
from importlib import resources
from typing import Any, Iterable, Iterator

import numpy as np

from ..model import InputError, Paper
from .filter_sql import POSTGRES
from .postgres_browse import BrowseQueries
from .postgres_bulk import BulkData
from .postgres_index import IndexData
from .postgres_user import AnalysisData, UserData
from .rows import COPY_COLUMNS, ORDER_BY, PAPER_COLUMNS, membership_dict, paper_from_row
from .shared import SharedQueries
from .shared_generated import GeneratedQueries

MIGRATION_LOCK = 0x70617065  # advisory lock key while migrating ("pape")


def redact(url: str) -> str:
    """The URL without its password (for messages and `stats`)."""
    return re.sub(r"(://[^:/@]*):[^@]+@", r"\1:***@", url)


def _migrations() -> list[tuple[str, str]]:
    folder = resources.files("paperscope.store") / "migrations" / "postgres"
    return sorted((p.name, p.read_text("utf-8")) for p in folder.iterdir() if p.name.endswith(".sql"))


class PostgresStore(BrowseQueries, IndexData, UserData, AnalysisData, BulkData, GeneratedQueries, SharedQueries):
    backend = "postgres"
    dialect = POSTGRES

    def __init__(self, url: str, *, readonly: bool = False, create: bool = True):
        try:
            import psycopg
            from pgvector.psycopg import register_vector
        except ImportError as exc:  # the extra is not installed
            raise InputError("a PostgreSQL library needs the postgres extra: "
                             "pip install 'paperscope[postgres]'") from exc
        self.url = url
        self.path = redact(url)  # what the facade shows as the library's location
        self.readonly = readonly
        try:
            self.conn = psycopg.connect(url, autocommit=True)
        except (psycopg.Error, ValueError) as exc:  # unreachable server, or a malformed URL
            reason = redact(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
            raise InputError(f"cannot connect to {redact(url)}: {reason}") from None
        if (readonly or not create) and not self._has_schema():
            self.conn.close()
            raise InputError(f"no paperscope library in {redact(url)}: run `paperscope ingest` first")
        if not readonly:
            self.migrate()
        register_vector(self.conn)
        if readonly:
            self.conn.execute("SET default_transaction_read_only = on")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """One transaction; any exception (KeyboardInterrupt included) rolls it back. The
        library's data version moves with the commit, so other handles see the change."""
        with self.conn.transaction():
            yield self.conn
            self.conn.execute("UPDATE library_state SET value = value + 1 WHERE key = 'data_version'")

    def _has_schema(self) -> bool:
        return self.conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()[0]

    def migrate(self) -> list[str]:
        applied = []
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            self.conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, "
                              "applied_at TEXT NOT NULL DEFAULT to_char(now(), 'YYYY-MM-DD\"T\"HH24:MI:SS'))")
            done = {r[0] for r in self.conn.execute("SELECT name FROM schema_migrations")}
            for name, sql in _migrations():
                if name in done:
                    continue
                self.conn.execute(sql)
                self.conn.execute("INSERT INTO schema_migrations(name) VALUES (%s)", (name,))
                applied.append(name)
        return applied

    def schema_version(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM schema_migrations ORDER BY name")]

    def data_version(self) -> int:
        return int(self.conn.execute("SELECT value FROM library_state WHERE key = 'data_version'").fetchone()[0])

    def _many(self, text: str, rows: list) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(self._sql(text), rows)

    # ------------------------------------------------------------------ identity
    def add_keys(self, paper_id: str, keys: Iterable[str]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany("INSERT INTO paper_keys(key, paper_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                            [(k, paper_id) for k in keys])

    # ------------------------------------------------------------------ papers
    def _update_row(self, paper_id: str, values: dict[str, Any]) -> None:
        if not values:
            return
        sets = ", ".join(f"{k} = %s" for k in values)
        self.conn.execute(f"UPDATE papers SET {sets}, updated_at = iso_now() WHERE id = %s",
                          [*values.values(), paper_id])

    def collection_id(self, venue: str, year: int | None) -> int:
        name = f"{venue} {year}" if year else venue
        # concurrent writers may create the same collection: the second one waits, then reads it
        self.conn.execute("INSERT INTO collections(name, venue, year) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                          (name, venue, year))
        return int(self.conn.execute("SELECT id FROM collections WHERE lower(name) = lower(%s)", (name,)).fetchone()[0])

    def source_id(self, path: str, sha256: str, fmt: str) -> int:
        row = self.conn.execute("SELECT id, sha256 FROM sources WHERE path = %s", (path,)).fetchone()
        if row:
            if row[1] != sha256:
                self.conn.execute("UPDATE sources SET sha256 = %s, format = %s, ingested_at = iso_now() WHERE id = %s",
                                  (sha256, fmt, row[0]))
            return row[0]
        self.conn.execute("INSERT INTO sources(path, sha256, format) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                          (path, sha256, fmt))
        return int(self.conn.execute("SELECT id FROM sources WHERE path = %s", (path,)).fetchone()[0])

    def add_membership(self, paper_id: str, collection_id: int, source_id: int, position: int,
                       status: str | None) -> bool:
        cur = self.conn.execute(
            "INSERT INTO memberships(paper_id, collection_id, source_id, position, status) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING", (paper_id, collection_id, source_id, position, status))
        return cur.rowcount > 0

    def memberships(self, paper_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {pid: [] for pid in paper_ids}
        rows = self.conn.execute(
            "SELECT m.paper_id, c.name, c.venue, c.year, s.path, m.position, m.status "
            "FROM memberships m JOIN collections c ON c.id = m.collection_id "
            "JOIN sources s ON s.id = m.source_id WHERE m.paper_id = ANY(%s) ORDER BY c.id, s.id", (list(paper_ids),))
        for r in rows:
            out[r[0]].append(membership_dict(*r[1:]))
        return out

    def papers_by_id(self, ids: list[str]) -> dict[str, Paper]:
        names = PAPER_COLUMNS.split(", ")
        rows = [dict(zip(names, r)) for r in self.conn.execute(
            f"SELECT {PAPER_COLUMNS} FROM papers WHERE id = ANY(%s)", (list(dict.fromkeys(ids)),))]
        members = self.memberships([r["id"] for r in rows])
        return {r["id"]: paper_from_row(r, members.get(r["id"], [])) for r in rows}

    def remove_collection(self, name: str) -> tuple[int, int]:
        row = self.conn.execute("SELECT id FROM collections WHERE lower(name) = lower(%s)", (name,)).fetchone()
        if not row:
            return (-1, 0)
        cid = row[0]
        n_members = self.conn.execute("SELECT COUNT(*) FROM memberships WHERE collection_id = %s", (cid,)).fetchone()[0]
        self.conn.execute("DELETE FROM memberships WHERE collection_id = %s", (cid,))
        self.conn.execute("DELETE FROM collections WHERE id = %s", (cid,))
        cur = self.conn.execute("DELETE FROM papers p WHERE NOT EXISTS (SELECT 1 FROM memberships m "
                                "WHERE m.paper_id = p.id)")
        self.conn.execute("DELETE FROM sources s WHERE NOT EXISTS (SELECT 1 FROM memberships m "
                          "WHERE m.source_id = s.id)")
        return n_members, cur.rowcount

    # ------------------------------------------------------------------ copying a library
    def dump_table(self, name: str) -> Iterator[tuple]:
        cols = ", ".join(COPY_COLUMNS[name])
        with self.conn.transaction(), self.conn.cursor(name=f"dump_{name}") as cur:
            cur.itersize = 2000
            cur.execute(f"SELECT {cols} FROM {name} ORDER BY {ORDER_BY.get(name, '1')}")
            yield from cur

    def load_table(self, name: str, rows: Iterable[tuple]) -> None:
        cols = COPY_COLUMNS[name]
        with self.conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({', '.join('%s' for _ in cols)}) "
                            "ON CONFLICT DO NOTHING", list(rows))

    def load_memberships(self, rows: Iterable[tuple]) -> None:
        cids = dict(self.conn.execute("SELECT name, id FROM collections").fetchall())
        sids = dict(self.conn.execute("SELECT path, id FROM sources").fetchall())
        with self.conn.cursor() as cur:
            cur.executemany("INSERT INTO memberships(paper_id, collection_id, source_id, position, status) "
                            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                            [(p, cids[c], sids[s], pos, st) for p, c, s, pos, st in rows])

    def dump_embeddings(self) -> Iterator[tuple[str, str, int, bytes]]:
        with self.conn.transaction(), self.conn.cursor(name="dump_embeddings") as cur:
            cur.itersize = 2000
            cur.execute("SELECT model, text_hash, dim, embedding FROM embeddings ORDER BY added_at, text_hash")
            for model, text_hash, dim, vec in cur:
                yield model, text_hash, dim, np.asarray(vec, dtype=np.float32).astype("<f2").tobytes()
