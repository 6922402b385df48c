"""Conference virtual sites: `{site}/static/virtual/data/{conf}-{year}-orals-posters.json`.

One file per venue and year, `{"count": N, "results": [...]}`, each result an event with `name`
(the title), `abstract`, `authors[].fullname`, `decision`, `eventtype` (Poster, Oral), `uid`.
The JSON reader keeps posters and orals (other event types are left out as not papers); an oral
and a poster event of the same paper share the paper's `uid` and abstract and become one paper
(identity by abstract), counted as a duplicate.
"""
from __future__ import annotations

import os
from typing import Iterator

from .base import Page, Plan, RemoteSource, slug
from .transport import BadBody, Transport, json_check

SITES = {"ICML": "https://icml.cc", "ICLR": "https://iclr.cc", "NeurIPS": "https://neurips.cc",
         "CVPR": "https://cvpr.thecvf.com", "ICCV": "https://iccv.thecvf.com", "MLSys": "https://mlsys.org",
         "ECCV": "https://eccv.ecva.net", "AISTATS": "https://virtual.aistats.org"}
FIRST_YEAR = 2020  # the virtual sites start with the 2020 conferences


class Virtual(RemoteSource):
    name = "virtual"
    label = "the conference site"
    env = "PAPERSCOPE_VIRTUAL_URL"

    def plan(self, venue, year, *, base_url=None, venue_id=None, all_submissions=False, token=None):
        custom = base_url or os.environ.get(self.env, "").strip()
        site = custom or SITES.get(venue)
        if not site or (not custom and year < FIRST_YEAR):
            return None
        conf = venue_id or venue.casefold()
        url = f"{site.rstrip('/')}/static/virtual/data/{conf}-{year}-orals-posters.json"
        return Plan(self.name, venue, year, url, {}, f"virtual-{slug(conf)}-{year}-orals-posters")

    def pages(self, t: Transport, plan: Plan) -> Iterator[Page]:
        got = t.get(plan.url, save_as=f"{plan.stem}.json", check=_results)
        results = got.data["results"]
        yield Page(got.path if results else None, len(results), len(results), got.cached, raw=len(results))


def _results(body: bytes) -> dict:
    data = json_check(body)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise BadBody("not a virtual-site export (no 'results' list)")
    return data
