"""Domain objects shared by every package: Record (what a reader yields), Problem (a bad
record, reported with file and line), Paper (what the library stores), Hit (a ranked paper:
search hit, related paper, recommendation) and text normalisation.

Nothing here touches the database or the file system.
"""
from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

# --------------------------------------------------------------------------- records


@dataclass
class Record:
    """One paper as read from one source file, before identity and merging.

    Text fields hold the source text (LaTeX kept); `plain_*` renderings are derived by
    `normalise_record`. `line` is the 1-based line (text formats) or record number (JSON,
    CSV rows, BibTeX entries) where the record starts, for messages.
    """

    abstract: str
    source: str  # path of the file it came from
    line: int
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    status: str | None = None  # Poster / Spotlight / Oral / ... when known
    urls: dict[str, str] = field(default_factory=dict)  # paper, pdf, openreview, code, ...
    external_id: str | None = None  # e.g. an OpenReview id
    position: int = 0  # order within its list (0-based)
    # Identity keys the abstract had before HTML entities were decoded ("it&#39;s"): a library
    # made by an earlier version knows the paper by them.
    legacy_keys: list[str] = field(default_factory=list)
    # The remote source a fetched record came from (openreview, virtual, pmlr, arxiv): where its
    # title came from, as the library records it. None for a file (its name is recorded).
    origin: str | None = None


@dataclass
class Problem:
    """A record that could not be read. Never silently dropped: the ingest summary lists it."""

    source: str
    line: int
    reason: str
    fatal: bool = False  # True: the whole file is unreadable (empty, binary, bad encoding)
    warning: bool = False  # True: nothing was lost (e.g. a non-UTF-8 file decoded as cp1252)

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.reason}"


class InputError(Exception):
    """A user error about input (file, format, options). The CLI exits 1 with its message."""


class NotFound(InputError):
    """A named thing (a collection) the library does not hold: 404 on the web, exit 1 on the CLI."""


class UsageError(InputError):
    """Arguments that do not go together (neither or both of two alternatives): the CLI exits 2,
    as for any usage error; elsewhere it is an InputError."""


# --------------------------------------------------------------------------- papers

PAPER_FIELDS = (
    "id", "title", "abstract", "authors", "venue", "year", "status", "urls", "keywords",
    "collections",
)


@dataclass
class Paper:
    """A paper as stored: one row however many lists it appears in."""

    id: str
    abstract: str  # plain-text rendering (display + indexing)
    abstract_source: str  # as read (LaTeX kept)
    title: str | None = None
    title_source: str | None = None
    title_origin: str | None = None  # where the title came from: a file name or a source name
    title_score: float | None = None  # the fuzzy match score when the title came by one
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    status: str | None = None
    urls: dict[str, str] = field(default_factory=dict)
    venue: str | None = None  # of its first collection
    year: int | None = None
    collections: list[dict[str, Any]] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)  # derived by enrich/

    def to_dict(self) -> dict[str, Any]:
        d = {
            "id": self.id,
            "title": self.title,
            "title_origin": self.title_origin if self.title else "derived",
            "title_score": self.title_score,
            "abstract": self.abstract,
            "abstract_source": self.abstract_source,
            "authors": list(self.authors),
            "venue": self.venue,
            "year": self.year,
            "status": self.status,
            "urls": dict(self.urls),
            "keywords": list(self.keywords),
            "collections": [dict(c) for c in self.collections],
        }
        d.update(self.facts)
        return d


@dataclass
class Hit:
    """A ranked paper: the paper's JSON, its rank and score, a highlighted snippet and why it
    ranked there. Search hits, related papers and recommendations are hits; `to_json()` is
    the paper's JSON plus `rank`, `score`, `snippet` and the reasons under `WHY_KEY`."""

    paper: dict[str, Any]
    score: float
    rank: int = 0
    snippet: dict[str, Any] | None = None
    why: dict[str, Any] | None = None
    WHY_KEY: ClassVar[str] = "why"

    @property
    def id(self) -> str:
        return self.paper["id"]

    def to_json(self) -> dict[str, Any]:
        out = {**self.paper, "rank": self.rank, "score": self.score}
        if self.snippet is not None:
            out["snippet"] = self.snippet
        if self.why is not None:
            out[self.WHY_KEY] = self.why
        return out


@dataclass
class SearchHit(Hit):
    WHY_KEY: ClassVar[str] = "explain"  # matched terms, BM25, cosine, ranks, fusion, second stage
    translated: dict[str, Any] | None = None  # a Chinese query: searched_as, translation (search/translate.py)
    weak: bool = False  # a weak match: little of the query in it and little of its meaning
    total: int | None = None  # how many papers matched the query at all

    def to_json(self) -> dict[str, Any]:
        out = {**super().to_json(), **(self.translated or {}), "weak": self.weak}
        if self.total is not None:
            out["total"] = self.total
        return out


@dataclass
class RelatedHit(Hit):
    WHY_KEY: ClassVar[str] = "similarity"  # embedding cosine, centred cosine, word cosine
    translated: dict[str, Any] | None = None  # a Chinese --text: searched_as, translation

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), **(self.translated or {})}


@dataclass
class Recommendation(Hit):
    WHY_KEY: ClassVar[str] = "explanation"  # driving terms, nearest tagged papers, scores


# --------------------------------------------------------------------------- text

