"""Storage: the SQLite library file (default). A shared-server backend would sit beside it
behind the same `Store` interface."""
from __future__ import annotations

from .sqlite import Store

__all__ = ["Store"]
