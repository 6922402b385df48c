"""A client for the OpenAI chat API that local servers speak (Ollama, llama.cpp's server, vLLM,
LM Studio): `POST {url}/chat/completions`, a plain answer or a stream of server-sent events.

Every failure ends in `LLMError`, whose text names the endpoint and the fault in words a user
can act on (start the server, set $PAPERSCOPE_LLM_KEY, check the URL or the model, wait, raise
the timeout); callers show it and fall back, never a traceback. A `429` whose `Retry-After` is
short (at most `MAX_RETRY_WAIT` s and within the timeout) is waited for and retried, at most
twice; a longer one is reported with its wait.

The timeout (`Endpoint.timeout_s`, default 60 s, `$PAPERSCOPE_LLM_TIMEOUT`) bounds every wait
for the server: connecting, the first byte of the answer and each gap between two streamed
chunks. A stalled server is cut after that long, not left hanging.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any, Iterator

import httpx

from ..sources.remote.transport import _retry_after, env_float

DEFAULT_TIMEOUT = 60.0
MAX_RETRY_WAIT = 10.0  # seconds of Retry-After worth waiting for in an interactive command
MAX_REPLY = 8 << 20  # bytes of one plain reply
USER_AGENT = "paperscope"


class LLMError(Exception):
    """The model could not give an answer. `str(e)` is the message for the user; `status` is the
    HTTP status when there was one, `retry_after` the wait a 429 asked for, `partial` the text
    received before a stream broke or a reply was cut off; `bad_reply` is true when the server
    answered but the answer is unusable (not JSON, no choices, empty, cut off at the token
    limit): the endpoint works and another request may succeed."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None,
                 partial: str = "", bad_reply: bool = False):
        super().__init__(message)
        self.status, self.retry_after, self.partial = status, retry_after, partial
        self.bad_reply = bad_reply


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible server: its base URL (the part before `/chat/completions`, usually
    ending in `/v1`), the model name it serves, an API key when it wants one."""

    url: str
    model: str
    key: str | None = None
    timeout_s: float = DEFAULT_TIMEOUT

    def __post_init__(self) -> None:
        url = self.url.strip().rstrip("/")
        for tail in ("/chat/completions", "/chat"):
            url = url.removesuffix(tail) if url.endswith(tail) else url
        object.__setattr__(self, "url", url)
        if not url.startswith(("http://", "https://")):
            raise LLMError(f"language model URL {self.url!r} must start with http:// or https:// "
                           "(for example http://localhost:11434/v1)")
        if not (self.model or "").strip():
            raise LLMError(f"no model named for the language model at {url}: "
                           "give --model NAME or set $PAPERSCOPE_LLM_MODEL")
        if not self.timeout_s > 0:
            raise LLMError(f"the timeout for the language model at {url} must be positive, not {self.timeout_s}")

    @classmethod
    def from_env(cls, url: str | None = None, model: str | None = None,
                 key: str | None = None) -> "Endpoint | None":
        """The endpoint from explicit arguments, else $PAPERSCOPE_LLM_URL / _MODEL / _KEY (and
        $PAPERSCOPE_LLM_TIMEOUT in seconds); None when no URL is given anywhere. A URL without
        a model raises LLMError."""
        url = url or os.environ.get("PAPERSCOPE_LLM_URL", "").strip()
        if not url:
            return None
        model = model or os.environ.get("PAPERSCOPE_LLM_MODEL", "").strip()
        key = key or os.environ.get("PAPERSCOPE_LLM_KEY", "").strip() or None
        try:
            timeout = env_float("PAPERSCOPE_LLM_TIMEOUT")
        except ValueError as exc:
            raise LLMError(str(exc)) from None
        return cls(url, model, key, timeout or DEFAULT_TIMEOUT)

    @property
    def shown(self) -> str:
        """How messages name the endpoint: its URL and model."""
        return f"{self.url} (model {self.model})"


def chat(endpoint: Endpoint, messages: list[dict[str, str]], *, max_tokens: int = 1024,
         temperature: float = 0.0) -> str:
    """The model's whole answer to `messages` (one request, no stream)."""
    body = {"model": endpoint.model, "messages": messages, "max_tokens": max_tokens,
            "temperature": temperature, "stream": False}
    with _client(endpoint) as client:
        with _post(client, endpoint, body) as response:
            raw = _read_capped(response, endpoint)
    try:
        reply = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LLMError(f"the language model at {endpoint.shown} sent a reply that is not JSON "
                       f"({_clip(raw)}); is the URL an OpenAI-compatible API?", bad_reply=True) from None
    _raise_reply_error(endpoint, reply)
    choice = _first_choice(endpoint, reply)
    message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
    text = message.get("content") if isinstance(message.get("content"), str) else ""
    _check_finish(endpoint, choice.get("finish_reason"), text, max_tokens)
    if not text.strip():
        raise LLMError(f"the language model at {endpoint.shown} sent an empty answer", bad_reply=True)
    return text


