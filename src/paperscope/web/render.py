"""Rendering helpers shared by the page routes: the page context (language, translator, write
permission), Jinja filters that keep list text inert (URLs limited to http/https, highlights
split into escaped segments) and paging arithmetic."""
from __future__ import annotations

import math
import re
from typing import Any, Iterable
from urllib.parse import urlencode, urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment
from markupsafe import Markup, escape

from ..emphasis import md_plain, spans as emphasis_spans
from ..model import Hit, Recommendation, SearchHit
from . import i18n
from .deps import tokens_match

SAFE_SCHEMES = {"http", "https"}


def lang_of(request: Request) -> str:
    return i18n.normalise(request.cookies.get("lang"))


def page(request: Request, template: str, context: dict[str, Any], *, status: int = 200) -> HTMLResponse:
    """Render a template with the shared context. A `?token=` matching the server's token sets
    the write cookie (so a browser on a token-protected server can tag and take notes)."""
    state = request.app.state
    lang = lang_of(request)
    env: Environment = state.templates
    ctx = {
        "request": request,
        "lang": lang,
        "t": i18n.translator(lang),
        "other_lang": "zh" if lang == "en" else "en",
        "path": _current(request),
        "writes": state.writes_allowed,
        **context,
    }
    response = HTMLResponse(env.get_template(template).render(ctx), status_code=status)
    given = request.query_params.get("token")
    if tokens_match(given, state.token):
        response.set_cookie("paperscope_token", given, httponly=True, samesite="strict")
    return response


def _current(request: Request) -> str:
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
    return request.url.path + ("?" + urlencode(query) if query else "")


# ---------------------------------------------------------------------- filters
def safe_url(url: Any) -> str | None:
    """The URL when it is an absolute http(s) link, else None (`javascript:` and friends are
    shown as text, never as links)."""
    if not isinstance(url, str):
        return None
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return url if parts.scheme.lower() in SAFE_SCHEMES and parts.netloc else None


def segments(text: str | None, spans: Iterable[Any] | None) -> list[tuple[str, bool]]:
    """Split `text` into (piece, highlighted) pairs from [start, end) character spans; the
    template escapes every piece and wraps the highlighted ones in <mark>."""
    text = text or ""
    out: list[tuple[str, bool]] = []
    pos = 0
    for span in sorted(_valid_spans(spans, len(text))):
        start, end = span
        if start < pos:
            start = pos
        if start >= end:
            continue
        if start > pos:
            out.append((text[pos:start], False))
        out.append((text[start:end], True))
        pos = end
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def _valid_spans(spans: Iterable[Any] | None, n: int) -> list[tuple[int, int]]:
    good = []
    for span in spans or ():
        try:
            start, end = int(span[0]), int(span[1])
        except (TypeError, ValueError, IndexError, KeyError):
            continue
        if 0 <= start < end <= n:
            good.append((start, end))
    return good


def paper_type(paper: dict[str, Any]) -> str | None:
    """The paper-type fact as a short string, whatever its stored shape."""
    value = paper.get("paper_type")
    if isinstance(value, dict):
        value = value.get("label") or value.get("type") or value.get("name")
    return str(value) if value else None


_LONE_STAR = re.compile(r"(?<![\w*])\*{1,2}(?=\w)|(?<=\w)\*{1,2}(?![\w*])")


def md_piece(text: Any) -> str:
    """A snippet piece (a highlight may fall inside *...*): pairs and stray stars at word
    edges dropped."""
    return _LONE_STAR.sub("", md_plain(text)) if text else ""


def md_inline(text: Any) -> Markup:
    """Escaped text with markdown emphasis shown as <em>, <strong> or <code> (abstracts, TL;DRs)."""
    if not text:
        return Markup("")
    out, at = [], 0
    text = str(text)
    for e in emphasis_spans(text):
        tag = {"**": "strong", "__": "strong", "`": "code"}.get(e.marker, "em")
        out += [escape(text[at:e.start]), Markup(f"<{tag}>"), escape(e.inner), Markup(f"</{tag}>")]
        at = e.end
    out.append(escape(text[at:]))
    return Markup("").join(out)


def display_title(paper: dict[str, Any]) -> str:
    from ..export.entry import display_title as best

    return md_plain(best(paper) if paper.get("title") or paper.get("generated") else paper.get("label") or "")


def as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def fmt_score(value: Any) -> str:
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return ""


def install_filters(env: Environment) -> None:
    env.filters.update(safe_url=safe_url, segments=segments, paper_type=paper_type,
                       display_title=display_title, as_list=as_list, fmt_score=fmt_score,
                       md_plain=md_plain, md_inline=md_inline, md_piece=md_piece,
                       type_label=i18n.type_label, file_name=file_name)
    env.globals.update(with_query=with_query)


def file_name(path: Any) -> str:
    """The last part of a source file's path (which list or proceedings file a paper came
    from), never the folders above it."""
    return str(path or "").replace("\\", "/").rsplit("/", 1)[-1]


def with_query(path: str, params: dict[str, Any], **changes: Any) -> str:
    """`path?...` with `changes` applied to `params` (None drops a key)."""
    merged = {k: v for k, v in params.items() if not _blank(v)}
    for key, value in changes.items():
        if _blank(value):
            merged.pop(key, None)
        else:
            merged[key] = value
    return path + ("?" + urlencode(merged, doseq=True) if merged else "")


def _blank(value: Any) -> bool:
    return value is None or value is False or value == ""  # (0 is a value: topic 0)


# ---------------------------------------------------------------------- paging
class Paging:
    def __init__(self, total: int, offset: int, limit: int):
        self.total, self.offset, self.limit = total, offset, limit
        self.first = offset + 1 if total else 0
        self.last = min(total, offset + limit)
        self.pages = max(1, math.ceil(total / limit)) if limit else 1
        self.number = offset // limit + 1 if limit else 1
        self.prev = max(0, offset - limit) if offset > 0 else None
        self.next = offset + limit if offset + limit < total else None


def present_hit(hit: Hit) -> dict[str, Any]:
    """A search hit, related paper or recommendation as the card template wants it: the paper,
    its score, the snippet split into highlighted segments, and the reasons."""
    snip = hit.snippet
    return {"paper": hit.paper, "score": hit.score,
            "snippet_segments": segments(snip["text"], snip["highlights"]) if snip else None,
            "explain": hit.why if isinstance(hit, SearchHit) else None,
            "explanation": hit.why if isinstance(hit, Recommendation) else None,
            "translated": hit.translated if isinstance(hit, SearchHit) else None,
            "weak": bool(getattr(hit, "weak", False)), "total": getattr(hit, "total", None)}
