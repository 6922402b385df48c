"""Hostile command lines for `paperscope`, and one way to judge what the CLI made of them.

Shared by tests/test_fuzz_cli.py (fast profile, in process) and benchmarks/fuzz_cli.py (long
profile, real processes). Three families:

* argv: every command with one argument replaced by fuzzed text: brackets (Rich markup), bytes
  that are not UTF-8 (they reach Python as lone surrogates, as from a shell), empty and blank
  values, huge, negative and float numbers, control characters, long strings;
* file names: a list file whose name is fuzzed bytes (not UTF-8, brackets, newlines, 255 bytes)
  in a folder, ingested, and read by `related --file` and `import-library`;
* special files: devices, /proc and /sys, a pipe with a writer, folders where files are expected
  and the reverse, dangling and looping links, a folder nested 1,100 deep, a name over 255
  bytes, a gzip bomb, an empty file; each through the commands that read or write paths.

Outcomes: `ok` (exit 0), `clean` (exit 1 or 2 with a message and no traceback), `crash`
(a traceback, another exit code, or no message). Hangs are judged by the caller's watchdog.
"""
from __future__ import annotations

import os
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "lists" / "000_57cfd0dc3b5a87a8.txt"
ID = b"<ID>"  # replaced by a real paper id of the run's library
VALUE = b"<V>"
TMP = b"<TMP>"  # a fresh folder of the run
BUSY = b"<BUSY>"  # a port the run holds open, so that `serve` answers an error instead of serving

# One slot (<V>) per template; the commands a user types, reading and writing commands alike.
TEMPLATES: list[list[bytes]] = [t.split(b" ") for t in [
    b"list --venue <V>", b"list --year <V>", b"list --limit <V>", b"list --collection <V>",
    b"search <V>", b"search --mode lexical <V>", b"search --year <V> model", b"show <V>",
    b"star <V>", b"read <V>", b"note <ID> <V>", b"note <V> x", b"tag <ID> <V>", b"tag <V> x",
    b"untag <ID> <V>", b"mine --tag <V>", b"irrelevant <ID> --tag <V>", b"topics --venue <V>",
    b"topics --level <V>", b"compare <V> ICML", b"trends <V>", b"export -f <V>",
    b"export -f bibtex --tag <V>", b"export -f bibtex --ids <V>", b"recommend --tag <V>",
    b"ingest --no-embed --year <V> " + str(EXAMPLE).encode(), b"ingest --no-embed --venue <V> --year 2024 "
    + str(EXAMPLE).encode(), b"ingest --no-embed <V>", b"ingest --no-embed --format <V> " + str(EXAMPLE).encode(),
    b"remove --collection <V>", b"related --text <V>", b"reviewers --text <V>", b"experts <V>",
    b"match --profile <V>", b"import-library <V>", b"load <V>", b"map --out <V>",
    b"build " + str(EXAMPLE).encode() + b" --out <TMP> --shard-size <V>", b"serve --host <V> --port <BUSY>",
]]

TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=60)
MARKUP = st.sampled_from(["[bold]x[/bold]", "draft[v2]", "[red]", "[/]", "[link=file:///etc]x[/link]",
                          "pip install 'paperscope[mcp]'", "\\[x]", "[[", "]]"])
NUMBERS = st.sampled_from(["0", "-1", "1", "99999", "1e23", "100000000000000000000000", "-0", "nan", "inf",
                           "2024..2020", "1949", "2100", ">=", "..", "0x10", " 7 "])
BLANK = st.sampled_from(["", " ", "\t", ",", " , ", "\n", "-", "--", "."])
NOT_UTF8 = st.sampled_from([b"\xff", b"caf\xe9", b"\xc3\x28", b"\xed\xa0\x80", b"\xf0\x28\x8c\x28", b"\x80abc",
                            b"[\xff]"])


@st.composite
def values(draw) -> bytes:
    """One fuzzed argument, as the bytes a shell would pass."""
    kind = draw(st.sampled_from(["text", "markup", "number", "blank", "bytes", "mixed", "long"]))
    if kind == "bytes":
        return draw(NOT_UTF8)
    if kind == "mixed":
        return draw(TEXT).encode() + draw(NOT_UTF8) + draw(MARKUP).encode()
    if kind == "long":
        return draw(st.sampled_from([b"x", b"[", "\u00e9".encode(), b"ab "])) * draw(st.integers(100, 20_000))
    strategy = {"text": TEXT, "markup": MARKUP, "number": NUMBERS, "blank": BLANK}[kind]
    return draw(strategy).encode()


@st.composite
def argv_cases(draw) -> list[bytes]:
    template = draw(st.sampled_from(TEMPLATES))
    value = draw(values())
    return [value if part == VALUE else part for part in template]


@st.composite
def file_names(draw) -> bytes:
    """A file name (no '/' or NUL), up to the 255 bytes file systems allow."""
    name = draw(st.one_of(TEXT.map(str.encode), NOT_UTF8, MARKUP.map(str.encode),
                          st.binary(min_size=1, max_size=40)))
    name = name.replace(b"/", b"_").replace(b"\x00", b"_")[:240] or b"_"
    return name if name not in (b".", b"..") else b"_" + name


