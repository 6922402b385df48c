"""Read a user's own library (BibTeX, RIS, CSL JSON, JSON/JSONL, CSV; e.g. a Zotero export)
and match its entries to papers in the library: by paperscope id, DOI, arXiv id, OpenReview
id, normalised title (same year preferred), then normalised abstract. Unmatched entries are
reported with their position, never dropped silently."""
from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..model import InputError, latex_to_plain, match_key
from ..sources.textio import require_file
from .entry import identifiers
from ..store.protocol import Store

MIN_TITLE_KEY = 12
ABSTRACT_PREFIX = 200  # normalised characters compared when whole abstracts differ


@dataclass
class Entry:
    position: int  # 1-based entry number in the file
    title: str = ""
    abstract: str = ""
    year: int | None = None
    urls: list[str] = field(default_factory=list)
    doi: str = ""
    paper_id: str = ""  # when the file came from a paperscope export

    def ids(self) -> dict[str, str]:
        found = identifiers({"urls": {str(i): u for i, u in enumerate(self.urls)}, "doi": self.doi})
        if self.doi:
            found["doi"] = self.doi
        return found

    def describe(self) -> str:
        return self.title or (self.abstract[:80] + "...") or "(empty entry)"


def _year(value: Any) -> int | None:
    m = re.search(r"\b(1[89]\d\d|20\d\d)\b", str(value or ""))
    return int(m.group(1)) if m else None


def _str(value: Any) -> str:
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    return " ".join(str(value or "").split())


# --------------------------------------------------------------------------- readers

def _read_bibtex(text: str) -> list[Entry]:
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware

    lib = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    out = []
    for i, e in enumerate(lib.entries, 1):
        f = {k.lower(): v for k, v in e.fields_dict.items()}
        get = lambda name: _str(f[name].value) if name in f else ""  # noqa: E731
        urls = [get("url")] if get("url") else []
        if get("eprint") and "arxiv" in (get("archiveprefix") or get("eprinttype") or "arxiv").lower():
            urls.append(f"https://arxiv.org/abs/{get('eprint')}")
        out.append(Entry(i, title=get("title"), abstract=get("abstract"), year=_year(get("year") or get("date")),
                         urls=urls, doi=get("doi"), paper_id=get("paperscope_id")))
    return out


def _read_ris(text: str) -> list[Entry]:
    import rispy

    out = []
    for i, e in enumerate(rispy.loads(text), 1):
        pid = ""
        for note in [e.get("note") or ""] + list(e.get("notes") or []):
            if str(note).startswith("paperscope:"):
                pid = str(note).split(":", 1)[1].strip()
        out.append(Entry(i, title=_str(e.get("title") or e.get("primary_title")),
                         abstract=_str(e.get("abstract") or e.get("notes_abstract")),
                         year=_year(e.get("year") or e.get("publication_year") or e.get("date")),
                         urls=list(e.get("urls") or []), doi=_str(e.get("doi")), paper_id=pid))
    return out


def _from_mapping(i: int, d: dict[str, Any]) -> Entry:
    low = {str(k).lower(): v for k, v in d.items()}
    urls: list[str] = []
    for key in ("url", "link", "pdf"):
        if low.get(key):
            urls.append(_str(low[key]))
    if isinstance(low.get("urls"), dict):
        urls += [str(u) for u in low["urls"].values() if u]
    elif isinstance(low.get("urls"), list):
        urls += [str(u) for u in low["urls"] if u]
    year = _year(low.get("year")) or _issued_year(low.get("issued"))
    custom = low.get("custom") if isinstance(low.get("custom"), dict) else {}
    pid = _str(custom.get("paperscope_id")) or (_str(low.get("id")) if low.get("abstract_source") else "")
    return Entry(i, title=_str(low.get("title")), abstract=_str(low.get("abstract")), year=year,
                 urls=urls, doi=_str(low.get("doi")), paper_id=pid)


def _issued_year(issued: Any) -> int | None:
    """CSL `issued`: {"date-parts": [[2024, 5, 1]]}; any part may be missing or empty."""
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    first = parts[0] if isinstance(parts, list) and parts else None
    return _year(first[0]) if isinstance(first, list) and first else None


def _read_json(text: str) -> list[Entry]:
    data = json.loads(text)
    if isinstance(data, dict):
        data = data.get("items") or data.get("papers") or [data]
    if not isinstance(data, list):
        raise InputError("JSON library: expected a list of entries")
    return [_from_mapping(i, d) for i, d in enumerate(data, 1) if isinstance(d, dict)]


def _read_jsonl(text: str) -> list[Entry]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                d = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"line {i}: not JSON ({exc.msg})") from None
            if isinstance(d, dict):
                out.append(_from_mapping(i, d))
    return out


