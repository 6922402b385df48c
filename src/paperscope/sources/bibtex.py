"""BibTeX with `abstract` fields (parsed by bibtexparser 2).

Streaming: the file is cut into blocks at lines that open an entry (`@type{` or `@type(`) and
each block is parsed alone, with the `@string` macros it uses (met before it) put in front, so memory holds
one entry. A message points at the line where the entry starts.

Mapping: title, abstract (LaTeX kept), author (split on `and`, `Last, First` -> `First Last`),
booktitle/journal -> venue (long names such as `International Conference on Machine Learning`
-> ICML), year, url, doi, pdf, keywords, arXiv eprint -> external id.
"""
from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from typing import Iterator

import bibtexparser
from bibtexparser.model import Entry, ParsingFailedBlock, String

from ..model import Problem, Record
from .base import ReadContext, describe_error
from .fields import NotAPaper, flip_name, parse_keywords
from .textio import TextSource
from .venues import canonical_venue, venue_in, year_in

ENTRY_START = re.compile(r"^\s*@\s*([A-Za-z]+)\s*[{(]")
_SKIP_TYPES = {"comment", "preamble"}
MAX_BLOCK = 200_000  # characters in one entry (a real one, abstract included, has a few thousand)
MAX_MACRO_TEXT = 1 << 16  # characters of @string macros one entry may use
_MACRO_NAME = re.compile(r"\s*@\s*string\s*[{(]\s*([^\s=#{}(),\"]+)\s*=", re.I)
_WORD = re.compile(r"[A-Za-z_][\w:.+/-]*")


@contextmanager
def _quiet_parser():
    """bibtexparser logs each broken block; we report them as Problems instead."""
    log = logging.getLogger("bibtexparser")
    old = log.level
    log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        log.setLevel(old)


def _blocks(text: TextSource) -> Iterator[tuple[int, str, bool]]:
    """(start line, block text, too long) for each `@...` block."""
    lines: list[str] = []
    start, size, lineno, overflow = 0, 0, 0, False
    for line in text.lines():
        lineno += 1
        if ENTRY_START.match(line):
            if lines or overflow:
                yield start, "".join(lines), overflow
            lines, start, size, overflow = [], lineno, 0, False
        if not start:
            continue  # text before the first entry is a comment
        size += len(line)
        if size > MAX_BLOCK:
            overflow, lines = True, []
        elif not overflow:
            lines.append(line)
    if lines or overflow:
        yield start, "".join(lines), overflow


class Macros:
    """The `@string` macros met so far. An entry is parsed with only the macros it names (and
    those they name), at most MAX_MACRO_TEXT characters of them, so the cost of an entry does
    not grow with the number of macros before it."""

    def __init__(self):
        self._text: dict[str, str] = {}
        self._names: dict[str, set[str]] = {}

    def add(self, block: str) -> None:
        m = _MACRO_NAME.match(block)
        if m:
            name = m.group(1).casefold()
            self._text[name] = block
            self._names[name] = _names_in(block[m.end():])

    def for_entry(self, block: str) -> str:
        if not self._text:
            return ""
        todo = [n for n in _names_in(block) if n in self._text]
        used: dict[str, None] = {}
        size = 0
        while todo:
            name = todo.pop()
            if name in used:
                continue
            used[name] = None
            size += len(self._text[name])
            if size > MAX_MACRO_TEXT:
                raise ValueError(f"its @string macros hold more than {MAX_MACRO_TEXT:,} characters")
            todo.extend(n for n in self._names[name] if n in self._text and n not in used)
        return "".join(self._text[n] for n in self._text if n in used)


def _names_in(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def read_bibtex(path, ctx: ReadContext) -> Iterator[Record | Problem]:
    macros = Macros()
    with ctx.open(path) as text:
        for start, block, overflow in _blocks(text):
            for warning in text.take_problems():
                yield ctx.counted(warning)
            if overflow:
                yield ctx.problem(start, f"too long: the entry at line {start} has more than "
                                  f"{MAX_BLOCK:,} characters (unbalanced braces?)")
                continue
            kind = ENTRY_START.match(block).group(1).lower()
            if kind in _SKIP_TYPES:
                continue
            if kind == "string":
                macros.add(block)
                continue
            try:
                with _quiet_parser():
                    parsed = bibtexparser.parse_string(macros.for_entry(block) + block)
            except Exception as exc:  # noqa: BLE001 - the parser's own failure on one entry
                yield ctx.problem(start, f"invalid BibTeX: the entry at line {start} cannot be read "
                                  f"({describe_error(exc)})")
                continue
            entries = [b for b in parsed.blocks if isinstance(b, Entry)]
            failed = [b for b in parsed.blocks if isinstance(b, ParsingFailedBlock)]
            if failed or not entries:
                error = failed[0].error if failed else None
                why = str(getattr(error, "abort_reason", "") or error or "no entry").strip()
                why = why.splitlines()[0][:200] if why else type(error).__name__
                yield ctx.problem(start, f"invalid BibTeX: the entry at line {start} cannot be read ({why})")
                continue
            for entry in entries:
                yield from ctx.emit(lambda notes: _record(entry, start), start,
                                    f"entry {str(entry.key)[:80]!r} at line {start}")
                if ctx.stopped:
                    return
    if ctx.yielded == 0:
        yield ctx.fatal(0, "no entries: the file holds no BibTeX entries")


def _strip_braces(text: str) -> str:
    return " ".join(text.replace("{", "").replace("}", "").split())


def _record(entry: Entry, line: int) -> Record:
    if str(entry.entry_type).lower() == "proceedings":  # a PMLR volume's bibliography opens with it
        raise NotAPaper("the volume's own @Proceedings entry")
    fields = {k.lower(): str(f.value) for k, f in entry.fields_dict.items() if not isinstance(f, String)}
    rec = Record(abstract=fields.get("abstract", ""), source="", line=line, title=fields.get("title"))
    authors = re.split(r"\s+and\s+", " ".join(fields.get("author", "").split()))
    rec.authors = [_strip_braces(flip_name(a)) for a in authors if a.strip() and a.strip() != "others"]
    where = fields.get("booktitle") or fields.get("journal") or fields.get("series") or ""
    if not where and fields.get("archiveprefix", "").lower() == "arxiv":
        where = "arXiv"
    if where:
        plain = _strip_braces(where)
        rec.venue = venue_in(plain) or canonical_venue(plain)
    rec.year = year_in(fields.get("year", "")) or year_in(_strip_braces(where))
    rec.keywords = parse_keywords(fields.get("keywords") or fields.get("keyword"))
    urls = {"paper": fields.get("url"), "pdf": fields.get("pdf"), "code": fields.get("code"),
            "openreview": fields.get("openreview")}
    doi = fields.get("doi", "").strip()
    if doi:
        urls["doi"] = doi if doi.startswith("http") else f"https://doi.org/{doi}"
    eprint = fields.get("eprint", "").strip()
    if eprint and (fields.get("archiveprefix", "").lower() == "arxiv" or rec.venue == "arXiv"):
        rec.external_id = f"arXiv:{eprint}"
        urls["paper"] = urls["paper"] or f"https://arxiv.org/abs/{eprint}"
    elif doi:
        rec.external_id = doi
    elif str(entry.key).startswith("pmlr-v"):  # PMLR's key: the same id as its posts give
        rec.external_id = str(entry.key)
    rec.urls = {k: v.strip() for k, v in urls.items() if v and v.strip()}
    return rec
