"""Row conversions both backends share: a stored paper row (a mapping of column name to value,
JSON fields as text) and its memberships to a `Paper`."""
from __future__ import annotations

import json
from typing import Any, Mapping

from ..model import Paper

PAPER_FIELDS = ("rowid", "id", "title", "title_source", "title_origin", "title_score", "abstract", "abstract_source", "authors", "keywords",
                "status", "urls", "external_id", "label", "facts")
PAPER_COLUMNS = ", ".join(PAPER_FIELDS)


def paper_from_row(r: Mapping[str, Any], cols: list[dict[str, Any]]) -> Paper:
    """A `Paper` from its row and its memberships (first collection first)."""
    facts = json.loads(r["facts"] or "{}")
    facts.setdefault("label", r["label"])
    return Paper(
        id=r["id"], title=r["title"], title_source=r["title_source"],
        title_origin=r["title_origin"], title_score=r["title_score"],
        abstract=r["abstract"], abstract_source=r["abstract_source"],
        authors=json.loads(r["authors"]), keywords=json.loads(r["keywords"]),
        status=r["status"] or next((c["status"] for c in cols if c["status"]), None),
        urls=json.loads(r["urls"]),
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
}
ORDER_BY = {"papers": "rowid", "collections": "id", "sources": "id"}
