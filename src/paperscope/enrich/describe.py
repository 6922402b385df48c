"""What the text says a named thing is: the apposition after it ("Maestro, a framework for
trainable low-rank layers"), the relative clause ("a method that reduces ..."), or the noun
phrase before "called X". Feeds the title-less label."""
from __future__ import annotations

import re

from ..words import FILLER_WORDS, STOP_WORDS
from .cues import INTRO

GENERIC_LEAD = re.compile(
    r"^(?:(?:a|an|the|our|novel|new|simple|effective|efficient|scalable|general|generic|"
    r"principled|unified|powerful|flexible|lightweight|practical|first|versatile|robust|"
    r"universal|and|but|yet|two|three|four|several|,)\s+)+", re.I)
GENERIC_KIND = re.compile(r"^(?:framework|method|approach|technique|strategy|scheme|paradigm|"
                          r"pipeline|solution)s?\s+(?:for|to|that|which)\s+", re.I)
DESC_END = re.compile(r",|;|\.(?:\s|$)|\s(?:that|which|who|where|to|by|based on|with|"
                      r"using|via|and achieves|(?:currently|commonly|widely|typically|usually|often) used)\b|\s\(")
RELATIVE = re.compile(r"^\s*(?:\([^()]*\)\s*)?,?\s*(?:(?:a|an|the)\s+(?:[\w\-]+\s+){0,4}?)?"
                      r"(?:that|which)\s+(?:can\s+|helps?\s+(?:to\s+)?|is able to\s+|aims to\s+|"
                      r"allows?\s+(?:us\s+)?to\s+|is designed to\s+|enables?\s+)?(?P<rest>.+)", re.I)
REL_END = re.compile(r",|;|\.(?:\s|$)|\s(?:by|using|via|while|whereas|based on|in order to|"
                     r"without|thereby)\b|\s\(")


def description(after: str) -> str | None:
    """`, a framework for trainable low-rank layers.` -> `trainable low-rank layers`."""
    m = re.match(r"\s*(?:\([^()]*\)\s*)?(?:,\s*|:\s*|\s—\s|\s+as\s+(?=an?\s))(?:which is\s+|is\s+)?"
                 r"(a|an|the first|the|our)\s+", after)
    if not m:
        return None
    rest = after[m.end():]
    phrase = rest
    for cut in DESC_END.finditer(rest):  # the first cut that leaves two content words
        phrase = rest[:cut.start()]
        if content(tidy_desc(phrase) or "") >= 2:
            break
    return tidy_desc(("first " if "first" in m.group(1) else "") + phrase)


def content(text: str) -> int:
    return sum(1 for w in text.split() if w.lower() not in FILLER_WORDS and
               w.lower() not in STOP_WORDS)


def relative(after: str) -> str | None:
    """`... that reduces the number of required replications.` -> `reduces the number ...`."""
    m = RELATIVE.match(after)
    if not m:
        return None
    rest = m.group("rest")
    cut = REL_END.search(rest)
    phrase = (rest[:cut.start()] if cut else rest).strip()
    return phrase if 2 <= len(phrase.split()) <= 14 else None


def np_before(before: str) -> str | None:
    """The noun phrase in front of `called X`: `we propose a target-aware peptide design
    method` -> `target-aware peptide design method`."""
    before = before.rstrip(" ,")
    cut = 0
    for m in INTRO.finditer(before):
        cut = m.end()
    for m in re.finditer(r"\b(?:which|that)\s+\w+|[,;:]", before):
        cut = max(cut, m.end())
    return tidy_desc(before[cut:])


def tidy_desc(phrase: str) -> str | None:
    phrase = GENERIC_LEAD.sub("", phrase.strip())
    stripped = GENERIC_KIND.sub("", phrase)
    stripped = re.sub(r"^(?:can|helps?(?: to)?|is able to|aims to|allows?(?: us)? to|enables?)\s+",
                      "", stripped)
    if len(stripped.split()) >= 2:
        phrase = stripped
    phrase = phrase.strip(" ,")
    return phrase if len(phrase.split()) >= 2 else None
