"""The "ask" page: a question box, the answer with its citations as links to the papers, and
the sources listed. The quoted answer is rendered by the server (escaped by Jinja); when the
server has a model ($PAPERSCOPE_LLM_URL) and the evidence is not weak, static/ask.js streams
the model's answer into the page from `/ask/stream` (server-sent events: `token` events with
text as it arrives, then one `answer` event with the checked answer as `/api/ask` gives it)."""
from __future__ import annotations

import json
import logging
import queue
import re
import threading
from typing import Annotated, Any, Iterator, Optional
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, StreamingResponse

from .api_ask import server_llm
from .deps import pool
from .render import page

router = APIRouter(include_in_schema=False)
Name = Annotated[Optional[str], Query(max_length=200)]
Question = Annotated[str, Query(max_length=2000)]
Limit = Annotated[int, Query(ge=1, le=20)]
_CITE = re.compile(r"\[(\d{1,3})\]")


def cited(text: str, known: set[int]) -> list[tuple[str, int | None]]:
    """Text split into (piece, citation number or None); the template escapes each piece and
    makes the numbers of known citations links."""
    out: list[tuple[str, int | None]] = []
    at = 0
    for m in _CITE.finditer(text):
        n = int(m.group(1))
        if n in known:
            out += [(text[at:m.start()], None), (m.group(0), n)]
            at = m.end()
    out.append((text[at:], None))
    return [(piece, n) for piece, n in out if piece]


def _view(answer: Any) -> dict[str, Any]:
    from ..emphasis import md_plain  # *emphasis* markers of list text shown as plain words

    known = {c.n for c in answer.citations}
    paragraphs = [] if answer.weak else [cited(md_plain(f"{' '.join(c.sentences)} [{c.n}]"), known)
                                         for c in answer.citations if c.sentences]
    sources = [{"n": c.n, "id": c.id, "title": md_plain(c.title), "derived": c.derived, "where": c.where,
                "weak": c.weak} for c in answer.citations]
    return {"summary": answer.summary, "weak": answer.weak, "paragraphs": paragraphs, "sources": sources,
            "searched_as": answer.searched_as, "warning": answer.warning}


@router.get("/ask", response_class=HTMLResponse)
def ask_page(request: Request, question: Question = "", collection: Name = None, limit: Limit = 5) -> HTMLResponse:
    question = question.strip()
    view, stream = None, None
    with pool(request) as lib:
        collections = lib.collections()
        if question:
            answer = lib.ask(question, limit=limit, collection=collection or None)
            view = _view(answer)
            if server_llm() and answer.citations and not answer.weak:
                params = {"question": question, "collection": collection or None,
                          "limit": limit if limit != 5 else None}
                stream = "/ask/stream?" + urlencode({k: v for k, v in params.items() if v is not None})
    return page(request, "ask.html", {"question": question, "view": view, "stream": stream,
                                      "collections": collections, "params": {"collection": collection}})


def _event(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@router.get("/ask/stream")
def ask_stream(request: Request, question: Annotated[str, Query(min_length=1, max_length=2000)],
               collection: Name = None, limit: Limit = 5) -> StreamingResponse:
    from ..answer.generate import add_generated

    llm = server_llm()
    if not llm:
        raise HTTPException(404, "this server has no model to write answers ($PAPERSCOPE_LLM_URL)")
    with pool(request) as lib:
        answer = lib.ask(question, limit=limit, collection=collection or None)
    chunks: queue.Queue[tuple[str, Any]] = queue.Queue()

    def write() -> None:
        try:
            add_generated(answer, llm, stream=lambda text: chunks.put(("token", {"text": str(text)})))
        except Exception as exc:  # a defect in the model client: logged; the quoted answer stands
            logging.getLogger("paperscope.web").exception("writing an answer for /ask/stream")
            answer.fallback = answer.fallback or f"the answer could not be written ({type(exc).__name__})"
        finally:
            chunks.put(("answer", answer.to_json()))

    def events() -> Iterator[str]:
        threading.Thread(target=write, name="paperscope-ask", daemon=True).start()
        while True:
            kind, data = chunks.get()
            yield _event(kind, data)
            if kind == "answer":
                return

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
