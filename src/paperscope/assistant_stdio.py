"""The stdio transport of `paperscope mcp`, with JSON-RPC's own error answers.

The SDK's stdio transport hands a line it cannot parse to the session as an exception, and the
client never hears back; it also decodes stdin with replacement characters, and a lone
surrogate (`"\\ud800"` in a JSON string) passed through to a reply stops the writer for good.
Here each stdin line is checked first: bytes that are not UTF-8 or not one JSON value
(two messages on one line included) answer -32700; a value that is not a JSON-RPC 2.0 message
(`"jsonrpc": "1.0"`, a batch, a bad id or method) answers -32600; a string that is not valid
Unicode answers -32602 naming the field. Good lines go on to the SDK unchanged.
"""
from __future__ import annotations

import json
import sys
from typing import Any, AsyncIterator

from .unicode_check import bad_text_field

MAX_LINE = 8_000_000  # bytes one message may take (a draft or a BibTeX file is far less)
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


def check_line(raw: bytes) -> tuple[str | None, tuple[Any, int, str] | None]:
    """(the line as text for the SDK, None) or (None, (id, code, message) of the error answer)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, (None, PARSE_ERROR, f"Parse error: not UTF-8 (byte {exc.start + 1})")
    try:
        data = json.loads(text)
    except RecursionError:
        return None, (None, PARSE_ERROR, "Parse error: nested too deeply")
    except ValueError as exc:  # "Extra data" is two messages on one line
        return None, (None, PARSE_ERROR, f"Parse error: {exc}; send one JSON-RPC message per line")
    if not isinstance(data, dict):
        kind = "batches are not supported" if isinstance(data, list) else "not a JSON object"
        return None, (None, INVALID_REQUEST, f"Invalid Request: {kind}")
    msg_id = data.get("id")
    if not (msg_id is None or isinstance(msg_id, (str, int)) and not isinstance(msg_id, bool)):
        return None, (None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    if isinstance(msg_id, str) and bad_text_field(msg_id):
        return None, (None, INVALID_REQUEST, "Invalid Request: id is not valid Unicode")
    if data.get("jsonrpc") != "2.0":
        return None, (msg_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    if "method" in data and not isinstance(data["method"], str):
        return None, (msg_id, INVALID_REQUEST, "Invalid Request: method must be a string")
    if (where := bad_text_field(data)):
        return None, (msg_id, INVALID_PARAMS, f"Invalid params: {where} is not valid Unicode text (a lone surrogate)")
    from mcp_types import jsonrpc_message_adapter

    try:
        jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError as exc:
        first = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
        return None, (msg_id, INVALID_REQUEST, f"Invalid Request: {first}")
    return text, None


class CheckedLines:
    """stdin for the SDK's stdio transport: yields good lines, answers bad ones itself through
    the transport's write stream (so replies never interleave)."""

    def __init__(self, raw: Any):
        import anyio

        self.raw = raw
        self.replies: Any = None
        self.ready = anyio.Event()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _readline(self, limit: int) -> bytes:
        from anyio import to_thread

        return await to_thread.run_sync(self.raw.readline, limit, abandon_on_cancel=True)

    async def _read(self) -> bytes | None:
        """One line (b"" at end of input); None for a line over MAX_LINE, whose rest is skipped."""
        line = await self._readline(MAX_LINE + 1)
        if len(line) <= MAX_LINE or line.endswith(b"\n"):
            return line
        while line and not line.endswith(b"\n"):
            line = await self._readline(MAX_LINE)
        return None

    async def _lines(self) -> AsyncIterator[str]:
        await self.ready.wait()
        while True:
            raw = await self._read()
            if raw == b"":
                return
            if raw is not None and not raw.strip():
                continue
            text, error = check_line(raw) if raw is not None else \
                (None, (None, INVALID_REQUEST, f"Invalid Request: a message over {MAX_LINE} bytes"))
            if error is None:
                yield text
            else:
                await self._answer(*error)

    async def _answer(self, msg_id: Any, code: int, message: str) -> None:
        from mcp.shared.message import SessionMessage
        from mcp_types import ErrorData, JSONRPCError

        await self.replies.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=msg_id,
                                                            error=ErrorData(code=code, message=message))))


async def run_stdio(server: Any) -> None:
    """Serve `server` (an `MCPServer`) over stdin/stdout until stdin closes."""
    import anyio
    from mcp.server.stdio import stdio_server

    lines = CheckedLines(sys.stdin.buffer)
    low = server._lowlevel_server  # the SDK's own run_stdio_async does the same
    async with stdio_server(stdin=lines) as (read_stream, write_stream):
        lines.replies = write_stream
        lines.ready.set()
        await low.run(read_stream, write_stream, low.create_initialization_options())
