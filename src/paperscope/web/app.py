"""The web app: FastAPI over the `Library` facade.

Pages (`pages.py`, server-rendered Jinja2 with light JavaScript) and the JSON API (`api.py`)
call only the facade. This module builds the app: a pool of `Library` handles (one database
connection each; `serve --pool N` lets N requests of one worker run side by side, 1 by default:
threads of one process share the interpreter lock), security headers, error pages, the write
guard (token / loopback rule) and the language switch.
"""
from __future__ import annotations

import ipaddress
import logging
import queue
import re
import threading
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterator
from urllib.parse import quote

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..library import Library
from ..model import InputError, NotFound
from . import i18n

HERE = Path(__file__).resolve().parent
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}


def is_loopback(host: str) -> bool:
    if host.strip("[]") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class LibraryPool:
    """Up to `size` open `Library` handles, handed out one request at a time (LIFO, so warm
    caches stay warm). A handle whose database another connection changed since its last use
    (a tag written through another handle, a CLI ingest) forgets its derived state first."""

    def __init__(self, path: str | Path, size: int = 1):
        self.path = str(path)
        self.size = max(1, size)
        self._free: queue.LifoQueue[Library] = queue.LifoQueue()
        self._versions: dict[int, int] = {}
        self._created = 0
        self._lock = threading.Lock()
        self._all: list[Library] = []
        self._free.put(self._open())  # fail fast on a bad path

    def _open(self) -> Library:
        lib = Library.open(self.path, create=False)  # serving never makes an empty library
        self._created += 1
        self._all.append(lib)
        self._versions[id(lib)] = self._data_version(lib)
        return lib

    @staticmethod
    def _data_version(lib: Library) -> int:
        return lib.data_version()

    def _acquire(self) -> Library:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if self._created < self.size:
                return self._open()
        return self._free.get(timeout=60)

    @contextmanager
    def use(self) -> Iterator[Library]:
        lib = self._acquire()
        try:
            version = self._data_version(lib)
            if version != self._versions.get(id(lib)):
                lib.invalidate()
                self._versions[id(lib)] = version
            yield lib
        finally:
            self._free.put(lib)

    def close(self) -> None:
        for lib in self._all:
            lib.close()


