"""OpenReview: a venue's notes, API v2 (2024 on) or API v1 (ICLR 2018-2023, NeurIPS 2021-2022).

API v2: `GET {base}/notes?content.venueid=ICLR.cc/2024/Conference&limit=1000&offset=N` answers
`{"notes": [...], "count": N}`; accepted papers carry the venue id itself, and `--all-submissions`
asks for the submission invitation instead (rejected and withdrawn ones too, each with its
`content.venue`). API v1: `GET {base}/notes?invitation=ICLR.cc/2020/Conference/-/Blind_Submission
&details=directReplies&...`: every submission with its replies, the decision among them; the raw
pages are saved under hidden names and the papers to ingest (accepted ones, unless
`--all-submissions`) as visible pages of the same shape, each note given the `content.venue`
that API v2 would give it ("ICLR 2018 Oral": v1 notes tell only their submission date).

Paging: `offset` moves by the notes received, until a page comes back empty or `count` is
reached; `count` is re-read from every page (it may change while paging; the report says so).
Login: `--token`, else `POST {base}/login {"id": $OPENREVIEW_USERNAME, "password":
$OPENREVIEW_PASSWORD}` gives a token sent as `Authorization: Bearer`. The token is never saved.
"""
from __future__ import annotations

import json
import os
from typing import Iterator

from ..fields import openreview_decision
from ..venues import status_from
from .base import Page, Plan, RemoteSource, hide, saved_or_get, slug
from .transport import BadBody, FetchError, Transport, json_check

LIMIT = 1000  # OpenReview's largest page
MAX_PAGES = 500
V2_URL = "https://api2.openreview.net"
V1_URL = "https://api.openreview.net"
# venue -> (first year on API v2, venue id pattern); earlier years use API v1 (V1_FROM)
V2 = {"ICLR": (2024, "ICLR.cc/{year}/Conference"), "NeurIPS": (2023, "NeurIPS.cc/{year}/Conference"),
      "ICML": (2023, "ICML.cc/{year}/Conference"), "COLM": (2024, "colmweb.org/COLM/{year}/Conference"),
      "TMLR": (2022, "TMLR"), "UAI": (2024, "auai.org/UAI/{year}/Conference"),
      "CoRL": (2023, "robot-learning.org/CoRL/{year}/Conference")}
V1_FROM = {"ICLR": 2018, "NeurIPS": 2021}  # blind submissions with decision replies


class OpenReview(RemoteSource):
    name = "openreview"
    label = "OpenReview"
    env = "PAPERSCOPE_OPENREVIEW_URL"
    default_url = V2_URL
    hint = "set OPENREVIEW_USERNAME/OPENREVIEW_PASSWORD or pass --token"

    def plan(self, venue, year, *, base_url=None, venue_id=None, all_submissions=False, token=None):
        first_v2, pattern = V2.get(venue, (None, None))
        v1_from = V1_FROM.get(venue)
        if venue_id:
            v1 = venue_id.endswith("Blind_Submission") or "/-/" in venue_id
        elif pattern and year >= first_v2:
            venue_id, v1 = pattern.format(year=year), False
        elif v1_from and v1_from <= year < (first_v2 or 9999):
            venue_id, v1 = f"{venue}.cc/{year}/Conference/-/Blind_Submission", True
        else:
            return None
        custom = base_url or os.environ.get(self.env, "").strip()
        base = (custom or (V1_URL if v1 else V2_URL)).rstrip("/")
        if v1:
            query = {"invitation": venue_id, "details": "directReplies"}
        elif all_submissions:
            query = {"invitation": f"{venue_id}/-/Submission"}
        else:
            query = {"content.venueid": venue_id}
        stem = f"openreview{'-v1' if v1 else ''}-{slug(venue)}-{year}{'-all' if all_submissions else ''}"
        return Plan(self.name, venue, year, f"{base}/notes", query, stem, not all_submissions,
                    {"v1": v1, "base": base, "token": token, "venue_id": venue_id})

    def pages(self, t: Transport, plan: Plan) -> Iterator[Page]:
        self._login(t, plan)
        offset, pages = 0, 0
        while True:
            params = {**plan.query, "limit": LIMIT, "offset": offset}
            name = f"{plan.stem}-p{offset:06d}.json"
            if plan.options["v1"]:
                page, received = self._v1_page(t, plan, params, name)
            else:
                got = saved_or_get(t, plan.url, name, params=params, check=_notes)
                received = len(got.data["notes"])
                if not received and got.path is not None and not got.path.name.startswith("."):
                    hide(got.path)
                page = Page(got.path if received else None, received, got.data.get("count"), got.cached,
                            raw=received)
            yield page
            pages += 1
            offset += received
            if not received or (page.total is not None and offset >= page.total):
                return
            if pages >= MAX_PAGES:
                raise FetchError(plan.url, f"more than {MAX_PAGES} pages: stopped (is the count right?)")

    def _v1_page(self, t: Transport, plan: Plan, params: dict, name: str) -> tuple[Page, int]:
        got = t.get(plan.url, params=params, save_as=f".{name[:-5]}.raw.json", check=_notes)
        notes = got.data["notes"]
        kept = [_with_venue(n, plan) for n in notes if not plan.accepted_only or _accepted(n)]
        path = None
        if kept:
            path = t.saved(name) if got.cached else None
            if path is None and t.save_dir is not None:
                body = json.dumps({"notes": kept, "count": len(kept)}, ensure_ascii=False).encode("utf-8")
                path = t.save(name, body)
        page = Page(path, len(kept), got.data.get("count"), got.cached, left_out=len(notes) - len(kept),
                    raw=len(notes))
        return page, len(notes)

    def _login(self, t: Transport, plan: Plan) -> None:
        token = plan.options.get("token")
        user, password = os.environ.get("OPENREVIEW_USERNAME"), os.environ.get("OPENREVIEW_PASSWORD")
        if not token and user and password:
            try:
                answer = t.post_json(f"{plan.options['base']}/login", {"id": user, "password": password})
            except FetchError as exc:
                why = f"{exc.status}" if exc.status else exc.reason
                raise FetchError(exc.url, f"OpenReview login failed ({why}): "
                                 f"check OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD", refused=True) from None
            token = answer.get("token") if isinstance(answer, dict) else None
            if not isinstance(token, str) or not token:
                raise FetchError(f"{plan.options['base']}/login", "OpenReview login gave no token")
        if token:
            t.headers["Authorization"] = f"Bearer {token.removeprefix('Bearer ').strip()}"


def _notes(body: bytes) -> dict:
    data = json_check(body)
    if not isinstance(data, dict) or not isinstance(data.get("notes"), list):
        raise BadBody("not an OpenReview notes page (no 'notes' list)")
    count = data.get("count")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        data["count"] = None
    return data


def _with_venue(note, plan: Plan):
    """An API v1 note as API v2 writes it: `content.venue` names venue, year and decision (its
    `cdate` is the submission date, often the year before the conference)."""
    content = note.get("content") if isinstance(note, dict) else None
    if not isinstance(content, dict) or content.get("venue"):
        return note
    decision = openreview_decision(note)
    status = status_from(decision) if decision else "Submitted"
    return {**note, "content": {**content, "venue": f"{plan.venue} {plan.year} {status}"}}


def _accepted(note) -> bool:
    if not isinstance(note, dict):
        return False
    decision = openreview_decision(note) or ""
    status = status_from(decision, keep_unknown=False) if decision else None
    return decision.casefold().startswith("accept") or status in ("Oral", "Spotlight", "Poster")
