"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat API (as Ollama, llama.cpp's server,
vLLM and LM Studio do), misbehaving on demand.

    with LLMServer(models=("tiny-model",), key=None) as server:
        server.url                    # http://127.0.0.1:PORT/v1 (POST /v1/chat/completions, GET /v1/models)
        server.script(Status(429, retry_after=1), Reply("Molecules come from diffusion [1]."))
        server.default = Reply(cite_all)   # when the script is used up (a text or body -> text)
        server.chats                  # every chat request: Chat(path, headers, body as JSON), in order
        server.chats[-1].prompt       # the user message the client sent (server.received: raw requests)

A request with `"stream": true` is answered in the streamed wire format (`text/event-stream`,
chunked: `data: {chat.completion.chunk}` lines, a last chunk with the finish reason, then
`data: [DONE]`); otherwise one `chat.completion` object. An unknown model answers 404 and a
missing or wrong key 401, each with OpenAI's `{"error": {...}}` body.

Behaviours, one per request in script order:
  Reply(text, finish_reason="stop")   a plain or streamed answer ("length": cut off at max_tokens)
  Status(code, retry_after=None)      an error status with OpenAI's error body (429 + Retry-After)
  Malformed()                         200 whose body is not JSON (an HTML page)
  NoChoices()                         200 with "choices": []
  Cut(text, after=2)                  streamed: `after` chunks, then the connection drops (no
                                      finish reason, no [DONE]); plain: a body cut short
  Stall(seconds, after=None, then=Reply) silence for `seconds` before answering (after=None) or
                                      after `after` streamed chunks; leaving `with` ends the wait

Standalone, for transcripts: python tests/llm_server.py --port 8770 [--reply TEXT] [--key K]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from local_server import LocalServer, Request  # noqa: E402

CREATED = 1_733_000_000


@dataclass
class Reply:
    text: str | Callable[[dict], str]
    finish_reason: str = "stop"
    chunk_chars: int = 6  # characters per streamed chunk


@dataclass
class Status:
    code: int
    retry_after: float | None = None
    message: str = ""


@dataclass
class Malformed:
    body: bytes = b"<html><body><h1>502 Bad Gateway</h1></body></html>"


@dataclass
class NoChoices:
    pass


@dataclass
class Cut:
    text: str
    after: int = 2  # chunks sent before the connection drops


@dataclass
class Stall:
    seconds: float = 30.0
    after: int | None = None  # None: before any byte; N: after N streamed chunks
    then: Reply = field(default_factory=lambda: Reply("Late answer [1]."))


@dataclass
class Chat:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def prompt(self) -> str:
        """The text of the last user message."""
        users = [m.get("content", "") for m in self.body.get("messages", []) if m.get("role") == "user"]
        return users[-1] if users else ""

    @property
    def system(self) -> str:
        return "\n".join(m.get("content", "") for m in self.body.get("messages", []) if m.get("role") == "system")


def source_numbers(body: dict) -> list[int]:
    """The numbers of the sources a prompt lists (lines starting `[n] `)."""
    prompt = Chat("", {}, body).prompt
    return [int(n) for n in re.findall(r"(?m)^\[(\d+)\] ", prompt)]


def cite_all(body: dict) -> str:
    """An answer that cites every source it was given, one sentence each."""
    return " ".join(f"Source {n} describes a method relevant to the question [{n}]." for n in source_numbers(body))


_ERRORS = {400: ("invalid_request_error", None), 401: ("invalid_request_error", "invalid_api_key"),
           403: ("insufficient_permissions", None), 404: ("invalid_request_error", "model_not_found"),
           429: ("requests", "rate_limit_exceeded"), 500: ("server_error", None), 503: ("server_error", None)}
_MESSAGES = {401: "Incorrect API key provided.", 403: "You are not allowed to use this model.",
             404: "The model does not exist or you do not have access to it.",
             429: "Rate limit reached for requests.", 500: "The server had an error while processing your request.",
             503: "The engine is currently overloaded, please try again later."}


class LLMServer(LocalServer):
    def __init__(self, *, models: tuple[str, ...] = ("tiny-model",), key: str | None = None, port: int = 0):
        self.models, self.key = models, key
        self.default: Any = Reply(cite_all)
        self.chats: list[Chat] = []
        self._script: list[Any] = []
        self._release = threading.Event()
        super().__init__(port)
        self.base = self.url
        self.url = f"{self.base}/v1"

    def script(self, *behaviours: Any) -> "LLMServer":
        with self.lock:
            self._script.extend(behaviours)
        return self

    def next_behaviour(self) -> Any:
        with self.lock:
            return self._script.pop(0) if self._script else self.default

    def wait(self, seconds: float) -> None:
        """A stall that ends early when the server closes (leaving `with`)."""
        self._release.wait(seconds)

    def close(self) -> None:
        self._release.set()
        super().close()

    def handle(self, request: Request) -> None:
        if request.method == "GET" and request.route.rstrip("/") == "/v1/models":
            return request.send(200, {"object": "list", "data": [
                {"id": m, "object": "model", "created": CREATED, "owned_by": "test"} for m in self.models]})
        if request.method != "POST":
            return _error(request, 404, f"Not found: {request.route}")
        try:
            body = request.json({})
        except ValueError:
            return _error(request, 400, "We could not parse the JSON body of your request.")
        with self.lock:
            self.chats.append(Chat(request.route, dict(request.headers.items()), body))
        if request.route != "/v1/chat/completions":
            return _error(request, 404, f"Not found: {request.route}")
        if self.key is not None and request.headers.get("Authorization") != f"Bearer {self.key}":
            return _error(request, 401, _MESSAGES[401])
        model = body.get("model")
        if model not in self.models:
            return _error(request, 404, f"The model `{model}` does not exist or you do not have access to it.")
        _behave(self, request, self.next_behaviour(), body, str(model))


