"""HTML pages: home, collection list, search (+ live fragment), paper, topics, map, compare,
related-to-my-draft and the API reference. Each route validates its query, asks the `Library`
facade and renders a template; results are shaped for display only (no ranking logic here)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ..filters import MODES
from .deps import ID_PATTERN, Flag, Mode, pool
from .render import Paging, page, present_hit

router = APIRouter(include_in_schema=False)

Name = Annotated[Optional[str], Query(max_length=200)]
PER_PAGE = 50


def _flag(value: str | None) -> bool | None:
    return True if value in ("1", "true", "on", "yes") else None


# ---------------------------------------------------------------------- home + collection
@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    with pool(request) as lib:
        stats = lib.stats()
        tag_counts = lib.tags()[:30]
    return page(request, "home.html", {"stats": stats, "tags": [_tag_view(x) for x in tag_counts]})


def _tag_view(entry: dict[str, Any]) -> dict[str, Any]:
    return {"tag": entry["tag"], "count": entry["papers"]}


@router.get("/c/{collection:path}", response_class=HTMLResponse)
def collection_page(request: Request, collection: str,
                    sort: Literal["list", "topic", "type", "title"] = "list",
                    type: Flag = None, exclude_type: Flag = None, status: Flag = None,
                    has_code: Flag = None,
                    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
                    limit: Annotated[int, Query(ge=1, le=200)] = PER_PAGE) -> HTMLResponse:
    if len(collection) > 200:
        raise HTTPException(422, "collection name too long")
    with pool(request) as lib:
        found = lib.find_collection(collection)
        if found is None:
            raise HTTPException(404, f"no collection named {collection!r}")
        result = lib.papers_page(collection=found["name"], sort=sort, paper_type=type or None,
                            exclude_type=exclude_type or None, status=status or None,
                            has_code=_flag(has_code), limit=limit, offset=offset)
        facets = lib.facets(found["name"])
        topic_of = lib.topic_index(found["name"]) if sort == "topic" else {}
    params = {"sort": sort if sort != "list" else None, "type": type, "exclude_type": exclude_type,
              "status": status, "has_code": "true" if _flag(has_code) else None,
              "limit": limit if limit != PER_PAGE else None}
    return page(request, "collection.html", {
        "collection": found, "papers": result["papers"], "facets": facets, "params": params, "topic_of": topic_of,
        "pg": Paging(result["total"], offset, limit), "base": request.url.path})


# ---------------------------------------------------------------------- search
SEARCH_LIMIT = 50


def _search_context(request: Request, q: str, mode: str, collection: str | None, type: str | None,
                    status: str | None, has_code: str | None, topic: str | None,
                    topic_menu: bool = True) -> dict[str, Any]:
    """Search with the page's filters, all passed to the library as one structured filter."""
    q = q.strip()
    if mode not in MODES:
        raise HTTPException(422, f"unknown mode {mode!r}")
    with pool(request) as lib:
        collections = lib.collections()
        hits: list[dict[str, Any]] = []
        scope = lib.find_collection(collection)
        if collection and scope is None:
            raise HTTPException(404, f"no collection named {collection!r}")
        topics = lib.topics(collection=scope["name"]) if scope and (topic_menu or topic) else []
        topic_id = int(topic) if topic and topic.isdigit() and scope else None
        if topic_id is not None and topic_menu and not any(tp["id"] == topic_id for tp in topics):
            topic_id = None
        if q:
            results = lib.search(q, limit=SEARCH_LIMIT, mode=mode, explain=True,
                                 collection=scope["name"] if scope else None, status=status,
                                 paper_type=type, has_code=_flag(has_code), topic=topic_id)
            hits = [present_hit(r) for r in results]
        facets = lib.facets(None)
    params = {"q": q, "mode": mode, "collection": collection, "type": type, "status": status,
              "has_code": "true" if _flag(has_code) else None, "topic": str(topic_id) if topic_id is not None else None}
    return {"q": q, "hits": hits, "params": params, "collections": collections, "topics": topics,
            "paper_types": list(facets.get("paper_type", {})), "statuses": list(facets.get("status", {}))}


@router.get("/search", response_class=HTMLResponse)
def search_page(request: Request, q: Annotated[str, Query(max_length=1000)] = "",
                mode: Mode = "hybrid",
                collection: Name = None, type: Flag = None, status: Flag = None,
                has_code: Flag = None, topic: Flag = None) -> HTMLResponse:
    ctx = _search_context(request, q, mode, collection or None, type or None, status or None, has_code, topic or None)
    return page(request, "search.html", ctx)


@router.get("/search/results", response_class=HTMLResponse)
def search_fragment(request: Request, q: Annotated[str, Query(max_length=1000)] = "",
                    mode: Mode = "hybrid",
                    collection: Name = None, type: Flag = None, status: Flag = None,
                    has_code: Flag = None, topic: Flag = None) -> HTMLResponse:
    """The result list alone, for search-as-you-type (server-rendered, so escaped once)."""
    ctx = _search_context(request, q, mode, collection or None, type or None, status or None, has_code,
                          topic or None, topic_menu=False)
    return page(request, "_results.html", ctx)


