"""Markdown emphasis in list text (*Spectral DeTuning*, **bold**, `code`): dropped for plain
displays (titles, labels, the CLI), shown as emphasis by the web pages (web/render.py)."""
from __future__ import annotations

import bisect
import re
from typing import Any, Iterator, NamedTuple

# Markdown emphasis some lists carry in their text (*Spectral DeTuning*, **bold**, `code`):
# a marked run that starts and ends at a word boundary, on one line. snake_case and 2*3*4 stay.
# Never across a `$`: LaTeX (f^*, a_i) is left to KaTeX. As a regular expression:
SPEC = r"(?<![\w*`$^\\])(\*\*|\*|__|_|`)(?=[^\s*_`$])([^\n$]*?[^\s*_`$\\])\1(?![\w*`$])"
# `spans` finds exactly what SPEC would (tests/test_regex_untrusted.py compares them), in linear
# time: the regex, run as such, looks from every opening marker to the end of the line for its
# closing one (an abstract of 6,000 " _x" took seconds). Here the closing markers are listed
# once and each opening marker takes the first one after it.
_MARK = re.compile(r"[*_`]")
_BARRIER = re.compile(r"[\n$]")
_BEFORE_OPEN = re.compile(r"[\w*`$^\\]")  # may not precede an opening marker
_FIRST = re.compile(r"[^\s*_`$]")  # the first character inside
_LAST = re.compile(r"[^\s*_`$\\]")  # the last character inside
_AFTER_CLOSE = re.compile(r"[\w*`$]")  # may not follow a closing marker


class Emphasis(NamedTuple):
    start: int
    end: int
    marker: str  # ** * __ _ `
    inner: str


def _closers(text: str, marks: list[int]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {m: [] for m in ("**", "*", "__", "_", "`")}
    for j in marks:
        for marker in ((text[j] * 2, text[j]) if text[j] != "`" else ("`",)):
            end = j + len(marker)
            if text.startswith(marker, j) and j and _LAST.match(text, j - 1) and \
                    not (end < len(text) and _AFTER_CLOSE.match(text, end)):
                out[marker].append(j)
    return out


def spans(text: str) -> Iterator[Emphasis]:
    """Every emphasised run of `text`, left to right, as SPEC's `finditer` gives them."""
    marks = [m.start() for m in _MARK.finditer(text)]
    if len(marks) < 2:
        return
    closers = _closers(text, marks)
    barriers = [m.start() for m in _BARRIER.finditer(text)]
    done = 0
    for i in marks:
        if i < done or (i and _BEFORE_OPEN.match(text, i - 1)):
            continue
        marker = text[i:i + 2] if text[i] != "`" and text.startswith(text[i] * 2, i) else text[i]
        inner = i + len(marker)
        if inner >= len(text) or not _FIRST.match(text, inner):
            continue
        ends = closers[marker]
        k = bisect.bisect_right(ends, inner)  # at least one character inside
        if k == len(ends):
            continue
        j = ends[k]
        b = bisect.bisect_left(barriers, inner)
        if b < len(barriers) and barriers[b] < j:
            continue
        done = j + len(marker)
        yield Emphasis(i, done, marker, text[inner:j])


def md_plain(text: Any) -> str:
    """Text with markdown emphasis markers dropped (titles, labels, snippet pieces)."""
    if not text:
        return ""
    text = str(text)
    out, at = [], 0
    for e in spans(text):
        out += [text[at:e.start], e.inner]
        at = e.end
    out.append(text[at:])
    return "".join(out)
