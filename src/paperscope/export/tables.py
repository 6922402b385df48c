"""CSV (one row per paper, for spreadsheets) and JSON Lines (paper JSON, one per line); the
`missing` column / key names what the source did not give (`title`: the shown one is derived,
`authors`)."""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from .entry import booktitle, display_title, identifiers, links, missing

CSV_COLUMNS = ("key", "id", "title", "authors", "venue", "year", "status", "booktitle", "url",
               "doi", "tags", "starred", "read", "note", "keywords", "abstract", "missing")


def render_csv(papers: list[dict[str, Any]], keys: dict[str, str]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for p in papers:
        urls = links(p)
        writer.writerow([
            keys[p["id"]], p["id"], display_title(p), "; ".join(p.get("authors") or []),
            p.get("venue") or "", p.get("year") or "", p.get("status") or "", booktitle(p) or "",
            urls[0] if urls else "", identifiers(p).get("doi", ""), "; ".join(p.get("tags") or []),
            "yes" if p.get("starred") else "", "yes" if p.get("read") else "", p.get("note") or "",
            "; ".join(p.get("keywords") or []), p.get("abstract") or "", "; ".join(missing(p)),
        ])
    return buf.getvalue()


def render_jsonl(papers: list[dict[str, Any]], keys: dict[str, str]) -> str:
    lines = []
    for p in papers:
        record = {"key": keys[p["id"]], **{k: v for k, v in p.items() if k != "abstract_source"},
                  "missing": missing(p)}
        lines.append(json.dumps(record, ensure_ascii=False, default=str))
    return "\n".join(lines) + ("\n" if lines else "")
