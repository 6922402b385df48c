"""Row conversions both backends share: paper columns to and from their stored form (lists and
dicts as JSON text: callers outside the store never see the encoding), a stored row and its
memberships to a `Paper`, and the column lists of copies and build shards."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping

from ..model import Paper

if TYPE_CHECKING:  # a row read by column name: a dict, an sqlite3.Row, a psycopg dict row
    from _typeshed import SupportsKeysAndGetItem

    StoredRow = SupportsKeysAndGetItem[str, Any]

ANY_TAG = ""  # a dismissal that applies to every tag
PAPER_FIELDS = ("rowid", "id", "title", "title_source", "title_origin", "title_score", "abstract", "abstract_source", "authors", "keywords",
                "status", "urls", "external_id", "label", "facts")
PAPER_COLUMNS = ", ".join(PAPER_FIELDS)
# Stored paper columns a build shard carries (facts included), in one order for export and load.
BULK_COLUMNS = ("id", "title", "title_source", "abstract", "abstract_source", "authors", "keywords",
                "status", "urls", "external_id", "label", "facts", "facts_hash", "text_hash")
# Columns kept as JSON text, with the Python type each holds.
JSON_COLUMNS = {"authors": list, "keywords": list, "urls": dict, "facts": dict}


def encode_paper(values: Mapping[str, Any]) -> dict[str, Any]:
    """Column values as stored: the JSON columns' lists and dicts as JSON text."""
    out = dict(values)
    for col, kind in JSON_COLUMNS.items():
        if col in out and out[col] is not None:
            if not isinstance(out[col], kind):  # text here would be stored as a JSON string
                raise TypeError(f"{col}: give a {kind.__name__}, not {type(out[col]).__name__}")
            out[col] = json.dumps(out[col], ensure_ascii=False)
    return out


def encode_facts(facts: dict[str, Any]) -> str:
    return json.dumps(facts, ensure_ascii=False)


def decode_paper(row: StoredRow) -> dict[str, Any]:
    """A stored paper row with its JSON columns as lists and dicts (empty when unset)."""
    out = dict(row)
    for col, kind in JSON_COLUMNS.items():
        if col in out:
            out[col] = json.loads(out[col]) if out[col] else kind()
    return out


def paper_from_row(r: StoredRow, cols: list[dict[str, Any]]) -> Paper:
    """A `Paper` from its row and its memberships (first collection first)."""
    r = decode_paper(r)
    facts = r["facts"]
    facts.setdefault("label", r["label"])
    return Paper(
        id=r["id"], title=r["title"], title_source=r["title_source"],
        title_origin=r["title_origin"], title_score=r["title_score"],
        abstract=r["abstract"], abstract_source=r["abstract_source"],
        authors=r["authors"], keywords=r["keywords"],
        status=r["status"] or next((c["status"] for c in cols if c["status"]), None),
        urls=r["urls"],
        venue=cols[0]["venue"] if cols else None, year=cols[0]["year"] if cols else None,
        collections=cols, facts=facts,
    )


def membership_dict(name: str, venue: str, year: int | None, source: str, position: int,
                    status: str | None) -> dict[str, Any]:
    return {"name": name, "venue": venue, "year": year, "source": source, "position": position, "status": status}


# Tables a library is copied by (`store.copy`), with the columns that carry over. Row numbers,
# collection and source ids are each backend's own; memberships travel by collection name and
# source path, derived indexes are rebuilt at the destination.
COPY_COLUMNS = {
    "papers": ("id", "title", "title_source", "title_origin", "title_score", "abstract", "abstract_source", "authors", "keywords", "status",
               "urls", "external_id", "label", "facts", "facts_hash", "text_hash", "added_at", "updated_at"),
    "paper_keys": ("key", "paper_id"),
    "collections": ("name", "venue", "year", "added_at"),
    "sources": ("path", "sha256", "format", "ingested_at"),
    "user_tags": ("paper_id", "tag", "added_at"),
    "user_marks": ("paper_id", "starred", "read_at", "note", "updated_at"),
    "user_dismissals": ("paper_id", "tag", "added_at"),
    "user_keys": ("key", "paper_id"),
    "generated_labels": ("paper_id", "title", "tldr", "model", "score", "created_at"),
}
ORDER_BY = {"papers": "rowid", "collections": "id", "sources": "id", "generated_labels": "paper_id"}
