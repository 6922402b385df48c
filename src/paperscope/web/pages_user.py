"""The "my library" page: tags with counts, starred papers or a tag's papers, the papers
recommended from that tag (with their reasons and a "not relevant" control) and export links,
with a warning when the tag's papers lack a real title or authors (the export marks them;
`skip_untitled` links leave the untitled ones out)."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ..export import MissingReport
from .deps import pool
from .pages import _tag_view
from .render import page, present_hit

router = APIRouter(include_in_schema=False)
EXPORTS = [("bibtex", "BibTeX"), ("ris", "RIS"), ("csljson", "CSL JSON"), ("csv", "CSV"), ("markdown", "Markdown")]


@router.get("/library", response_class=HTMLResponse)
def library_page(request: Request, tag: Annotated[Optional[str], Query(max_length=100)] = None) -> HTMLResponse:
    recommended: list[dict[str, Any]] = []
    missing = None
    with pool(request) as lib:
        tags = [_tag_view(x) for x in lib.tags()]
        if tag:
            papers = lib.mine(tag=tag)
            report = MissingReport.of(papers)  # the same papers `/api/export?tag=` writes
            missing = report if report.untitled or report.no_authors else None
            if papers:
                recommended = [present_hit(r) for r in lib.recommend(tag=tag, limit=10, explain=True)]
        else:
            papers = lib.mine(starred=True)
    return page(request, "library.html", {"tags": tags, "papers": papers, "recommended": recommended,
                                          "params": {"tag": tag}, "exports": EXPORTS,
                                          "missing": missing})
