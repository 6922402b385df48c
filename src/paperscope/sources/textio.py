"""Decoding input files in bounded chunks, so that readers stream whatever the file size.

Encoding policy (one pass, no pre-scan, so a reader can yield its first record at once):

* a BOM decides: UTF-8 (BOM dropped), UTF-16 LE/BE, UTF-32 LE/BE;
* a file with a BOM that goes wrong later (an odd trailing byte in UTF-16, a lone surrogate,
  a code point out of range in UTF-32) has its bad bytes replaced by U+FFFD, with one warning
  naming the line and byte offset, like damaged UTF-8 below;
* otherwise strict UTF-8. At the first byte that is not valid UTF-8 the decoder switches:
  - if everything before it was ASCII, the file is taken for a legacy 8-bit file and the rest is
    decoded as Windows-1252 (bytes that cp1252 leaves undefined map as Latin-1). Since ASCII is
    the same in both, this equals decoding the whole file as cp1252;
  - if valid non-ASCII UTF-8 came before it, the file is UTF-8 with damage: bad bytes become
    U+FFFD and decoding goes on.
  Either way one warning `Problem` (not fatal) names the line and byte offset of the first bad
  byte, so the user can fix the file; the records are kept.
* empty files and files with a NUL byte in their first 64 KiB (binary, or UTF-16 without BOM)
  are unreadable: `Unreadable` carries a fatal Problem.

Newlines are universal: `\\r\\n` and `\\r` read as `\\n`.

A gzip-compressed file (recognised by its magic bytes, whatever its name) is decompressed as it
is read; `bytes_read` then counts compressed bytes, so progress stays a share of the file's size.
Damaged compressed data is `Unreadable` (the records read before it are kept by the readers).

Limits, so no input runs for minutes or fills memory: gzip data may expand at most
MAX_GZIP_RATIO-fold (past GZIP_SLACK; real lists compress 3-10-fold, a decompression bomb
1000-fold), and no file, plain, compressed or a pipe, gives more than MAX_FILE_BYTES of text
(3-4 times the 4.5 GB arXiv metadata snapshot). Past either, the file is `Unreadable` from
there on (what was read before is kept, as with damaged data).
"""
from __future__ import annotations

import codecs
import gzip
import os
import stat
import zlib
from pathlib import Path
from typing import Iterator

from ..model import InputError, Problem

CHUNK = 1 << 16
MAX_LINE = 1 << 20  # a longer line is delivered in pieces of this size
GZIP_MAGIC = b"\x1f\x8b"
MAX_FILE_BYTES = 16 << 30
MAX_GZIP_RATIO = 100
GZIP_SLACK = 4 << 20

_BOMS = [  # longest first: the UTF-32 LE BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
]
# Windows-1252 for the C1 range, Latin-1 (identity) for the five bytes cp1252 leaves undefined
_CP1252_C1 = {}
for _b in range(0x80, 0xA0):
    try:
        _CP1252_C1[_b] = bytes([_b]).decode("cp1252")
    except UnicodeDecodeError:
        pass


def _decode_cp1252(data: bytes) -> str:
    return data.decode("latin-1").translate(_CP1252_C1)


class Unreadable(Exception):
    """The whole file cannot be read; `problem` is the fatal Problem to report."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def path_text(path: str | os.PathLike) -> str:
    """A path as text for messages and the store: bytes of a file name that are not UTF-8
    (they arrive as lone surrogates) are shown as \\xNN, so the name stays distinct and
    printable."""
    name = os.fspath(path)
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def shown_path(path: str | os.PathLike, keep: int = 160) -> str:
    """A path for a message: printable, and its end only when it is very long."""
    text = path_text(path)
    return text if len(text) <= keep else f"...{text[-keep:]}"


def special_file(path: str | os.PathLike) -> str | None:
    """What `path` is when it is a device or a socket (reading one never ends or blocks on
    a terminal); None for files, folders, pipes and paths that do not exist."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    for test, kind in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return None


