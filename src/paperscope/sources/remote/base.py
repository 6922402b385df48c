"""What every remote source shares: the plan of one fetch, the pages it yields, file names.

A source (`RemoteSource`) answers two questions: `plan(venue, year, ...)` (what to ask for, or
None when the source does not publish that venue and year) and `pages(transport, plan)` (the
saved page files, one by one, each with how many papers it holds and how many the source says
exist). Page files are named `{source}-{venue}-{year}-...` so that a saved folder tells its
venue and year by name too; pages without papers are saved under a name starting with '.', which
`paperscope ingest DIR` skips and a resumed fetch still finds.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .transport import Got, Transport


@dataclass
class Plan:
    source: str
    venue: str  # canonical venue name (ICLR)
    year: int
    url: str  # what is fetched (a page URL without paging parameters)
    query: dict[str, Any] = field(default_factory=dict)
    stem: str = ""  # file name stem of the pages (openreview-iclr-2024)
    accepted_only: bool = True
    options: dict[str, Any] = field(default_factory=dict)  # a source's own (api version, token)


@dataclass
class Page:
    path: Path | None  # the file the readers read (None: no papers on this page)
    papers: int  # records the page holds for the library
    total: int | None  # papers the source says exist (None: unknown)
    cached: bool  # read from a saved file, not the network
    left_out: int = 0  # records the source sent that the plan leaves out (rejected submissions)
    raw: int = 0  # records the source sent on this page


class RemoteSource:
    name = ""
    label = ""  # as messages name it
    env = ""  # the environment variable naming its base URL
    default_url = ""
    hint = ""  # how to get in when refused

    def base_url(self, given: str | None = None) -> str:
        return (given or os.environ.get(self.env, "").strip() or self.default_url).rstrip("/")

    def plan(self, venue: str, year: int, *, base_url: str | None = None, venue_id: str | None = None,
             all_submissions: bool = False, token: str | None = None) -> Plan | None:
        raise NotImplementedError

    def pages(self, transport: Transport, plan: Plan) -> Iterator[Page]:
        raise NotImplementedError

    def transport(self, save_dir: Path, **options: Any) -> Transport:
        return Transport(self.name, save_dir=save_dir, hint=self.hint, label=self.label, **options)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "venue"


def hide(path: Path) -> Path:
    """Move a saved page without papers out of `paperscope ingest DIR`'s sight."""
    hidden = path.with_name("." + path.name)
    os.replace(path, hidden)
    return hidden


def saved_or_get(t: Transport, url: str, name: str, *, params: dict | None, check) -> Got:
    """A page from its visible or hidden saved file, else from the network."""
    hidden = t.saved("." + name)
    if hidden is not None:
        return t.get(url, params=params, save_as="." + name, check=check)
    return t.get(url, params=params, save_as=name, check=check)
