"""`paperscope mcp` (registered on import): the library as an MCP server over stdio."""
from __future__ import annotations

import typer

from .common import app, fail, state


@app.command("mcp")
def mcp_command(
    allow_writes: bool = typer.Option(False, "--allow-writes", help="Let the assistant tag papers (read-only without it)."),
) -> None:
    """Serve the library to an assistant over the Model Context Protocol (stdio): tools search,
    related, show, topics, compare, recommend, tag, export; collections as resources."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        fail("the MCP server needs the `mcp` package: pip install 'paperscope[mcp]'")
    from ..assistant import serve
    from ..library import default_db_path
    from ..model import InputError

    try:
        serve(default_db_path() if state.db is None else state.db, allow_writes=allow_writes)
    except InputError as exc:
        fail(str(exc))
