"""What every reader shares: the file being read, the user's --venue/--year, and the rules that
turn a candidate record into a `Record` or a `Problem`.

Rules:
* `--venue`/`--year` override whatever the file says (the user knows best);
* a record whose venue or year cannot be told yields a Problem; if it is the first thing the
  file yields, the Problem is fatal (the whole file lacks them) and reading stops;
* an abstract shorter than MIN_ABSTRACT_WORDS words is not an abstract (a stray heading, a
  page number, a truncated line) and yields a Problem;
* a record carries bounded text: longer abstracts, titles, names and lists are cut to the caps
  below with a warning, so every later step (identity keys, facts, index) costs a bounded
  amount per record whatever the file holds.

`emit()` is the record boundary every reader goes through: whatever goes wrong while one record
is built (a field of the wrong kind, an absurd value, a parser error) becomes a Problem naming
that record, and the next record is read.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from ..model import (Problem, Record, clean_text, decode_entities, latex_to_plain, match_key,
                     strip_inline_html)
from .fields import FieldError, NotAPaper
from .textio import TextSource, path_text
from .venues import canonical_venue, venue_in, venue_year

MIN_ABSTRACT_WORDS = 15
# What one record may carry. Real abstracts stay under ~4,000 characters and real titles under
# ~400 (the shared corpora: 3,878 and 415); the caps leave wide margins.
MAX_ABSTRACT = 20_000
MAX_TITLE = 1_000
MAX_AUTHORS = 1_000
MAX_NAME = 300  # one author name, one keyword
MAX_KEYWORDS = 100
MAX_SHORT = 2_000  # a link, an id, a status
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def venue_year_from_name(path) -> tuple[str | None, int | None]:
    """Venue and year told by the file name (`ICLR17_submissions.csv`, `icml2024_events.json`)
    or, failing that, its folder's name; only when it names a known venue and a year."""
    p = Path(path)
    for name in (p.stem, p.parent.name):
        if name and venue_in(name):
            venue, year = venue_year(name)
            if year:
                return venue, year
    return None, None


class LeftOut(Problem):
    """A record the reader leaves out on purpose (a workshop or talk in an events export, a
    volume's preface): nothing is lost, so it is a warning, counted apart from skipped records."""

    def __init__(self, source: str, line: int, reason: str):
        super().__init__(source, line, reason, warning=True)


