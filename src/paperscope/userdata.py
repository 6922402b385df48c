"""A researcher's own marks on papers: tags (many per paper), a star, read status, a note and
"not relevant" dismissals (explicit negatives for recommendations).

Stored in the `user_*` tables (migration 0004), keyed by paper id with no foreign key, so the
marks survive re-ingest, merges and a collection's removal and return. Functions take a
`Store`; writers expect to run inside `store.transaction()` (the `Library` facade opens it).
"""
from __future__ import annotations

from typing import Any, Iterable

from .model import InputError

MAX_TAG = 100
MAX_NOTE = 20_000
ANY_TAG = ""  # a dismissal that applies to every tag


# --------------------------------------------------------------------------- ids and tags

def resolve_id(store, ref: str) -> str:
    """A paper id from an exact id or a unique prefix of at least 4 characters."""
    ref = (ref or "").strip()
    if not ref:
        raise InputError("empty paper id")
    row = store.conn.execute("SELECT id FROM papers WHERE id = ?", (ref,)).fetchone()
    if row:
        return row[0]
    if len(ref) >= 4:
        like = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = store.conn.execute("SELECT id FROM papers WHERE id LIKE ? ESCAPE '\\' LIMIT 2",
                                  (like,)).fetchall()
        if len(rows) == 1:
            return rows[0][0]
        if len(rows) > 1:
            raise InputError(f"paper id prefix {ref!r} is ambiguous; give more characters")
    raise InputError(f"no paper with id {ref!r}")


def resolve_ids(store, refs: Iterable[str]) -> list[str]:
    out: list[str] = []
    for ref in refs:
        for part in str(ref).split(","):
            if part.strip():
                pid = resolve_id(store, part)
                if pid not in out:
                    out.append(pid)
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


def _remember_keys(store, paper_id: str) -> None:
    """Copy the paper's identity keys next to its user data (used to reattach it later)."""
    store.conn.execute("INSERT OR IGNORE INTO user_keys(key, paper_id) "
                       "SELECT key, paper_id FROM paper_keys WHERE paper_id = ?", (paper_id,))


# --------------------------------------------------------------------------- writers

def add_tags(store, paper_ids: list[str], tags: list[str]) -> int:
    """Tag papers; returns how many (paper, tag) pairs were new."""
    tags = list(dict.fromkeys(clean_tag(t) for t in tags))
    added = 0
    for pid in paper_ids:
        _remember_keys(store, pid)
        for tag in tags:
            cur = store.conn.execute("INSERT OR IGNORE INTO user_tags(paper_id, tag) VALUES (?, ?)",
                                     (pid, tag))
            added += cur.rowcount
    return added


def remove_tags(store, paper_ids: list[str], tags: list[str]) -> int:
    removed = 0
    for pid in paper_ids:
        for tag in tags:
            cur = store.conn.execute("DELETE FROM user_tags WHERE paper_id = ? AND tag = ?",
                                     (pid, clean_tag(tag)))
            removed += cur.rowcount
    return removed


def _set_mark(store, paper_id: str, column: str, value: Any) -> None:
    assert column in ("starred", "read_at", "note")  # column names are ours, never user text
    _remember_keys(store, paper_id)
    store.conn.execute("INSERT OR IGNORE INTO user_marks(paper_id) VALUES (?)", (paper_id,))
    store.conn.execute(f"UPDATE user_marks SET {column} = ?, "
                       "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE paper_id = ?",
                       (value, paper_id))
    store.conn.execute("DELETE FROM user_marks WHERE paper_id = ? AND starred = 0 AND "
                       "read_at IS NULL AND note IS NULL", (paper_id,))


def set_note(store, paper_id: str, text: str | None) -> None:
    """Set (or with empty text, clear) the paper's note."""
    text = (text or "").strip()
    if len(text) > MAX_NOTE:
        raise InputError(f"note longer than {MAX_NOTE} characters")
    _set_mark(store, paper_id, "note", text or None)


def set_starred(store, paper_id: str, on: bool = True) -> None:
    _set_mark(store, paper_id, "starred", 1 if on else 0)


def set_read(store, paper_id: str, on: bool = True) -> None:
    if on:
        row = store.conn.execute("SELECT read_at FROM user_marks WHERE paper_id = ?", (paper_id,)).fetchone()
        if row and row[0]:
            return  # keep the first time it was marked read
        value = store.conn.execute("SELECT strftime('%Y-%m-%dT%H:%M:%SZ','now')").fetchone()[0]
    else:
        value = None
    _set_mark(store, paper_id, "read_at", value)