def chat_stream(endpoint: Endpoint, messages: list[dict[str, str]], *,
                max_tokens: int = 1024, temperature: float = 0.0) -> Iterator[str]:
    """The answer as it is written: the text of each streamed chunk (`stream: true`, server-sent
    events `data: {...}` ending with `data: [DONE]`). A stream that ends before its finish
    reason and `[DONE]`, or is cut off at `max_tokens`, raises LLMError after what came."""
    body = {"model": endpoint.model, "messages": messages, "max_tokens": max_tokens,
            "temperature": temperature, "stream": True}
    got: list[str] = []
    finish, done = None, False
    with _client(endpoint) as client:
        with _post(client, endpoint, body) as response:
            try:
                for data in _events(response):
                    if data == "[DONE]":
                        done = True
                        break
                    delta, reason = _chunk(endpoint, data, "".join(got))
                    finish = reason or finish
                    if delta:
                        got.append(delta)
                        yield delta
            except httpx.TransportError as exc:
                raise _transport_error(endpoint, exc, "".join(got), streaming=True) from None
    text = "".join(got)
    if finish is None and not done:
        raise LLMError(f"the answer from the language model at {endpoint.shown} was cut off mid-stream "
                       f"after {len(text)} characters (no finish reason, no [DONE])", partial=text)
    _check_finish(endpoint, finish, text, max_tokens)
    if not text.strip():
        raise LLMError(f"the language model at {endpoint.shown} sent an empty answer", bad_reply=True)


# ---------------------------------------------------------------------------- requests
def _client(endpoint: Endpoint) -> httpx.Client:
    t = endpoint.timeout_s
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json, text/event-stream"}
    if endpoint.key:
        headers["Authorization"] = f"Bearer {endpoint.key}"
    return httpx.Client(timeout=httpx.Timeout(t, connect=min(t, 20.0)), headers=headers,
                        follow_redirects=False)


class _post:
    """`with _post(client, endpoint, body) as response`: a 2xx streamed response, else LLMError
    (a short 429 waited for and retried, at most twice)."""

    def __init__(self, client: httpx.Client, endpoint: Endpoint, body: dict[str, Any]):
        self.client, self.endpoint, self.body = client, endpoint, body
        self.response: httpx.Response | None = None

    def __enter__(self) -> httpx.Response:
        for attempt in range(3):
            try:
                response = self.client.send(
                    self.client.build_request("POST", f"{self.endpoint.url}/chat/completions", json=self.body),
                    stream=True)
            except httpx.TransportError as exc:
                raise _transport_error(self.endpoint, exc, "") from None
            if response.status_code < 300:
                self.response = response
                return response
            try:
                error = _status_error(self.endpoint, response)
            finally:
                response.close()
            wait = error.retry_after
            if error.status != 429 or wait is None or wait > min(MAX_RETRY_WAIT, self.endpoint.timeout_s) \
                    or attempt == 2:
                raise error
            time.sleep(wait)
        raise AssertionError("unreachable")

    def __exit__(self, *exc: object) -> None:
        if self.response is not None:
            self.response.close()


def _status_error(endpoint: Endpoint, response: httpx.Response) -> LLMError:
    status, where = response.status_code, endpoint.shown
    detail = _error_detail(response)
    if status in (401, 403):
        return LLMError(f"the language model at {where} refused the request ({status}{detail}): "
                        "set $PAPERSCOPE_LLM_KEY to the API key it expects", status=status)
    if status == 404:
        return LLMError(f"the language model at {where} answered 404{detail}; check the URL (the "
                        f"part before /chat/completions, often ending in /v1) and that it serves "
                        f"the model {endpoint.model!r}", status=404)
    if status == 429:
        wait = _retry_after(response.headers.get("Retry-After"), -1.0)
        wait_text = f"; it asks to retry after {wait:.0f} s" if wait >= 0 else "; try again later"
        return LLMError(f"the language model at {where} is rate limiting requests (429{detail}){wait_text}",
                        status=429, retry_after=wait if wait >= 0 else None)
    if status >= 500:
        return LLMError(f"the language model at {where} failed with a server error ({status}{detail})",
                        status=status)
    return LLMError(f"the language model at {where} rejected the request ({status}{detail})", status=status)


