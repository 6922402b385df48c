"""Streaming a big JSON document with the standard library: the list of papers is decoded one
element at a time (`json.JSONDecoder.raw_decode` over a sliding buffer), so memory holds one
paper, not the file.

Accepted shapes: a list of papers; an object holding that list under some key (`papers`,
`notes`, `data`, ... : the first list whose first element is an object with a paper-like key);
an object with such a list one level deeper; or a single paper object.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from .textio import CHUNK, TextSource

_PAPER_KEYS = ("abstract", "title", "content", "summary", "name", "paper_title")
_WS = " \t\n\r"
# a string (closed, or cut by the end of the buffer: `end` is then not '"') or a structural mark
_SKIP = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?P<end>"|\\?\Z)|[\[\]{},]', re.S)


class JsonError(Exception):
    """Invalid or truncated JSON at a 1-based line and column."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(f"{message} at line {line} column {column}")
        self.message, self.line, self.column = message, line, column


class NoPaperList(ValueError):
    """Valid JSON that holds no list of papers."""


class Undecodable:
    """Stands for a JSON value that is well formed but that the decoder refuses (nested
    thousands of levels deep, a number of thousands of digits); `reason` says which."""

    def __init__(self, reason: str):
        self.reason = reason


def _refused(exc: Exception) -> Undecodable:
    if isinstance(exc, RecursionError):
        return Undecodable("nests lists or objects too deeply to be a paper")
    if "digits" in str(exc):  # Python's limit on converting long integers
        return Undecodable("holds a number with thousands of digits")
    return Undecodable(f"holds a value that cannot be decoded ({' '.join(str(exc).split())[:120]})")