def _read_csv(text: str) -> list[Entry]:
    rows = csv.DictReader(text.splitlines())
    out: list[Entry] = []
    try:
        for i, row in enumerate(rows, 1):
            out.append(_from_mapping(i, row))
    except csv.Error as exc:  # e.g. a field over the csv module's 128 KiB limit
        raise InputError(f"line {rows.line_num}: {exc}") from None
    return out


READERS = {".bib": _read_bibtex, ".bibtex": _read_bibtex, ".ris": _read_ris, ".json": _read_json,
           ".jsonl": _read_jsonl, ".csv": _read_csv}
# What a reader may raise on a file it cannot make sense of (RecursionError: JSON or braces
# nested deeper than Python's stack allows)
UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError)


def parse_entries(kind: str, text: str, where: str) -> list[Entry]:
    """The entries of `text` in format `kind` (a key of READERS); anything the text holds ends
    in an InputError that starts with `where` (a file name, or "the pasted bib")."""
    try:
        return READERS[kind](text)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    except UNREADABLE as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc) or type(exc).__name__
        raise InputError(f"{where}: could not read the entries ({why})") from None


def read_entries(path: str | Path) -> list[Entry]:
    path = Path(path)
    require_file(path, "library file")
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise InputError(f"{path}: unknown library format; use one of {', '.join(sorted(READERS))}")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_entries(path.suffix.lower(), text, str(path))


# --------------------------------------------------------------------------- matching

class Matcher:
    """Indexes the library's papers by every identity an entry can carry."""

    def __init__(self, papers: Iterable[dict[str, Any]]):
        self.by_id: dict[str, str] = {}
        self.by_ident: dict[tuple[str, str], str] = {}
        self.by_title: dict[str, list[tuple[str, int | None]]] = {}
        self.by_abstract: dict[str, str] = {}
        self.by_prefix: dict[str, str] = {}
        for p in papers:
            pid = p["id"]
            self.by_id[pid] = pid
            for kind, value in identifiers(p).items():
                self.by_ident.setdefault((kind, value.lower()), pid)
            tkey = match_key(p.get("title"))
            if len(tkey) >= MIN_TITLE_KEY:
                self.by_title.setdefault(tkey, []).append((pid, p.get("year")))
            akey = match_key(p.get("abstract"))
            if akey:
                self.by_abstract.setdefault(akey, pid)
                if len(akey) >= ABSTRACT_PREFIX:
                    self.by_prefix.setdefault(akey[:ABSTRACT_PREFIX], pid)

    def match(self, e: Entry) -> tuple[str, str] | None:
        """(paper id, how) or None."""
        if e.paper_id in self.by_id:
            return e.paper_id, "paperscope id"
        for kind, value in e.ids().items():
            if (pid := self.by_ident.get((kind, value.lower()))):
                return pid, kind
        tkey = match_key(latex_to_plain(e.title)) if e.title else ""
        if len(tkey) >= MIN_TITLE_KEY and (cands := self.by_title.get(tkey)):
            same_year = [pid for pid, y in cands if e.year and y == e.year]
            return (same_year or [cands[0][0]])[0], "title"
        akey = match_key(latex_to_plain(e.abstract)) if e.abstract else ""
        if akey and (pid := self.by_abstract.get(akey)):
            return pid, "abstract"
        if len(akey) >= ABSTRACT_PREFIX and (pid := self.by_prefix.get(akey[:ABSTRACT_PREFIX])):
            return pid, "abstract"
        return None


def match_entries(entries: list[Entry], papers: Iterable[dict[str, Any]]) -> dict[str, Any]:
    matcher = Matcher(papers)
    matched, unmatched = [], []
    for e in entries:
        found = matcher.match(e)
        if found:
            matched.append({"entry": e.position, "paper": found[0], "by": found[1], "title": e.describe()})
        else:
            unmatched.append({"entry": e.position, "title": e.describe()})
    return {"entries": len(entries), "matched": matched, "unmatched": unmatched}


def import_library(store: Store, path: str | Path, *, tag: str = "mine") -> dict[str, Any]:
    """Tag the library's papers that entries of `path` match; report matched and unmatched."""
    from ..userdata import add_tags, clean_tag

    tag = clean_tag(tag)
    entries = read_entries(path)
    if not entries:
        raise InputError(f"{path}: no entries found")
    report = match_entries(entries, (p.to_dict() for p in store.papers()))
    ids = list(dict.fromkeys(m["paper"] for m in report["matched"]))
    with store.transaction():
        added = add_tags(store, ids, [tag])
    return {"file": str(path), "tag": tag, **report, "papers_tagged": len(ids), "new_tags": added}