def set_irrelevant(store, paper_id: str, on: bool = True, tag: str | None = None) -> None:
    """Mark a paper "not relevant" (for one tag, or for every tag when `tag` is None)."""
    scope = clean_tag(tag) if tag else ANY_TAG
    if on:
        _remember_keys(store, paper_id)
        store.conn.execute("INSERT OR IGNORE INTO user_dismissals(paper_id, tag) VALUES (?, ?)",
                           (paper_id, scope))
    else:
        store.conn.execute("DELETE FROM user_dismissals WHERE paper_id = ? AND tag = ?",
                           (paper_id, scope))


# --------------------------------------------------------------------------- readers

def user_fields(store, paper_id: str) -> dict[str, Any]:
    """The user-data fields of paper JSON."""
    return user_fields_many(store, [paper_id])[paper_id]


def user_fields_many(store, paper_ids: list[str]) -> dict[str, dict[str, Any]]:
    out = {pid: {"tags": [], "starred": False, "read": False, "read_at": None, "note": None,
                 "irrelevant": False, "irrelevant_tags": []} for pid in paper_ids}
    for i in range(0, len(paper_ids), 500):
        chunk = paper_ids[i:i + 500]
        marks = ",".join("?" for _ in chunk)
        for pid, tag in store.conn.execute(
                f"SELECT paper_id, tag FROM user_tags WHERE paper_id IN ({marks}) "
                "ORDER BY paper_id, tag COLLATE NOCASE", chunk):
            out[pid]["tags"].append(tag)
        for pid, starred, read_at, note in store.conn.execute(
                f"SELECT paper_id, starred, read_at, note FROM user_marks WHERE paper_id IN ({marks})",
                chunk):
            out[pid].update(starred=bool(starred), read=read_at is not None, read_at=read_at, note=note)
        for pid, tag in store.conn.execute(
                f"SELECT paper_id, tag FROM user_dismissals WHERE paper_id IN ({marks}) ORDER BY tag",
                chunk):
            if tag == ANY_TAG:
                out[pid]["irrelevant"] = True
            else:
                out[pid]["irrelevant_tags"].append(tag)
    return out


def tag_counts(store) -> list[dict[str, Any]]:
    """Every tag with the number of papers in the library carrying it, and of papers that carry
    it but are not in the library right now (kept until their paper comes back)."""
    rows = store.conn.execute(
        "SELECT MIN(t.tag), SUM(p.id IS NOT NULL), SUM(p.id IS NULL), MIN(t.added_at) "
        "FROM user_tags t LEFT JOIN papers p ON p.id = t.paper_id "
        "GROUP BY t.tag COLLATE NOCASE ORDER BY COUNT(*) DESC, MIN(t.tag) COLLATE NOCASE")
    return [{"tag": r[0], "papers": int(r[1]), "detached": int(r[2]), "since": r[3]} for r in rows]


def tagged_ids(store, tag: str) -> list[str]:
    """Ids of the library's papers carrying `tag`, in tagging order."""
    rows = store.conn.execute(
        "SELECT t.paper_id FROM user_tags t JOIN papers p ON p.id = t.paper_id "
        "WHERE t.tag = ? ORDER BY t.added_at, p.rowid", (clean_tag(tag),))
    return [r[0] for r in rows]


def dismissed_ids(store, tag: str | None = None) -> list[str]:
    """Papers marked "not relevant" for every tag, plus those dismissed for `tag`."""
    scopes = [ANY_TAG] + ([clean_tag(tag)] if tag else [])
    rows = store.conn.execute(
        f"SELECT DISTINCT d.paper_id FROM user_dismissals d JOIN papers p ON p.id = d.paper_id "
        f"WHERE d.tag IN ({','.join('?' for _ in scopes)}) ORDER BY p.rowid", scopes)
    return [r[0] for r in rows]


def marked_ids(store, *, starred: bool = False, read: bool = False,
               noted: bool = False) -> list[str]:
    """Papers with a star / a read mark / a note (all marked papers when no filter), most
    recently changed first, for "my library" views."""
    where = ["1=1"]
    if starred:
        where.append("m.starred = 1")
    if read:
        where.append("m.read_at IS NOT NULL")
    if noted:
        where.append("m.note IS NOT NULL")
    rows = store.conn.execute(
        f"SELECT m.paper_id FROM user_marks m JOIN papers p ON p.id = m.paper_id "
        f"WHERE {' AND '.join(where)} ORDER BY m.updated_at DESC, p.rowid", [])
    return [r[0] for r in rows]
