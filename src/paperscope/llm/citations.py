"""Citation markers in a generated answer, checked against the sources the model was given.

A marker is `[1]`, `[1, 3]`, `[1-3]`, `[Source 2]` or the full-width `【1】` / `［１］` some models
write in Chinese. Every marker is rewritten as `[1][3]` with only the numbers of sources that
were given; a number that was not given is removed and reported (as the marker the model wrote),
so no invented citation reaches the user. A sentence that states something without a citation
gets `[citation needed]` after it. `CitationFilter` does the first part on a stream, holding back
an unfinished marker until it is complete.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

UNCITED = "[citation needed]"
_MARKER = re.compile(r"[\[［【]\s*(?:(?:sources?|refs?|references?|papers?)\s*)?"
                     r"([0-9０-９]+(?:\s*(?:[,，;；、]|and|-|–|—)\s*(?:(?:sources?|papers?)\s*)?[0-9０-９]+)*)\s*[\]］】]",
                     re.IGNORECASE)
_RANGE = re.compile(r"(\d+)\s*[-–—]\s*(\d+)")
_OPEN = "[［【"
_HOLD = 40  # characters an unfinished marker may span before it is taken as plain text
# a sentence: up to a terminator followed by a space or the end ("3.5" and "e.g.x" stay whole),
# or a Chinese/Japanese terminator; markers written after the full stop belong to it
_SENTENCE = re.compile(r"(?:[^.!?。！？\n]|[.!?](?!\s|$))+(?:[.!?]+(?=\s|$)|[。！？]+|$)"
                       r"(?:[ \t]*(?:\[\d+\])+)*")
_CITED = re.compile(r"\[\d+\]")
_DROPPED = "\x00"  # where a marker naming only unknown sources stood, while sentences are checked
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@dataclass
class Checked:
    text: str
    cited: list[int] = field(default_factory=list)  # valid source numbers, in order of first use
    removed: list[str] = field(default_factory=list)  # markers (or parts) naming unknown sources
    uncited: list[str] = field(default_factory=list)  # sentences that state something uncited


def _numbers(body: str) -> list[int]:
    body = unicodedata.normalize("NFKC", body)
    found: list[int] = []
    for part in re.split(r"\s*(?:[,;、]|and)\s*", body, flags=re.IGNORECASE):
        part = re.sub(r"(?i)sources?|papers?", "", part).strip()
        span = _RANGE.fullmatch(part)
        if span:
            first, last = int(span.group(1)), int(span.group(2))
            found.extend(range(first, last + 1) if 0 <= last - first <= 20 else (first, last))
        elif part.isdigit():
            found.append(int(part))
    return found


def clean_markers(text: str, known: set[int], cited: list[int], removed: list[str],
                  dropped: str = "") -> str:
    """`text` with every marker rewritten to known numbers only (`[2][5]`), unknown ones dropped
    (replaced by `dropped` when no number of the marker was known); appends to `cited` (first
    use) and `removed` (the unknown numbers, as `[n]`)."""
    def rewrite(m: re.Match) -> str:
        keep = []
        for n in _numbers(m.group(1)):
            if n in known:
                keep.append(n)
                if n not in cited:
                    cited.append(n)
            else:
                removed.append(f"[{n}]")
        return "".join(f"[{n}]" for n in dict.fromkeys(keep)) or dropped

    out = _MARKER.sub(rewrite, text)
    return _tidy(out) if removed and not dropped else out


def _tidy(text: str) -> str:
    """No space left before punctuation or doubled where a removed marker stood."""
    text = re.sub(r"[ \t]+(?=[.,;:!?。，；：！？)]|$)", "", text, flags=re.MULTILINE)
    return re.sub(r"(?<=\S)[ \t]{2,}(?=\S)", " ", text)


def _is_claim(sentence: str) -> bool:
    """A sentence that states something: not a heading, a lead-in ending in ':', or a fragment;
    one the model cited (with a source it was not given) always is."""
    if _DROPPED in sentence:
        return True
    s = sentence.strip().lstrip("#>*-• \t").strip()
    if not s or s.endswith((":", "：")) or sentence.lstrip().startswith("#"):
        return False
    if _CJK.search(s):
        return len(_CJK.findall(s)) >= 6
    return len(re.findall(r"\w+", s)) >= 4


def mark_uncited(text: str, uncited: list[str]) -> str:
    """`text` with `[citation needed]` after each claim that cites no source."""
    lines = []
    for line in text.split("\n"):
        out, last = [], 0
        for m in _SENTENCE.finditer(line):
            sentence = m.group(0)
            out.append(line[last:m.end()])
            last = m.end()
            if not _CITED.search(sentence) and _is_claim(sentence):
                core = sentence.rstrip()
                uncited.append(core.strip())
                out[-1] = out[-1][: len(out[-1]) - (len(sentence) - len(core))] + " " + UNCITED \
                    + sentence[len(core):]
        out.append(line[last:])
        lines.append("".join(out))
    return "\n".join(lines)


def check(text: str, known: set[int]) -> Checked:
    result = Checked(text)
    cleaned = clean_markers(text, known, result.cited, result.removed, _DROPPED)
    marked = mark_uncited(cleaned, result.uncited)
    result.text = (_tidy(marked.replace(_DROPPED, "")) if result.removed else marked).strip()
    result.uncited = [_tidy(u.replace(_DROPPED, "")) for u in result.uncited]
    return result


class CitationFilter:
    """Cleans markers on a stream: `feed(delta)` returns the text safe to show now (markers
    complete and checked), `flush()` the rest at the end."""

    def __init__(self, known: set[int]):
        self.known, self.cited, self.removed = known, [], []
        self._held = ""

    def feed(self, delta: str) -> str:
        self._held += delta
        cut = len(self._held)
        opening = max(self._held.rfind(c) for c in _OPEN)
        if opening >= 0 and not any(c in self._held[opening:] for c in "]］】") \
                and len(self._held) - opening <= _HOLD:
            cut = opening
        while cut > 0 and self._held[cut - 1] in " \t":  # a space before a marker that may vanish
            cut -= 1
        ready, self._held = self._held[:cut], self._held[cut:]
        return clean_markers(ready, self.known, self.cited, self.removed)

    def flush(self) -> str:
        ready, self._held = self._held, ""
        return clean_markers(ready, self.known, self.cited, self.removed)
