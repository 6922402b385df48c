"""JSON API under /api. Each route validates its parameters, calls one `Library` method and
returns its result unchanged, so the JSON is the CLI's `--json` output; routes and parameters
carry the names of `names.py` (a query is `query`, a paper `paper_id`; the old `q`, `id` and
`paper` are still accepted). Writes (tags, notes, star, read, fetch) go through `check_write`."""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Optional

import orjson
from fastapi import APIRouter, Body, Depends, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from .bodies import json_object
from .deps import (ID_PATTERN, Collection, Flag, Mode, OldId, OldQuery, Venue, Year, check_write, either,
                   hits_json, pool)

router = APIRouter(prefix="/api", tags=["api"])

PaperId = Annotated[str, Path(pattern=ID_PATTERN, description="paper id (as in `paperscope list --json`)")]
Sort = Literal["list", "topic", "type", "title", "recent"]


class FastJSONResponse(JSONResponse):
    """The same compact UTF-8 JSON as Starlette's, written by orjson (about a tenth of the time
    for a page of search hits); a float that is not finite becomes null."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY)


def json(data: Any, **headers: str) -> JSONResponse:
    return FastJSONResponse(data, headers=headers or None)


# ---------------------------------------------------------------------- library
@router.get("/stats", summary="Papers per collection (= `paperscope stats --json`)")
def stats(request: Request) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.stats())


@router.get("/collections", summary="Collections with paper counts")
def collections(request: Request) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.collections())


@router.get("/papers", summary="List papers, one page at a time (= `paperscope list --json`)",
            description="Returns a list of paper objects; the total is in the `X-Total-Count` header.")
def papers(request: Request, collection: Collection = None, venue: Venue = None, year: Year = None,
           sort: Sort = "list",
           paper_type: Annotated[Optional[str], Query(alias="type", max_length=60)] = None,
           exclude_type: Annotated[Optional[str], Query(max_length=60)] = None,
           has_code: Optional[bool] = None,
           status: Flag = None, topic: Annotated[Optional[int], Query(ge=0, le=10_000)] = None,
           limit: Annotated[int, Query(ge=1, le=500)] = 50,
           offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> JSONResponse:
    with pool(request) as lib:
        page = lib.papers_page(collection=collection, venue=venue, year=year, sort=sort,
                          paper_type=paper_type, exclude_type=exclude_type, has_code=has_code,
                          status=status, topic=topic, limit=limit, offset=offset)
    return json(page["papers"], **{"X-Total-Count": str(page["total"])})


@router.get("/papers/{paper_id}", summary="One paper (= `paperscope show ID --json`)")
def show(request: Request, paper_id: PaperId) -> JSONResponse:
    with pool(request) as lib:
        found = lib.show(paper_id)
    if found is None:
        raise HTTPException(404, f"no paper with id {paper_id!r}")
    return json(found)


@router.get("/papers/{paper_id}/related", summary="Papers related to one paper")
def related_to_paper(request: Request, paper_id: PaperId, venue: Venue = None, year: Year = None,
                     limit: Annotated[int, Query(ge=1, le=100)] = 10) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        return json(hits_json(lib.related(paper_id, limit=limit, venue=venue, year=year)))


# ---------------------------------------------------------------------- search
@router.get("/search", summary="Hybrid search (= `paperscope search Q --json`)",
            description="Structured filters (`collection`, `venue`, `year`, `status`, `type`, `has_code`, "
                        "`topic` = a coarse topic id of `collection`) narrow the query's own filters. "
                        "Each result says `weak` (a weak match) and `total`; the `X-Total-Count` header "
                        "is how many papers matched at all.")
def search(request: Request, query: Annotated[Optional[str], Query(min_length=1, max_length=1000)] = None,
           q: OldQuery = None, mode: Mode = "hybrid", collection: Collection = None, venue: Venue = None, year: Year = None,
           status: Flag = None, paper_type: Annotated[Optional[str], Query(alias="type", max_length=60)] = None,
           has_code: Optional[bool] = None, topic: Annotated[Optional[int], Query(ge=0, le=10_000)] = None,
           limit: Annotated[int, Query(ge=1, le=500)] = 20, explain: bool = False) -> JSONResponse:
    query = either(query, q, "query")
    with pool(request) as lib:
        hits = lib.search(query, limit=limit, mode=mode, explain=explain, collection=collection, venue=venue,
                          year=year, status=status, paper_type=paper_type, has_code=has_code, topic=topic)
    total = hits[0].total if hits and hits[0].total is not None else len(hits)
    return json(hits_json(hits), **{"X-Total-Count": str(total)})


@router.get("/related", summary="Related papers by paper id or by text (= `paperscope related --json`)")
def related(request: Request,
            paper_id: Annotated[Optional[str], Query(pattern=ID_PATTERN)] = None, id: OldId = None,
            text: Annotated[Optional[str], Query(max_length=20_000)] = None,
            venue: Venue = None, year: Year = None,
            limit: Annotated[int, Query(ge=1, le=100)] = 10) -> JSONResponse:
    return _related(request, paper_id or id, text, venue, year, limit)


@router.post("/related", summary="Related papers for a pasted draft (JSON body)")
def related_post(request: Request,
                 text: Annotated[str, Body(min_length=1, max_length=50_000)],
                 venue: Annotated[Optional[str], Body(max_length=200)] = None,
                 year: Annotated[Optional[str], Body(max_length=20)] = None,
                 limit: Annotated[int, Body(ge=1, le=100)] = 10) -> JSONResponse:
    return _related(request, None, text, venue, year, limit)


def _related(request: Request, paper_id: str | None, text: str | None, venue: str | None,
             year: str | None, limit: int) -> JSONResponse:
    with pool(request) as lib:
        if paper_id:
            _exists(lib, paper_id)
        return json(hits_json(lib.related(paper_id, text=text, limit=limit, venue=venue, year=year)))


# ---------------------------------------------------------------------- analysis
@router.get("/topics", summary="Topics of a venue or collection (= `paperscope topics --json`)")
def topics(request: Request, collection: Collection = None, venue: Venue = None, year: Year = None,
           level: Literal["coarse", "fine"] = "coarse") -> JSONResponse:
    with pool(request) as lib:
        found = lib.topics(collection=collection, venue=venue, year=year, level=level)
        response = json(found)
        if (warnings := lib.topic_warnings(found)):  # e.g. fine topics on a few dozen papers
            response.headers[WARNING_HEADER] = "; ".join(warnings)
        return response


@router.get("/map", summary="2-D map: one point per paper (id, x, y, topic, topic_label, label)")
def map_points(request: Request, collection: Collection = None, venue: Venue = None,
               year: Year = None) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.map(collection=collection, venue=venue, year=year))


@router.get("/compare", summary="Compare two collections or venues (= `paperscope compare A B --json`)")
def compare(request: Request, a: Annotated[str, Query(min_length=1, max_length=200)],
            b: Annotated[str, Query(min_length=1, max_length=200)]) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.compare(a, b))


@router.get("/trends", summary="Share of a venue's papers containing a query, per year (= `paperscope trends Q --json`); "
                              "with growth=A&growth=B, the topics that grew from collection A to B "
                              "(= `paperscope trends --growth A --growth B --json`)")
def trends(request: Request, query: Annotated[Optional[str], Query(min_length=1, max_length=300)] = None,
           q: OldQuery = None, venue: Venue = None,
           growth: Annotated[Optional[list[Annotated[str, Query(max_length=200)]]],
                             Query(max_length=2, description="two collections")] = None) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.trends(query or q, venue=venue, growth=growth))


@router.get("/trends/topics", include_in_schema=False)
def trends_topics(request: Request, a: Annotated[str, Query(min_length=1, max_length=200)],
                  b: Annotated[str, Query(min_length=1, max_length=200)]) -> JSONResponse:
    """The old address of `/api/trends?growth=A&growth=B`."""
    with pool(request) as lib:
        return json(lib.trends(growth=[a, b]))


# ---------------------------------------------------------------------- expertise
ExpertLimit = Annotated[int, Query(ge=1, le=200)]
MAX_PROFILE = 2_000_000  # bytes of a profile's papers


@router.post("/match", tags=["expertise"], summary="Papers ranked for a profile (= `paperscope match --json`)")
async def match(request: Request, collection: Collection = None, venue: Venue = None, year: Year = None,
                limit: ExpertLimit = 20) -> JSONResponse:
    """Body: JSON {"papers": "<BibTeX / RIS / JSON text>"} or {"ids": [paper ids]} or
    {"texts": [abstracts]}."""
    body = await request.body()
    if len(body) > MAX_PROFILE:
        raise HTTPException(413, "profile too large")
    data = json_object(body, '{"papers": ...} | {"ids": [...]} | {"texts": [...]}')
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_match, request, data, collection, venue, year, limit)


def _match(request: Request, data: dict[str, Any], collection: str | None, venue: str | None,
           year: str | None, limit: int) -> JSONResponse:
    with pool(request) as lib:
        if isinstance(data.get("papers"), str):
            prof = lib.profile(pasted=data["papers"])
        elif isinstance(data.get("ids"), list) or isinstance(data.get("texts"), list):
            prof = lib.profile([str(x) for x in (data.get("ids") or data.get("texts"))][:500])
        else:
            raise HTTPException(400, 'give "papers" (text), "ids" or "texts" (lists)')
        hits = lib.match(prof, collection=collection, venue=venue, year=year, limit=limit)
    return json({"profile": prof.describe(), "results": hits_json(hits)})


@router.get("/reviewers", tags=["expertise"], summary="Authors suggested for a paper or a draft (= `paperscope reviewers --json`)")
def reviewers(request: Request, paper_id: Annotated[Optional[str], Query(pattern=ID_PATTERN)] = None,
              paper: OldId = None, text: Annotated[Optional[str], Query(max_length=20_000)] = None,
              keep_authors: bool = False, keep_coauthors: bool = False, collection: Collection = None,
              venue: Venue = None, year: Year = None, limit: ExpertLimit = 10) -> JSONResponse:
    """Authors suggested for a paper (or a text), conflicts of interest left out."""
    with pool(request) as lib:
        out = lib.reviewers(paper_id or paper, text=text, limit=limit, keep_authors=keep_authors,
                            keep_coauthors=keep_coauthors, collection=collection, venue=venue, year=year)
    return json({**out, "reviewers": [a.to_json() for a in out["reviewers"]]})


@router.get("/experts", tags=["expertise"], summary="Authors who work on a topic (= `paperscope experts --json`)")
def experts(request: Request, query: Annotated[Optional[str], Query(min_length=1, max_length=2000)] = None,
            q: OldQuery = None, collection: Collection = None, venue: Venue = None, year: Year = None,
            limit: ExpertLimit = 10) -> JSONResponse:
    """Authors who work on a topic, with the papers that show it."""
    query = either(query, q, "query")
    with pool(request) as lib:
        return json([a.to_json() for a in lib.experts(query, limit=limit, collection=collection,
                                                      venue=venue, year=year)])


# ---------------------------------------------------------------------- personal library
@router.get("/tags", summary="Tags with counts (= `paperscope tags --json`)")
def tags(request: Request) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.tags())


@router.post("/papers/{paper_id}/tags", summary="Add tags to a paper", dependencies=[Depends(check_write)])
def add_tags(request: Request, paper_id: PaperId,
             tags: Annotated[list[Annotated[str, Body(min_length=1, max_length=80)]], Body(embed=True, min_length=1, max_length=20)]) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        lib.tag(paper_id, tags)
        return json(lib.show(paper_id))


@router.delete("/papers/{paper_id}/tags/{tag:path}", summary="Remove a tag from a paper",
               dependencies=[Depends(check_write)])
def remove_tag(request: Request, paper_id: PaperId,
               tag: Annotated[str, Path(min_length=1, max_length=80)]) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        lib.untag(paper_id, [tag])
        return json(lib.show(paper_id))


@router.put("/papers/{paper_id}/note", summary="Set (or clear with an empty text) a paper's note",
            dependencies=[Depends(check_write)])
def set_note(request: Request, paper_id: PaperId,
             note: Annotated[str, Body(embed=True, max_length=20_000)]) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        return json(lib.note(paper_id, note))


@router.put("/papers/{paper_id}/star", summary="Star or unstar a paper", dependencies=[Depends(check_write)])
def set_star(request: Request, paper_id: PaperId, starred: Annotated[bool, Body(embed=True)]) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        return json(lib.star(paper_id, starred))


@router.put("/papers/{paper_id}/read", summary="Mark a paper read or unread", dependencies=[Depends(check_write)])
def read(request: Request, paper_id: PaperId, read: Annotated[bool, Body(embed=True)]) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        return json(lib.read(paper_id, read))


@router.post("/fetch", summary="Fetch a venue's accepted papers from its source (= `paperscope fetch --json`)",
             description="Runs to the end (fetch, merge, derived data) before answering; the source's address "
                         "comes from the server's environment ($PAPERSCOPE_OPENREVIEW_URL ...), never from "
                         "the request. A source that cannot be read answers 502.",
             dependencies=[Depends(check_write)])
def fetch(request: Request, venue: Annotated[str, Body(min_length=1, max_length=40)],
          year: Annotated[int, Body(ge=1950, le=2099)],
          source: Annotated[Optional[Literal["openreview", "virtual", "pmlr"]], Body()] = None,
          all_submissions: Annotated[bool, Body()] = False,
          venue_id: Annotated[Optional[str], Body(max_length=200)] = None,
          token: Annotated[Optional[str], Body(max_length=4000)] = None) -> JSONResponse:
    from ..sources.remote import FetchError

    with pool(request) as lib:
        try:
            report = lib.fetch(venue, year, source=source, all_submissions=all_submissions,
                               venue_id=venue_id, token=token)
        except FetchError as exc:
            raise HTTPException(502, f"fetch failed: {exc}") from None
        return json(report)


@router.post("/resolve", summary="Real titles for title-less papers (= `paperscope resolve --json`)",
             description="The venue's source first, then arXiv; runs to the end before answering. With "
                         "dry_run nothing changes and the report says what would. Source addresses come "
                         "from the server's environment, never from the request.",
             dependencies=[Depends(check_write)])
def resolve(request: Request, collection: Annotated[Optional[str], Body(max_length=200)] = None,
            dry_run: Annotated[bool, Body()] = False, arxiv: Annotated[bool, Body()] = True) -> JSONResponse:
    with pool(request) as lib:
        return json(lib.resolve(collection, dry_run=dry_run, arxiv=arxiv))


@router.put("/papers/{paper_id}/irrelevant", summary='Mark a paper "not relevant" (for one tag or all)',
            dependencies=[Depends(check_write)])
def set_irrelevant(request: Request, paper_id: PaperId, irrelevant: Annotated[bool, Body()] = True,
                   tag: Annotated[Optional[str], Body(max_length=80)] = None) -> JSONResponse:
    with pool(request) as lib:
        _exists(lib, paper_id)
        return json(lib.irrelevant(paper_id, irrelevant, tag=tag))


@router.get("/recommend", summary="Papers recommended from a tag (= `paperscope recommend --json`)")
def recommend(request: Request, tag: Annotated[str, Query(min_length=1, max_length=80)],
              venue: Venue = None, year: Year = None, limit: Annotated[int, Query(ge=1, le=200)] = 20,
              explain: bool = True) -> JSONResponse:
    with pool(request) as lib:
        return json(hits_json(lib.recommend(tag=tag, venue=venue, year=year, limit=limit, explain=explain)))


EXPORT_TYPES = {"bibtex": ("application/x-bibtex", "bib"), "ris": ("application/x-research-info-systems", "ris"),
                "csljson": ("application/vnd.citationstyles.csl+json", "json"), "csv": ("text/csv", "csv"),
                "jsonl": ("application/jsonl", "jsonl"), "markdown": ("text/markdown", "md")}


WARNING_HEADER = "X-Paperscope-Warning"


@router.get("/export", summary="A reading list as BibTeX, RIS, CSL JSON, CSV, JSONL or Markdown (= `paperscope export`)",
            description="Choose the papers by one of `tag`, `query` (a search), `collection` or `ids` (comma-separated), "
                        "or none for the whole library. Entries whose title is derived (the list gave none) or "
                        "whose authors are unknown are marked in the entry; the counts are in the headers "
                        "`X-Paperscope-Entries`, `X-Paperscope-Untitled`, `X-Paperscope-No-Authors` and "
                        "`X-Paperscope-Skipped`, and `X-Paperscope-Warning` says in words what is missing (absent "
                        "when nothing is). `skip_untitled=true` leaves papers without a real title out "
                        "(= `--skip-untitled`).")
def export(request: Request, format: Literal["bibtex", "ris", "csljson", "csv", "jsonl", "markdown"] = "bibtex",
           tag: Annotated[Optional[str], Query(max_length=80)] = None,
           query: Annotated[Optional[str], Query(max_length=1000)] = None, q: OldQuery = None,
           collection: Collection = None,
           ids: Annotated[Optional[str], Query(max_length=20_000, pattern=r"^[A-Za-z0-9_.:,-]*$",
                                               description="paper ids, comma-separated")] = None,
           limit: Annotated[Optional[int], Query(ge=1, le=100_000)] = None,
           skip_untitled: bool = False) -> Response:
    lines: list[str] = []
    reports: list[Any] = []
    query = query or q
    with pool(request) as lib:
        text = lib.export(format, tag=tag, query=query, collection=collection,
                          ids=[x for x in ids.split(",") if x] if ids else None, limit=limit,
                          skip_untitled=skip_untitled, on_missing=lines.append, on_report=reports.append)
    media, ext = EXPORT_TYPES[format]
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", tag or collection or query or "library").strip("-")[:60] or "library"
    report = reports[0]
    headers = {"Content-Disposition": f'attachment; filename="paperscope-{name}.{ext}"',
               "X-Paperscope-Entries": str(report.entries), "X-Paperscope-Untitled": str(report.untitled),
               "X-Paperscope-No-Authors": str(report.no_authors), "X-Paperscope-Skipped": str(report.skipped)}
    if lines:
        if report.untitled and not skip_untitled:
            lines[-1] += " (skip_untitled=true leaves the untitled ones out)"
        headers[WARNING_HEADER] = " ".join(lines).encode("ascii", "replace").decode("ascii")  # header-safe
    return Response(text, media_type=f"{media}; charset=utf-8", headers=headers)


def _exists(lib: Any, paper_id: str) -> None:
    if lib.show(paper_id) is None:
        raise HTTPException(404, f"no paper with id {paper_id!r}")
