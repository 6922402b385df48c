"""CSV and TSV with a header row (field mapping in `fields.py`).

The delimiter is sniffed from the header line (the most frequent of `,` tab `;` `|`; `tsv`
forces tab). A message points at the physical line where the row starts (quoted fields may span
lines). Venue and year: --venue/--year, a `venue`/`year` column, else the file or folder name
(`ICLR17_submissions.csv` -> ICLR 2017, `NIPS13_paper.csv` -> NeurIPS 2013).

Numeric decision codes (the DylanJoo/OpenReview crawl: -1, 0, 1, 2; undocumented there) are
read as Workshop, Rejected, Oral, Poster: their counts match the published ICLR 2017/2018 and
NIPS 2013 acceptance figures (ICLR 2017: 15 orals, 183 posters, 47 invited to the workshop).
"""
from __future__ import annotations

import csv
import re
from typing import Iterator

from ..model import Problem, Record
from .base import ReadContext, venue_year_from_name
from .fields import ALIASES, norm_key, openreview_url, record_from

DELIMITERS = (",", "\t", ";", "|")
DECISION_CODES = {"-1": "Workshop", "0": "Rejected", "1": "Oral", "2": "Poster"}
_OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_-]{8,16}")


def sniff_delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_table(path, ctx: ReadContext, delimiter: str | None = None) -> Iterator[Record | Problem]:
    ctx.file_venue, ctx.file_year = venue_year_from_name(path)
    with ctx.open(path) as text:
        header_line, header_at = "", 0
        for piece in text.lines():
            if piece.strip():
                header_line, header_at = piece, text.line
                break
        if not header_line:
            yield ctx.fatal(0, "empty file: no header row")
            return
        delimiter = delimiter or sniff_delimiter(header_line)
        try:
            header = next(csv.reader([header_line], delimiter=delimiter))
        except csv.Error as exc:  # a header cell over the csv module's field limit
            yield ctx.fatal(header_at, f"malformed header: {_csv_error(exc)} (line {header_at})")
            return
        keys = {norm_key(h) for h in header}
        if not keys & set(ALIASES["abstract"]):
            shown = ", ".join(repr(h) for h in header[:20]) + (" ..." if len(header) > 20 else "")
            yield ctx.fatal(header_at, f"no abstract column: columns found: {shown} "
                            f"(an abstract column is one of: {', '.join(ALIASES['abstract'])})")
            return
        decision = next((h for h in header if norm_key(h) == "decision"), None)
        rows = csv.reader(text.lines(), delimiter=delimiter)
        read_to = header_at  # lines consumed so far (csv counts from after the header)
        while True:
            start = read_to + 1
            error = None
            try:
                row = next(rows, None)
            except csv.Error as exc:
                row, error = [], exc
            for warning in text.take_problems():
                yield ctx.counted(warning)
            read_to = header_at + rows.line_num
            if error is not None:
                yield ctx.problem(start, f"malformed row: {_csv_error(error)} (line {start})")
                continue
            if row is None:
                break
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                few = "missing fields" if len(row) < len(header) else "extra fields"
                yield ctx.problem(start, f"{few}: the row at line {start} has {len(row)} fields, "
                                  f"the header has {len(header)}")
                continue
            fields = dict(zip(header, row))
            if decision and fields[decision].strip() in DECISION_CODES:
                fields[decision] = DECISION_CODES[fields[decision].strip()]
            for out in ctx.emit(lambda notes: record_from(fields, start, notes), start,
                                f"the row at line {start}"):
                if isinstance(out, Record):
                    _openreview_link(out)
                yield out
            if ctx.stopped:
                return
    if ctx.yielded == 0:
        yield ctx.fatal(header_at, "no papers: the table has a header but no rows")


def _csv_error(exc: csv.Error) -> str:
    text = str(exc)
    if "field limit" in text:
        return f"a field has more than {csv.field_size_limit():,} characters (a stray quote?)"
    return text


def _openreview_link(rec: Record) -> None:
    """ICLR is reviewed on OpenReview: a bare paper id there is an OpenReview forum id."""
    if (rec.venue == "ICLR" and rec.external_id and "openreview" not in rec.urls
            and _OPENREVIEW_ID.fullmatch(rec.external_id)):
        rec.urls["openreview"] = openreview_url(rec.external_id)
