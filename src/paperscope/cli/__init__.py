"""Command line: a thin Typer mirror of the `Library` facade.

Each area registers its commands on `app` in its own module; this file only assembles them.
Exit codes: 0 success, 1 user error (bad input, unknown id), 2 usage error.
"""
from __future__ import annotations

from .common import app, guard_arguments, main

# Command modules register themselves on import.
from . import core as _core_commands  # noqa: F401,E402  ingest, list, show, stats, remove
from . import search as _search_commands  # noqa: F401,E402  search, related
from . import analysis as _analysis_commands  # noqa: F401,E402  topics, map, compare
from . import user as _user_commands  # noqa: F401,E402  tags, notes, recommend, export
from . import web as _web_commands  # noqa: F401,E402  serve
from . import expertise as _expertise_commands  # noqa: F401,E402  match, reviewers, experts
from . import build as _build_commands  # noqa: F401,E402  build, load
from . import db as _db_commands  # noqa: F401,E402  db start|stop, copy
from . import assistant as _assistant_commands  # noqa: F401,E402  mcp
from . import fetch as _fetch_commands  # noqa: F401,E402  fetch
from . import resolve as _resolve_commands  # noqa: F401,E402  resolve
from . import llm as _llm_commands  # noqa: F401,E402  relabel
from . import ask as _ask_commands  # noqa: F401,E402  ask

guard_arguments(app)  # after every command is registered

__all__ = ["app", "main"]