class SecurityHeaders:
    """Pure ASGI middleware: CSP and friends on every response. On a loopback bind, requests
    whose Host is not a loopback name are refused (a DNS-rebinding page cannot reach the API)."""

    def __init__(self, app: Any, loopback_only: bool = False):
        self.app = app
        self.loopback_only = loopback_only

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.loopback_only and not _loopback_host(scope):
            body = b"Host not allowed: this server only answers on its loopback address"
            await send({"type": "http.response.start", "status": 421,
                        "headers": [(b"content-type", b"text/plain"), *SECURITY_HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return

        declared = _content_length(scope)
        if declared is not None and declared > MAX_BODY:
            await _refuse_large(send)
            return
        received = 0

        async def bounded_receive() -> dict:
            """Bodies without a declared length are counted as they arrive; past the cap the
            read fails with 413, so a worker never holds more than MAX_BODY."""
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    raise HTTPException(413, "request body too large (at most 4 MB)")
            return message

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
                if message.get("status") == 413:  # the rest of the body is not worth reading
                    message["headers"].append((b"connection", b"close"))
            await send(message)

        await self.app(scope, bounded_receive, send_with_headers)


MAX_BODY = 4_000_000  # bytes a request body may carry (a draft abstract or a BibTeX file is far less)


def _content_length(scope: dict) -> int | None:
    for key, value in scope.get("headers", []):
        if key == b"content-length":
            try:
                return int(value)
            except ValueError:
                return MAX_BODY + 1
    return None


async def _refuse_large(send: Any) -> None:
    body = b'{"error": "request body too large (at most 4 MB)"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close"), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


HOST_HEADER = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::\d{1,5})?")


def _loopback_host(scope: dict) -> bool:
    """The Host header, parsed strictly (a name or an address and an optional port, nothing
    else: `localhost:8000@evil.example` is refused), names a loopback address."""
    hosts = [value for key, value in scope.get("headers", []) if key == b"host"]
    if not hosts:
        return True  # HTTP/1.0 without Host: nothing to rebind
    found = HOST_HEADER.fullmatch(hosts[0].decode("latin-1").strip()) if len(hosts) == 1 else None
    return bool(found) and is_loopback(found["v6"] or found["name"])


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                      autoescape=select_autoescape(["html"], default_for_string=True, default=True),
                      trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    from . import render

    render.install_filters(env)
    return env


def create_app(db_path: str | Path, *, host: str = "127.0.0.1", token: str | None = None,
               pool_size: int = 1, cache: bool = True) -> FastAPI:
    """The ASGI app for the library at `db_path`. Write endpoints work on a loopback bind, or
    anywhere with `token` (sent as `Authorization: Bearer TOKEN`, or once as `?token=` on a page
    which then sets a cookie). `cache`: keep rendered answers until the library changes."""
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        app.state.pool.close()
        if app.state.cache is not None:
            app.state.cache.close()

    app = FastAPI(title="paperscope", version="0.1.0", docs_url=None, redoc_url=None, lifespan=lifespan,
                  openapi_url="/api/openapi.json",
                  description="Read-mostly JSON API over a paperscope library. Shapes match the CLI's `--json` output.")
    from .deps import check_token

    check_token(token or None)
    app.state.pool = LibraryPool(db_path, pool_size)
    app.state.token = token or None
    app.state.writes_allowed = bool(token) or is_loopback(host)
    app.state.loopback = is_loopback(host)
    app.state.templates = _templates()
    app.state.cache = None
    if cache:
        from .cache import ResponseCache

        def with_cache(inner: Any) -> ResponseCache:
            app.state.cache = ResponseCache(inner, db_path)
            return app.state.cache

        app.add_middleware(with_cache)
    app.add_middleware(SecurityHeaders, loopback_only=app.state.loopback)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    from . import api, api_ask, pages, pages_ask, pages_expertise, pages_user

    app.include_router(api.router)
    app.include_router(api_ask.router)
    app.include_router(pages_ask.router)
    app.include_router(pages.router)
    app.include_router(pages_user.router)
    app.include_router(pages_expertise.router)
    _install_error_handlers(app)

    @app.get("/lang/{code}", include_in_schema=False)
    def switch_language(code: str, next: str = "/") -> Response:
        target = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
        response = RedirectResponse(quote(target, safe="/?=&%:+,;@-._~"), status_code=303)
        response.set_cookie("lang", i18n.normalise(code), max_age=365 * 86400, samesite="lax", httponly=True)
        return response

    return app


def tune_worker() -> None:
    """A server process answers one request at a time per core: BLAS on one thread for good, and
    each query embedded on its own thread (no hand-off to a second one)."""
    from ..search.hybrid import embed_queries_inline
    from ..search.semantic import pin_single_threaded_blas

    pin_single_threaded_blas()
    embed_queries_inline()


def app_from_env() -> FastAPI:
    """The app of one worker process of `paperscope serve --workers N`."""
    import os

    tune_worker()
    return create_app(os.environ["PAPERSCOPE_SERVE_DB"], host=os.environ.get("PAPERSCOPE_SERVE_HOST", "127.0.0.1"),
                      token=os.environ.get("PAPERSCOPE_TOKEN") or None,
                      pool_size=int(os.environ.get("PAPERSCOPE_SERVE_POOL", "1")),
                      cache=os.environ.get("PAPERSCOPE_SERVE_CACHE", "1") == "1")


# ---------------------------------------------------------------------- errors
def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api")


def _install_error_handlers(app: FastAPI) -> None:
    def error_page(request: Request, status: int, message: str) -> Response:
        if _wants_json(request):
            return JSONResponse({"error": message}, status_code=status)
        from .render import page

        return page(request, "error.html", {"status": status, "message": message}, status=status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors():
            where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("query", "path", "body"))
            parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        return error_page(request, 422, "invalid parameters: " + "; ".join(parts))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        return error_page(request, exc.status_code, str(exc.detail))

    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(StarletteHTTPException)
    async def _starlette_http(request: Request, exc: StarletteHTTPException) -> Response:
        message = "not found" if exc.status_code == 404 else str(exc.detail)
        return error_page(request, exc.status_code, message)

    @app.exception_handler(NotFound)
    async def _not_found(request: Request, exc: NotFound) -> Response:
        return error_page(request, 404, str(exc))

    @app.exception_handler(InputError)
    async def _input(request: Request, exc: InputError) -> Response:
        return error_page(request, 400, str(exc))

    from starlette.requests import ClientDisconnect

    from ..library import DiskFull

    @app.exception_handler(DiskFull)
    async def _disk_full(request: Request, exc: DiskFull) -> Response:  # the server's fault, not the request's
        return error_page(request, 507, "the library's disk is full: the change was not saved")

    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, exc: ClientDisconnect) -> Response:  # nobody left to answer
        return Response(status_code=400)

    @app.exception_handler(ValueError)
    async def _value(request: Request, exc: ValueError) -> Response:
        return error_page(request, 400, str(exc))

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> Response:  # a defect: log it, answer plainly
        logging.getLogger("paperscope.web").exception("error serving %s", request.url.path)
        return error_page(request, 500, "internal error (see the server log)")