# ---------------------------------------------------------------------- paper
@router.get("/paper/{paper_id}", response_class=HTMLResponse)
def paper_page(request: Request, paper_id: str) -> HTMLResponse:
    import re

    if not re.match(ID_PATTERN, paper_id):
        raise HTTPException(404, "no paper with this id")
    with pool(request) as lib:
        found = lib.show(paper_id)
        if found is None:
            raise HTTPException(404, f"no paper with id {paper_id!r}")
        related = lib.related(paper_id, limit=8)
        topics = lib.paper_topics(found)
    return page(request, "paper.html", {"p": found, "related": [present_hit(r) for r in related],
                                        "topics": topics})


# ---------------------------------------------------------------------- related to my draft
DRAFT_CHARS = 20_000


@router.post("/related", response_class=HTMLResponse)
async def related_post(request: Request) -> HTMLResponse:
    """The draft form posts here, so a pasted abstract never lands in the address bar, the
    browser history or a server's access log (which record the URL, not the body)."""
    from .bodies import form_fields

    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        raise HTTPException(415, "send the form (application/x-www-form-urlencoded)")
    body = await request.body()
    if len(body) > 8 * DRAFT_CHARS:
        raise HTTPException(413, "draft too long")
    form = form_fields(body, ("text", "collection"))
    text, collection = form["text"], form["collection"] or None
    if len(text) > DRAFT_CHARS or len(collection or "") > 200:
        raise HTTPException(422, f"the draft may hold at most {DRAFT_CHARS} characters")
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(related_page, request, text, collection)


@router.get("/related", response_class=HTMLResponse)
def related_page(request: Request, text: Annotated[str, Query(max_length=DRAFT_CHARS)] = "",
                 collection: Name = None) -> HTMLResponse:
    hits: list[dict[str, Any]] = []
    with pool(request) as lib:
        collections = lib.collections()
        scope = lib.find_collection(collection)
        if text.strip():
            hits = [present_hit(r) for r in lib.related(text=text, limit=20,
                                                        collection=scope["name"] if scope else None)]
    return page(request, "related.html", {"text": text, "hits": hits, "collections": collections,
                                          "params": {"collection": collection}})


