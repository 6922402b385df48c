"""Special files and odd paths end in a clear message naming the path, never a hang or a
traceback: devices, pipes, /proc, unreadable or very deep folders, names over 255 bytes, output
paths that are folders or kernel files, and gzip data that expands without end."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzz_cli_support import remove_deep
from paperscope import sources
from paperscope.cli import app
from paperscope.sources import textio

LONG = "x" * 300  # one path component over the 255 bytes a file system allows


def cli(db, *args, timeout=300):
    proc = subprocess.run([sys.executable, "-m", "paperscope", "--db", str(db), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(scope="module")
def first_list(samples_dir) -> Path:
    return sorted(samples_dir.iterdir())[0]


@pytest.mark.parametrize("args, said", [
    (["ingest", "--no-embed", "--format", "list", "/dev/zero"], "/dev/zero is a character device, not a list file"),
    (["related", "--file", "/dev/zero"], "/dev/zero is a character device, not a file"),
    (["ingest", "--no-embed", "/proc"], "/proc is a virtual file system"),
    (["export", "-f", "bibtex", "-o", "/"], "/ is a folder: name a file to write"),
    (["export", "-f", "bibtex", "-o", "/proc/self/mem"], "/proc/self/mem is on a virtual file system"),
    (["map", "--out", "/dev/null.png"], None),
    (["import-library", "/dev/zero"], "/dev/zero is a character device, not a library file"),
    (["match", "--profile", "/dev/zero"], "/dev/zero is a character device, not a file of papers"),
    (["load", "/dev/zero"], "/dev/zero is a character device, not a build folder"),
])
def test_special_files_are_refused_at_once(tmp_path, first_list, args, said):
    db = tmp_path / "lib.db"
    if args[0] in ("import-library", "match"):  # they read a library that must exist
        assert cli(db, "ingest", "--no-embed", first_list).returncode == 0
    proc = cli(db, *args, timeout=120)  # a hang is a failure, not a wait
    if said is None:
        assert proc.returncode in (0, 1)
        return
    assert proc.returncode == 1 and said in proc.stderr, proc.stderr
    assert args[0] != "load" or not db.exists()  # no library made for a folder that is none


def test_a_pipe_or_a_folder_is_not_a_library_file(tmp_path, first_list):
    db = tmp_path / "lib.db"
    assert cli(db, "ingest", "--no-embed", first_list).returncode == 0
    fifo = tmp_path / "refs.bib"
    os.mkfifo(fifo)  # nobody writes to it: reading it would wait for ever
    proc = cli(db, "import-library", fifo, timeout=120)
    assert proc.returncode == 1 and f"{fifo} is a named pipe, not a library file" in proc.stderr, proc.stderr
    proc = cli(db, "import-library", tmp_path)
    assert proc.returncode == 1 and f"{tmp_path} is a folder, not a library file" in proc.stderr, proc.stderr


def test_an_empty_output_path_is_a_usage_error(tmp_path):
    proc = cli(tmp_path / "lib.db", "export", "-f", "bibtex", "-o", "")
    assert proc.returncode == 2 and "an empty path names nothing" in proc.stderr


@pytest.mark.parametrize("args", [["ingest", "--no-embed", f"{LONG}.txt"], ["load", LONG],
                                  ["import-library", f"{LONG}.bib"], ["match", "--profile", f"{LONG}.bib"],
                                  ["map", "--out", f"{LONG}/map.png"], ["export", "-f", "bibtex", "-o", f"{LONG}.bib"]])
def test_a_name_over_255_bytes_is_a_message(tmp_path, first_list, args):
    db = tmp_path / "lib.db"
    assert cli(db, "ingest", "--no-embed", first_list).returncode == 0
    proc = cli(db, *args)
    assert proc.returncode == 1, proc.stderr
    assert "File name too long" in proc.stderr and proc.stderr.count("x" * 100) == 1, proc.stderr


@pytest.mark.parametrize("name", ["x" * 245 + ".db", "x" * 252 + ".db", "é" * 130 + ".db", LONG + ".db"])
def test_a_new_library_name_the_file_system_cannot_hold_is_a_message(tmp_path, first_list, name):
    """248-255 bytes fit one file but not SQLite's "-journal" beside it: refused before any
    folder or empty file is made, as a longer name is."""
    db = tmp_path / "lib.db"
    assert cli(db, "ingest", "--no-embed", first_list).returncode == 0
    dest = tmp_path / "new" / name
    for proc in (cli(db, "copy", db, dest), cli(dest, "ingest", "--no-embed", first_list)):
        assert proc.returncode == 1, proc.stderr
        assert "File name too long" in proc.stderr and "permission" not in proc.stderr, proc.stderr
    assert not (tmp_path / "new").exists()


def test_a_folder_nested_1100_deep_is_ingested(tmp_path, first_list):
    deep = tmp_path / "deep"
    deep.mkdir()
    here = os.getcwd()
    try:
        os.chdir(deep)
        for _ in range(1100):
            os.mkdir("a")
            os.chdir("a")
        Path("list.txt").write_bytes(first_list.read_bytes())
    finally:
        os.chdir(here)
    try:
        proc = cli(tmp_path / "lib.db", "ingest", "--no-embed", "--json", deep)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["added"] == 19
    finally:
        remove_deep(deep)


def test_a_list_from_a_pipe_is_read_once(tmp_path, first_list):
    fifo = tmp_path / "list.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(first_list.read_bytes()), daemon=True)
    writer.start()
    proc = cli(tmp_path / "lib.db", "ingest", "--no-embed", "--json", "--format", "list", fifo, timeout=120)
    writer.join(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["added"] == 19


def test_an_unreadable_sub_folder_is_named(tmp_path, first_list, monkeypatch):
    folder = tmp_path / "lists"
    (folder / "locked").mkdir(parents=True)
    (folder / "a.txt").write_bytes(first_list.read_bytes())
    real = Path.iterdir

    def iterdir(self):  # what a folder without read permission answers (root reads any folder)
        if self.name == "locked":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "lib.db"), "ingest", "--no-embed", str(folder)])
    assert result.exit_code == 1
    assert "cannot read folder" in result.output and "locked: Permission denied" in result.output


def test_a_decompression_bomb_stops_early_keeping_what_was_read(tmp_path, first_list):
    """A small gzip file expanding 1000-fold is cut past GZIP_SLACK + 100 x its compressed
    size, with a message; the records before that point are kept."""
    bomb = tmp_path / "bomb.txt.gz"
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip container
    with open(bomb, "wb") as out:
        out.write(packer.compress(first_list.read_bytes()))
        block = b"\n" * (1 << 20)
        for _ in range(200):  # 200 MiB of blank lines
            out.write(packer.compress(block))
        out.write(packer.flush())
    assert bomb.stat().st_size < 1 << 20
    items = list(sources.read(bomb))
    records = [i for i in items if not isinstance(i, sources.base.Problem)]
    assert len(records) == 19
    assert "refused as a decompression bomb" in items[-1].reason


def test_no_file_gives_more_than_the_cap(tmp_path, first_list, monkeypatch):
    monkeypatch.setattr(textio, "MAX_FILE_BYTES", 1 << 20)
    big = tmp_path / "big.txt"
    big.write_bytes(first_list.read_bytes() + b"\n" * (2 << 20))
    items = list(sources.read(big))
    assert sum(1 for i in items if not isinstance(i, sources.base.Problem)) == 19
    assert "unreadable: longer than 1,048,576 bytes" in items[-1].reason


def test_a_real_gzip_list_reads_whole(tmp_path, first_list):
    gz = tmp_path / "list.txt.gz"
    gz.write_bytes(gzip.compress(first_list.read_bytes()))
    assert sum(1 for i in sources.read(gz) if not isinstance(i, sources.base.Problem)) == 19
