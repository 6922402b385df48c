"""A response cache for a shared server: GET pages and API answers are kept (LRU) by URL and
interface language, and all dropped the moment the library file changes.

Change detection asks a library handle of its own for the library's data version: it moves
whenever any other connection (a request that tagged a paper, a CLI ingest in another process)
commits. Everything a response shows comes from the library file, the URL and the
language cookie, so a cached answer is exactly what a fresh render would produce.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..library import Library

SKIP_PREFIXES = ("/static/", "/lang/")


class ResponseCache:
    """Pure ASGI middleware. `size` responses at most; only 200 answers without cookies and not
    marked `Cache-Control: no-store`."""

    def __init__(self, app: Any, db_path: str | Path, size: int = 512, max_body: int = 4_000_000):
        self.app = app
        self.size = size
        self.max_body = max_body
        self.entries: OrderedDict[tuple, tuple[list, bytes]] = OrderedDict()
        self.watch = Library.open(db_path, readonly=True)
        self.version = self._version()
        self.hits = self.misses = 0

    def _version(self) -> int:
        return self.watch.data_version()

    def close(self) -> None:
        self.watch.close()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if (scope["type"] != "http" or scope["method"] != "GET" or scope["path"].startswith(SKIP_PREFIXES)
                or b"token=" in scope.get("query_string", b"")):
            await self.app(scope, receive, send)
            return
        version = self._version()
        if version != self.version:
            self.entries.clear()
            self.version = version
        seen = version
        key = (scope["path"], scope.get("query_string", b""), _lang(scope))
        entry = self.entries.get(key)
        if entry is not None:
            self.entries.move_to_end(key)
            self.hits += 1
            headers, body = entry
            await send({"type": "http.response.start", "status": 200, "headers": headers + [(b"x-cache", b"hit")]})
            await send({"type": "http.response.body", "body": body})
            return
        self.misses += 1
        start: dict = {}
        chunks: list[bytes] = []

        async def capture(message: dict) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                # not when the library changed while this answer was being computed
                if not message.get("more_body") and self._storable(start, chunks) and self._version() == seen:
                    self.entries[key] = (list(start.get("headers", [])), b"".join(chunks))
                    while len(self.entries) > self.size:
                        self.entries.popitem(last=False)
            await send(message)

        await self.app(scope, receive, capture)

    def _storable(self, start: dict, chunks: list[bytes]) -> bool:
        if start.get("status") != 200 or sum(map(len, chunks)) > self.max_body:
            return False
        headers = start.get("headers", [])  # no cookie set, nothing marked no-store (a model's answer)
        return not any(k.lower() == b"set-cookie" or (k.lower() == b"cache-control" and b"no-store" in v)
                       for k, v in headers)


def _lang(scope: dict) -> str:
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                name, _, val = part.strip().partition("=")
                if name == "lang":
                    return val
    return ""
