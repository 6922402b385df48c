"""web commands (registered on import)."""
from __future__ import annotations

from .common import app  # noqa: F401
