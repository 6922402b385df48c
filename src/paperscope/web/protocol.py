"""The HTTP protocol `serve` runs: uvicorn's h11 protocol with a deadline for a request's head.
A client that has not sent a complete request line and headers within `HEADER_TIMEOUT` seconds
of connecting (or of its previous response) is disconnected, so slow-header connections
cannot pile up (uvicorn itself bounds only idle keep-alive time)."""
from __future__ import annotations

import asyncio
import os

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
