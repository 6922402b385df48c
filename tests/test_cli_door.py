"""Values checked once, at the door (the Library facade and the ingester every entry point goes
through): empty ids and paths, years out of range. A clear message and exit 1, never an
IndexError, a silent no-op or a library that later refuses every ingest."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from paperscope.cli import app
from paperscope.library import Library
from paperscope.model import InputError


@pytest.fixture(scope="module")
def db(tmp_path_factory, samples_dir):
    path = str(tmp_path_factory.mktemp("door") / "lib.db")
    first = sorted(samples_dir.iterdir())[0]
    assert CliRunner().invoke(app, ["--db", path, "ingest", "--no-embed", str(first)]).exit_code == 0
    return path


def run(db, *args):
    return CliRunner().invoke(app, ["--db", db, *args])


@pytest.mark.parametrize("args", [["star", ""], ["note", "", "text"], ["read", ""], ["tag", "", "x"],
                                  ["tag", " , ", "x"], ["untag", "", "x"], ["irrelevant", ""]])
def test_an_empty_paper_id_is_refused(db, args):
    result = run(db, *args)
    assert result.exit_code == 1, result.output
    assert "empty paper id" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_empty_id_tags_nothing(db):
    run(db, "tag", "", "x")
    assert json.loads(run(db, "tags", "--json").output) == []


def test_ingest_of_an_empty_path_is_refused_not_the_current_folder(db, tmp_path, monkeypatch, samples_dir):
    monkeypatch.chdir(samples_dir)  # a folder full of lists: "" must not mean "here"
    result = run(str(tmp_path / "x.db"), "ingest", "--no-embed", "")
    assert result.exit_code == 2 and "an empty path names nothing" in result.output
    assert not (tmp_path / "x.db").exists() or json.loads(
        run(str(tmp_path / "x.db"), "stats", "--json").output)["papers"] == 0


@pytest.mark.parametrize("year", ["99999", "-1", "1", "1949", "2100"])
def test_ingest_year_out_of_range_is_refused(tmp_path, samples_dir, year):
    first = sorted(samples_dir.iterdir())[0]
    db = str(tmp_path / "y.db")
    result = run(db, "ingest", "--no-embed", "--venue", "ICML", "--year", year, str(first))
    assert result.exit_code == 1, result.output
    assert "is not a year between 1950 and 2099" in result.output
    # the library still takes a later ingest (a stored 99999 used to break every one after it)
    assert run(db, "ingest", "--no-embed", str(first)).exit_code == 0


def test_library_ingest_checks_the_year_too(tmp_path, samples_dir):
    with Library.open(tmp_path / "z.db") as lib:
        with pytest.raises(InputError, match="not a year"):
            lib.ingest([sorted(samples_dir.iterdir())[0]], year=99999, embed=False, analyse=False)
        with pytest.raises(InputError, match="empty path"):
            lib.ingest([""], embed=False, analyse=False)
        assert lib.stats()["papers"] == 0


def _cli(db, *args: bytes | str):
    """The CLI in a real process, argv as raw bytes (what a shell passes)."""
    import os
    import subprocess
    import sys

    argv = [sys.executable.encode(), b"-m", b"paperscope", b"--db", str(db).encode()]
    argv += [a if isinstance(a, bytes) else a.encode() for a in args]
    return subprocess.run(argv, capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


@pytest.mark.parametrize("args", [[b"list", b"--venue", b"IC\xffML"], [b"note", b"ID", b"caf\xe9"],
                                  [b"related", b"--text", b"\xc3\x28 draft"],
                                  [b"reviewers", b"--text", b"\xed\xa0\x80 surrogate"],
                                  [b"serve", b"--host", b"127.0.0.\xff"], [b"tag", b"ID", b"t\xfe"],
                                  [b"search", b"diffusion \xff"]])
def test_bytes_that_are_not_utf8_in_argv_are_refused_clearly(db, args):
    if b"ID" in args:
        pid = json.loads(run(db, "papers", "--json", "--limit", "1").output)[0]["id"]
        args = [pid.encode() if a == b"ID" else a for a in args]
    proc = _cli(db, *args)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err
    assert "is not valid UTF-8 text" in err and "Traceback" not in err


def test_a_file_name_that_is_not_utf8_is_read(tmp_path, samples_dir):
    import os

    folder = tmp_path / "lists"
    folder.mkdir()
    first = sorted(samples_dir.iterdir())[0]
    with open(os.path.join(os.fsencode(folder), b"caf\xe9 list.txt"), "wb") as out:
        out.write(first.read_bytes())
    proc = _cli(tmp_path / "n.db", "ingest", "--no-embed", str(folder))
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert json.loads(_cli(tmp_path / "n.db", "stats", "--json").stdout)["papers"] == 19



def test_serve_on_a_host_name_no_resolver_takes_is_a_message(db):
    proc = _cli(db, "serve", "--host", "\u00e9" * 70, "--port", "0")  # IDNA refuses a label over 63
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1 and "not a host name or address" in err and "Traceback" not in err, err
