"""Lexical tokens for ML text: one function shared by the index, the query parser and the
snippet highlighter, so a query term matches exactly what the index stored.

- Case, diacritics and unicode variants fold (NFKC, casefold, combining marks dropped).
- Words are runs of letters/digits; Snowball (Porter2) stems them.
- Hyphenated or slashed compounds also index their joined form, so "pre-training",
  "pretraining" and "pre training" meet, and a method name such as "LoRA-GA" or "GPT-4"
  matches as a whole ("loraga", "gpt4") as well as by its parts.
- English function words (the shared `words.STOP_WORDS`) are dropped: their BM25 weight is
  ~0 anyway and they would dominate the postings.

The word pattern, folding, stemming and stop words come from `paperscope.words`; this module
adds what only the index needs (joined compounds, the term length cap, highlight offsets).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..words import JOINER as _JOINER, STEM_CACHE, STOP_WORDS, WORD as _WORD, WORD_PART as _PART, fold, fold_char, stem

VERSION = "t4"  # bump when tokens change: stored postings are rebuilt (t4: the shared stop words)

# The index drops the shared stop words (words.STOP_WORDS); a term is a folded, stemmed word.
STOPWORDS = STOP_WORDS
FIELDS = ("title", "label", "abstract", "authors", "keywords")
MAX_TERM = 40  # longer "words" (hashes, URLs squeezed together) are not terms


def _fold_char_map(text: str) -> tuple[str, list[int] | range]:
    """Folded text plus, for each folded character, the offset of its source character."""
    if text.isascii():
        return text.lower(), range(len(text))
    folded = fold(text)
    if len(folded) == len(text):  # every character folded to one: offsets unchanged
        return folded, range(len(text))
    chars: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        for c in fold_char(ch):
            chars.append(c)
            where.append(i)
    return "".join(chars), where


@lru_cache(maxsize=256)  # one pattern per query, reused for each result's snippet
def _candidates(words: frozenset[str], prefixes: tuple[str, ...]) -> re.Pattern | None:
    """A regex finding every word that might stem to one of `words` or start with a prefix
    (a stem is a prefix of its word up to its last letter: "studi" <- "study"), plus hits that
    start inside a word, which `match_spans` drops: a look-behind would be tried at every
    position of the text. Compounds are found apart (`_compounds`)."""
    heads = sorted({w[:-1] if len(w) > 3 else w for w in words} | set(prefixes), key=len, reverse=True)
    if not heads:
        return None
    return re.compile(r"(?:" + "|".join(re.escape(h) for h in heads) + r")[^\W_]*+")


def _compounds(folded: str) -> list[tuple[int, int]]:
    """(start, end) of every compound (words chained by joiners) in a folded text: found from
    its joiners, then widened to the whole chain (a `_WORD` match with more than one part).
    A word character that is not an underscore is exactly what `str.isalnum` accepts."""
    spans: list[tuple[int, int]] = []
    end = -1
    last = len(folded) - 1
    for m in _JOINER.finditer(folded):
        at = m.start()
        if at < end or at == 0 or at == last or not folded[at - 1].isalnum() or not folded[at + 1].isalnum():
            continue
        start = at - 1
        while start > 0 and folded[start - 1].isalnum():
            start -= 1
        end = _WORD.match(folded, start).end()
        spans.append((start, end))
    return spans


def match_spans(text: str, words: set[str] | frozenset[str], prefixes: list[str] | tuple[str, ...]) -> list[tuple[int, int]]:
    """(start, end) offsets into `text` of the words whose term is in `words` or starts with
    one of `prefixes` (folded), found the way the index tokenises: a compound matches by its
    joined form (the whole compound) or by its parts."""
    if not text or not (words or prefixes):
        return []
    folded, where = _fold_char_map(text)
    pattern = _candidates(frozenset(words), tuple(sorted(set(prefixes))))
    n = len(text)

    def hit(word: str) -> bool:
        if word in STOPWORDS or len(word) > MAX_TERM:
            return False
        term = stem(word)
        return term in words or any(term.startswith(p) or word.startswith(p) for p in prefixes)

    def span(a: int, b: int) -> tuple[int, int]:
        return where[a], (where[b - 1] + 1 if b - 1 < len(where) else n)

    out = []
    compounds = _compounds(folded)
    for a, b in compounds:
        parts = _PART.findall(folded, a, b)
        joined = "".join(parts)
        if stem(joined) in words or any(joined.startswith(p) for p in prefixes):
            out.append(span(a, b))
        elif any(hit(p) for p in parts):
            out += [span(p.start(), p.end()) for p in _PART.finditer(folded, a, b) if hit(p.group(0))]
    if pattern is None:
        return out
    k = 0  # words inside a compound were judged with it
    for m in pattern.finditer(folded):
        a = m.start()
        if a and folded[a - 1].isalnum():  # starts inside a word
            continue
        while k < len(compounds) and compounds[k][1] <= a:
            k += 1
        if k < len(compounds) and compounds[k][0] <= a:
            continue
        if hit(m.group(0)):
            out.append(span(a, m.end()))
    return out


def _word_terms(text: str) -> list[tuple[str, str]]:
    """(folded unstemmed word, its term) for every indexed word and joined compound, in order:
    the one tokenising loop behind `terms` (and the surface words it can collect). A token
    without a joiner (most of them: `isalnum` is exactly "no joiner" for a `_WORD` match) is
    one word and skips the split."""
    out: list[tuple[str, str]] = []
    append = out.append
    cache = STEM_CACHE
    for token in _WORD.findall(fold(text)):
        if token.isalnum():
            if token not in STOPWORDS and len(token) <= MAX_TERM:
                append((token, cache.get(token) or stem(token)))
            continue
        parts = _PART.findall(token)
        if len(parts) > 1:
            joined = "".join(parts)
            if len(joined) <= MAX_TERM:
                append((joined, stem(joined)))
        for word in parts:
            if word not in STOPWORDS and len(word) <= MAX_TERM:
                append((word, stem(word)))
    return out


def terms(text: str | None, surface: dict[str, str] | None = None) -> list[str]:
    """The terms of a text (no offsets): what the index stores and a query looks up. With
    `surface`, the words they came from are added to it in the same pass."""
    if not text:
        return []
    pairs = _word_terms(text)
    if surface is not None:
        surface.update(pairs)
    return [t for _, t in pairs]
