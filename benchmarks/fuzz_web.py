"""Fuzz of the two network faces: every HTTP route of a real `paperscope serve` (path and query
parameters, JSON and form bodies, chunked and oversized bodies, bytes that are not UTF-8, lone
surrogates, deep nesting, huge numbers), spoken over raw sockets; and `paperscope mcp` over
stdio (every tool with hostile arguments, broken JSON-RPC lines). Routes that reach the network
(`/api/fetch`, `/api/resolve`, the MCP tools `fetch` and `resolve`) are left out. A 5xx answer, a connection closed without an
answer, a request unanswered within --timeout and a traceback in the server's log are failures.
Writes benchmarks/results/fuzz_web.json.

    .venv/bin/python benchmarks/fuzz_web.py [--per-route 60] [--mcp 400] [--seed 7] [--timeout 20]
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _run_info import run_info  # noqa: E402

NETWORK_ROUTES = {"/api/fetch", "/api/resolve"}
NETWORK_TOOLS = {"fetch", "resolve"}
PRINTABLE = "".join(chr(i) for i in range(33, 127))  # kept as typed in a request line (spaces and the rest encoded)
NASTY = ["", " ", "0", "-1", "1e308", "99999999999999999999", "2020..2024", ">=2020", "..", "../../etc/passwd",
         "%00", "%ff%fe", "%ED%A0%80", "%C3%28", "a" * 5000, " _x" * 3000, "\"unclosed", "NEAR(a b", "*", "-",
         "<script>alert(1)</script>", "javascript:alert(1)", "中文 查询", "%0d%0aSet-Cookie:x=1", "true", "null",
         "ICML 2024", "ICLR 2024", "coarse", "fine", "bibtex", "hybrid", "@", "{", "[]"]
JSON_VALUES = [None, True, -1, 10 ** 30, 1e308, "", "x" * 60_000, "\ud800", "a\udfffb", [], {}, [[[]]], "ICML 2024",
               "graph neural networks", ["\ud800"], {"a": "\udc00"}, "\u0000", "中文"]


# ----------------------------------------------------------------------------- HTTP

def routes(db: Path) -> list[tuple[str, str, list[str], list[str]]]:
    """(method, path, query names, body names) of every route of the app."""
    from paperscope.web.app import create_app

    def walk(items):
        for r in items:
            if hasattr(r, "dependant"):
                yield r
            for attr in ("routes", "original_router", "router"):
                sub = getattr(r, attr, None)
                if sub is not None and sub is not r:
                    yield from walk(sub if isinstance(sub, list) else getattr(sub, "routes", []))
                    break

    out, seen = [], set()
    for r in walk(create_app(db).router.routes):
        for method in sorted(r.methods - {"HEAD"}):
            if (method, r.path) not in seen and r.path not in NETWORK_ROUTES:
                seen.add((method, r.path))
                d = r.dependant
                out.append((method, r.path, [p.name for p in d.query_params], [p.name for p in d.body_params]))
    return out


def _value(rng: random.Random, ids: list[str]) -> str:
    return rng.choice(NASTY + ids[:3])


def _path(rng: random.Random, path: str, ids: list[str]) -> str:
    return re.sub(r"\{[^}]+\}", lambda m: rng.choice([quote(rng.choice(ids)), _value(rng, ids)])
                  .replace("/", "%2F") if "path" not in m.group(0) else _value(rng, ids), path)


def _body(rng: random.Random, names: list[str], path: str) -> tuple[bytes, str, bool]:
    """(body, content type, chunked)."""
    kind = rng.randrange(10)
    if path in ("/related", "/match"):
        text = rng.choice(NASTY + ["@article{a, title={" + "{" * 5000 + "}", "TY  - JOUR\nTI  - x\nER  -"])
        form = f"text={text}&collection={rng.choice(NASTY)}"
        return form.encode("utf-8", "surrogatepass"), "application/x-www-form-urlencoded", kind == 0
    if kind == 0:
        return b"[" * 100_000, "application/json", False
    if kind == 1:
        return b'{"a": "\xff\xfe"}', "application/json", False
    if kind == 2:
        return b"x" * 4_500_000, "application/json", True  # over the cap, chunked
    if kind == 3:
        return b"not json", rng.choice(["application/json", "text/plain", ""]), False
    fields = names or ["papers", "ids", "texts", "text"]
    data = {name: rng.choice(JSON_VALUES) for name in fields if rng.random() < 0.8}
    if path == "/api/match" and rng.random() < 0.5:
        data = {"papers": rng.choice(['[{"issued": {"date-parts": [[]]}}]', "[" * 5000, "@x{", "{\"a\": 1}\n" * 3])}
    return json.dumps(data, ensure_ascii=True).encode(), "application/json", False


def _request(method: str, target: str, host: str, body: bytes, ctype: str, chunked: bool) -> bytes:
    head = f"{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nOrigin: http://{host}\r\n"
    if ctype:
        head += f"Content-Type: {ctype}\r\n"
    if method in ("POST", "PUT", "DELETE", "PATCH"):
        if chunked:
            head += "Transfer-Encoding: chunked\r\n\r\n"
            piece = 500_000
            parts = [b"%x\r\n" % len(body[i:i + piece]) + body[i:i + piece] + b"\r\n" for i in range(0, len(body), piece)]
            return head.encode("latin-1") + b"".join(parts) + b"0\r\n\r\n"
        head += f"Content-Length: {len(body)}\r\n"
    return head.encode("latin-1") + b"\r\n" + (body if method != "GET" else b"")


def send(port: int, raw: bytes, timeout: float) -> str:
    """'2xx' .. '5xx', 'closed' (no answer) or 'hang'."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    answer = b""
    sender = threading.Thread(target=lambda: _send_all(sock, raw), daemon=True)
    sender.start()
    try:
        while len(answer) < 12:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    except socket.timeout:
        return "hang"
    except OSError:
        pass
    finally:
        sock.close()
    return answer[9:10].decode() + "xx" if answer.startswith(b"HTTP/1.1 ") else "closed"