_WS = re.compile(r"\s+")
_LATEX_HINT = re.compile(r"[\\$]")
# Spans worth rendering: inline/display math, \(..\), and text-mode commands with their
# brace arguments (\textbf{...}, \emph{...}, \'e). Everything else is left untouched, which keeps
# a bare % a percent sign and makes rendering cost proportional to the LaTeX, not the abstract.
# (Math spans are bounded: an unclosed `$$` or `\(` costs linear time on any text.)
_LATEX_SPAN = re.compile(
    r"\{\\(?:it|em|bf|sl|sc|tt|rm|sf|itshape|bfseries|scshape)\s[^{}$]{0,400}\}"  # {\it X}: a group set in a font
    r"|\$\$.{1,2000}?\$\$|\$[^$]{1,400}?\$|\\\(.{1,2000}?\\\)|\\\[.{1,2000}?\\\]"
    r"|\\[A-Za-z]+\*?(?:\[[^\]]{0,40}\])?(?:\{[^{}]{0,200}\})*|\\[\'\"`^~=.][A-Za-z{]?\}?",
    re.S,
)
_FOLD = "ϵϑϰϱϕϖ"


_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


# inline HTML formatting some exports keep in abstracts (PMLR: "<b>Ch</b>aracteristic", "<em>"):
# only these tags, each with well-formed attributes, so "a <b and c> d" in prose stays
_INLINE_TAG = re.compile(r"<(?P<close>/?)(?P<tag>b|i|u|em|strong|sup|sub|tt|code|small|span|font|a|p|br)"
                         r"(?:\s+[A-Za-z-]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s<>\"']+))*\s*/?>", re.I)


def strip_inline_html(text: str) -> str:
    """Inline HTML formatting tags taken out, their text kept: "<b>Ch</b>aracteristic" ->
    "Characteristic", "10<sup>5</sup>" -> "10^5", "<br>" -> a space."""
    if "<" not in text:
        return text

    def plain(m: re.Match) -> str:
        tag = m.group("tag").lower()
        if tag in ("br", "p"):
            return " "
        if not m.group("close") and tag in ("sup", "sub"):
            return "^" if tag == "sup" else "_"
        return ""
    return _INLINE_TAG.sub(plain, text)


def decode_entities(text: str) -> str:
    """HTML character references left in exported text ("it&#39;s", "&amp;#39;" escaped
    twice) decoded; text without any is returned unchanged."""
    for _ in range(2):
        if "&" not in text or not _ENTITY.search(text):
            break
        text = html.unescape(text)
    return text


def clean_text(text: str | None) -> str:
    """Unicode NFC, no control characters, single spaces, stripped."""
    if not text:
        return ""
    text = unicodedata.normalize("NFC", text)
    if not text.isprintable():  # fast path: most text has nothing to replace
        text = "".join(ch if ch.isprintable() or ch in "\n\t" else " " for ch in text)
    return " ".join(text.split())  # same whitespace set as _WS (str.isspace), 5x faster


# font commands pylatexenc 2.11 knows to take an argument but renders as nothing: "we propose
# $\textbf{\texttt{Lingual-SMoE}}$ by ..." would lose the method's name
_KEPT_FONTS = ("texttt", "textsf", "textup", "textmd", "mbox")


@lru_cache(maxsize=1)
def _converter():
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    context = get_default_latex_context_db().filter_context()  # a copy: the default stays as it is
    context.add_context_category("paperscope-fonts", prepend=True,
                                 macros=[MacroTextSpec(name, simplify_repl="%s") for name in _KEPT_FONTS])
    return LatexNodes2Text(latex_context=context, math_mode="text", strict_latex_spaces=True)


@lru_cache(maxsize=65536)
def _render_span(span: str) -> str:
    import logging

    # pylatexenc logs a warning per macro it cannot expand; the span then stays partly raw,
    # which is the behaviour we want, so the noise is not the user's business.
    logging.getLogger("pylatexenc").setLevel(logging.CRITICAL)

    try:
        plain = _converter().latex_to_text(span)
    except Exception:  # pylatexenc is tolerant; anything it still rejects stays as source
        return span
    # Mathematical alphanumerics (𝒪, ϵ) fold to their ordinary letters (O, ε).
    return "".join(
        unicodedata.normalize("NFKC", ch) if 0x1D400 <= ord(ch) <= 0x1D7FF or ch in _FOLD else ch
        for ch in plain
    ).strip()


def latex_to_plain(text: str) -> str:
    """Plain-text rendering of text that may hold LaTeX: `$\\mathcal{O}(\\epsilon^{-2})$`
    becomes `O(ε^-2)`. Only LaTeX spans are rendered (pylatexenc); other text is kept as is."""
    if not text or not _LATEX_HINT.search(text):
        return text
    plain = _LATEX_SPAN.sub(lambda m: _render_span(m.group(0)), text)
    return _WS.sub(" ", plain).strip()


def match_key(text: str | None, *, rendered: bool = False) -> str:
    """Identity key of a text: tolerant to whitespace, LaTeX spacing, case, punctuation and
    unicode variants. Two renderings of the same abstract give the same key. Pass
    `rendered=True` when `text` is already the output of `latex_to_plain`."""
    if not text:
        return ""
    plain = clean_text(text) if rendered else latex_to_plain(clean_text(text))
    folded = unicodedata.normalize("NFKD", plain).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def paper_id_for(key: str) -> str:
    """Stable paper id from an identity key (first 12 hex of sha1)."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def content_hash(*parts: str | None) -> str:
    h = hashlib.sha1()
    for p in parts:
        h.update((p or "").encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()
