"""What `serve` runs under the app: uvicorn's h11 protocol with a deadline for a request's head,
and an event loop that shares new connections fairly between worker processes.

A client that has not sent a complete request line and headers within `HEADER_TIMEOUT` seconds
of connecting (or of its previous response) is disconnected, so slow-header connections
cannot pile up (uvicorn itself bounds only idle keep-alive time)."""
from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = float(os.environ.get("PAPERSCOPE_HEADER_TIMEOUT", "10"))


class BoundedH11Protocol(H11Protocol):
    _deadline: asyncio.TimerHandle | None = None
    _seen_cycle: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and self.cycle is not self._seen_cycle:
            self._seen_cycle = self.cycle  # a whole request head arrived
            self._disarm()
        elif self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # bytes of a next request: its head gets a deadline too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

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