def _send_all(sock: socket.socket, raw: bytes) -> None:
    try:
        sock.sendall(raw)
    except OSError:
        pass  # answered and closed before the rest was read


def fuzz_http(db: Path, per_route: int, seed: int, timeout: float) -> dict:
    from paperscope.library import Library

    with Library.open(db) as lib:
        ids = [p["id"] for p in lib.papers()][:5]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PAPERSCOPE_BODY_TIMEOUT": "5"}
    proc = subprocess.Popen([sys.executable, "-m", "paperscope", "--db", str(db), "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    log: list[str] = []
    threading.Thread(target=lambda: log.extend(proc.stdout), daemon=True).start()
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    failures, per_route_counts = [], {}
    try:
        for method, path, query, body_names in routes(db):
            for _ in range(per_route):
                target = _path(rng, path, ids)
                params = [f"{name}={_value(rng, ids)}" for name in query if rng.random() < 0.7]
                if params:
                    target += "?" + "&".join(params)
                body, ctype, chunked = _body(rng, body_names, path)
                raw = _request(method, quote(target, safe=PRINTABLE), f"127.0.0.1:{port}", body, ctype, chunked)
                outcome = send(port, raw, timeout)
                counts[outcome] = counts.get(outcome, 0) + 1
                per_route_counts[f"{method} {path}"] = per_route_counts.get(f"{method} {path}", 0) + 1
                if outcome in ("5xx", "closed", "hang") and len(failures) < 30:
                    failures.append({"route": f"{method} {path}", "outcome": outcome, "request": raw[:300].decode("latin-1")})
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    tracebacks = sum("Traceback" in line for line in log)
    return {"requests": sum(counts.values()), "routes": len(per_route_counts), "outcomes": counts,
            "tracebacks_in_log": tracebacks, "failures": failures}


# ----------------------------------------------------------------------------- MCP

def _mcp_lines(rng: random.Random, tools: list[dict], n: int):
    """(line bytes, whether an answer is due) for n hostile messages."""
    for i in range(n):
        msg_id = 1000 + i
        kind = rng.randrange(8)
        if kind == 0:
            yield rng.choice([b"{", b"\xff\xfe\n", b"[" * 50_000, b'{"jsonrpc": "2.0"} {"jsonrpc": "2.0"}', b"null",
                              b'"text"', b"[]", b"12"]) + b"\n", True
        elif kind == 1:
            msg = {"jsonrpc": rng.choice(["1.0", 2, None, "2.0 "]), "id": msg_id, "method": "tools/list"}
            yield json.dumps(msg).encode() + b"\n", True
        elif kind == 2:
            msg = {"jsonrpc": "2.0", "id": rng.choice([msg_id, [1], {"a": 1}, True, 1.5, "\ud800"]),
                   "method": rng.choice(["tools/list", 7, "nope", "resources/read"]),
                   "params": rng.choice([None, [], {"uri": rng.choice(NASTY)}, "x"])}
            yield json.dumps(msg).encode() + b"\n", True
        else:
            tool = rng.choice(tools)
            names = list(tool.get("inputSchema", {}).get("properties", {})) or ["query"]
            args = {name: rng.choice(JSON_VALUES + NASTY[:12]) for name in names if rng.random() < 0.8}
            msg = {"jsonrpc": "2.0", "id": msg_id, "method": "tools/call", "params": {"name": tool["name"], "arguments": args}}
            yield json.dumps(msg).encode() + b"\n", True


def fuzz_mcp(db: Path, n: int, seed: int, timeout: float) -> dict:
    proc = subprocess.Popen([sys.executable, "-m", "paperscope", "--db", str(db), "mcp", "--allow-writes"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [answers.put(x) for x in iter(proc.stdout.readline, b"")], daemon=True).start()
    errors: list[bytes] = []
    threading.Thread(target=lambda: errors.extend(iter(proc.stderr.readline, b"")), daemon=True).start()

    def ask(line: bytes) -> dict | None:
        proc.stdin.write(line)
        proc.stdin.flush()
        try:
            return json.loads(answers.get(timeout=timeout))
        except queue.Empty:
            return None

    ask(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}}).encode() + b"\n")
    proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    tools = [t for t in ask(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n')["result"]["tools"]
             if t["name"] not in NETWORK_TOOLS]
    counts = {"messages": 0, "result": 0, "tool_error": 0, "jsonrpc_error": 0, "unanswered": 0}
    failures = []
    for line, due in _mcp_lines(random.Random(seed), tools, n):
        counts["messages"] += 1
        answer = ask(line) if due else None
        if answer is None:
            counts["unanswered"] += 1
            failures.append(line[:200].decode("utf-8", "replace"))
            break  # the server is stuck: the rest would only repeat it
        kind = "jsonrpc_error" if "error" in answer else "tool_error" if answer["result"].get("isError") else "result"
        counts[kind] += 1
    alive = ask(b'{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}\n') is not None
    proc.stdin.close()
    try:
        proc.wait(timeout=30)
        exited = True
    except subprocess.TimeoutExpired:  # did not stop when its input ended
        proc.kill()
        exited = False
    return {**counts, "alive_after": alive, "exited_at_end_of_input": exited,
            "tracebacks_in_log": sum(b"Traceback" in e for e in errors), "failures": failures,
            **({"log_tail": b"".join(errors[-20:]).decode("utf-8", "replace")[-3000:]} if failures else {})}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-route", type=int, default=60)
    ap.add_argument("--mcp", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    from paperscope.library import Library

    t0, cpu0 = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "lib.db"
        with Library.open(db) as lib:
            lib.ingest([ROOT / "examples" / "lists"])
        http = fuzz_http(db, args.per_route, args.seed, args.timeout)
        mcp = fuzz_mcp(db, args.mcp, args.seed, args.timeout)
    children = os.times()
    result = run_info({"library": "examples/lists"}, "fastapi", "uvicorn", "h11", "mcp")
    result.update({"seed": args.seed, "http": http, "mcp": mcp, "wall_seconds": round(time.perf_counter() - t0, 1),
                   "cpu_seconds": round(time.process_time() - cpu0 + children.children_user + children.children_system, 1)})
    out = ROOT / "benchmarks" / "results" / "fuzz_web.json"
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(json.dumps({"http": {k: http[k] for k in ("requests", "routes", "outcomes", "tracebacks_in_log")},
                      "mcp": {k: v for k, v in mcp.items() if k != "failures"}}, indent=1))
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
