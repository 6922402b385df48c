"""Fuzzing every reader through the ingest path (fast profile; the long one is
benchmarks/fuzz_readers.py): whatever the bytes, an ingest ends promptly in records or in
messages naming the file, and the library stays whole."""
from __future__ import annotations

import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_support import READERS, ingest_one, library_consistent, mutated, place, seeds
from paperscope.store import SQLiteStore

WATCHDOG_S = 10
EXAMPLES = 300  # per reader


class Hang(BaseException):
    """Raised by the watchdog; a BaseException so that no reader boundary swallows it."""


@pytest.fixture(scope="module")
def corpus_seeds():
    from conftest import CORPORA

    return seeds(CORPORA if CORPORA.is_dir() else None)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _alarm(signum, frame):
    raise Hang()


@pytest.mark.parametrize("reader", READERS)
def test_any_bytes_end_in_records_or_named_problems(reader, corpus_seeds, workdir):
    store = SQLiteStore(workdir / f"{reader}.db")
    counter = iter(range(10**9))
    outcomes: dict[str, int] = {}

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(data=mutated(corpus_seeds[reader], huge=60_000), forced=st.booleans())
    def run(data, forced):
        path = place(workdir / reader, reader, data, next(counter))
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(WATCHDOG_S)
        try:
            outcome = ingest_one(store, path, reader if forced else None)
        except Hang:
            pytest.fail(f"{reader}: ingest of {len(data)} bytes ran over {WATCHDOG_S} s: {data[:200]!r}")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        assert outcome.kind != "crash", f"{reader} (forced={forced}): {outcome.detail}\ninput: {data[:300]!r}"
        outcomes[outcome.kind] = outcomes.get(outcome.kind, 0) + 1

    try:
        run()
        assert library_consistent(store) is None
        # the harness reaches both ends: some inputs still go in, some are refused
        assert outcomes.get("accepted") and outcomes.get("clean"), outcomes
    finally:
        store.close()
