"""Paper-list text: a header line naming venue and year, then one abstract per paragraph.

    ICML 2024 论文列表                      <- header (venue and year; any language around them)

    We study the problem of ...            <- a paragraph: one abstract (may be hard-wrapped)

    A Title Line Without Final Period      <- or a title line, then the abstract
    Large language models ...

Reading streams line by line (bounded memory: one paragraph at a time, at most
MAX_PARAGRAPH characters), so a 100 MB list costs no more memory than a small one.

Title detection: a paragraph's first line is a title when it has no final period, at most 30
words, the next line does not start in lower case (a sentence carrying on), and the line is not
a hard-wrapped piece of the abstract: a greedy wrapper would have put the next word on it had it
fitted, so a first line that leaves room for the next word within the paragraph's width is a
title.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..model import Problem, Record
from .base import ReadContext, word_count
from .textio import TextSource
from .venues import venue_year

MAX_PARAGRAPH = 100_000  # characters; longer "paragraphs" are not abstracts
MAX_HEADER_WORDS = 15
MAX_TITLE_WORDS = 30
_ABSTRACT_LABEL = re.compile(r"^(?:abstract|摘要)\s*[:：.]\s*", re.I)


def read_list(path, ctx: ReadContext) -> Iterator[Record | Problem]:
    with ctx.open(path) as text:
        paragraphs = _paragraphs(text)
        warnings: list[Problem] = []
        first = next(paragraphs, None)
        while first is not None and isinstance(first[1], Problem):
            warnings.append(first[1])
            first = next(paragraphs, None)
        if first is None:
            yield ctx.fatal(0, "empty file: no header and no abstracts")
            return
        start, lines, overflow = first
        header = lines[0].strip() if not overflow else ""
        venue, year = venue_year(header) if header else (None, None)
        is_header = bool(header) and _looks_like_header(header, len(lines), venue, year)
        if not is_header:
            venue = year = None
        ctx_venue, ctx_year = ctx.venue or venue, ctx.year or year
        if not (ctx_venue and ctx_year):
            missing = " and ".join(n for n, v in (("venue", ctx_venue), ("year", ctx_year)) if not v)
            said = f"the header {header!r} names no {missing}" if is_header else \
                f"no header line naming venue and year (such as 'ICML 2024') before line {start}"
            yield ctx.fatal(start, f"no {missing}: {said}; pass --venue/--year")
            return
        for warning in warnings:
            yield ctx.counted(warning)
        if is_header:
            start, lines = start + 1, lines[1:]
        for p_start, p_lines, p_overflow in _chain((start, lines, overflow), paragraphs):
            if isinstance(p_lines, Problem):  # an encoding warning passed through
                yield ctx.counted(p_lines)
            elif p_overflow:
                yield ctx.problem(p_start, f"too long: the paragraph at line {p_start} has more than "
                                  f"{MAX_PARAGRAPH} characters; not an abstract (missing blank lines?)")
            elif p_lines:
                title, abstract = split_title(p_lines)
                rec = Record(abstract=abstract, source=ctx.source, line=p_start, title=title,
                             venue=ctx_venue, year=ctx_year)
                yield from ctx.emit(rec, p_start, f"the paragraph at line {p_start}")
        if ctx.yielded == 0:
            yield ctx.fatal(start, "no abstracts: the file has a header but no paragraphs after it")


def _chain(first, rest):
    yield first
    yield from rest


def _paragraphs(text: TextSource):
    """(start line, lines, overflowed) for each blank-line separated paragraph; encoding
    warnings come through as (line, Problem, False)."""
    lines: list[str] = []
    size = 0
    start = 0
    overflow = False
    lineno = 1
    continued = False  # the previous piece was part of an overlong line
    for piece in text.lines():
        for warning in text.take_problems():
            yield warning.line, warning, False
        here = lineno
        ended = piece.endswith("\n")
        lineno += 1 if ended else 0
        stripped = piece.strip()
        if not stripped and not continued:
            if lines or overflow:
                yield start, lines, overflow
            lines, size, overflow = [], 0, False
            continued = not ended
            continue
        if not lines and not overflow:
            start = here
        size += len(piece)
        if size > MAX_PARAGRAPH:
            overflow, lines = True, []
        elif continued and lines:
            lines[-1] += piece.rstrip("\n")
        else:
            lines.append(piece.rstrip("\n"))
        continued = not ended
    for warning in text.take_problems():
        yield warning.line, warning, False
    if lines or overflow:
        yield start, lines, overflow


def _looks_like_header(line: str, lines_in_paragraph: int, venue, year) -> bool:
    if len(line.split()) > MAX_HEADER_WORDS or line.endswith("."):
        return False
    if lines_in_paragraph == 1:
        return True  # a short line alone: the list's heading, whether or not it names a venue
    return bool(venue and year)  # a header glued to the first abstract must name both


def split_title(lines: list[str]) -> tuple[str | None, str]:
    """(title or None, abstract) of one paragraph's lines."""
    lines = [line.strip() for line in lines if line.strip()]
    first, rest = lines[0], lines[1:]
    if rest and _is_title(first, rest):
        body = " ".join(rest)
        return first, _ABSTRACT_LABEL.sub("", body)
    return None, " ".join(lines)


def _is_title(first: str, rest: list[str]) -> bool:
    if first.endswith((".", ",", ";")) or len(first.split()) > MAX_TITLE_WORDS:
        return False
    if rest[0][:1].islower():
        return False  # the sentence goes on: a hard-wrapped abstract
    if word_count(" ".join(rest)) < 1:
        return False
    if len(rest) >= 2:  # the body is wrapped: does the first line leave room for the next word?
        width = max(len(line) for line in rest)
        next_word = rest[0].split()[0]
        if len(first) + 1 + len(next_word) > width:
            return False
    return True
