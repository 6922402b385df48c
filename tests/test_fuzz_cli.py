"""Fuzzing the command line (fast profile, in process; the long one runs real processes:
benchmarks/fuzz_cli.py): whatever the argument, file name or special file, a command ends
promptly in output or in a message with exit 1/2, never a traceback or a hang."""
from __future__ import annotations

import json
import os
import signal
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from fuzz_cli_support import (EXAMPLE, argv_cases, feed_pipe, file_names, materialise, name_cases, remove_deep,
                              special_cases, special_paths)
from paperscope.cli import app

WATCHDOG_S = 120
SLOW = (b"build", b"serve")  # the long profile runs them (a build embeds; serve needs a process)


class Hang(BaseException):
    """Raised by the watchdog; a BaseException so that no handler swallows it."""


def _alarm(signum, frame):
    raise Hang()


@pytest.fixture(scope="module")
def fuzz_lib(tmp_path_factory):
    work = tmp_path_factory.mktemp("fuzzcli")
    db = str(work / "lib.db")
    assert CliRunner().invoke(app, ["--db", db, "ingest", "--no-embed", str(EXAMPLE)]).exit_code == 0
    paper = json.loads(CliRunner().invoke(app, ["--db", db, "list", "--json", "--limit", "1"]).output)[0]["id"]
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    yield work, db, paper, busy.getsockname()[1]
    busy.close()


def invoke(fuzz_lib, argv: list[bytes], n: int):
    work, db, paper, port = fuzz_lib
    args = materialise(argv, paper, work / f"case{n}", port)
    writers = [w for w in (feed_pipe(a) for a in args) if w]
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(WATCHDOG_S)
    try:
        result = CliRunner().invoke(app, ["--db", db, *(os.fsdecode(a) for a in args)])
    except Hang:
        pytest.fail(f"{args!r} ran over {WATCHDOG_S} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        for w in writers:
            w.join(timeout=5)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{args!r}: {type(result.exception).__name__}: {result.exception}"
    assert result.exit_code in (0, 1, 2), f"{args!r}: exit {result.exit_code}\n{result.output}"
    assert result.exit_code == 0 or result.output.strip(), f"{args!r}: exit {result.exit_code} without a message"
    return result


def test_fuzzed_arguments_end_in_output_or_a_message(fuzz_lib):
    counter = iter(range(10**9))

    @settings(max_examples=80, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(argv=argv_cases().filter(lambda a: a[0] not in SLOW))
    def run(argv):
        invoke(fuzz_lib, argv, next(counter))

    run()


def test_fuzzed_file_names_are_read_or_named(fuzz_lib):
    counter = iter(range(10**9))

    @settings(max_examples=10, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(name=file_names())
    def run(name):
        n = next(counter)
        for argv in name_cases(fuzz_lib[0] / f"names{n}", name):
            invoke(fuzz_lib, argv, n)

    run()


def test_special_files_end_in_a_message(fuzz_lib):
    work = fuzz_lib[0] / "special"
    try:
        for n, (label, argv) in enumerate(special_cases(special_paths(work))):
            if argv[0] in (b"load", b"copy"):
                continue  # the long profile runs them
            result = invoke(fuzz_lib, argv, 10_000 + n)
            assert "Traceback" not in result.output, label
    finally:
        remove_deep(work / "deep")
