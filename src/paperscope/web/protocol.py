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
    """Accepts one waiting connection per wake-up of the listening socket, where asyncio takes up
    to `backlog` (uvicorn passes 2048). Every worker process of `serve --workers N` waits on the
    same socket; with the default, the first worker awake took a whole burst of connections
    (20 keep-alive clients connecting at once were seen split 19/1 between two workers, and
    the busy one's queue set the tail latency). One at a time, the workers share the burst.
    uvicorn's `loop=` setting names this class; it makes each worker's loop from it."""

    def _start_serving(self, protocol_factory: Any, sock: Any, sslcontext: Any = None,
                       server: Any = None, backlog: int = 100, *args: Any, **kwargs: Any) -> None:
        # `backlog` here only bounds accepts per wake-up; the listen queue keeps its own size.
        super()._start_serving(protocol_factory, sock, sslcontext, server, 1, *args, **kwargs)

