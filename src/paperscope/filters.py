"""Which papers a request is about: one `Filter` value shared by the facade, search, browse,
analysis, the CLI and the HTTP API. The store turns it into SQL (each backend once); nothing
else writes a WHERE clause.

    Filter.of(venue="ICML", year="2020..2024", status="oral", has_code=True, paper_type="theory")

Years use one syntax everywhere (CLI `--year`, API `year=`, the query language `year:`):
`2024`, `2020..2024` (also `2020-2024`), `>=2020`, `>2020`, `<=2024`, `<2024`.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from typing import Iterable

MODES = ("hybrid", "lexical", "semantic")  # search modes, for CLI, API and pages alike
HAS_KINDS = ("code", "pdf", "openreview", "url", "title", "authors", "keywords")
YEAR_HELP = "use 2024, 2020..2024, >=2020 or <2024"
_YEAR = re.compile(r"^(?:(\d{4})(?:\s*(?:\.\.|-|–)\s*(\d{4}))?|(>=|<=|>|<)(\d{4}))$")


def parse_years(value: str | int | None) -> tuple[int, int] | None:
    """An inclusive (low, high) year range, or None when `value` is not a year expression."""
    if value is None or isinstance(value, bool):
        return None
    m = _YEAR.match(str(value).strip())
    if not m:
        return None
    if m.group(1):
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        return (min(lo, hi), max(lo, hi))
    op, year = m.group(3), int(m.group(4))
    return {">=": (year, 9999), ">": (year + 1, 9999), "<=": (0, year), "<": (0, year - 1)}[op]


def years_of(value: str | int | None) -> tuple[int, int] | None:
    """`parse_years` for user input: None for no value, ValueError for a bad one."""
    if value is None or value == "":
        return None
    years = parse_years(value)
    if years is None:
        raise ValueError(f"bad year {value!r}: {YEAR_HELP}")
    return years


def intersect(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    if a is None or b is None:
        return a or b
    return (max(a[0], b[0]), min(a[1], b[1]))


def scope_key(*, venue: str | None = None, year: int | None = None,
              collections: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> str:
    """The key analysis results (topics, map) are stored under."""
    if ids is not None:
        return "ids:" + hashlib.sha1("\n".join(sorted(set(ids))).encode()).hexdigest()[:16]
    if collections:
        return "collections:" + "|".join(sorted(c.casefold() for c in collections))
    return f"venue={(venue or '').casefold()}|year={year or ''}"


@dataclass(frozen=True)
class Filter:
    """Restrictions on papers; empty fields restrict nothing. `venues` match a collection's
    venue or its name; `topic` is a coarse topic id of the `topic_scope` topic run."""

    collection: str | None = None
    venues: tuple[str, ...] = ()
    years: tuple[int, int] | None = None
    statuses: tuple[str, ...] = ()  # lower case
    has: tuple[str, ...] = ()  # HAS_KINDS
    paper_type: str | None = None
    exclude_type: str | None = None
    topic: int | None = None
    topic_scope: str | None = None
    ids: tuple[str, ...] | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, *, collection: str | None = None, venue: str | Iterable[str] | None = None,
           year: str | int | None = None, status: str | Iterable[str] | None = None,
           has_code: bool | None = None, has: Iterable[str] = (), paper_type: str | None = None,
           exclude_type: str | None = None, topic: int | None = None, topic_scope: str | None = None,
           ids: Iterable[str] | None = None) -> "Filter":
        """From loose arguments (CLI options, API parameters); a bad year raises ValueError."""
        kinds = [k.lower() for k in has] + (["code"] if has_code else [])
        unknown = [k for k in kinds if k not in HAS_KINDS]
        if unknown:
            raise ValueError(f"unknown has:{unknown[0]} (known: {', '.join(HAS_KINDS)})")
        return cls(collection=collection or None, venues=_strings(venue),
                   years=years_of(year), statuses=tuple(s.lower() for s in _strings(status)),
                   has=tuple(dict.fromkeys(kinds)), paper_type=paper_type or None,
                   exclude_type=exclude_type or None, topic=topic, topic_scope=topic_scope,
                   ids=None if ids is None else tuple(ids))

    def narrowed(self, *, venues: Iterable[str] = (), years: tuple[int, int] | None = None,
                 statuses: Iterable[str] = (), has: Iterable[str] = ()) -> "Filter":
        """This filter AND the given restrictions (as a query's `venue:` / `year:` add)."""
        return replace(self, venues=tuple(dict.fromkeys(self.venues + tuple(venues))),
                       years=intersect(self.years, years),
                       statuses=tuple(dict.fromkeys(self.statuses + tuple(s.lower() for s in statuses))),
                       has=tuple(dict.fromkeys(self.has + tuple(h.lower() for h in has))))

    @property
    def empty(self) -> bool:
        return not (self.collection or self.venues or self.years or self.statuses or self.has
                    or self.paper_type or self.exclude_type or self.topic is not None
                    or self.ids is not None)

    def key(self) -> tuple:
        """Hashable identity (for caches of filter results)."""
        return (self.collection and self.collection.casefold(), tuple(sorted(v.casefold() for v in self.venues)),
                self.years, tuple(sorted(self.statuses)), tuple(sorted(self.has)), self.paper_type,
                self.exclude_type, self.topic, self.topic_scope, self.ids)

    def to_dict(self) -> dict:
        out = {"collection": self.collection, "venue": list(self.venues) or None,
               "year": list(self.years) if self.years else None, "status": list(self.statuses) or None,
               "has": list(self.has) or None, "type": self.paper_type, "exclude_type": self.exclude_type,
               "topic": self.topic}
        return {k: v for k, v in out.items() if v is not None}


def _strings(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value if v)