def _error_detail(response: httpx.Response) -> str:
    """': the server's own message' (OpenAI's {"error": {"message"}} or the body's start)."""
    try:
        raw = response.read()[:4000]
    except httpx.HTTPError:
        return ""
    try:
        data = json.loads(raw)
        message = data["error"]["message"] if isinstance(data.get("error"), dict) else data.get("error")
    except (ValueError, TypeError, KeyError, AttributeError):
        message = raw.decode("utf-8", errors="replace")
    text = " ".join(str(message or "").split())[:200].rstrip(" .")
    return f": {text}" if text else ""


def _transport_error(endpoint: Endpoint, exc: httpx.TransportError, partial: str,
                     streaming: bool = False) -> LLMError:
    where = endpoint.shown
    if isinstance(exc, httpx.ConnectTimeout):
        return LLMError(f"cannot reach the language model at {where}: the connection timed out")
    if isinstance(exc, httpx.ConnectError):
        return LLMError(f"cannot reach the language model at {where} ({_reason(exc)}); "
                        "is its server running (for example `ollama serve`)?")
    if isinstance(exc, httpx.TimeoutException):
        when = "stopped sending its answer" if partial else "sent no answer"
        return LLMError(f"the language model at {where} {when} for {endpoint.timeout_s:g} s (timed out; "
                        "a longer timeout: $PAPERSCOPE_LLM_TIMEOUT in seconds)", partial=partial)
    if streaming or partial:
        return LLMError(f"the answer from the language model at {where} was cut off mid-stream after "
                        f"{len(partial)} characters ({_reason(exc)})", partial=partial)
    return LLMError(f"the connection to the language model at {where} broke ({_reason(exc)})")


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split())[:120]
    return text or type(exc).__name__


def _read_capped(response: httpx.Response, endpoint: Endpoint) -> bytes:
    chunks, size = [], 0
    try:
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > MAX_REPLY:
                raise LLMError(f"the reply from the language model at {endpoint.shown} is larger than "
                               f"{MAX_REPLY >> 20} MiB; not read")
            chunks.append(chunk)
    except httpx.TransportError as exc:
        raise _transport_error(endpoint, exc, "") from None
    return b"".join(chunks)


# ---------------------------------------------------------------------------- replies
def _events(response: httpx.Response) -> Iterator[str]:
    """The `data:` payloads of a server-sent event stream (comments and other fields skipped)."""
    data: list[str] = []
    for line in response.iter_lines():
        if not line.strip():
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    if data:
        yield "\n".join(data)


def _chunk(endpoint: Endpoint, data: str, so_far: str) -> tuple[str, str | None]:
    """One `chat.completion.chunk`: its text and its finish reason."""
    try:
        chunk = json.loads(data)
    except (ValueError, RecursionError):
        raise LLMError(f"the language model at {endpoint.shown} sent a stream event that is not JSON "
                       f"({_clip(data.encode())})", partial=so_far, bad_reply=True) from None
    _raise_reply_error(endpoint, chunk, so_far)
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    if not isinstance(choices, list) or not choices:
        return "", None  # a usage-only or keep-alive chunk
    choice = choices[0] if isinstance(choices[0], dict) else {}
    delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
    text = delta.get("content") if isinstance(delta.get("content"), str) else ""
    return text, choice.get("finish_reason")


def _raise_reply_error(endpoint: Endpoint, reply: Any, partial: str = "") -> None:
    if not isinstance(reply, dict):
        raise LLMError(f"the language model at {endpoint.shown} sent JSON that is not a chat completion",
                       partial=partial, bad_reply=True)
    error = reply.get("error")
    if error:
        message = error.get("message") if isinstance(error, dict) else error
        raise LLMError(f"the language model at {endpoint.shown} reported an error: "
                       f"{' '.join(str(message).split())[:200]}", partial=partial)


def _first_choice(endpoint: Endpoint, reply: dict[str, Any]) -> dict[str, Any]:
    choices = reply.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise LLMError(f"the language model at {endpoint.shown} sent a reply with no choices (no answer)",
                       bad_reply=True)
    return choices[0]


def _check_finish(endpoint: Endpoint, reason: Any, text: str, max_tokens: int) -> None:
    if reason == "length":
        raise LLMError(f"the answer from the language model at {endpoint.shown} was cut off at the "
                       f"limit of {max_tokens} tokens (finish_reason 'length')", partial=text, bad_reply=True)
    if reason == "content_filter":
        raise LLMError(f"the language model at {endpoint.shown} withheld its answer (content filter)",
                       partial=text, bad_reply=True)


def _clip(raw: bytes) -> str:
    text = " ".join(raw[:200].decode("utf-8", errors="replace").split())
    return f"starts {text[:80]!r}" if text else "empty"
