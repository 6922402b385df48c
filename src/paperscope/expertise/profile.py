"""A profile: the papers that stand for a person's work. Each item is a library paper (its
stored vector and postings) or a text of one's own (embedded on the fly); a profile comes from
ids, a tag, a file of one's own papers (BibTeX, RIS, CSL JSON, JSON/JSONL, CSV: entries found in
the library are used as they are, the others by their title and abstract) or plain texts."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..model import InputError
from ..store.protocol import Store

MAX_ITEMS = 500


@dataclass
class Item:
    title: str
    text: str
    paper_id: str | None = None
    rowid: int | None = None
    year: int | None = None  # for recency weighting (a library paper's year is looked up)


@dataclass
class Profile:
    items: list[Item]
    source: str = ""
    skipped: list[dict[str, Any]] = field(default_factory=list)  # file entries with no text

    @property
    def paper_ids(self) -> list[str]:
        return [i.paper_id for i in self.items if i.paper_id]

    def describe(self) -> dict[str, Any]:
        return {"source": self.source, "papers": len(self.items),
                "in_library": len(self.paper_ids), "skipped": self.skipped}


def from_ids(store: Store, ids: list[str], source: str = "ids") -> Profile:
    from ..userdata import resolve_ids

    found = store.papers_by_id(resolve_ids(store, ids))
    items = []
    for pid, paper in found.items():
        d = paper.to_dict()
        items.append(Item(d.get("title") or d.get("label") or pid, _text(d.get("title"), d.get("abstract")),
                          pid, store.rowid_of(pid)))
    return _checked(Profile(items, source))


def from_tag(store: Store, tag: str) -> Profile:
    from ..userdata import tagged_ids

    ids = tagged_ids(store, tag)
    if not ids:
        raise InputError(f"no papers tagged {tag!r} (see `paperscope tags`)")
    return from_ids(store, ids, f"tag {tag}")


def from_texts(texts: list[str], source: str = "texts") -> Profile:
    return _checked(Profile(from_texts_items(texts), source))


def from_file(store: Store, path: str | Path, matcher=None) -> Profile:
    """Entries of a file of one's own papers; `matcher` (export.importer.Matcher over the
    library's papers) links the ones the library holds."""
    from ..export.importer import Matcher, read_entries

    entries = read_entries(path)
    if not entries:
        raise InputError(f"{path}: no entries found")
    matcher = matcher or Matcher(p.to_dict() for p in store.papers())
    return _from_entries(store, entries, matcher, Path(path).name)


def _text(title: str | None, abstract: str | None) -> str:
    from ..search.semantic import paper_text

    return paper_text(title, abstract)


def _checked(profile: Profile) -> Profile:
    if not profile.items:
        raise InputError("the profile has no papers (give ids, a tag, a file with titles or abstracts, or texts)")
    if len(profile.items) > MAX_ITEMS:
        raise InputError(f"a profile holds at most {MAX_ITEMS} papers ({len(profile.items)} given)")
    return profile


def vectors_of(engine, items: list[Item]) -> np.ndarray:
    """Unit embedding of each item: the stored vector of a library paper, else embedded now
    (zeros, unused, when the library has no vectors: it was ingested without embeddings)."""
    vec = engine.vectors()
    out = np.zeros((len(items), vec.matrix.shape[1] if vec.size else 384), np.float32)
    if not vec.size:
        return out
    todo = []
    rows = vec.positions(np.array([i.rowid if i.rowid is not None else -1 for i in items], np.int64)) \
        if vec.size else np.full(len(items), -1)
    for n, (item, row) in enumerate(zip(items, rows)):
        if row >= 0:
            out[n] = vec.matrix[row]
        else:
            todo.append(n)
    if todo:
        out[todo] = engine.embed([items[n].text for n in todo])
    return out


def resolve(store: Store, given: Any, matcher=None) -> Profile:
    """A profile from what a caller has: a Profile, a path to a file of papers, a tag, a list
    of paper ids (or unique id prefixes), or a list of texts (any string that is not a
    paper id counts as a text)."""
    if isinstance(given, Profile):
        return given
    if isinstance(given, Path) or (isinstance(given, str) and Path(given).suffix and Path(given).is_file()):
        return from_file(store, given, matcher() if callable(matcher) else matcher)
    if isinstance(given, str):
        if Path(given).suffix and not Path(given).exists() and ("/" in given or "\\" in given):
            raise InputError(f"{given}: no such file")
        return from_tag(store, given)
    if isinstance(given, (list, tuple)):
        from ..userdata import resolve_id

        ids, texts = [], []
        for g in map(str, given):
            if any(ch.isspace() for ch in g.strip()) or len(g) > 80:  # ids have no spaces
                texts.append(g)
                continue
            try:
                ids.append(resolve_id(store, g))
            except InputError:
                texts.append(g)
        profile = Profile((from_ids(store, ids).items if ids else []) + from_texts_items(texts),
                          "ids" if not texts else ("texts" if not ids else "ids and texts"))
        return _checked(profile)
    raise InputError("a profile is a file of papers, a tag, a list of paper ids or a list of texts")


def from_texts_items(texts: list[str]) -> list[Item]:
    return [Item(" ".join(t.split())[:80], t) for t in texts if t and t.strip()]


def from_pasted(store: Store, text: str, matcher=None) -> Profile:
    """A profile from pasted text: BibTeX, RIS, a JSON list or JSON lines of papers, or else
    plain texts (one paper per paragraph, paragraphs split by blank lines)."""
    from ..export.importer import Matcher, parse_entries

    body = (text or "").strip()
    if not body:
        raise InputError("paste some papers (BibTeX, RIS, JSON) or abstracts")
    kind = (".bib" if body.startswith("@") else ".ris" if body.startswith("TY  -") else
            ".json" if body.startswith("[") else ".jsonl" if body.startswith("{") else None)
    if kind is None:
        return from_texts([p for p in body.split("\n\n") if p.strip()], "pasted texts")
    entries = parse_entries(kind, body, f"the pasted {kind[1:]}")
    if not entries:
        raise InputError(f"no entries found in the pasted {kind[1:]}")
    matcher = matcher or Matcher(p.to_dict() for p in store.papers())
    return _from_entries(store, entries, matcher, f"pasted {kind[1:]}")


def _from_entries(store: Store, entries, matcher, source: str) -> Profile:
    items, skipped, linked = [], [], []
    for e in entries:
        found = matcher.match(e)
        if found:
            linked.append(found[0])
        elif e.title or e.abstract:
            items.append(Item(e.title or e.abstract[:80], _text(e.title, e.abstract), year=e.year))
        else:
            skipped.append({"entry": e.position, "reason": "no title or abstract"})
    library = from_ids(store, list(dict.fromkeys(linked))).items if linked else []
    return _checked(Profile(library + items, source, skipped))
