"""A researcher's question turned into the search query that retrieves its evidence.

    to_query("Which ICML 2024 papers generate molecules with diffusion?", venues={"ICML"})
    -> Asked(query="generate molecules diffusion venue:ICML year:2024", venue="ICML", year=2024, ...)

1. Chinese is translated as search translates it (search/translate.py), and the result keeps
   what was searched and the translation's warning.
2. The question's scaffolding is dropped: interrogatives, "papers", "is there any work on",
   "what do these papers use to" carry no subject and only dilute the ranking's word coverage.
   (English function words are dropped by the index anyway.)
3. A venue the library holds, named in the question ("ICML", "ICML 2024", "ICLR'24"), becomes a
   `venue:` (and `year:`) filter of the query, unless the caller gave a scope of its own;
   several venues named are any of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

MAX_QUESTION = 2000  # characters (the search query's own limit)

# Words that ask rather than say what about: interrogatives, requests, and what every question
# about a paper list says ("papers", "work", "research").
SCAFFOLD = frozenset("""
which what whats how who where when why whom whose is are was were do does did doing there any anything
some papers paper work works article articles publication publications research researchers study studies
list show find tell give me please looking look know want i we you can could would should
these those them library here exist exists existing propose proposes proposed use uses used
approach approaches way ways about regarding concerning related relating kind kinds
""".split())
# The same in Chinese, before translation (the glossary has most as stop words; these not).
_ZH_SCAFFOLD = re.compile(r"有哪些|有没有|有什么|哪些|哪篇|什么|是否有|请问|请列出|论文|文章|研究了|工作")
_WORD = re.compile(r"[^\s]+")
_EDGE = "?？!！.。,，;；:：()（）[]【】\"'“”‘’"
_YEAR_TOKEN = re.compile(r"^'?(\d{2}|\d{4})$")
_VENUE_YEAR = re.compile(r"^(?P<venue>[A-Za-z][A-Za-z-]*?)['’]?(?P<year>\d{2}|\d{4})?$")


@dataclass
class Asked:
    question: str
    query: str  # what is searched (English, filters appended)
    searched_as: str | None = None  # a Chinese question: the English it was searched as
    warning: str | None = None  # little of a Chinese question understood
    venue: str | None = None  # found in the question (several: "ICML, ICLR")
    year: int | None = None
    dropped: list[str] = field(default_factory=list)  # scaffolding words left out


def check_question(question: object) -> str:
    """The question as text; ValueError naming `question` when empty or too long."""
    text = str(question if question is not None else "").strip()
    if not text:
        raise ValueError("question: ask something, e.g. \"which papers recover LoRA weights?\"")
    if len(text) > MAX_QUESTION:
        raise ValueError(f"question: at most {MAX_QUESTION} characters ({len(text)} given)")
    return text


def _year(text: str | None) -> int | None:
    if not text:
        return None
    value = int(text)
    return value + 2000 if value < 100 else value if 1950 <= value <= 2099 else None


def _venue_at(words: list[str], i: int, venues: dict[str, str]) -> tuple[str, int | None, int] | None:
    """(venue, year or None, words used) when words[i] names a venue of the library."""
    m = _VENUE_YEAR.match(words[i].strip(_EDGE))
    if not m or m["venue"].casefold() not in venues:
        return None
    venue, year = venues[m["venue"].casefold()], _year(m["year"])
    if year is None and i + 1 < len(words):
        nxt = _YEAR_TOKEN.match(words[i + 1].strip(_EDGE))
        if nxt and _year(nxt[1]):
            return venue, _year(nxt[1]), 2
    return venue, year, 1


def to_query(question: str, *, venues: Iterable[str] = (), scoped: bool = False) -> Asked:
    """The query for a question (see the module docstring). `venues`: the library's venue names;
    `scoped`: the caller already narrowed the search (no venue taken from the question)."""
    from ..search.translate import translate_query

    text = check_question(question)
    asked = translate_query(_ZH_SCAFFOLD.sub(" ", text))
    english = asked.english if asked.is_chinese else text
    known = {v.casefold(): v for v in venues}
    words = _WORD.findall(english)
    kept: list[str] = []
    dropped: list[str] = []
    venues: list[str] = []  # several named ("ICML or ICLR"): any of them
    years: set[int] = set()
    i = 0
    while i < len(words):
        found = None if scoped else _venue_at(words, i, known)
        if found:
            venues += [found[0]] if found[0] not in venues else []
            years |= {found[1]} if found[1] else set()
            i += found[2]
            continue
        word = words[i]
        bare = word.strip(_EDGE)
        if ":" not in word and bare.casefold().replace("'s", "") in SCAFFOLD:
            dropped.append(bare)
        elif bare:
            kept.append(word if ":" in word or word.startswith('"') else bare)
        i += 1
    if not kept:  # only scaffolding: search what was asked rather than nothing
        kept = [w.strip(_EDGE) for w in words if w.strip(_EDGE)]
        dropped = []
    year = years.pop() if len(years) == 1 else None  # two years named: neither is the scope
    query = " ".join(kept + [f"venue:{v}" for v in venues] + ([f"year:{year}"] if year else []))
    return Asked(question=text, query=query, searched_as=asked.english if asked.is_chinese else None,
                 warning=asked.warning, venue=", ".join(venues) or None, year=year, dropped=dropped)
