"""What every reader shares: the file being read, the user's --venue/--year, and the rules that
turn a candidate record into a `Record` or a `Problem`.

Rules:
* `--venue`/`--year` override whatever the file says (the user knows best);
* a record whose venue or year cannot be told yields a Problem; if it is the first thing the
  file yields, the Problem is fatal (the whole file lacks them) and reading stops;
* an abstract shorter than MIN_ABSTRACT_WORDS words is not an abstract (a stray heading, a
  page number, a truncated line) and yields a Problem.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..model import Problem, Record, clean_text, decode_entities, latex_to_plain, match_key
from .venues import canonical_venue, venue_in, venue_year

MIN_ABSTRACT_WORDS = 15
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
    _missing_told: set = field(default_factory=set)

    @classmethod
    def create(cls, path: str | os.PathLike, venue: str | None, year: int | str | None) -> "ReadContext":
        return cls(os.fspath(path), canonical_venue(venue), int(year) if year not in (None, "") else None)

    def problem(self, line: int, reason: str, fatal: bool = False) -> Problem:
        self.yielded += 1
        return Problem(self.source, line, reason, fatal=fatal)

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
        rec.abstract = clean_text(decode_entities(raw))
        if rec.abstract != raw:  # how a version that kept the entities keyed this paper
            rec.legacy_keys = [f"a:{match_key(latex_to_plain(raw), rendered=True)}"]
        rec.title = clean_text(decode_entities(clean_text(rec.title))) or None
        rec.authors = [a for a in (clean_text(decode_entities(clean_text(x))) for x in rec.authors) if a]
        rec.keywords = _unique(clean_text(decode_entities(clean_text(k))) for k in rec.keywords)
        rec.urls = {k: v.strip() for k, v in rec.urls.items() if v and str(v).strip()}
        rec.status = clean_text(rec.status) or None
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


def _unique(items) -> list[str]:
    out, seen = [], set()
    for item in items:
        if item and item.casefold() not in seen:
            seen.add(item.casefold())
            out.append(item)
    return out
