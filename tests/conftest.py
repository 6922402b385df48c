"""Shared fixtures: where the example lists and the shared corpora are, and fresh libraries."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from backends import BACKENDS, location, stop_server

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "lists"
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", REPO.parent / "shared" / "corpora"))
SAMPLES = REPO.parent / "shared" / "samples"


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The five sample lists (bundled in the repo under examples/lists)."""
    return EXAMPLES


@pytest.fixture(scope="session")
def shared_corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA}")
    return CORPORA


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request) -> str:
    """Each storage backend in turn: a SQLite file, a PostgreSQL database."""
    return request.param


@pytest.fixture()
def lib(tmp_path, backend):
    """An empty library (a temporary file, or a fresh PostgreSQL database)."""
    from paperscope.library import Library

    library = Library.open(location(backend, tmp_path))
    yield library
    library.close()


def pytest_sessionfinish(session, exitstatus) -> None:
    stop_server()


@pytest.fixture(scope="session")
def samples_lib(tmp_path_factory):
    """A library holding the five sample lists, embeddings included (read-only use, please)."""
    from paperscope.library import Library

    library = Library.open(tmp_path_factory.mktemp("samples") / "lib.db")
    library.ingest([EXAMPLES])
    yield library
    library.close()
