"""Abbreviation definitions in a sentence: `long form (SHORT)` and `Name (Long Form)`.

The long form is found by matching the short form's letters right to left inside the words
before the parenthesis, the first letter at a word start (the idea of Schwartz & Hearst, 2003,
"A simple algorithm for identifying abbreviation definitions in biomedical text").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..words import STOP_WORDS
from .text import clean_token, is_capitalised, is_coined, replace_token

_SHORT = r"[A-Za-z0-9][A-Za-z0-9\-_^+.]{0,24}"
# (SHORT) or (SHORT1 and SHORT2[, respectively]) right after some text
_PAREN = re.compile(r"\(\s*(?:(?:for short|in short|hereafter|henceforth|or)\s*,?\s*)?"  # "(for short, EO)"
                    r"(" + _SHORT + r"(?:\s*(?:,|and)\s*" + _SHORT + r")*)"
                    r"(?:\s*,\s*respectively|\s+for short)?\s*\)")
_PAREN_LONG = re.compile(r"\(([^()]{3,120})\)")
_WINDOW = 400
_SEGMENT_BREAK = re.compile(r"[()\[\];:]|, |\s[-–—]\s")


@dataclass
class Definition:
    short: str
    long: str | None
    start: int  # offset of the long form (or of the parenthesis) in the sentence
    end: int  # offset just after the closing parenthesis
    short_first: bool = False  # `Name (Long Form)` rather than `long form (SHORT)`


def _looks_short(tok: str) -> bool:
    tok = clean_token(tok)
    return is_coined(tok) or (len(tok) >= 2 and tok.isupper())


def _letter_variants(short: str) -> list[str]:
    """Letters to match: digits repeat the letter before them (`D3IL` = D D D I L) when that
    reads sensibly, otherwise they are dropped (`EMC^2` = E M C)."""
    plain = "".join(c.lower() for c in short if c.isalpha())
    expanded, prev = [], ""
    for c in short:
        if c.isalpha():
            prev = c.lower()
            expanded.append(prev)
        elif c.isdigit() and prev and c in "23456789":
            expanded.append(prev * (int(c) - 1))
    exp = "".join(expanded)
    return [exp, plain] if exp != plain else [plain]


def _initials(letters: str, before: str) -> int | None:
    """Offset of the last words of `before` whose initials (of each hyphenated part, or of the
    word) are `letters`, or None."""
    words = list(re.finditer(r"\S+", before))
    for k in (len(letters) + 1, len(letters) + 2):  # "Efficient episodic Memory Utilization (EMU)": its capitals
        tail = words[-k:] if len(words) >= k else []
        caps = [w.group() for w in tail if w.group()[:1].isupper()]
        if tail and tail[0].group()[:1].isupper() and tail[0].group().lower() not in STOP_WORDS and \
                "".join(c[0] for c in caps).lower() == letters:
            return tail[0].start()
    for k in range(1, min(len(letters), len(words)) + 1):
        tail = words[-k:]
        parts = ["".join(p[:1] for p in re.split(r"[-/]", w.group()) if p) for w in tail]
        if tail[0].group().lower() in STOP_WORDS:
            continue  # "of out-of-distribution detection (OOD)"
        if "".join(parts).lower() == letters or "".join(p[:1] for p in parts).lower() == letters:
            return tail[0].start() if tail[0].group()[:1].isalnum() else None
    return None


def _match(letters: str, before: str) -> int | None:
    words = before.split()
    window = len(letters) + 5
    cut = len(" ".join(words[:-window])) + 1 if len(words) > window else 0
    text = before[cut:]
    si, li = len(letters) - 1, len(text) - 1
    while si >= 0:
        c = letters[si]
        while li >= 0 and (text[li].lower() != c or
                           (si == 0 and li > 0 and text[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return None
        li -= 1
        si -= 1
    start = li + 1
    # the long form starts at a word start; hyphenated heads (`Logit-scaling`) stay whole
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    # `Abstraction and Reasoning Corpus (ARC)`: a long form does not start on a function word
    first = text[start:].split(" ", 1)[0]
    if first in _NAME_LINKS:
        head = text[:start].rstrip()
        prev = head.rsplit(" ", 1)[-1] if head else ""
        if prev[:1].isupper():
            start = len(head) - len(prev)
    return cut + start


# The few lower-case words that join the words of a name ("Abstraction and Reasoning Corpus",
# "Mixture of Experts"): a name rule, narrower than the stop words of paperscope.words.
_NAME_LINKS = frozenset({"and", "of", "for", "the", "with", "to", "in", "on", "a", "an", "or", "by"})


def match_long_form(short: str, before: str) -> int | None:
    """Offset in `before` where the long form of `short` starts, or None. Words whose initials
    spell it win ("test time adaptation (TTA)", not "time adaptation")."""
    for letters in _letter_variants(short):
        if len(letters) >= 2:
            at = _initials(letters, before)
            at = _match(letters, before) if at is None else at
            if at is not None:
                return at
    return None


def definitions(sentence: str) -> list[Definition]:
    """Every abbreviation definition in a (markup-free) sentence."""
    out: list[Definition] = []
    for m in _PAREN.finditer(sentence):
        shorts = [s for s in re.split(r"\s*(?:,|\band\b)\s*", m.group(1))
                  if s and s != "respectively"]
        if not shorts or not all(_looks_short(s) for s in shorts):
            continue
        # a long form sits in the few words before the parenthesis: look at a bounded window
        window = max(0, m.start() - _WINDOW)
        if re.search(r"(?:e\.g\.|i\.e\.|see|cf\.)\s*$", sentence[window:m.start()]):
            continue
        head = sentence[:m.start()].rstrip()
        seg_start = window
        for b in _SEGMENT_BREAK.finditer(head, window):
            seg_start = b.end()
        segment = head[seg_start:]
        if len(shorts) > 1:  # (CMT and HMT, respectively): one long form each, not matched
            for s in shorts:
                out.append(Definition(clean_token(s), None, m.start(), m.end()))
            continue
        short = clean_token(shorts[0])
        at = match_long_form(short, segment) if segment.strip() else None
        if at is not None:
            long = segment[at:].strip(" ,")
            if long and long.casefold() != short.casefold():
                out.append(Definition(short, long, seg_start + at, m.end()))
                continue
        out.append(Definition(short, None, m.start(), m.end()))
    # Name (Long Form): CoLiDE (Concomitant Linear DAG Estimation)
    for m in _PAREN_LONG.finditer(sentence):
        inner = m.group(1).strip()
        words = inner.split()
        if len(words) < 2 or not sum(is_capitalised(w) for w in words) >= 2:
            continue
        prev = re.search(r"(\S+)\s*$", sentence[:m.start()])
        if not prev:
            continue
        name = clean_token(prev.group(1))
        if not (is_coined(name) or is_capitalised(name)):
            continue
        if match_long_form(name, inner) == 0:
            out.append(Definition(name, inner, prev.start(1), m.end(), short_first=True))
    out.sort(key=lambda d: d.start)
    return out


def long_forms(sentences: list[str], max_words: int = 6) -> dict[str, str]:
    """Short form -> long form of every `long form (SHORT)` definition in the sentences (the
    first definition of each short form wins; long forms of up to `max_words` words)."""
    return dict(_long_forms(tuple(sentences), max_words))  # the label and the TL;DR both ask


@lru_cache(maxsize=32)
def _long_forms(sentences: tuple[str, ...], max_words: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for sentence in sentences:
        if "(" not in sentence:
            continue
        for d in definitions(sentence):
            if not d.long or d.short_first or len(d.long.split()) > max_words or \
                    re.search(r"[()\[\]]", d.long) or not d.long.lstrip("'\"‘“")[:1].isalnum():  # "E(n)-Equivariant ..." cut at "("
                continue
            short, long = d.short, d.long
            head, _, rest = long.partition(" ")
            if head[:1].isupper() and head[1:].islower() and rest and rest == rest.lower():
                long = head.lower() + " " + rest  # capitalised only as a sentence opener
            if short.endswith("s") and len(short) > 2 and short[-2].isupper():
                short = short[:-1]  # `GNNs` is the plural of `GNN`
                long = long[:-1] if long.endswith("s") and not long.endswith("ss") else long
            out.setdefault(short, long)
    return out


def expand(text: str, forms: dict[str, str]) -> str:
    """`text` with every defined short form written out (`GNNs` -> `graph neural networks`)."""
    for short, long in forms.items():
        if short not in text:
            continue
        plural = long if long.endswith("s") else long + "s"
        text = replace_token(text, short + "s", plural)
        if _PLURAL_END.search(long) and not short.endswith("s"):  # "an LM" is one "language model"
            text = re.sub(r"\b(an?|one|each|every|single) " + re.escape(short) + r"\b(?!-)",
                          lambda m: f"{m.group(1)} {long[:-1]}", text, flags=re.I)
        text = replace_token(text, short, long)
        text = re.sub(r"\b([Aa])(n?) (?=" + re.escape(long[:-1]) + ")", lambda m: _article(m, long), text)
    return text


# a plural noun phrase whose last word can lose its "s" ("language models", not "Mixture of Experts",
# "Principal Component Analysis" or "Least Squares")
_PLURAL_END = re.compile(r"^(?!.*\bof\b).*[^suiy']s$")


def _article(m: re.Match, long: str) -> str:
    vowel = long[:1].lower() in "aeio"
    if m.group(2) and not vowel and long[:1].lower() != "u":
        return m.group(1) + " "
    if not m.group(2) and vowel:
        return m.group(1) + "n "
    return m.group()
