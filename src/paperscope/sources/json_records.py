"""JSON and JSON Lines readers (field mapping in `fields.py`, streaming in `json_stream.py`).

Where a message points: a JSON list element is named by its 1-based record number (`line` of
the Record/Problem; one-line exports make physical lines useless); invalid JSON by the physical
line and column of the error. In JSON Lines, record number and line are the same thing.

Venue and year come from, in order: --venue/--year; the record (`venue`, `year`, an OpenReview
`venue` string, a conference virtual-site link); the file or folder name (`icml2024_events.json`,
`iclr2020_miniconf/papers.json`) when it names a known venue.
"""
from __future__ import annotations

from typing import Iterator

from ..model import Problem, Record
from .base import ReadContext, venue_year_from_name
from .fields import record_from
from .json_stream import JsonError, NoPaperList, Undecodable, decode_line, iter_papers

MAX_JSONL_LINE = 16 << 20  # characters


def _describe(obj) -> str:
    return {list: "a list", str: "a string", int: "a number", float: "a number",
            bool: "a boolean", type(None): "null"}.get(type(obj), type(obj).__name__)


def read_json(path, ctx: ReadContext) -> Iterator[Record | Problem]:
    ctx.file_venue, ctx.file_year = venue_year_from_name(path)
    number = 0
    with ctx.open(path) as text:
        try:
            for number, obj in iter_papers(text):
                for warning in text.take_problems():
                    yield ctx.counted(warning)
                yield from _one(ctx, obj, number, f"record {number}")
                if ctx.stopped:
                    return
        except JsonError as exc:
            reason = f"invalid JSON: {exc.message} (line {exc.line}, column {exc.column})"
            if ctx.yielded == 0:
                yield ctx.fatal(exc.line, reason)
            else:
                yield ctx.problem(exc.line, f"{reason}; stopped reading after record {number}")
            return
        except NoPaperList as exc:
            if ctx.yielded == 0:
                yield ctx.fatal(0, f"not a paper list: {exc}")
            return
    if ctx.yielded == 0:
        yield ctx.fatal(0, "no papers: the JSON holds no paper records")


def read_jsonl(path, ctx: ReadContext) -> Iterator[Record | Problem]:
    ctx.file_venue, ctx.file_year = venue_year_from_name(path)
    lineno = 0
    with ctx.open(path) as text:
        pieces = text.lines(MAX_JSONL_LINE)
        for piece in pieces:
            lineno += 1
            for warning in text.take_problems():
                yield ctx.counted(warning)
            if not piece.endswith("\n") and len(piece) >= MAX_JSONL_LINE:
                while piece and not piece.endswith("\n"):
                    piece = next(pieces, "")
                yield ctx.problem(lineno, f"too long: line {lineno} has more than {MAX_JSONL_LINE} characters")
                continue
            if not piece.strip():
                continue
            try:
                obj = decode_line(piece)
            except JsonError as exc:
                yield ctx.problem(lineno, f"invalid JSON: {exc.message} (line {lineno}, column {exc.column})")
                continue
            yield from _one(ctx, obj, lineno, f"line {lineno}")
            if ctx.stopped:
                return
        for warning in text.take_problems():
            yield ctx.counted(warning)
    if ctx.yielded == 0:
        yield ctx.fatal(0, "no papers: the file has no JSON lines")


def _one(ctx: ReadContext, obj, number: int, where: str) -> Iterator[Record | Problem]:
    if isinstance(obj, Undecodable):
        yield ctx.problem(number, f"unreadable record: {where} {obj.reason}")
        return
    if not isinstance(obj, dict):
        yield ctx.problem(number, f"not a paper: {where} is {_describe(obj)}, not an object")
        return
    yield from ctx.emit(lambda notes: record_from(obj, number, notes), number, where)
