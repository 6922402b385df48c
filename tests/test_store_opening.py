"""Library locations that are not what they seem: each is refused with a message naming it and
exit code 1 (never a traceback), nothing is created where there was no library unless the
command makes one (ingest, load, copy's destination), and a library this user may only read
still answers reading commands."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from paperscope.library import Library
from paperscope.model import InputError

READ_COMMANDS = [["stats"], ["list"], ["search", "diffusion"], ["show", "abc123"], ["tags"], ["mine"],
                 ["topics"], ["related", "--text", "diffusion models"]]


def run(*args: str, db: str | Path | None = None, env_db: str | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PAPERSCOPE_DB"}
    if env_db is not None:
        env["PAPERSCOPE_DB"] = env_db
    cmd = [sys.executable, "-m", "paperscope"] + ([] if db is None else ["--db", str(db)]) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def refused(proc: subprocess.CompletedProcess, *words: str) -> str:
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 1, said
    assert "Traceback" not in said and "sqlite3." not in said and "psycopg." not in said, said
    for w in words:
        assert w in said, said
    return said


@pytest.fixture(scope="module")
def library(tmp_path_factory, samples_dir) -> Path:
    path = tmp_path_factory.mktemp("opening") / "lib.db"
    with Library.open(path) as lib:
        lib.ingest([samples_dir], embed=False)
    return path


def test_an_empty_db_option_is_refused_not_the_default_library(tmp_path):
    default = tmp_path / "default" / "lib.db"
    said = refused(run("stats", db="", env_db=str(default)), "empty")
    assert not default.parent.exists(), said
    refused(run("ingest", str(tmp_path), db="  ", env_db=str(default)), "empty")
    assert not default.parent.exists()


@pytest.mark.parametrize("command", READ_COMMANDS, ids=lambda c: c[0])
def test_read_commands_create_no_library_where_there_is_none(tmp_path, command):
    where = tmp_path / "no" / "such" / "lib.db"
    refused(run(*command, db=where), "no library at", str(where))
    assert not (tmp_path / "no").exists()


def test_serve_makes_no_library_where_there_is_none(tmp_path):
    """A server started on a mistyped path would serve an empty library: it is refused at
    once with the way to make one (a server that started would hang here: a failure)."""
    where = tmp_path / "no" / "such" / "lib.db"
    refused(run("serve", "--port", "0", db=where, timeout=120), f"no library at {where}", "paperscope ingest")
    assert not (tmp_path / "no").exists()
    default = tmp_path / "default.db"  # $PAPERSCOPE_DB, as `make demo` sets it
    refused(run("serve", "--port", "0", env_db=str(default), timeout=120), f"no library at {default}")
    assert not default.exists()
    default.touch()  # an empty file is no library either
    refused(run("serve", "--port", "0", env_db=str(default), timeout=120), f"no library at {default}")
    assert default.stat().st_size == 0


def test_a_folder_is_refused(tmp_path):
    refused(run("stats", db=tmp_path), "is a folder", str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    for command in (["stats"], ["tag", "abc", "x"], ["ingest", str(tmp_path)]):
        refused(run(*command, db=text), str(text), "not a paperscope library")
    assert text.read_text() == "root:x:0:0:root:/root:/bin/bash\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_copy_from_a_file_that_is_not_a_library_creates_no_destination(tmp_path):
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    refused(run("copy", str(text), str(tmp_path / "X")), str(text))
    assert not (tmp_path / "X").exists()


def test_a_truncated_library_is_refused(tmp_path, library):
    cut = tmp_path / "cut.db"
    cut.write_bytes(library.read_bytes()[: library.stat().st_size // 3])
    refused(run("stats", db=cut), str(cut), "truncated")
    refused(run("search", "diffusion", db=cut), "truncated")


def test_another_programs_sqlite_database_is_refused_and_not_changed(tmp_path):
    other = tmp_path / "places.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    conn.commit()
    conn.close()
    for command in (["stats"], ["ingest", str(tmp_path)]):
        refused(run(*command, db=other), str(other), "another program")
    tables = [r[0] for r in sqlite3.connect(other).execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert tables == ["moz_places"]


@pytest.mark.parametrize("url", ["postgresql://reader:s3cret@[::1", "postgresql://reader:s3cret@localhost/db?bogus=1",
                                 "postgres://%zz@localhost/db", "postgresql://reader:s3cret@localhost:port/db"])
def test_a_malformed_postgresql_url_is_refused_without_showing_the_password(url):
    said = refused(run("stats", db=url), "cannot connect to")
    assert "s3cret" not in said


def test_a_library_locked_by_another_writer_is_said_after_the_wait(library, monkeypatch):
    from paperscope.store import opening

    monkeypatch.setattr(opening, "BUSY_SECONDS", 1)  # the wait, shortened from 30 s
    other = sqlite3.connect(library, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the library
    try:
        with Library.open(library, create=False) as lib:
            assert lib.stats()["papers"] == 95  # reading is not blocked
            pid = lib.papers(limit=1)[0]["id"]
            with pytest.raises(InputError, match="locked by another writer") as info:
                lib.tag(pid, ["held"])
            assert str(library) in str(info.value)
    finally:
        other.execute("ROLLBACK")
        other.close()


def _in_small_mount(script: str) -> subprocess.CompletedProcess:
    """Run a shell script as root of a user and mount namespace (a private tmpfs at $MNT)."""
    if not shutil.which("unshare"):
        pytest.fail("these tests need util-linux's unshare (a read-only mount and a full disk)")
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"this kernel refuses user namespaces, so no private mount: {probe.stderr.strip()}")
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=600,
                          env={**{k: v for k, v in os.environ.items() if k != "PAPERSCOPE_DB"},
                               "PS": f"{sys.executable} -m paperscope"})


def test_a_library_on_read_only_media_answers_reads_and_refuses_writes(tmp_path, library):
    mnt = tmp_path / "ro"
    mnt.mkdir()
    proc = _in_small_mount(
        f"mount -t tmpfs -o size=8m tmpfs {mnt} && cp {library} {mnt}/lib.db && mount -o remount,ro {mnt} && "
        f"$PS --db {mnt}/lib.db stats --json && echo STATS-OK && "
        f"$PS --db {mnt}/lib.db search diffusion -n 1 && echo SEARCH-OK; "
        f"$PS --db {mnt}/lib.db tag abc x; echo TAG=$?; $PS --db {mnt}/lib.db ingest {tmp_path}; echo INGEST=$?")
    out = " ".join((proc.stdout + proc.stderr).split())
    assert "STATS-OK" in out and "SEARCH-OK" in out and '"papers": 95' in out, out
    assert "TAG=1" in out and "INGEST=1" in out and "read-only" in out and "Traceback" not in out, out


def test_a_full_disk_is_said_even_by_stats(tmp_path, library):
    mnt = tmp_path / "full"
    mnt.mkdir()
    proc = _in_small_mount(
        f"mount -t tmpfs -o size={library.stat().st_size + 65536} tmpfs {mnt} && cp {library} {mnt}/lib.db && "
        f"(dd if=/dev/zero of={mnt}/fill bs=4k 2>/dev/null; true) && $PS --db {mnt}/lib.db stats; echo STATS=$?")
    out = " ".join((proc.stdout + proc.stderr).split())
    assert "STATS=1" in out and "disk full" in out and "Traceback" not in out, out
