"""Shared fixtures: where the example lists and the shared corpora are, and fresh libraries."""
from __future__ import annotations

import os
import re
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


# A test skipped because something it needs is not installed is a failure: `make test` installs
# every dependency, so such a skip means a shipped feature went untested. Skips for data that
# is not there (the shared corpora) stay skips.
MISSING_DEPENDENCY = re.compile(r"could not import|no module named|is not installed|not installed:|no chromium",
                                re.IGNORECASE)


def _missing_dependency(report) -> str | None:
    if not report.skipped:
        return None
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason if MISSING_DEPENDENCY.search(reason) else None


def _as_failure(report, reason: str) -> None:
    report.outcome = "failed"
    report.longrepr = f"skipped for a missing dependency (install it: make install): {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    reason = _missing_dependency(report)
    if reason:
        _as_failure(report, reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    reason = _missing_dependency(report)
    if reason:
        _as_failure(report, reason)


@pytest.fixture(scope="session")
def samples_lib(tmp_path_factory):
    """A library holding the five sample lists, embeddings included (read-only use, please)."""
    from paperscope.library import Library

    library = Library.open(tmp_path_factory.mktemp("samples") / "lib.db")
    library.ingest([EXAMPLES])
    yield library
    library.close()
