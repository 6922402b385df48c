"""`paperscope mcp` spoken to in raw JSON-RPC over its stdin: every line that is not a good
message gets its JSON-RPC error (-32700 for what is not one JSON value, -32600 for what is not
a JSON-RPC 2.0 message, -32602 for text that is not valid Unicode), and the server keeps
answering good requests afterwards; nothing is left unanswered."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading

from test_assistant_mcp import db  # noqa: F401  (fixture: a copy of the web library)
from web_support import web_db  # noqa: F401  (fixture)

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _line(obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def _search(msg_id, query: str) -> bytes:
    return (b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "search", '
            b'"arguments": {"query": "%s", "limit": 2}}}\n' % (msg_id, query.encode()))


BAD = [  # (line, expected code, the id the answer must carry)
    (b'{"jsonrpc": "2.0", "id": 10, "method": "tools/list"\n', -32700, None),        # cut short
    (_line({"jsonrpc": "2.0", "id": 11, "method": "tools/list"})[:-1] + _line(INITIALIZED), -32700, None),  # two on a line
    (b"\xff\xfe{}\n", -32700, None),                                                 # not UTF-8
    (b"[" * 100_000 + b"\n", -32700, None),                                          # deep
    (_line({"jsonrpc": "1.0", "id": 12, "method": "tools/list"}), -32600, 12),
    (_line({"id": 13, "method": "tools/list"}), -32600, 13),
    (_line([{"jsonrpc": "2.0", "id": 14, "method": "tools/list"}]), -32600, None),   # a batch
    (_line("tools/list"), -32600, None),
    (_line({"jsonrpc": "2.0", "id": 15, "method": 7}), -32600, 15),
    (_line({"jsonrpc": "2.0", "id": [1], "method": "tools/list"}), -32600, None),
    (_search(16, "\\ud800 graph"), -32602, 16),                                     # lone surrogate
]


def test_protocol_errors_are_answered_and_the_server_goes_on(db):
    good = [_line(INIT), _line(INITIALIZED)]
    stdin = b"".join(good + [line for line, _, _ in BAD] + [_search(99, "graph neural networks")])
    proc = subprocess.Popen([sys.executable, "-m", "paperscope", "--db", str(db), "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in iter(proc.stdout.readline, b"")], daemon=True).start()
    try:
        proc.stdin.write(stdin)
        proc.stdin.flush()
        answers = []
        while not answers or answers[-1].get("id") != 99:  # stdin stays open until the last answer
            try:
                line = lines.get(timeout=120)  # bounded: a server gone silent fails the test
            except queue.Empty:
                line = b""
            assert line, f"no answer after {answers}"
            answers.append(json.loads(line))
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert answers[0]["id"] == 1 and "result" in answers[0]
    errors = [a for a in answers[1:] if "error" in a]
    assert [(a["error"]["code"], a["id"]) for a in errors] == [(code, i) for _, code, i in BAD], errors
    assert "send one JSON-RPC message per line" in errors[1]["error"]["message"]
    assert "arguments.query" in errors[-1]["error"]["message"]
    last = answers[-1]
    assert last["id"] == 99 and not last["result"].get("isError"), last
    assert b"Traceback" not in proc.stderr.read()