def describe_error(exc: BaseException) -> str:
    """A one-line account of an unexpected error, for a Problem."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def word_count(text: str) -> int:
    """Words in a text; CJK text (no spaces) counts one word per two characters."""
    words = len(text.split())
    return words if text.isascii() else words + len(_CJK.findall(text)) // 2


@dataclass
class ReadContext:
    source: str  # the path as given, for messages
    venue: str | None = None  # the user's --venue (overrides the file)
    year: int | None = None  # the user's --year (overrides the file)
    file_venue: str | None = None  # told by the file itself (config, name), used when a
    file_year: int | None = None  # record does not say
    yielded: int = 0  # records and problems so far
    records: int = 0
    stopped: bool = False
    at: int = 0  # line (or record number) of the last record met, for messages
    where: str = ""  # that record, as messages name it
    _missing_told: set = field(default_factory=set)
    _warnings: list = field(default_factory=list)
    _text: TextSource | None = None

    def open(self, path) -> TextSource:
        """The decoded file, remembered so that `bytes_read` can tell how far reading got."""
        self._text = TextSource(path, self.source)
        return self._text

    @property
    def bytes_read(self) -> int:
        return self._text.bytes_read if self._text is not None else 0

    @classmethod
    def create(cls, path: str | os.PathLike, venue: str | None, year: int | str | None) -> "ReadContext":
        return cls(path_text(path), canonical_venue(venue), int(year) if year not in (None, "") else None)

    def problem(self, line: int, reason: str, fatal: bool = False) -> Problem:
        self.yielded += 1
        self.at = line or self.at
        return Problem(self.source, line, reason, fatal=fatal)

    def warn(self, line: int, reason: str) -> None:
        """A warning about the record being finished, yielded before it by `emit`."""
        self._warnings.append(Problem(self.source, line, reason, warning=True))

    def emit(self, make: Callable[[list[str]], Record] | Record, line: int,
             where: str) -> Iterator[Record | Problem]:
        """The record boundary: build the record (`make(notes)`; a builder appends to `notes`
        what it ignored, such as a year of 20240), finish it, and yield its warnings then the
        Record or a Problem naming `where`. Nothing raised while building one record
        gets past here (KeyboardInterrupt and the like excepted)."""
        self.at, self.where = line, where
        notes: list[str] = []
        try:
            rec = make(notes) if callable(make) else make
            if not (rec.year or self.year or self.file_year):  # say why, not just "no year"
                bad_year = next((note for note in notes if note.startswith("year ")), None)
                if bad_year:
                    raise FieldError(bad_year)
            out = self.finish(rec, where)
        except NotAPaper as exc:
            self._warnings.clear()
            self.yielded += 1
            out = LeftOut(self.source, line, f"not a paper: {where} is {exc}; left out")
        except FieldError as exc:
            self._warnings.clear()
            out = self.problem(line, f"bad field: {where}: {exc}")
        except Exception as exc:  # noqa: BLE001 - the boundary: report, go on with the next record
            self._warnings.clear()
            out = self.problem(line, f"unreadable record: {where} ({describe_error(exc)})")
        else:
            if isinstance(out, Record):
                for note in notes:
                    if not (note.startswith("year") and self.year):
                        self.warn(line, f"ignored: {where}: {note}")
            else:
                self._warnings.clear()  # the record is not kept: its cuts do not matter
        warnings, self._warnings = self._warnings, []
        for warning in warnings:
            yield self.counted(warning)
        yield out

    def counted(self, problem: Problem) -> Problem:
        """A Problem made elsewhere (an encoding warning), counted as yielded."""
        self.yielded += 1
        return problem

    def fatal(self, line: int, reason: str) -> Problem:
        """A fatal Problem; only valid before anything else was yielded."""
        self.stopped = True
        return self.problem(line, reason, fatal=True)

    def finish(self, rec: Record, where: str | None = None) -> Record | Problem:
        """Apply --venue/--year, clean the text fields and check the record is usable.
        `where` names the record in messages (default: `line N`)."""
        where = where or f"line {rec.line}"
        rec.venue = self.venue or canonical_venue(rec.venue) or self.file_venue
        rec.year = self.year or rec.year or self.file_year
        raw = clean_text(rec.abstract)
        raw = self._capped(raw, MAX_ABSTRACT, "abstract", rec.line, where)
        rec.abstract = clean_text(strip_inline_html(decode_entities(raw)))
        if rec.abstract != raw:  # how a version that kept the entities keyed this paper
            rec.legacy_keys = [f"a:{match_key(latex_to_plain(raw), rendered=True)}"]
        title = self._capped(clean_text(rec.title), MAX_TITLE, "title", rec.line, where)
        rec.title = clean_text(strip_inline_html(decode_entities(title))) or None
        rec.authors = self._listed(rec.authors, MAX_AUTHORS, "authors", rec.line, where)
        rec.keywords = _unique(self._listed(rec.keywords, MAX_KEYWORDS, "keywords", rec.line, where))
        rec.urls = {k: v for k, v in ((k, _short(v)) for k, v in rec.urls.items()) if v}
        rec.status = clean_text(_short(rec.status)) or None
        rec.external_id = _short(rec.external_id) or None
        rec.source = self.source
        missing = [name for name, value in (("venue", rec.venue), ("year", rec.year)) if not value]
        if missing:
            what = " and ".join(missing)
            if self.yielded == 0:
                return self.fatal(rec.line, f"no {what}: the file does not name its {what}; "
                                  f"pass --venue/--year")
            return self.problem(rec.line, f"no {what}: cannot tell the {what} of {where}; "
                                f"pass --venue/--year")
        if not rec.abstract:
            return self.problem(rec.line, f"no abstract: {where}" + (f" ({rec.title[:60]})" if rec.title else ""))
        words = word_count(rec.abstract)
        if words < MIN_ABSTRACT_WORDS:
            return self.problem(rec.line, f"too short: {where} has {words} words "
                                f"(an abstract has at least {MIN_ABSTRACT_WORDS}): "
                                f"{rec.abstract[:60]!r}")
        rec.position = self.records
        self.records += 1
        self.yielded += 1
        return rec


    def _capped(self, text: str, limit: int, name: str, line: int, where: str) -> str:
        if len(text) <= limit:
            return text
        cut = text[:limit]
        space = cut.rfind(" ", limit - 200)
        cut = cut[:space] if space > 0 else cut
        self.warn(line, f"cut: {where}: the {name} has {len(text):,} characters; "
                  f"kept the first {len(cut):,}")
        return cut

    def _listed(self, items: list, limit: int, name: str, line: int, where: str) -> list[str]:
        if len(items) > limit:
            self.warn(line, f"cut: {where}: {len(items):,} {name}; kept the first {limit:,}")
            items = items[:limit]
        out = []
        for item in items:
            text = clean_text(str(item)[:4 * MAX_NAME])
            text = clean_text(decode_entities(text))[:MAX_NAME].strip()
            if text:
                out.append(text)
        return out


def _short(value) -> str:
    """A link, an id or a status: a string the library can store (no control characters, no
    lone surrogates: neither is printable); '' when longer than MAX_SHORT (a cut link would be
    a wrong link)."""
    if value is None:
        return ""
    text = str(value).strip()
    if len(text) > MAX_SHORT:
        return ""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else " " for ch in text).strip()
    return text


def _unique(items) -> list[str]:
    out, seen = [], set()
    for item in items:
        if item and item.casefold() not in seen:
            seen.add(item.casefold())
            out.append(item)
    return out