def name_cases(folder: Path, name: bytes) -> list[list[bytes]]:
    """A copy of the example list under `name` in a fresh folder; the commands that read it."""
    folder.mkdir(parents=True, exist_ok=True)
    target = os.path.join(os.fsencode(folder), name)
    with open(target, "wb") as out:
        out.write(EXAMPLE.read_bytes())
    return [[b"ingest", b"--no-embed", os.fsencode(folder)], [b"related", b"--file", target],
            [b"import-library", target + b".bib"], [b"ingest", b"--no-embed", b"--format", b"list", target]]


def special_paths(work: Path) -> dict[str, bytes]:
    """Special files and odd paths, made under `work` where they must be made."""
    work.mkdir(parents=True, exist_ok=True)
    out = {name: os.fsencode(p) for name, p in {
        "/dev/zero": "/dev/zero", "/dev/null": "/dev/null", "/dev/urandom": "/dev/urandom", "/proc": "/proc",
        "/proc/self/mem": "/proc/self/mem", "/sys": "/sys", "/": "/"}.items()}
    (work / "folder").mkdir(exist_ok=True)
    out["a folder"] = os.fsencode(work / "folder")
    empty = work / "empty.txt"
    empty.write_bytes(b"")
    out["an empty file"] = os.fsencode(empty)
    for name, target in (("dangling", work / "nowhere"), ("loop", work / "loop")):
        link = work / name
        if not link.is_symlink():
            link.symlink_to(target)
    out["a dangling link"], out["a link to itself"] = os.fsencode(work / "dangling"), os.fsencode(work / "loop")
    out["a name over 255 bytes"] = os.fsencode(work / ("x" * 300))
    out["a folder 1,100 deep"] = _deep(work / "deep", 1100)
    out["a gzip bomb"] = _bomb(work / "bomb.txt.gz")
    out["a pipe"] = os.fsencode(work / "pipe")
    return out


SPECIAL_COMMANDS: list[list[bytes]] = [t.split(b" ") for t in [
    b"ingest --no-embed <V>", b"ingest --no-embed --format list <V>", b"related --file <V>",
    b"import-library <V>", b"match --profile <V>", b"load <V>", b"export -f bibtex -o <V>", b"map --out <V>",
    b"copy <V> <V>.copy.db"]]


def special_cases(paths: dict[str, bytes]) -> list[tuple[str, list[bytes]]]:
    return [(f"{label}: {b' '.join(t[:2]).decode()}", [paths[label] if p == VALUE else p.replace(VALUE, paths[label])
                                                        for p in t])
            for label in paths for t in SPECIAL_COMMANDS]


def feed_pipe(path: bytes) -> threading.Thread | None:
    """For a case reading the test's pipe: a writer that hands it the example list."""
    p = os.fsdecode(path)
    if not p.endswith(os.sep + "pipe") and not p.endswith("/pipe"):
        return None
    if not os.path.exists(p):
        os.mkfifo(p)

    def write() -> None:
        fd = None
        for _ in range(600):  # until a reader opens it (a command that never reads: give up)
            try:
                fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                threading.Event().wait(0.05)
        if fd is not None:
            os.set_blocking(fd, True)
            try:
                os.write(fd, EXAMPLE.read_bytes())
            except OSError:
                pass
            os.close(fd)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _deep(root: Path, depth: int) -> bytes:
    path = os.fsencode(root) + b"/a" * depth
    if not os.path.isdir(path):
        here = os.getcwd()
        try:
            os.makedirs(root, exist_ok=True)
            os.chdir(root)
            for _ in range(depth):
                os.makedirs("a", exist_ok=True)
                os.chdir("a")
            Path("list.txt").write_bytes(EXAMPLE.read_bytes())
        finally:
            os.chdir(here)
    return os.fsencode(root)


def remove_deep(root: Path) -> None:
    """Bottom-up (recursive removal fails 1,100 levels down)."""
    if not root.is_dir():
        return
    here = os.getcwd()
    try:
        os.chdir(root)
        depth = 0
        while os.path.isdir("a"):
            os.chdir("a")
            depth += 1
        for name in os.listdir("."):
            os.remove(name)
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("a")
    finally:
        os.chdir(here)


def _bomb(path: Path) -> bytes:
    if not path.exists():
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        with open(path, "wb") as out:
            out.write(packer.compress(EXAMPLE.read_bytes()))
            for _ in range(400):  # 400 MiB of blank lines in well under 1 MiB
                out.write(packer.compress(b"\n" * (1 << 20)))
            out.write(packer.flush())
    return os.fsencode(path)


@dataclass
class Outcome:
    kind: str  # ok, clean, crash
    detail: str = ""


def materialise(argv: list[bytes], paper_id: str, tmp: Path, busy_port: int) -> list[bytes]:
    """The placeholders of a case filled in for one run."""
    fill = {ID: paper_id.encode(), TMP: os.fsencode(tmp), BUSY: str(busy_port).encode()}
    return [fill.get(part, part) for part in argv]


def judge(code: int, stderr: str) -> Outcome:
    """What the user saw: exit 0, or a message and exit 1/2; anything else is a crash."""
    if "Traceback (most recent call last)" in stderr:
        return Outcome("crash", stderr[-1200:])
    if code == 0:
        return Outcome("ok")
    if code in (1, 2) and stderr.strip():
        return Outcome("clean", stderr.strip().splitlines()[-1][:200])
    return Outcome("crash", f"exit {code}: {stderr[-1200:]}")