def completion(model: str, text: str, finish: str) -> dict:
    return {"id": "chatcmpl-test0001", "object": "chat.completion", "created": CREATED, "model": model,
            "system_fingerprint": "fp_test", "choices": [{"index": 0, "message": {
                "role": "assistant", "content": text, "refusal": None}, "logprobs": None, "finish_reason": finish}],
            "usage": {"prompt_tokens": 100, "completion_tokens": len(text.split()),
                      "total_tokens": 100 + len(text.split())}}


def chunk(model: str, delta: dict, finish: str | None) -> bytes:
    obj = {"id": "chatcmpl-test0001", "object": "chat.completion.chunk", "created": CREATED, "model": model,
           "system_fingerprint": "fp_test", "choices": [{"index": 0, "delta": delta, "logprobs": None,
                                                         "finish_reason": finish}]}
    return b"data: " + json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n\n"


def _text(reply: Reply, body: dict) -> str:
    return reply.text(body) if callable(reply.text) else reply.text


def _error(request: Request, status: int, message: str, headers: dict | None = None) -> None:
    kind, code = _ERRORS.get(status, ("error", None))
    request.send(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, headers=headers)


def _behave(server: LLMServer, request: Request, how: Any, body: dict, model: str) -> None:
    stream = bool(body.get("stream"))
    if isinstance(how, Status):
        headers = {"Retry-After": f"{how.retry_after:g}"} if how.retry_after is not None else None
        return _error(request, how.code, how.message or _MESSAGES.get(how.code, "error"), headers)
    if isinstance(how, Malformed):
        return request.send(200, how.body, "text/html")
    if isinstance(how, NoChoices):
        return request.send(200, {**completion(model, "", "stop"), "choices": []})
    if isinstance(how, Stall) and how.after is None:
        server.wait(how.seconds)
        how = how.then
    if isinstance(how, Cut) and not stream:
        data = json.dumps(completion(model, how.text, "stop")).encode("utf-8")
        request.send_response(200)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data[: len(data) // 2])
        return request.reset()
    if isinstance(how, Reply) and not stream:
        return request.send(200, completion(model, _text(how, body), how.finish_reason))
    _stream(server, request, how, body, model)


def _stream(server: LLMServer, request: Request, how: Any, body: dict, model: str) -> None:
    """The streamed wire format: chunked `text/event-stream`, one chunk object per event."""
    reply = how.then if isinstance(how, Stall) else how
    text = reply.text if isinstance(reply, Cut) else _text(reply, body)
    size = reply.chunk_chars if isinstance(reply, Reply) else 6
    pieces = [text[i:i + size] for i in range(0, len(text), size)]
    request.send_response(200)
    request.send_header("Content-Type", "text/event-stream; charset=utf-8")
    request.send_header("Cache-Control", "no-cache")
    request.send_header("Transfer-Encoding", "chunked")
    request.end_headers()

    def write(data: bytes) -> None:
        request.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        request.wfile.flush()

    write(chunk(model, {"role": "assistant", "content": ""}, None))
    for i, piece in enumerate(pieces):
        if isinstance(how, Cut) and i == how.after:
            return request.reset()
        if isinstance(how, Stall) and i == how.after:
            server.wait(how.seconds)
        write(chunk(model, {"content": piece}, None))
    write(chunk(model, {}, reply.finish_reason))
    write(b"data: [DONE]\n\n")
    request.wfile.write(b"0\r\n\r\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="OpenAI chat API test server")
    parser.add_argument("--port", type=int, default=8770)
    parser.add_argument("--model", action="append", help="a model name it serves (default tiny-model)")
    parser.add_argument("--key", help="the API key it expects (default: none)")
    parser.add_argument("--reply", help="the answer to every request (default: one cited sentence per source)")
    args = parser.parse_args(argv)
    server = LLMServer(models=tuple(args.model or ["tiny-model"]), key=args.key, port=args.port)
    if args.reply:
        server.default = Reply(args.reply)
    server.serve_until_interrupted(f"serving {server.url} (--llm-url {server.url} --model {server.models[0]}); "
                                   "Ctrl-C stops")


if __name__ == "__main__":
    main()
