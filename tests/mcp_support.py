"""`paperscope mcp` driven by the MCP SDK's own client over stdio, for the tests of every face.

    run_mcp(db, body, allow_writes=False)   # body: async (session) -> value; returns the value
    data(result)                            # a tool result's JSON (fails on a tool error)
    error_text(result)                      # a tool error's text (fails on a success)

The server is `python -m paperscope` in a subprocess that sees this process's environment (the same
source tree through PYTHONPATH, the test servers' URLs); its stderr goes to `mcp-server.log`
beside the library.
"""
from __future__ import annotations

import json
import os
import sys


async def _session_run(db, allow_writes: bool, body):
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    args = ["-m", "paperscope", "--db", str(db), "mcp"] + (["--allow-writes"] if allow_writes else [])
    params = StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))
    with open(db.parent / "mcp-server.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)


def run_mcp(db, body, allow_writes: bool = False):
    import anyio

    return anyio.run(_session_run, db, allow_writes, body)


def data(result):
    """A tool result's JSON: structured content when the tool returns it, else its text."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        found = result.structured_content
        return found.get("result", found) if isinstance(found, dict) and set(found) == {"result"} else found
    return json.loads(result.content[0].text)


def error_text(result) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)
