"""Expertise pages (their JSON is in `api.py`): "match my papers" (paste or pick a file of one's papers; the
papers of a collection ranked by fit), "who works on X" (authors for topic words) and reviewer
suggestions for a paper. The pasted text arrives as a plain form post (read-only: nothing is
written) and is parsed here, so no multipart parser is needed; the file picker fills the text
area in static/match.js."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ..model import InputError
from .bodies import form_fields
from .deps import ID_PATTERN, Collection, OldId, either, pool
from .render import page, present_hit

router = APIRouter()
MAX_FORM = 2_000_000  # bytes of pasted papers


def _present(hit) -> dict[str, Any]:
    return {**present_hit(hit), "evidence": hit.why}


def _match_page(request: Request, text: str, collection: str | None, status: int = 200) -> HTMLResponse:
    hits, profile, error = [], None, None
    with pool(request) as lib:
        collections = lib.collections()
        if text.strip():
            try:
                prof = lib.profile(pasted=text)
                profile = prof.describe()
                hits = [_present(h) for h in lib.match(prof, limit=30, collection=collection)]
            except InputError as exc:
                error, status = str(exc), 400
    return page(request, "match.html", {"text": text, "hits": hits, "profile": profile, "error": error,
                                        "collections": collections, "params": {"collection": collection}},
                status=status)


@router.get("/match", response_class=HTMLResponse, include_in_schema=False)
def match_form(request: Request, collection: Collection = None) -> HTMLResponse:
    return _match_page(request, "", collection)


@router.post("/match", response_class=HTMLResponse, include_in_schema=False)
async def match_post(request: Request) -> HTMLResponse:
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        raise HTTPException(415, "send the form (application/x-www-form-urlencoded)")
    body = await request.body()
    if len(body) > MAX_FORM:
        raise HTTPException(413, f"at most {MAX_FORM // 1_000_000} MB of papers at once")
    form = form_fields(body, ("text", "collection"))
    text, collection = form["text"], form["collection"][:200] or None
    return _match_page(request, text, collection)


@router.get("/experts", response_class=HTMLResponse, include_in_schema=False)
def experts_page(request: Request, q: Annotated[str, Query(max_length=2000)] = "",
                 collection: Collection = None) -> HTMLResponse:
    found = []
    with pool(request) as lib:
        collections = lib.collections()
        if q.strip():
            found = lib.experts(q, limit=20, collection=collection)
    return page(request, "experts.html", {"q": q, "authors": [a.to_json() for a in found],
                                          "collections": collections, "params": {"collection": collection}})


@router.get("/reviewers", response_class=HTMLResponse, include_in_schema=False)
def reviewers_page(request: Request, paper_id: Annotated[Optional[str], Query(pattern=ID_PATTERN)] = None,
                   paper: OldId = None, collection: Collection = None) -> HTMLResponse:
    with pool(request) as lib:
        found = lib.show(either(paper_id, paper, "paper_id"))
        if found is None:
            raise HTTPException(404, "no such paper")
        out = lib.reviewers(found["id"], limit=20, collection=collection)
    return page(request, "reviewers.html", {"p": found, "own": out["own_authors"],
                                            "excluded": out["conflicts_excluded"],
                                            "authors": [a.to_json() for a in out["reviewers"]]})
