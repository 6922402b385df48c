"""A base for the test servers: a real, threaded HTTP server on a free 127.0.0.1 port that records
every request it receives.

    class EchoServer(LocalServer):
        def handle(self, request: Request) -> None:      # called in the server's thread
            if request.route != "/echo":
                return request.send(404, {"error": "no such route"})
            request.send(200, {"got": request.json()})

    with EchoServer() as server:                          # port=0: a free port
        server.url                                        # http://127.0.0.1:PORT
        server.received                                   # [Received(method, path, query, headers, body)]

`Request` is the handler of the exchange: `method`, `route` (the path without its query string),
`query` (the last value of each parameter), `body` (bytes), `json()`, `send(status, payload, ctype, headers)` (payload: bytes, str
or anything JSON), `reset()` (a TCP reset, no answer), and everything `BaseHTTPRequestHandler` has.
A subclass that keeps state across threads takes `self.lock`.
"""
from __future__ import annotations

import json
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes


class Request(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "_Httpd"
    method: str
    route: str
    query: dict[str, str]
    body: bytes

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _exchange(self) -> None:
        self.method = self.command
        url = urlsplit(self.path)
        self.route = url.path
        self.query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(length) if length > 0 else b""
        owner = self.server.owner
        with owner.lock:
            owner.received.append(Received(self.method, url.path, dict(self.query), dict(self.headers), self.body))
        owner.handle(self)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _exchange

    def json(self, default: Any = None) -> Any:
        """The body as JSON (`default` when empty); ValueError when it is not JSON."""
        return json.loads(self.body) if self.body else default

    def send(self, status: int, payload: Any, ctype: str = "application/json",
             headers: dict[str, str] | None = None) -> None:
        if isinstance(payload, bytes):
            body = payload
        elif isinstance(payload, str):
            body = payload.encode("utf-8")
        else:
            body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def reset(self) -> None:
        """Close with a TCP reset (SO_LINGER 0), no answer."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()


class _Httpd(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, owner: "LocalServer", port: int):
        self.owner = owner
        super().__init__(("127.0.0.1", port), Request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], OSError):  # a client that hung up is not an error
            super().handle_error(request, client_address)


class LocalServer:
    """Subclass and define `handle(request)`; use as a context manager."""

    def __init__(self, port: int = 0):
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.httpd = _Httpd(self, port)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def handle(self, request: Request) -> None:
        raise NotImplementedError

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def serve_until_interrupted(self, banner: str) -> None:
        """Standalone use (transcripts, benchmarks): serve, print `banner`, stop on Ctrl-C."""
        with self:
            print(banner, flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
