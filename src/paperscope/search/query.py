"""The search query language.

    flow matching                 words: ranked (BM25F + meaning), none required
    "flow matching"               phrase: required, in this word order
    diffus*                       prefix: any term starting so (ranked like a word)
    -gan   -"image generation"    exclusion of a word or a phrase
    venue:ICML year:2024 year:2020..2023 year:>=2022 status:oral has:code
    author:"Yoshua Bengio"        filters (values may be quoted; several venues = any of them)

Parsing never fails: unbalanced quotes close at the end, unknown `key:value` pairs and
operators such as AND / OR / NOT are read as plain words, stray `*`, `:` and `-` are ignored,
and invalid filter values are skipped with a warning. Nothing from here is ever pasted into
SQL: phrases reach FTS5 only as quoted strings built by `fts_phrase`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..filters import YEAR_HELP, intersect, parse_years

FILTER_KEYS = {"venue": "venue", "year": "year", "status": "status", "has": "has",
               "author": "author", "authors": "author", "by": "author"}
MAX_QUERY = 2000  # characters; longer input is cut (a pasted abstract is fine)
# A quote opens a phrase only where a token starts (after a space, `-` or `key:`); a quote glued
# to the end of a word, as in a pasted LaTeX title (``Difficult" Tasks), closes nothing and opens
# nothing: it stays with its word instead of turning the rest of the query into a required phrase.
# The one lexer of the query language: search/translate.py reads a Chinese query with it too,
# so both see the same tokens. Groups: "-" or "", "key:" or None, the "phrase" or word.
TOKEN = re.compile(r'(-?)([A-Za-z]+:)?("[^"]*"?|[^\s"]+"*)')


@dataclass
class Query:
    raw: str
    words: list[str] = field(default_factory=list)  # free words, as typed
    phrases: list[str] = field(default_factory=list)
    prefixes: list[str] = field(default_factory=list)  # without the *
    excluded_words: list[str] = field(default_factory=list)
    excluded_phrases: list[str] = field(default_factory=list)
    venues: list[str] = field(default_factory=list)
    years: tuple[int, int] | None = None  # inclusive range
    statuses: list[str] = field(default_factory=list)
    has: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)  # what the query means, in order

    @property
    def text(self) -> str:
        """The free text (words, phrases, prefixes) for the semantic side."""
        return " ".join(self.text_parts)

    @property
    def has_text(self) -> bool:
        return bool(self.words or self.phrases or self.prefixes)

    @property
    def has_filters(self) -> bool:
        return bool(self.venues or self.years or self.statuses or self.has or self.authors)

    def to_dict(self) -> dict:
        return {k: v for k, v in {
            "words": self.words, "phrases": self.phrases, "prefixes": self.prefixes,
            "excluded": self.excluded_words + [f'"{p}"' for p in self.excluded_phrases],
            "venue": self.venues, "year": list(self.years) if self.years else None,
            "status": self.statuses, "has": self.has, "author": self.authors,
            "warnings": self.warnings}.items() if v}


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value.endswith('"') else value.lstrip('"')


def _clean(text: str) -> str:
    """Printable characters only, single spaces."""
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(text.split())


def parse(raw: str | None) -> Query:
    raw = _clean(str(raw or ""))[:MAX_QUERY]
    q = Query(raw=raw)
    for m in TOKEN.finditer(raw):
        neg, key, value = m.group(1) == "-", m.group(2), m.group(3)
        quoted = value.startswith('"')
        text = _clean(_unquote(value).replace('"', " "))
        if key:
            name = FILTER_KEYS.get(key[:-1].lower())
            if name and not neg and text:
                _add_filter(q, name, text)
                continue
            # not a filter: read `key:value` as words
            text = _clean(f"{key[:-1]} {text}")
        if not text:
            continue
        if neg:
            (q.excluded_phrases if quoted or " " in text else q.excluded_words).append(text)
        elif quoted:
            if " " in text:
                q.phrases.append(text)
            else:
                q.words.append(text)
            q.text_parts.append(text)
        elif text.endswith("*") and len(text.rstrip("*")) >= 2 and "*" not in text.rstrip("*"):
            q.prefixes.append(text.rstrip("*"))
            q.text_parts.append(text.rstrip("*"))
        else:
            word = text.replace("*", " ").strip()
            if word and any(ch.isalnum() for ch in word):
                q.words.append(word)
                q.text_parts.append(word)
    return q


def _add_filter(q: Query, name: str, value: str) -> None:
    if name == "venue":
        q.venues.append(value)
    elif name == "status":
        q.statuses.append(value.lower())
    elif name == "has":
        q.has.append(value.lower())
    elif name == "author":
        q.authors.append(value)
    elif name == "year":
        years = parse_years(value)
        if years is None:
            q.warnings.append(f"ignored year:{value} ({YEAR_HELP})")
        else:
            q.years = intersect(q.years, years)  # several year filters: their intersection


def fts_phrase(text: str) -> str:
    """An FTS5 string token for `text`: double quotes around, inner quotes doubled. FTS5
    tokenises what is inside, so operators and punctuation there are plain characters."""
    return '"' + text.replace('"', '""') + '"'
