"""Expertise pages and their JSON: "match my papers" (paste or pick a file of one's papers; the
papers of a collection ranked by fit), "who works on X" (authors for topic words) and reviewer
suggestions for a paper. The pasted text arrives as a plain form post (read-only: nothing is
written) and is parsed here, so no multipart parser is needed; the file picker fills the text
area in static/match.js."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ..model import InputError
from .bodies import form_fields, json_object
from .deps import ID_PATTERN, Collection, Venue, Year, hits_json, pool
from .render import page, present_hit

router = APIRouter()
MAX_FORM = 2_000_000  # bytes of pasted papers
Limit = Annotated[int, Query(ge=1, le=200)]


def _scope(lib, collection: str | None) -> dict[str, Any]:
    found = lib.find_collection(collection) if collection else None
    return {"venue": found["venue"], "year": found["year"]} if found else {}


def _present(hit) -> dict[str, Any]:
    return {**present_hit(hit), "evidence": hit.why}


def _match_page(request: Request, text: str, collection: str | None, status: int = 200) -> HTMLResponse:
    hits, profile, error = [], None, None
    with pool(request) as lib:
        collections = lib.collections()
        if text.strip():
            from ..expertise.profile import from_pasted

            try:
                prof = from_pasted(lib.store, text, lib.expertise.matcher())
                profile = prof.describe()
                hits = [_present(h) for h in lib.match(prof, limit=30, **_scope(lib, collection))]
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
            found = lib.experts(q, limit=20, **_scope(lib, collection))
    return page(request, "experts.html", {"q": q, "authors": [a.to_json() for a in found],
                                          "collections": collections, "params": {"collection": collection}})


@router.get("/reviewers", response_class=HTMLResponse, include_in_schema=False)
def reviewers_page(request: Request, paper: Annotated[str, Query(pattern=ID_PATTERN)],
                   collection: Collection = None) -> HTMLResponse:
    with pool(request) as lib:
        found = lib.paper(paper)
        if found is None:
            raise HTTPException(404, "no such paper")
        out = lib.reviewers(found["id"], limit=20, **_scope(lib, collection))
    return page(request, "reviewers.html", {"p": found, "own": out["own_authors"],
                                            "excluded": out["conflicts_excluded"],
                                            "authors": [a.to_json() for a in out["reviewers"]]})


# ---------------------------------------------------------------------- JSON
@router.post("/api/match", tags=["expertise"])
async def api_match(request: Request, venue: Venue = None, year: Year = None, limit: Limit = 20) -> dict[str, Any]:
    """Papers ranked for a profile. Body: JSON {"papers": "<BibTeX / RIS / JSON text>"} or
    {"ids": [paper ids]} or {"texts": [abstracts]}."""
    body = await request.body()
    if len(body) > MAX_FORM:
        raise HTTPException(413, "profile too large")
    data = json_object(body, '{"papers": ...} | {"ids": [...]} | {"texts": [...]}')
    with pool(request) as lib:
        try:
            if isinstance(data.get("papers"), str):
                from ..expertise.profile import from_pasted

                prof = from_pasted(lib.store, data["papers"], lib.expertise.matcher())
            elif isinstance(data.get("ids"), list) or isinstance(data.get("texts"), list):
                prof = lib.profile([str(x) for x in (data.get("ids") or data.get("texts"))][:500])
            else:
                raise InputError('give "papers" (text), "ids" or "texts" (lists)')
            hits = lib.match(prof, venue=venue, year=year, limit=limit)
        except InputError as exc:
            raise HTTPException(400, str(exc)) from None
    return {"profile": prof.describe(), "results": hits_json(hits)}


@router.get("/api/reviewers", tags=["expertise"])
def api_reviewers(request: Request, paper: Annotated[Optional[str], Query(pattern=ID_PATTERN)] = None,
                  text: Annotated[Optional[str], Query(max_length=20_000)] = None,
                  keep_authors: bool = False, keep_coauthors: bool = False,
                  venue: Venue = None, year: Year = None, limit: Limit = 10) -> dict[str, Any]:
    """Authors suggested for a paper (or a text), conflicts of interest left out."""
    with pool(request) as lib:
        try:
            out = lib.reviewers(paper, text=text, limit=limit, exclude_authors=not keep_authors,
                                exclude_coauthors=not keep_coauthors, venue=venue, year=year)
        except InputError as exc:
            raise HTTPException(400, str(exc)) from None
    return {**out, "reviewers": [a.to_json() for a in out["reviewers"]]}


@router.get("/api/experts", tags=["expertise"])
def api_experts(request: Request, q: Annotated[str, Query(min_length=1, max_length=2000)],
                venue: Venue = None, year: Year = None, limit: Limit = 10) -> list[dict[str, Any]]:
    """Authors who work on a topic, with the papers that show it."""
    with pool(request) as lib:
        try:
            return [a.to_json() for a in lib.experts(q, limit=limit, venue=venue, year=year)]
        except InputError as exc:
            raise HTTPException(400, str(exc)) from None