def require_file(path: str | os.PathLike, what: str = "file") -> None:
    """InputError naming `path` unless it is a regular file (or a link to one): what is there
    instead (nothing, a folder, a device, a socket, a named pipe), or why it cannot be looked at."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(f"{shown_path(path)}: no such file") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"{shown_path(path)}: {getattr(exc, 'strerror', None) or exc}") from None
    if stat.S_ISREG(mode):
        return
    kind = special_file(path) or ("a folder" if stat.S_ISDIR(mode) else
                                  "a named pipe" if stat.S_ISFIFO(mode) else "not a regular file")
    raise InputError(f"{shown_path(path)} is {kind}, not a {what}")


def read_text_file(path: str | os.PathLike, limit: int) -> str:
    """A whole small text file (a draft, a profile) decoded as lists are; InputError naming the
    file when it is a device, unreadable, binary, empty or longer than `limit` characters."""
    kind = special_file(path)
    if kind:
        raise InputError(f"{path_text(path)} is {kind}, not a file")
    parts, size = [], 0
    try:
        with TextSource(path) as text:
            while chunk := text.read():
                size += len(chunk)
                if size > limit:
                    raise InputError(f"{path_text(path)} is longer than {limit:,} characters")
                parts.append(chunk)
    except Unreadable as exc:
        raise InputError(str(exc.problem)) from None
    return "".join(parts)


class TextSource:
    """A decoded view of one file: `read(n)` for chunked parsers, `lines()` for line readers.

    `line` counts the newlines delivered so far (so `line + 1` is the line being read).
    `take_problems()` returns the encoding warnings met since the last call.
    """

    def __init__(self, path: str | os.PathLike, source: str | None = None):
        self.path = Path(path)
        self.source = source if source is not None else path_text(path)
        try:
            self._file = open(self.path, "rb")
        except IsADirectoryError:
            raise Unreadable(Problem(self.source, 0, "unreadable: is a directory", fatal=True))
        except OSError as exc:
            raise Unreadable(Problem(self.source, 0, f"unreadable: {exc.strerror or exc}", fatal=True))
        self.line = 0
        self._expanded = 0  # bytes of (decompressed) data taken, for the limits
        self.bytes_read = 0  # bytes taken from the file so far (decoding runs up to a chunk ahead)
        self._compressed = None  # the file itself when it is gzip data (self._file decompresses it)
        if self._file.peek(len(GZIP_MAGIC))[:len(GZIP_MAGIC)] == GZIP_MAGIC:
            self._compressed, self._file = self._file, gzip.GzipFile(fileobj=self._file, mode="rb")
        head = self._read1()
        while 0 < len(head) < 4:  # a pipe may hand out a few bytes: enough for a BOM
            more = self._read1()
            if not more:
                break
            head += more
        self.encoding = "utf-8"
        bom_size = 0
        for bom, name in _BOMS:
            if head.startswith(bom):
                self.encoding, head, bom_size = name, head[len(bom):], len(bom)
                break
        while not head.strip() and len(head) < 4 * CHUNK:
            more = self._read1()
            if not more:
                self.close()
                raise Unreadable(Problem(self.source, 0, "empty file", fatal=True))
            head += more
        if self.encoding == "utf-8" and b"\x00" in head:
            offset = head.index(b"\x00") + bom_size
            self.close()
            raise Unreadable(Problem(
                self.source, head.count(b"\n", 0, offset) + 1,
                f"binary file: NUL byte at offset {offset} (not a text list; UTF-16 needs a BOM)",
                fatal=True))
        self._raw_head = head
        self._decode_mode = "strict" if self.encoding == "utf-8" else "bom"
        self._decoder = codecs.getincrementaldecoder(self.encoding)("strict")
        self._bytes_done = bom_size  # bytes decoded before the current chunk
        self._seen_non_ascii = False
        self._text = ""  # decoded, newline-translated; delivered up to _pos
        self._pos = 0
        self._pending_cr = False
        self._eof = False
        self._problems: list[Problem] = []

    # ------------------------------------------------------------------ decoding
    def _next_raw(self) -> bytes:
        if self._raw_head is not None:
            raw, self._raw_head = self._raw_head, None
            return raw
        return self._read1()

    def _read1(self) -> bytes:
        if self._compressed is None:
            raw = self._file.read1(CHUNK)
            self.bytes_read += len(raw)
            self._within_limits(len(raw), None)
            return raw
        try:
            raw = self._file.read1(CHUNK)
        except (OSError, EOFError, zlib.error) as exc:
            self.close()
            raise Unreadable(Problem(self.source, self.line + 1,
                                     f"unreadable: damaged gzip data ({exc})", fatal=True)) from None
        try:
            self.bytes_read = self._compressed.tell()
            compressed = self.bytes_read
        except OSError:  # a pipe: count what was decompressed instead
            self.bytes_read += len(raw)
            compressed = None
        self._within_limits(len(raw), compressed)
        return raw

    def _within_limits(self, size: int, compressed: int | None) -> None:
        self._expanded += size
        if self._expanded > MAX_FILE_BYTES:
            reason = f"longer than {MAX_FILE_BYTES:,} bytes of text; split it"
        elif compressed is not None and self._expanded > GZIP_SLACK + MAX_GZIP_RATIO * compressed:
            reason = (f"gzip data expanding more than {MAX_GZIP_RATIO}-fold ({self._expanded >> 20} MiB "
                      f"from {max(1, compressed >> 10)} KiB): refused as a decompression bomb")
        else:
            return
        self.close()
        raise Unreadable(Problem(self.source, self.line + 1, f"unreadable: {reason}", fatal=True))

    def _decode(self, raw: bytes, final: bool) -> str:
        if self._decode_mode == "cp1252":
            return _decode_cp1252(raw)
        if self._decode_mode == "replace":
            return self._decoder.decode(raw, final)
        buffered = self._decoder.getstate()[0]
        try:
            text = self._decoder.decode(raw, final)
        except UnicodeDecodeError as exc:
            data = buffered + raw
            good = data[:exc.start].decode(self.encoding, "replace")
            offset = self._bytes_done - len(buffered) + exc.start
            line = self.line + self._text.count("\n", self._pos) + good.count("\n") + 1
            if self._decode_mode == "bom":
                self._decode_mode = "replace"
                self._decoder = codecs.getincrementaldecoder(self.encoding)("replace")
                text = good + self._decoder.decode(data[exc.start:], final)
                self._problems.append(Problem(
                    self.source, line, f"encoding: bytes at offset {offset} are not "
                    f"{self.encoding.upper()} ({exc.reason}); replaced by U+FFFD", warning=True))
                return text
            if self._seen_non_ascii or not good.isascii():
                self._decode_mode = "replace"
                self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
                how = "bad bytes replaced by U+FFFD"
                text = good + self._decoder.decode(data[exc.start:], final)
            else:
                self._decode_mode = "cp1252"
                how = "decoded as Windows-1252"
                text = good + _decode_cp1252(data[exc.start:])
            self._problems.append(Problem(
                self.source, line, f"encoding: byte {data[exc.start]:#04x} at offset {offset} is not "
                f"UTF-8; {how} (save the file as UTF-8 to be sure of accents)", warning=True))
            return text
        self._bytes_done += len(raw)
        if not self._seen_non_ascii and not text.isascii():
            self._seen_non_ascii = True
        return text

    def _fill(self) -> bool:
        """Decode one more chunk into the text buffer; False at end of file."""
        if self._eof:
            return False
        raw = self._next_raw()
        final = not raw
        text = self._decode(raw, final)
        if self._pending_cr:
            text = "\r" + text
            self._pending_cr = False
        if text.endswith("\r") and not final:
            text, self._pending_cr = text[:-1], True
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._text = self._text[self._pos:] + text
        self._pos = 0
        if final:
            self._eof = True
            self.close()
        return True

    def _take(self, end: int) -> str:
        out = self._text[self._pos:end]
        self._pos = end
        return out

    # ------------------------------------------------------------------ reading
    def read(self, size: int = CHUNK) -> str:
        """Up to `size` characters (fewer only at end of file); '' at end of file."""
        while len(self._text) - self._pos < size and self._fill():
            pass
        out = self._take(min(len(self._text), self._pos + size))
        self.line += out.count("\n")
        return out

    def readline(self, limit: int = MAX_LINE) -> str:
        """One line with its '\\n' (none on a last unterminated line, or a piece of a line longer
        than `limit`); '' at end of file."""
        start = self._pos
        while True:
            cut = self._text.find("\n", start, self._pos + limit)
            if cut >= 0:
                self.line += 1
                return self._take(cut + 1)
            if len(self._text) - self._pos >= limit:
                return self._take(self._pos + limit)
            scanned = len(self._text) - self._pos
            if not self._fill():
                return self._take(len(self._text))
            start = self._pos + scanned

    def lines(self, limit: int = MAX_LINE) -> Iterator[str]:
        while True:
            line = self.readline(limit)
            if not line:
                return
            yield line

    def take_problems(self) -> list[Problem]:
        out, self._problems = self._problems, []
        return out

    def close(self) -> None:
        self._file.close()
        if self._compressed is not None:
            self._compressed.close()

    def __enter__(self) -> "TextSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
