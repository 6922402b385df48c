"""A researcher's own marks on papers: tags (many per paper), a star, read status, a note and
"not relevant" dismissals (explicit negatives for recommendations).

The store keeps them (keyed by paper id, so the marks survive re-ingest, merges and a
collection's removal and return); this module validates ids, tags and notes. Functions take a
store; writers expect to run inside `store.transaction()` (the `Library` facade opens it).
"""
from __future__ import annotations

from typing import Any, Iterable

from .model import InputError
from .store import ANY_TAG
from .store.protocol import Store

MAX_TAG = 100
MAX_NOTE = 20_000


# --------------------------------------------------------------------------- ids and tags

def resolve_id(store: Store, ref: str) -> str:
    """A paper id from an exact id or a unique prefix of at least 4 characters."""
    ref = (ref or "").strip()
    if not ref:
        raise InputError("empty paper id")
    if store.has_paper(ref):
        return ref
    found = store.ids_with_prefix(ref, limit=50)
    if len(found) == 1 and len(ref) >= 4:
        return found[0]
    if len(found) == 1:
        raise InputError(f"paper id prefix {ref!r} is too short: give at least 4 characters "
                         f"({found[0]} starts with it)")
    if found:
        many = f"{len(found)}+" if len(found) >= 50 else str(len(found))
        raise InputError(f"paper id prefix {ref!r} is ambiguous: {many} papers start with it; give more characters")
    raise InputError(f"no paper with id {ref!r}")


def resolve_ids(store: Store, refs: Iterable[str]) -> list[str]:
    """Ids from refs (each an id, a prefix or a comma-separated list of them); refs that are
    all blank ("", " , ") are an error, not a silent no-op."""
    out: list[str] = []
    given = False
    for ref in refs:
        given = True
        for part in str(ref).split(","):
            if part.strip():
                pid = resolve_id(store, part)
                if pid not in out:
                    out.append(pid)
    if given and not out:
        raise InputError("empty paper id: give an id or a unique prefix of at least 4 characters")
    return out


def clean_tag(tag: str) -> str:
    """A tag as stored: single spaces, stripped; no empty or control-character tags."""
    text = " ".join(str(tag).split())
    if not text:
        raise InputError("empty tag")
    if len(text) > MAX_TAG:
        raise InputError(f"tag longer than {MAX_TAG} characters: {text[:30]}...")
    if any(not ch.isprintable() for ch in text):
        raise InputError(f"tag with control characters: {text!r}")
    return text


# --------------------------------------------------------------------------- writers

def add_tags(store: Store, paper_ids: list[str], tags: list[str]) -> int:
    """Tag papers; returns how many (paper, tag) pairs were new."""
    tags = list(dict.fromkeys(clean_tag(t) for t in tags))
    added = 0
    for pid in paper_ids:
        store.remember_keys(pid)
        added += sum(store.add_tag(pid, tag) for tag in tags)
    return added


def remove_tags(store: Store, paper_ids: list[str], tags: list[str]) -> int:
    tags = [clean_tag(t) for t in tags]
    return sum(store.remove_tag(pid, tag) for pid in paper_ids for tag in tags)


def _set_mark(store: Store, paper_id: str, column: str, value: Any) -> None:
    store.remember_keys(paper_id)
    store.set_mark(paper_id, column, value)


def set_note(store: Store, paper_id: str, text: str | None) -> None:
    """Set (or with empty text, clear) the paper's note."""
    text = (text or "").strip()
    if len(text) > MAX_NOTE:
        raise InputError(f"note longer than {MAX_NOTE} characters")
    _set_mark(store, paper_id, "note", text or None)


def set_starred(store: Store, paper_id: str, on: bool = True) -> None:
    _set_mark(store, paper_id, "starred", 1 if on else 0)


def set_read(store: Store, paper_id: str, on: bool = True) -> None:
    if on and store.read_at(paper_id):
        return  # keep the first time it was marked read
    _set_mark(store, paper_id, "read_at", store.now() if on else None)


def set_irrelevant(store: Store, paper_id: str, on: bool = True, tag: str | None = None) -> None:
    """Mark a paper "not relevant" (for one tag, or for every tag when `tag` is None)."""
    scope = clean_tag(tag) if tag else ANY_TAG
    if on:
        store.remember_keys(paper_id)
    store.set_dismissal(paper_id, scope, on)


# --------------------------------------------------------------------------- readers

def tagged_ids(store: Store, tag: str) -> list[str]:
    """Ids of the library's papers carrying `tag`, in tagging order."""
    return store.tagged_ids(clean_tag(tag))


def dismissed_ids(store: Store, tag: str | None = None) -> list[str]:
    """Papers marked "not relevant" for every tag, plus those dismissed for `tag`."""
    return store.dismissed_ids([ANY_TAG] + ([clean_tag(tag)] if tag else []))
