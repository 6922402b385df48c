"""Shared fixtures: where the example lists and the shared corpora are, and fresh libraries."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

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


@pytest.fixture()
def lib(tmp_path):
    """An empty library in a temporary file."""
    from paperscope.library import Library

    library = Library.open(tmp_path / "lib.db")
    yield library
    library.close()


@pytest.fixture(scope="session")
def samples_lib(tmp_path_factory):
    """A library holding the five sample lists, embeddings included (read-only use, please)."""
    from paperscope.library import Library

    library = Library.open(tmp_path_factory.mktemp("samples") / "lib.db")
    library.ingest([EXAMPLES])
    yield library
    library.close()
