"""Trends: how the share of papers about something moves across a venue's years.

A paper *matches* a query when it contains every word of it (as the index tokenises them:
"transformers" counts for "transformer") and every quoted phrase; the share of a year is the
matching papers over the papers of that year's collection. Ranking plays no part: this is a
count, the same definition for every year. Which topics grew between two years of a venue is a
comparison (topics fitted on both years together), ordered by the change in share.
"""
from __future__ import annotations

from typing import Any, Callable

from ..model import InputError


def query_terms(query: str) -> set[str]:
    from ..search import rerank
    from ..search.hybrid import prepare

    return set(rerank.query_terms(prepare(query)))


def matches(hit_why: dict[str, Any] | None, needed: set[str]) -> bool:
    """Whether a lexical hit's matched words cover every query term."""
    from ..search import tokens

    got = {t for w in (hit_why or {}).get("matched_terms", []) for t in tokens.terms(w)}
    return needed <= got


def query_trend(collections: list[dict[str, Any]], search: Callable[..., list[Any]], query: str,
                venue: str | None = None) -> dict[str, Any]:
    """Share of matching papers per collection (year) of a venue, oldest first. `search(query,
    collection=, limit=)` is the library's lexical search with explanations."""
    needed = query_terms(query)
    if not needed:
        raise InputError("give words to count (a trend counts papers containing all of them)")
    chosen = [c for c in collections if c["papers"] and c.get("year") is not None
              and (venue is None or (c["venue"] or "").casefold() == venue.casefold())]
    if not chosen:
        known = ", ".join(sorted({c["venue"] for c in collections if c.get("venue")})) or "none"
        raise InputError(f"no collections of venue {venue!r} with a year (venues: {known})")
    rows = []
    for c in sorted(chosen, key=lambda c: (c["venue"] or "", c["year"], c["name"])):
        hits = search(query, collection=c["name"], limit=c["papers"])
        found = [h for h in hits if matches(h.why, needed)]
        rows.append({"collection": c["name"], "venue": c["venue"], "year": c["year"], "papers": c["papers"],
                     "matching": len(found), "share": round(len(found) / c["papers"], 5),
                     "examples": [{"id": h.paper["id"], "title": h.paper.get("title") or h.paper.get("label") or ""}
                                  for h in found[:3]]})
    return {"query": query, "terms": sorted(needed), "venue": venue, "years": rows,
            "method": "papers containing every query term (and phrase), over the papers of each collection"}


def topic_growth(compare: Callable[[str, str], dict[str, Any]], earlier: str, later: str) -> dict[str, Any]:
    """Topics of two collections (fitted together), ordered by how much their share grew."""
    result = compare(earlier, later)
    rows = [{"label": t["label"], "size": t["size"], "before": t["a_share"], "after": t["b_share"],
             "change": round(t["b_share"] - t["a_share"], 4)} for t in result["topics"]]
    rows.sort(key=lambda r: (-r["change"], r["label"]))
    return {"before": result["a"], "after": result["b"], "topics": rows, "warnings": result.get("warnings", [])}
