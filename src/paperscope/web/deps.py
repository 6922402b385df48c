"""What every route module needs, in one place below them (so `app`, `api` and `pages` never
import each other): a library handle from the pool, the write guard, parameter shapes."""
from __future__ import annotations

import re
import secrets
from typing import Annotated, Any, Literal, Optional

from fastapi import HTTPException, Query, Request

from ..filters import YEAR_HELP
from ..model import Hit, InputError

ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,80}$"
Mode = Literal["hybrid", "lexical", "semantic"]  # = filters.MODES
Collection = Annotated[Optional[str], Query(max_length=200, description='collection name, e.g. "ICML 2024"')]
Venue = Annotated[Optional[str], Query(max_length=200, description='venue, e.g. "ICML"')]
Year = Annotated[Optional[str], Query(max_length=20, description=f"a year or a range: {YEAR_HELP}")]
Flag = Annotated[Optional[str], Query(max_length=60)]
# Old parameter names still accepted (names.RETIRED_PARAMS), not shown in the API reference.
OldQuery = Annotated[Optional[str], Query(min_length=1, max_length=2000, include_in_schema=False)]
OldId = Annotated[Optional[str], Query(pattern=ID_PATTERN, include_in_schema=False)]


def either(value: str | None, old: str | None, name: str) -> str:
    """A required parameter given by its name or by its old one; 422 naming it when neither."""
    if value is None and old is None:
        raise HTTPException(422, f"invalid parameters: {name}: Field required")
    return value if value is not None else old  # type: ignore[return-value]


def pool(request: Request):
    """A `Library` handle for the duration of a `with` block."""
    return request.app.state.pool.use()


def hits_json(hits: list[Hit]) -> list[dict[str, Any]]:
    return [h.to_json() for h in hits]


def tokens_match(given: str | None, token: str | None) -> bool:
    """Constant-time comparison of UTF-8 bytes (a token with non-ASCII characters is just
    wrong, never a server error)."""
    if not given or not token:
        return False
    return secrets.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8", "replace"))


TOKEN_CHARS = re.compile(r"[!#-+\--:<-\[\]-~]{1,512}")  # visible ASCII but `"`, `,`, `;`, `\`


def check_token(token: str | None) -> None:
    """Refuse, at start, a token that cannot travel in an `Authorization` header and a cookie
    unchanged (HTTP headers are Latin-1 bytes; a cookie value excludes quotes, commas, semicolons, backslashes)."""
    if token is not None and not TOKEN_CHARS.fullmatch(token):
        raise InputError("--token / $PAPERSCOPE_TOKEN must be 1 to 512 visible ASCII characters without "
                         "spaces, quotes, commas, semicolons or backslashes (e.g. from `openssl rand -hex 24`)")


def check_write(request: Request) -> None:
    """Refuse a write unless the server allows writes and the caller proves it is the user:
    the token when one is set; same origin; a JSON body (a cross-site form cannot send one,
    and a cross-site script cannot without a CORS preflight that this server never grants)."""
    state = request.app.state
    if not state.writes_allowed:
        raise HTTPException(403, "write endpoints are disabled: the server is bound to a non-loopback "
                                 "address without --token / $PAPERSCOPE_TOKEN")
    if state.token:
        auth = request.headers.get("authorization", "")
        given = auth[7:] if auth.lower().startswith("bearer ") else request.cookies.get("paperscope_token", "")
        if not tokens_match(given, state.token):
            raise HTTPException(401, "this server needs its token for writes (Authorization: Bearer TOKEN)")
    origin = request.headers.get("origin")
    if origin and origin.split("://", 1)[-1] != request.headers.get("host", ""):
        raise HTTPException(403, "cross-origin write refused")
    if request.method in ("POST", "PUT", "PATCH") and \
            not request.headers.get("content-type", "").startswith("application/json"):
        raise HTTPException(415, "write requests must send JSON (Content-Type: application/json)")