# ---------------------------------------------------------------------- topics, map, compare
@router.get("/topics", response_class=HTMLResponse)
def topics_page(request: Request, collection: Name = None,
                level: Literal["coarse", "fine"] = "coarse",
                topic: Annotated[Optional[str], Query(max_length=80)] = None,
                offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> HTMLResponse:
    topics: list[dict[str, Any]] = []
    current, papers, pg, previews = None, [], Paging(0, 0, PER_PAGE), {}
    with pool(request) as lib:
        collections = lib.collections()
        scope = _scope(lib, collections, collection)
        if scope:
            topics = lib.topics(collection=scope["name"], level=level)
            wanted = topic if topic is not None else None
            current = next((tp for tp in _walk(topics) if str(tp.get("id")) == wanted), None)
            if current is not None:
                members = list(current.get("papers") or [])  # most typical first
                page_ids = members[offset:offset + PER_PAGE]
                by_id = {p["id"]: p for p in lib.papers(ids=page_ids)}
                papers, pg = [by_id[i] for i in page_ids if i in by_id], Paging(len(members), offset, PER_PAGE)
            previews = _previews(lib, topics)
        warnings = lib.topic_warnings(topics)
    params = {"collection": scope["name"] if scope else None, "level": level, "topic": topic}
    total = sum(tp.get("size", 0) for tp in topics)
    return page(request, "topics.html", {"topics": topics, "current": current, "papers": papers,
                                         "pg": pg, "params": params, "collections": collections,
                                         "previews": previews if scope else {}, "total": total,
                                         "warnings": warnings})


def _scope(lib: Any, collections: list[dict[str, Any]], name: str | None) -> dict[str, Any] | None:
    """The collection a topics or map page shows: the one named (404 if unknown), else the first."""
    if not name:
        return collections[0] if collections else None
    found = lib.find_collection(name)
    if found is None:
        raise HTTPException(404, f"no collection named {name!r}")
    return found


TOPIC_PREVIEW = 5


def _previews(lib: Any, topics: list[dict[str, Any]]) -> dict[Any, list[dict[str, Any]]]:
    """The most typical papers of every topic (one lookup for all), for the topic cards."""
    wanted = {tp["id"]: list(tp.get("papers") or [])[:TOPIC_PREVIEW] for tp in topics}
    found = {p["id"]: p for p in lib.papers(ids=[pid for ids in wanted.values() for pid in ids])}
    return {t: [found[pid] for pid in ids if pid in found] for t, ids in wanted.items()}


def _walk(topics: list[dict[str, Any]]):
    for tp in topics:
        yield tp
        yield from _walk(tp.get("children") or [])


@router.get("/map", response_class=HTMLResponse)
def map_page(request: Request, collection: Name = None,
             q: Annotated[Optional[str], Query(max_length=1000)] = None,
             focus: Annotated[Optional[str], Query(pattern=ID_PATTERN)] = None) -> HTMLResponse:
    with pool(request) as lib:
        collections = lib.collections()
        scope = _scope(lib, collections, collection)
    params = {"collection": scope["name"] if scope else None, "q": q, "focus": focus}
    return page(request, "map.html", {"params": params, "collections": collections, "scope": scope})


@router.get("/compare", response_class=HTMLResponse)
def compare_page(request: Request, a: Name = None, b: Name = None) -> HTMLResponse:
    """Two collections side by side. With none chosen, the first two are pre-selected; the
    same collection on both sides is refused with a message on the page."""
    from ..model import InputError

    result, problem = None, None
    with pool(request) as lib:
        collections = lib.collections()
        if a and b:
            try:
                result = lib.compare(a, b)
            except InputError as exc:
                if "same papers" not in str(exc):
                    raise
                problem = "same"
    chosen = {"a": a, "b": b}
    if not a and not b and len(collections) >= 2:
        chosen = {"a": collections[0]["name"], "b": collections[1]["name"]}
    return page(request, "compare.html", {"params": chosen, "collections": collections,
                                          "result": result, "problem": problem})


# ---------------------------------------------------------------------- trends
@router.get("/trends", response_class=HTMLResponse)
def trends_page(request: Request, q: Annotated[str, Query(max_length=300)] = "",
                venue: Name = None, a: Name = None, b: Name = None) -> HTMLResponse:
    """The share of a venue's papers containing the query, year by year (a bar chart drawn as
    inline SVG, no script), and which topics grew between two collections."""
    from ..model import InputError

    trend = growth = problem = None
    with pool(request) as lib:
        collections = lib.collections()
        venues = sorted({c["venue"] for c in collections if c.get("venue") and c.get("year")})
        if venue is None and venues:
            venue = max(venues, key=lambda v: sum(1 for c in collections if c["venue"] == v))
        try:
            if q.strip():
                trend = lib.trends(q, venue=venue or None)
            if a and b:
                growth = lib.trends(growth=[a, b])
        except InputError as exc:
            problem = str(exc)
    if not (a and b):
        a, b = _growth_pair(collections, venue)
    return page(request, "trends.html", {"trend": trend, "growth": growth, "problem": problem, "venues": venues,
                                         "collections": collections,
                                         "params": {"q": q, "venue": venue, "a": a, "b": b}})


def _growth_pair(collections: list[dict[str, Any]], venue: str | None) -> tuple[str | None, str | None]:
    """Two different collections to offer for "which topics grew": the venue's first and last
    year, else the oldest and newest collections (never one collection twice)."""
    dated = sorted((c for c in collections if c.get("year")), key=lambda c: (c["year"], c["name"]))
    of_venue = [c for c in dated if c.get("venue") == venue]
    pick = of_venue if len(of_venue) >= 2 else dated if len(dated) >= 2 else collections
    return (pick[0]["name"], pick[-1]["name"]) if len(pick) >= 2 else (None, None)


# ---------------------------------------------------------------------- API reference
@router.get("/api/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    """A local, script-free rendering of the OpenAPI document (no CDN-hosted Swagger UI)."""
    spec = request.app.openapi()
    routes = []
    for path, methods in spec.get("paths", {}).items():
        for method, op in methods.items():
            params = [{"name": p.get("name"), "in": p.get("in"), "required": p.get("required", False),
                       "schema": _schema_text(p.get("schema", {}))} for p in op.get("parameters", [])]
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            routes.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                           "description": op.get("description", ""), "params": params,
                           "body": _body_fields(spec, body)})
    return page(request, "apidocs.html", {"routes": routes, "spec": spec})


def _schema_text(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " | ".join(_schema_text(s) for s in schema["anyOf"] if s.get("type") != "null")
    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"])
    if "const" in schema:
        return str(schema["const"])
    text = schema.get("type", "")
    limits = [f"{k}={schema[k]}" for k in ("minimum", "maximum", "maxLength", "pattern") if k in schema]
    return text + (f" ({', '.join(limits)})" if limits else "") + (f" = {schema['default']}" if "default" in schema else "")


def _body_fields(spec: dict[str, Any], schema: dict[str, Any] | None) -> list[str]:
    if not schema:
        return []
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        schema = spec.get("components", {}).get("schemas", {}).get(ref.rsplit("/", 1)[1], {})
    return [f"{name}: {_schema_text(s)}" for name, s in schema.get("properties", {}).items()]
