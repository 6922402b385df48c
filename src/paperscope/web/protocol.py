"""What `serve` runs under the app: uvicorn's h11 protocol with deadlines for a request's head
and body, and an event loop that shares new connections fairly between worker processes.

A client that has not sent a complete request line and headers within `HEADER_TIMEOUT` seconds
of connecting (or of its previous response) is disconnected, and one whose body has not
arrived whole within `BODY_TIMEOUT` seconds of its head gets 408 and is disconnected, so
slow-header and slow-body connections cannot pile up (uvicorn itself bounds only idle
keep-alive time). A chunk that announces more than the body cap, or a malformed chunked body,
gets a 400 answer rather than a silently closed connection."""
from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = float(os.environ.get("PAPERSCOPE_HEADER_TIMEOUT", "10"))
BODY_TIMEOUT = float(os.environ.get("PAPERSCOPE_BODY_TIMEOUT", "30"))
MAX_CHUNK = 4_000_000  # = app.MAX_BODY: a chunk announcing more can never be accepted


def _plain(status: bytes, text: bytes) -> bytes:
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n" % len(text) + text)


class BoundedH11Protocol(H11Protocol):
    _deadline: asyncio.TimerHandle | None = None
    _body_deadline: asyncio.TimerHandle | None = None
    _seen_cycle: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self.cycle is not None and self.cycle is not self._seen_cycle:
            self._seen_cycle = self.cycle  # a whole request head arrived
            self._disarm()
            self._disarm_body()
            if self.cycle.more_body:
                self._body_deadline = self.loop.call_later(BODY_TIMEOUT, self._body_too_slow, self.cycle)
        elif self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # bytes of a next request: its head gets a deadline too
        if self.cycle is not None and not self.cycle.more_body:
            self._disarm_body()
        reader = getattr(self.conn, "_reader", None)  # h11's chunk reader: the size just announced
        if getattr(reader, "_bytes_in_chunk", 0) > MAX_CHUNK:
            self._refuse(b"400 Bad Request", b"chunk larger than the 4 MB body cap")

    def handle_events(self) -> None:
        try:
            super().handle_events()
        except h11.ProtocolError as exc:  # e.g. a malformed chunk footer: answer, never just hang up
            self._refuse(b"400 Bad Request", f"Invalid HTTP request received: {exc}".encode("ascii", "replace"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._disarm_body()
        super().connection_lost(exc)

    def _refuse(self, status: bytes, text: bytes) -> None:
        """Answer with `status` unless a response has started, then close the connection."""
        if not self.transport.is_closing():
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(_plain(status, text))
            self.transport.close()

    def _body_too_slow(self, cycle: object) -> None:
        self._body_deadline = None
        if cycle is self.cycle and self.cycle.more_body:
            self._refuse(b"408 Request Timeout", b"request body too slow")

    def _disarm_body(self) -> None:
        if self._body_deadline is not None:
            self._body_deadline.cancel()
            self._body_deadline = None

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(HEADER_TIMEOUT, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is None or self.cycle is self._seen_cycle and self.cycle.response_complete:
            if not self.transport.is_closing():
                self.transport.close()


class FairAcceptLoop(asyncio.SelectorEventLoop):
    """Shares new connections between the worker processes of `serve --workers N`, least
    connections first. Every worker waits on the same listening socket and is woken for each
    new connection. asyncio's own loop then accepts up to `backlog` at once (uvicorn passes 2048),
    so the first worker awake took a whole burst: 20 keep-alive clients connecting together
    were split 19/1, 17/3, 20/0, and the busy worker's queue set everyone's latency. Here a
    worker accepts one connection per wake-up, and one that already holds connections first
    steps aside for `ACCEPT_DELAY` seconds per open connection, so the less loaded worker
    takes it (a connection still waiting after that delay is taken anyway).
    uvicorn's `loop=` setting names this class; each worker builds its loop from it."""

    ACCEPT_DELAY = 0.002  # seconds per connection this worker holds
    MAX_ACCEPT_DELAY = 0.05

    def _start_serving(self, protocol_factory: Any, sock: Any, sslcontext: Any = None,
                       server: Any = None, backlog: int = 100, *args: Any) -> None:
        # `backlog` here only bounds accepts per wake-up; the listen queue keeps its own size.
        super()._start_serving(protocol_factory, sock, sslcontext, server, 1, *args)

    def _accept_connection(self, protocol_factory: Any, sock: Any, sslcontext: Any = None,
                           server: Any = None, backlog: int = 1, *args: Any) -> None:
        held = len(getattr(self, "_transports", ()))  # this process's open connections
        delay = min(self.MAX_ACCEPT_DELAY, held * self.ACCEPT_DELAY)
        if delay <= 0:
            super()._accept_connection(protocol_factory, sock, sslcontext, server, 1, *args)
            return
        self._remove_reader(sock.fileno())  # stop waking for this socket while stepping aside
        self.call_later(delay, self._accept_late, protocol_factory, sock, sslcontext, server, args)

    def _accept_late(self, protocol_factory: Any, sock: Any, sslcontext: Any, server: Any,
                     args: tuple) -> None:
        if sock.fileno() < 0 or (server is not None and not server.is_serving()):
            return  # the server closed meanwhile
        # Watch the socket again first: if the accept below runs out of file descriptors,
        # asyncio's own back-off then removes the reader again and retries later.
        self._add_reader(sock.fileno(), self._accept_connection, protocol_factory, sock, sslcontext,
                         server, 1, *args)
        # non-blocking: returns at once if another worker took the connection
        super()._accept_connection(protocol_factory, sock, sslcontext, server, 1, *args)
