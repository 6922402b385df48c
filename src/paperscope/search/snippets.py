"""Snippets with highlighted query terms, and which fields a query matched (for --explain).

Matching uses the same tokens as the index (`tokens.py`), so a highlighted word is exactly a
word that counted in BM25F: "training" lights up for the query "trained".
"""
from __future__ import annotations

from functools import lru_cache

from . import tokens
from .postings import FIELDS, paper_fields
from .query import Query

SNIPPET_CHARS = 240
LEAD = 60  # characters kept before the first match of the window


def _query_terms(q: Query) -> tuple[frozenset[str], tuple[str, ...]]:
    """(terms, folded prefixes) of a query: computed once per query, not once per hit."""
    return _terms_of(tuple(q.words + q.phrases), tuple(q.prefixes))


@lru_cache(maxsize=256)
def _terms_of(texts: tuple[str, ...], raw_prefixes: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    words = frozenset(t for w in texts for t in tokens.terms(w))
    prefixes = []
    for p in raw_prefixes:
        folded = tokens.fold(p).strip()
        prefixes += [folded, tokens.stem(folded)]
    return words, tuple(p for p in prefixes if p)


def matches(text: str, q: Query) -> list[tuple[int, int, str]]:
    """(start, end, surface word) of every query-term occurrence in `text`, overlapping
    spans merged."""
    words, prefixes = _query_terms(q)
    merged: list[list[int]] = []
    for s, e in sorted(tokens.match_spans(text, words, prefixes)):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [(s, e, text[s:e].lower()) for s, e in merged]


def matched_fields(paper: dict, q: Query) -> dict[str, set[str]]:
    """{field: matched words} over the indexed fields of a paper dict."""
    import json

    texts = paper_fields(paper.get("title"), paper.get("label"), paper.get("abstract"),
                         json.dumps(paper.get("authors") or []), json.dumps(paper.get("keywords") or []))
    out: dict[str, set[str]] = {}
    for name, text in zip(FIELDS, texts):
        found = {w for _, _, w in matches(text, q)}
        if found:
            out[name] = found
    return out


def snippet(paper: dict, q: Query, width: int = SNIPPET_CHARS) -> dict:
    """{"text", "highlights": [[start, end], ...] (offsets into text), "field"}: the part of
    the abstract with the most distinct query terms, or its opening when none match."""
    text = paper.get("abstract") or paper.get("title") or ""
    found = matches(text, q)
    if not found:
        cut = _cut(text, 0, width)
        return {"text": cut[0], "highlights": [], "field": "abstract"}
    best, best_key = 0, (-1, -1)
    for i, (s, _, _) in enumerate(found):
        inside = [m for m in found[i:] if m[1] <= s + width - LEAD]
        key = (len({w for _, _, w in inside}), len(inside))
        if key > best_key:
            best, best_key = i, key
    start = _word_start(text, max(0, found[best][0] - LEAD))
    body, offset = _cut(text, start, width)
    highlights = []
    for s, e, _ in found:
        a, b = s - start + offset, e - start + offset
        if s >= start and b <= len(body) - (1 if body.endswith("…") else 0):
            highlights.append([a, b])
    return {"text": body, "highlights": highlights, "field": "abstract"}


def _word_start(text: str, at: int) -> int:
    if at <= 0:
        return 0
    sentence = text.rfind(". ", max(0, at - 40), at + 1)
    if sentence >= 0:
        return sentence + 2
    space = text.rfind(" ", 0, at + 1)
    return space + 1 if space >= 0 else at


def _cut(text: str, start: int, width: int) -> tuple[str, int]:
    """(snippet, offset of text[start] inside it): ellipses where text was cut."""
    end = start + width
    if end < len(text):
        space = text.rfind(" ", start + width // 2, end)
        end = space if space > 0 else end
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + text[start:end].rstrip() + suffix, len(prefix)
