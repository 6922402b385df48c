"""Remote sources: a venue's accepted papers fetched from where the venue publishes them.

Each source is "a reader with a transport": it pages through the source over HTTP
(`transport.Transport`: retries, back-off, 429 + Retry-After, pace, saved raw responses) and
saves every page as a file that the file readers read (`sources.read`: OpenReview notes and
virtual-site exports by `json_records.py`, PMLR's volume BibTeX by `bibtex.py`), so a fetched
paper goes through the same readers, identity and merge path as `paperscope ingest`
(`ingest.Ingester`), and a saved folder replays offline with `paperscope ingest DIR`.

    SOURCES: dict[str, RemoteSource]       # openreview, virtual, pmlr (arxiv: resolve's search)
    order_for(venue, year) -> list[str]    # the sources tried, in order, when none is named
    Fetcher(store).run(venue, year, ...)   # fetch.py: the fetch itself and its report

Sources, in the order tried: `openreview` (API v2 `/notes?content.venueid=...`, API v1 blind
submissions with their decisions for venues before 2024), `virtual` (the conference site's
`{conf}-{year}-orals-posters.json`), `pmlr` (the volume's `assets/bib/bibliography.bib`).
Base URLs: `--base-url`, else $PAPERSCOPE_OPENREVIEW_URL / $PAPERSCOPE_VIRTUAL_URL /
$PAPERSCOPE_PMLR_URL / $PAPERSCOPE_ARXIV_URL, else the real site.
"""
from __future__ import annotations

from .base import Page, Plan, RemoteSource
from .catalog import SOURCES, order_for
from .transport import FetchError, Transport

__all__ = ["SOURCES", "FetchError", "Page", "Plan", "RemoteSource", "Transport", "order_for"]
