"""Tolerant field mapping: one paper as a dict (a JSON object, a CSV row) -> a `Record`.

Field names are matched case- and punctuation-insensitively against aliases (`Abstract`,
`abstract_text`, `paperAbstract` ...). Understood shapes besides the generic one:

* OpenReview notes, API v1 and v2 (`content.title.value`; `id`/`forum` -> OpenReview link and
  external id; `content.venue` such as `ICLR 2024 poster` -> venue, year and status; in API v1,
  where the decision is a reply note, the decision among `details.directReplies`, as
  `details=directReplies` returns it: `openreview_decision`);
* arXiv metadata snapshot lines (`categories` -> keywords, venue arXiv, year of the first version);
* conference virtual-site exports (`virtualsite_url` on icml.cc / iclr.cc / neurips.cc tells
  venue and year; events whose `type` is not a paper, such as workshops, tutorials and talks,
  are not papers and are left out).
"""
from __future__ import annotations

import ast
import math
import re
from datetime import datetime, timezone
from typing import Any

from ..model import Record
from .venues import status_from, venue_in, venue_year, year_in

ALIASES = {
    "title": ("title", "papertitle", "name"),
    "abstract": ("abstract", "summary", "abstracttext", "paperabstract"),
    "authors": ("authors", "author", "speakersauthors", "authornames", "creators", "speakers"),
    "venue": ("venue", "conference", "booktitle", "journal", "containertitle", "venueid", "conf"),
    "year": ("year", "publicationyear", "pubyear"),
    "date": ("date", "publicationdate", "published", "updatedate", "pdate", "cdate"),
    "status": ("status", "decision", "presentationtype", "presentation", "acceptance"),
    "paper": ("url", "paperurl", "link", "virtualsiteurl", "html", "abs", "absurl"),
    "pdf": ("pdf", "pdfurl"),
    "code": ("code", "codeurl", "github", "software", "sourcecode", "repository"),
    "openreview": ("openreview", "openreviewurl", "openreviewid"),
    "keywords": ("keywords", "keyword", "tags", "topics", "categories", "subjects"),
    "id": ("id", "uid", "pid", "paperid", "forum", "arxivid"),
    "doi": ("doi",),
    "type": ("type", "eventtype"),
}
_PAPER_TYPES = {"poster", "oral", "spotlight", "paper", "conference paper", "article",
                "inproceedings", "spotlight poster", "oral poster", "highlight"}
_NOT_PAPER = re.compile(r"workshop|tutorial|talk|keynote|social|panel|expo|affinity|break|"
                        r"competition|town hall|meetup|remarks|opening|closing|mentorship|session",
                        re.I)
_CONF_URL = re.compile(r"//(?:www\.)?(icml|iclr|neurips|nips)\.cc/.{0,300}?(?<!\d)(20\d\d)(?!\d)", re.I)
_OPENREVIEW = "https://openreview.net"


MAX_LITERAL = 10_000  # characters of a "['a', 'b']" keyword list worth parsing as Python
MAX_VENUE_TEXT = 300  # a longer venue string is not a venue name
MAX_LINK = 2_000  # characters of a link worth looking into


class FieldError(ValueError):
    """A field holds what cannot be what it names (the abstract is a list): the record is bad."""


class NotAPaper(Exception):
    """The record is something else the file lists on purpose (a workshop, a talk, a preface);
    the message says what (`a 'Workshop' event`)."""


def _kind(value: Any) -> str:
    return {list: "a list", dict: "an object", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)


def text_field(value: Any, name: str, notes: list[str] | None) -> str | None:
    """A text field's value: strings as they are, numbers written out; a list or an object
    where text belongs is ignored with a note (the title) or makes the record bad (the
    abstract, without which there is no paper)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (list, dict)):
        if name == "abstract":
            raise FieldError(f"the abstract is {_kind(value)}, not text")
        if notes is not None:
            notes.append(f"{name} is {_kind(value)}, not text")
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    text = str(value).strip()
    return text or None


def norm_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(key).lower())


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    text = str(value).strip()
    return text or None


def flatten(obj: dict) -> tuple[dict[str, Any], bool]:
    """(normalised key -> value, is an OpenReview note). OpenReview `content` is merged into
    the top level with its v2 `{"value": ...}` wrappers removed; earlier keys win."""
    openreview = isinstance(obj.get("content"), dict) and ("forum" in obj or "id" in obj)
    merged: dict[str, Any] = {}
    sources = [obj.get("content"), obj] if isinstance(obj.get("content"), dict) else [obj]
    for src in sources:
        for key, value in src.items():
            if isinstance(value, dict) and "value" in value and len(value) <= 3:
                value = value["value"]
            merged.setdefault(norm_key(key), value)
    return merged, openreview


def pick(fields: dict[str, Any], name: str) -> Any:
    for alias in ALIASES[name]:
        value = fields.get(alias)
        if value not in (None, "", [], {}):
            return value
    return None


def is_paper_type(value: Any) -> bool:
    kind = (_text(value) or "").casefold()
    return not kind or kind in _PAPER_TYPES or not _NOT_PAPER.search(kind)


# ---------------------------------------------------------------------------- authors

def flip_name(name: str) -> str:
    """`Last, First` -> `First Last`; `von Last, Jr, First` -> `First von Last Jr`."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and all(parts):
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return name.strip()