def decode_line(text: str) -> Any:
    """One JSON Lines line: the decoded value, or Undecodable. Raises JsonError when the line
    is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonError(exc.msg, exc.lineno, exc.colno) from None
    except (RecursionError, ValueError) as exc:
        return _refused(exc)


def looks_like_paper(obj: Any) -> bool:
    return isinstance(obj, dict) and any(k in obj for k in _PAPER_KEYS)


class JsonScanner:
    def __init__(self, text: TextSource):
        self._text = text
        self._buf = ""
        self._pos = 0
        self._line = 1  # line number of _buf[0]
        self._eof = False
        self._decoder = json.JSONDecoder()

    # ------------------------------------------------------------------ buffer
    def _more(self, size: int = CHUNK) -> bool:
        if self._eof:
            return False
        chunk = self._text.read(size)
        if not chunk:
            self._eof = True
            return False
        if self._pos > CHUNK:  # drop what was consumed
            self._line += self._buf.count("\n", 0, self._pos)
            self._buf, self._pos = self._buf[self._pos:], 0
        self._buf += chunk
        return True

    def where(self, pos: int | None = None) -> tuple[int, int]:
        pos = self._pos if pos is None else pos
        line = self._line + self._buf.count("\n", 0, pos)
        column = pos - (self._buf.rfind("\n", 0, pos) + 1) + 1
        return line, column

    def error(self, message: str, pos: int | None = None) -> JsonError:
        return JsonError(message, *self.where(pos))

    def peek(self) -> str:
        """The next non-blank character ('' at end of input), without consuming it."""
        while True:
            while self._pos < len(self._buf) and self._buf[self._pos] in _WS:
                self._pos += 1
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._more():
                return ""

    def expect(self, chars: str) -> str:
        ch = self.peek()
        if not ch:
            raise self.error(f"file ends early: expected {' or '.join(map(repr, chars))}")
        if ch not in chars:
            raise self.error(f"expected {' or '.join(map(repr, chars))}, found {ch!r}")
        self._pos += 1
        return ch

    def value(self) -> Any:
        """Decode the next JSON value, reading more input while it is incomplete."""
        self.peek()
        want = CHUNK
        while True:
            try:
                obj, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                cut = exc.msg.startswith("Unterminated string") or exc.pos >= len(self._buf) - 8
                if cut and self._more(want):
                    want *= 2  # a big value: read more at once, so retries stay linear
                    continue
                msg = "file ends early (truncated JSON?)" if exc.pos >= len(self._buf) else exc.msg
                raise self.error(msg, min(exc.pos, len(self._buf)))
            except (RecursionError, ValueError) as exc:  # well formed, refused by the decoder
                self._skip_value()
                return _refused(exc)
            if end >= len(self._buf) and not self._eof and self._more(want):
                continue  # a number may go on in the next chunk: decode again with it
            self._pos = end
            return obj

    def _skip_value(self) -> None:
        """Move past the value that starts at the current position without decoding it, by
        matching brackets outside strings (linear, no recursion)."""
        depth = 0
        rel = 0  # scan position relative to self._pos (the buffer may be trimmed by _more)
        while True:
            m = _SKIP.search(self._buf, self._pos + rel)
            if m is not None and m.group(0)[0] == '"' and m.group("end") != '"':
                rel = m.start() - self._pos  # a string cut by the end of the buffer: read on
                m = None
            if m is None:
                if not self._more(CHUNK):
                    raise self.error("file ends early (truncated JSON?)", len(self._buf))
                continue
            mark = m.group(0)
            if mark in "[{":
                depth += 1
            elif mark in "]}" or mark == ",":
                if depth == 0:
                    self._pos = m.start()
                    return
                if mark != ",":
                    depth -= 1
                    if depth == 0:
                        self._pos = m.end()
                        return
            rel = m.end() - self._pos

    # ------------------------------------------------------------------ structure
    def array_items(self) -> Iterator[Any]:
        """The elements of the array whose '[' is next."""
        self.expect("[")
        if self.peek() == "]":
            self._pos += 1
            return
        while True:
            yield self.value()
            if self.expect(",]") == "]":
                return

    def object_items(self) -> Iterator[tuple[str, str]]:
        """(key, first character of its value) for the object whose '{' is next; the caller
        must consume each value (with `value()` or `array_items()`) before asking for the next."""
        self.expect("{")
        if self.peek() == "}":
            self._pos += 1
            return
        while True:
            if self.peek() != '"':
                raise self.error("expected a quoted key")
            key = self.value()
            self.expect(":")
            yield key, self.peek()
            if self.expect(",}") == "}":
                return

    def at_end(self) -> bool:
        return self.peek() == ""


def iter_papers(text: TextSource) -> Iterator[tuple[int, Any]]:
    """(1-based record number, decoded object) for each paper in a JSON document.
    Raises JsonError on invalid JSON (after yielding the papers before it) and NoPaperList when
    the document holds no list of papers."""
    scan = JsonScanner(text)
    first = scan.peek()
    if first == "[":
        yield from enumerate(scan.array_items(), 1)
    elif first == "{":
        yield from _papers_in_object(scan)
    elif first == "":
        raise NoPaperList("no JSON value in the file")
    else:
        raise scan.error(f"expected a JSON list or object, found {first!r}")
    if not scan.at_end():
        raise scan.error("unexpected text after the JSON value")


def _papers_in_object(scan: JsonScanner) -> Iterator[tuple[int, Any]]:
    kept: dict[str, Any] = {}
    found = False
    for key, start in scan.object_items():
        if start == "[" and not found:
            items = scan.array_items()
            head = next(items, None)
            if looks_like_paper(head):
                found = True
                yield 1, head
                yield from enumerate(items, 2)
            else:
                kept[key] = ([head] if head is not None else []) + list(items)
        else:
            kept[key] = scan.value()
    if found:
        return
    for value in kept.values():  # one level deeper: {"data": {"papers": [...]}}
        if isinstance(value, dict):
            for inner in value.values():
                if isinstance(inner, list) and inner and looks_like_paper(inner[0]):
                    yield from enumerate(inner, 1)
                    return
    if looks_like_paper(kept):
        yield 1, kept
        return
    raise NoPaperList(f"no list of papers in the JSON object (keys: {', '.join(list(kept)[:12])})")
