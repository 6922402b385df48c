"""`GET /api/ask` and `POST /api/ask`: an answer with citations (= `paperscope ask --json`).

The evidence is retrieved with a library handle from the pool, which is given back before the
server's model (if one is configured: $PAPERSCOPE_LLM_URL, $PAPERSCOPE_LLM_MODEL,
$PAPERSCOPE_LLM_KEY in the server's environment, never an address from the request) writes its
answer, so a slow model holds no library handle. A bad field answers 4xx naming it."""
from __future__ import annotations

import os
from typing import Annotated, Any, Optional

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse

from .deps import Collection, Flag, Venue, Year, pool

router = APIRouter(prefix="/api", tags=["api"])

Question = Annotated[str, Query(min_length=1, max_length=2000, description="the question, English or Chinese")]
Limit = Annotated[int, Query(ge=1, le=20, description="papers to cite")]
DESCRIPTION = ("Returns {question, answer, citations: [{n, id, title, sentences}], mode, weak, model, "
               "searched_as, warning, fallback, removed, uncited}. The answer quotes the abstracts of the "
               "cited papers, or, when the server has a model ($PAPERSCOPE_LLM_URL) and the evidence is "
               "not weak, is the model's answer from them (mode \"generated\"); a failing model gives the "
               "quoted answer with the reason in `fallback`.")


def server_llm() -> str | None:
    """The model the server was started with (its environment), or None."""
    return os.environ.get("PAPERSCOPE_LLM_URL") or None


def answer_for(request: Request, question: str, limit: int, filters: dict[str, Any], llm: str | None):
    """The extractive answer (a library handle held only for retrieval), then the model's."""
    from ..answer.generate import add_generated

    with pool(request) as lib:
        answer = lib.ask(question, limit=limit, **filters)
    return add_generated(answer, llm)


def _respond(request: Request, question: str, limit: int, filters: dict[str, Any]) -> JSONResponse:
    from .api import json

    llm = server_llm()
    answer = answer_for(request, question, limit, filters, llm)
    response = json(answer.to_json())
    if llm:  # a model's answer (or its failure) is not kept by the response cache
        response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/ask", summary="Answer a question with citations (= `paperscope ask Q --json`)", description=DESCRIPTION)
def ask(request: Request, question: Question, limit: Limit = 5, collection: Collection = None,
        venue: Venue = None, year: Year = None, status: Flag = None,
        paper_type: Annotated[Optional[str], Query(alias="type", max_length=60)] = None,
        has_code: Optional[bool] = None) -> JSONResponse:
    return _respond(request, question, limit, {"collection": collection, "venue": venue, "year": year,
                                               "status": status, "paper_type": paper_type, "has_code": has_code})


BODY_FIELDS = {"question": (str, 2000), "limit": (int, None), "collection": (str, 200), "venue": (str, 200),
               "year": ((int, str), 20), "status": (str, 60), "type": (str, 60), "has_code": (bool, None)}
BODY_SCHEMA = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["question"],
    "properties": {"question": {"type": "string", "minLength": 1, "maxLength": 2000},
                   "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
                   "collection": {"type": "string"}, "venue": {"type": "string"},
                   "year": {"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "a year or a range"},
                   "status": {"type": "string"}, "type": {"type": "string"}, "has_code": {"type": "boolean"}}}}}}}


def body_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The body's fields checked one by one; 422 naming the first bad one."""
    unknown = sorted(set(data) - set(BODY_FIELDS))
    if unknown:
        raise HTTPException(422, f"invalid parameters: {unknown[0]}: unknown field (known: {', '.join(BODY_FIELDS)})")
    out: dict[str, Any] = {}
    for name, (kind, longest) in BODY_FIELDS.items():
        value = data.get(name)
        if value is None:
            continue
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            raise HTTPException(422, f"invalid parameters: {name}: wrong type ({type(value).__name__})")
        if longest and isinstance(value, str) and len(value) > longest:
            raise HTTPException(422, f"invalid parameters: {name}: at most {longest} characters")
        out[name] = value
    if not isinstance(out.get("question"), str):
        raise HTTPException(422, "invalid parameters: question: Field required")
    if not 1 <= out.get("limit", 5) <= 20:
        raise HTTPException(422, "invalid parameters: limit: 1 to 20")
    return out


@router.post("/ask", summary="Answer a question with citations (JSON body)", description=DESCRIPTION,
             openapi_extra=BODY_SCHEMA)
async def ask_post(request: Request) -> JSONResponse:
    """Body: {"question": ..., "limit", "collection", "venue", "year", "status", "type", "has_code"}."""
    from starlette.concurrency import run_in_threadpool

    from .bodies import json_object

    fields = body_fields(json_object(await request.body(), '{"question": "...", "limit": 5, ...}'))
    year = fields.get("year")
    filters = {"collection": fields.get("collection"), "venue": fields.get("venue"),
               "year": None if year is None else str(year), "status": fields.get("status"),
               "paper_type": fields.get("type"), "has_code": fields.get("has_code")}
    return await run_in_threadpool(_respond, request, fields["question"], fields.get("limit", 5), filters)