def split_authors(text: str) -> list[str]:
    """Author names from one string: `a|b`, `a; b`, `a, b and c`, BibTeX `Last, First and ...`."""
    text = " ".join(text.split())
    if "|" in text:
        parts = text.split("|")
    elif ";" in text:
        parts = [flip_name(p) if p.count(",") == 1 else p for p in text.split(";")]
    elif re.search(r"\s+and\s+", text):
        chunks = re.split(r"\s+and\s+", text)
        if len(chunks) >= 2 and all(c.count(",") == 1 and not c.strip().endswith(",") for c in chunks):
            parts = [flip_name(c) for c in chunks]  # BibTeX: Last, First and Last, First
        else:
            parts = [p for c in chunks for p in c.split(",")]
    else:
        parts = text.split(",")
    return [p.strip() for p in parts if p.strip()]


def parse_authors(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return split_authors(value)
    if isinstance(value, dict):
        value = [value]
    out: list[str] = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            name = _text(item.get("name") or item.get("fullname") or item.get("full_name"))
            if not name:
                given = _text(item.get("given") or item.get("first") or item.get("firstname")) or ""
                family = _text(item.get("family") or item.get("last") or item.get("lastname")) or ""
                name = f"{given} {family}".strip()
            if name:
                out.append(name)
        elif isinstance(item, list) and item:  # arXiv authors_parsed: [last, first, suffix]
            last, first, suffix = (_text(p) or "" for p in (item + ["", ""])[:3])
            name = " ".join(p for p in (first, last, suffix) if p)
            if name:
                out.append(name)
    return out


# ---------------------------------------------------------------------------- keywords, years

def parse_keywords(value: Any, spaces: bool = False) -> list[str]:
    """Keywords from a list, a `|`/`;`/`,` separated string, or a Python list literal
    (`"['a', 'b']"`); `spaces` splits on blanks (arXiv categories `cs.LG stat.ML`)."""
    if value is None:
        return []
    if isinstance(value, list):
        return [t for t in (_text(v) for v in value if not isinstance(v, (list, dict))) if t]
    text = _text(value)
    if text is None:
        return []
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = ast.literal_eval(text) if len(text) <= MAX_LITERAL else None
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            parsed = None
        if isinstance(parsed, (list, tuple)):
            return parse_keywords(list(parsed))
        text = text[1:-1]
    if spaces:
        return text.split()
    for sep in ("|", ";", ","):
        if sep in text:
            return [p.strip().strip("'\"") for p in text.split(sep) if p.strip().strip("'\"")]
    return [text] if text else []


YEAR_MIN, YEAR_MAX = 1950, 2099  # the years a paper list can be about


def is_year(value: Any) -> bool:
    """Whether `value` is a year a library can hold (an int, not a bool, in range)."""
    return isinstance(value, int) and not isinstance(value, bool) and YEAR_MIN <= value <= YEAR_MAX


def parse_year(value: Any) -> int | None:
    """A year from a number (a year, or OpenReview's milliseconds since 1970) or the first
    plausible year (1950-2099) in a text; None for anything else (NaN, 1e400, -5, 20240)."""
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if YEAR_MIN <= value <= YEAR_MAX:
            return int(value)
        if 10**11 < value < 10**14:  # OpenReview cdate: milliseconds since 1970 (up to ~5100)
            year = datetime.fromtimestamp(value / 1000, tz=timezone.utc).year
            return year if YEAR_MIN <= year <= YEAR_MAX else None
        return None
    return year_in(str(value)[:MAX_VENUE_TEXT])


def year_field(value: Any, notes: list[str] | None) -> int | None:
    """`parse_year` for a field that names the year itself: a value that holds no plausible
    year is noted (the user hears that `"year": 20240` was ignored)."""
    year = parse_year(value)
    if year is None and value not in (None, "", [], {}) and notes is not None:
        shown = repr(value) if not isinstance(value, (list, dict)) else _kind(value)
        notes.append(f"year {shown[:40]} is not a year between {YEAR_MIN} and {YEAR_MAX}")
    return year


def openreview_url(value: str | None) -> str | None:
    """An OpenReview link from an id or a link."""
    value = _text(value)
    if not value:
        return None
    if value.startswith("http"):
        return value
    return f"{_OPENREVIEW}/forum?id={value}"


def _fix_url(url: str | None) -> str | None:
    url = _text(url)
    if not url or len(url) > MAX_LINK:  # a cut link would be a wrong link
        return None
    if url.startswith("/pdf") or url.startswith("/forum"):
        return _OPENREVIEW + url
    return re.sub(r"(?<!:)//+", "/", url)  # https://ICML.cc//virtual -> https://ICML.cc/virtual


# ---------------------------------------------------------------------------- records

def record_from(obj: dict, line: int, notes: list[str] | None = None) -> Record:
    """A Record (venue/year may be None: the caller's context fills or rejects them). Raises
    NotAPaper when the object is an event that is not a paper (a workshop or tutorial) and
    FieldError when it cannot be a paper record; `notes` collects what was ignored."""
    fields, is_openreview = flatten(obj)
    kind = pick(fields, "type")
    if not is_paper_type(kind):
        raise NotAPaper(f"an event of type {_text(kind)[:40]!r}")
    is_arxiv = "categories" in fields and "id" in fields and any(
        k in fields for k in ("versions", "updatedate", "authorsparsed", "submitter"))
    rec = Record(abstract=text_field(pick(fields, "abstract"), "abstract", notes) or "", source="",
                 line=line, title=text_field(pick(fields, "title"), "title", notes))
    authors = fields.get("authorsparsed") if is_arxiv else None
    rec.authors = parse_authors(authors or pick(fields, "authors"))
    rec.keywords = parse_keywords(pick(fields, "keywords"), spaces=is_arxiv)
    _venue_year_status(rec, fields, is_arxiv, notes)
    _links(rec, fields, is_openreview, is_arxiv)
    return rec


def openreview_decision(note: dict) -> str | None:
    """The decision of an OpenReview note from its replies (`details.directReplies`: a decision,
    acceptance decision or meta-review note with `decision` or `recommendation`), else None."""
    details = note.get("details")
    replies = details.get("directReplies") if isinstance(details, dict) else None
    for reply in replies if isinstance(replies, list) else []:
        if not isinstance(reply, dict) or not isinstance(reply.get("content"), dict):
            continue
        invitations = reply.get("invitations") or [reply.get("invitation")]
        kind = " ".join(str(i) for i in invitations if isinstance(i, str))
        if not re.search(r"Decision|Meta_Review", kind):
            continue
        for key in ("decision", "recommendation"):
            value = reply["content"].get(key)
            value = value.get("value") if isinstance(value, dict) else value
            if isinstance(value, str) and value.strip():
                return value.strip()[:MAX_VENUE_TEXT]
    return None


def _venue_year_status(rec: Record, fields: dict, is_arxiv: bool, notes: list[str] | None) -> None:
    raw_status = pick(fields, "status")
    if raw_status is None and isinstance(fields.get("details"), dict):
        raw_status = openreview_decision({"details": fields["details"]})
    rec.status = status_from(_text(raw_status)) if raw_status is not None else None
    venue_text = text_field(pick(fields, "venue"), "venue", notes)
    if venue_text and len(venue_text) > MAX_VENUE_TEXT:
        if notes is not None:
            notes.append(f"venue of {len(venue_text):,} characters is not a venue name")
        venue_text = None
    if venue_text:
        venue, year = venue_year(venue_text)
        rec.venue = venue or venue_in(venue_text) or venue_text
        rec.year = year
        rec.status = rec.status or status_from(venue_text, keep_unknown=False)
    if is_arxiv:
        rec.venue = rec.venue or "arXiv"
        versions = fields.get("versions")
        if isinstance(versions, list) and versions and isinstance(versions[0], dict):
            rec.year = parse_year(versions[0].get("created"))
    rec.year = year_field(pick(fields, "year"), notes) or rec.year or parse_year(pick(fields, "date"))
    if not (rec.venue and rec.year):
        for value in (fields.get("virtualsiteurl"), pick(fields, "paper")):
            m = _CONF_URL.search((_text(value) or "")[:MAX_LINK])
            if m:
                rec.venue = rec.venue or m.group(1)
                rec.year = rec.year or int(m.group(2))
                break


def _links(rec: Record, fields: dict, is_openreview: bool, is_arxiv: bool) -> None:
    ident = _text(pick(fields, "id"))
    urls = {name: _fix_url(pick(fields, name)) for name in ("paper", "pdf", "code")}
    review = pick(fields, "openreview")
    if is_openreview:
        forum = _text(fields.get("forum")) or ident
        rec.external_id = forum
        review = review or forum
    if is_arxiv and ident:
        rec.external_id = f"arXiv:{ident}"
        urls["paper"] = urls["paper"] or f"https://arxiv.org/abs/{ident}"
        urls["pdf"] = urls["pdf"] or f"https://arxiv.org/pdf/{ident}"
    elif not rec.external_id and ident:
        rec.external_id = ident
    urls["openreview"] = openreview_url(review)
    doi = _text(pick(fields, "doi"))
    if doi:
        urls["doi"] = doi if doi.startswith("http") else f"https://doi.org/{doi}"
    rec.urls = {k: v for k, v in urls.items() if v}
