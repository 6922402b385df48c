"""HTTP for the remote sources: one `Transport` per source, on httpx.

Contract (used by every remote source, `arxiv` included):

    t = Transport("openreview", base_url, save_dir=folder, min_interval=None, hint=...)
    got = t.get(url, params={...}, save_as="page-0001.json", check=json_check)
    got.body / got.data (what `check` returned) / got.path (the saved file) / got.cached
    t.post_json(url, {...}) -> dict        # never cached (a login)
    t.headers["Authorization"] = "Bearer ..."

* **Retries**: a connection error or reset, a timeout, a 5xx answer, or a body that `check`
  refuses (truncated JSON) is retried with exponential back-off (`backoff`, doubled each time,
  at most `MAX_BACKOFF` s, `retries` times); `429` waits what its `Retry-After` header says
  (seconds or an HTTP date; at most `MAX_RETRY_AFTER` s) before trying again. When the source
  keeps failing, `FetchError` names the URL and the reason.
* **Pace**: at most one request every `min_interval` seconds per source (`MIN_INTERVAL`:
  arXiv asks for 3 s; 1 s for the others). Only an explicit `min_interval=` or the
  environment variable `PAPERSCOPE_FETCH_INTERVAL` (seconds, for mirrors and test servers)
  changes it; `PAPERSCOPE_FETCH_BACKOFF` likewise sets the first back-off.
* **Saved responses**: with `save_as`, the raw body is written to `save_dir/save_as` (a
  temporary file renamed into place, so a kill never leaves half a page) and a later `get` with
  the same name reads that file instead of the network: a resumed fetch fetches nothing twice,
  and a replay needs no network at all. Names starting with '.' stay out of `paperscope ingest
  DIR` (pages without papers).
* **Errors**: 401/403 -> `FetchError` with the source's `hint` (how to log in); 404 ->
  `FetchError(not_found=True)`, which `Fetcher` takes as "this source does not publish that
  venue" and tries the next source.
"""
from __future__ import annotations

import email.utils
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import httpx

MIN_INTERVAL = {"arxiv": 3.0}  # seconds between two requests to one source
DEFAULT_INTERVAL = 1.0
MAX_BACKOFF = 60.0
MAX_RETRY_AFTER = 600.0  # a server asking for a longer pause is treated as refusing
MAX_BODY = 512 << 20  # bytes of one response
USER_AGENT = "paperscope (+https://github.com/paperscope; metadata of accepted papers)"
_RETRY_STATUS = {500, 502, 503, 504, 520, 521, 522, 524}


class FetchError(Exception):
    """A source that cannot be read: `url`, `reason`, and `not_found` (404: the source does not
    publish what was asked) or `refused` (401/403: log in)."""

    def __init__(self, url: str, reason: str, *, not_found: bool = False, refused: bool = False,
                 status: int | None = None):
        super().__init__(f"{url}: {reason}")
        self.url, self.reason, self.not_found, self.refused = url, reason, not_found, refused
        self.status = status


class BadBody(ValueError):
    """Raised by a `check` callback: the body is not what the source sends (cut, not JSON)."""


@dataclass
class Got:
    url: str
    body: bytes
    data: Any = None  # what `check` returned
    path: Path | None = None  # where the body is saved
    cached: bool = False  # read from the saved file, not the network
    status: int = 200


def env_float(name: str) -> float | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        raise ValueError(f"${name} must be a number of seconds, not {value!r}") from None


class Transport:
    _last: dict[str, float] = {}  # source -> monotonic time of its last request (per process)
    _lock = threading.Lock()

    def __init__(self, source: str, *, save_dir: str | os.PathLike | None = None,
                 min_interval: float | None = None, retries: int = 5, backoff: float | None = None,
                 timeout: float = 60.0, hint: str = "", label: str = "", client: httpx.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 on_wait: Callable[[str], None] | None = None):
        self.source = source
        self.save_dir = Path(save_dir) if save_dir is not None else None
        env_interval = env_float("PAPERSCOPE_FETCH_INTERVAL")
        self.min_interval = (min_interval if min_interval is not None else env_interval
                             if env_interval is not None else MIN_INTERVAL.get(source, DEFAULT_INTERVAL))
        env_backoff = env_float("PAPERSCOPE_FETCH_BACKOFF")
        self.backoff = backoff if backoff is not None else env_backoff if env_backoff is not None else 2.0
        self.retries = retries
        self.hint = hint
        self.label = label or source
        self.headers: dict[str, str] = {"User-Agent": USER_AGENT, "Accept": "*/*"}
        self._client = client or httpx.Client(timeout=httpx.Timeout(timeout, connect=min(timeout, 20.0)),
                                              follow_redirects=True)
        self._sleep = sleep
        self._on_wait = on_wait or (lambda message: None)
        self.requests = 0  # requests sent over the network
        self.retried = 0

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "Transport":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ saved responses
    def saved(self, name: str) -> Path | None:
        """The saved file of that name, if any."""
        if self.save_dir is None:
            return None
        path = self.save_dir / name
        return path if path.is_file() else None

    def save(self, name: str, body: bytes) -> Path:
        """Write a body under `save_dir` atomically (a temporary file renamed into place)."""
        assert self.save_dir is not None
        self.save_dir.mkdir(parents=True, exist_ok=True)
        path = self.save_dir / name
        tmp = path.with_name(f".{path.name}.part-{os.getpid()}")
        with open(tmp, "wb") as f:
            f.write(body)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return path

    # ------------------------------------------------------------------ requests
    def get(self, url: str, *, params: dict[str, Any] | None = None, save_as: str | None = None,
            check: Callable[[bytes], Any] | None = None) -> Got:
        """The body of `url` (from `save_dir/save_as` when saved before), checked by `check`."""
        shown = _shown(url, params)
        if save_as:
            path = self.saved(save_as)
            if path is not None:
                body = path.read_bytes()
                try:
                    data = check(body) if check else None
                except BadBody:
                    path.unlink()  # a saved page this version cannot use: fetch it again
                else:
                    return Got(shown, body, data, path, cached=True)
        body, status, data = self._request("GET", url, shown, params=params, check=check)
        path = self.save(save_as, body) if save_as and self.save_dir is not None else None
        return Got(shown, body, data, path, cached=False, status=status)

    def post_json(self, url: str, payload: dict[str, Any]) -> Any:
        """POST a JSON body, the answer decoded (a login; never saved)."""
        body, _, data = self._request("POST", url, url, json=payload, check=json_check)
        return data

    def _request(self, method: str, url: str, shown: str, *, check=None, **kwargs) -> tuple[bytes, int, Any]:
        attempt = 0
        while True:
            self._pace()
            reason, wait = None, None
            try:
                self.requests += 1
                with self._client.stream(method, url, headers=self.headers, **kwargs) as response:
                    status = response.status_code
                    if status == 429:
                        wait = _retry_after(response.headers.get("Retry-After"), self.backoff * 2 ** attempt)
                        reason = f"too many requests (429); asked to wait {wait:.0f} s"
                        if wait > MAX_RETRY_AFTER:
                            raise FetchError(shown, f"{reason}: the source refuses to answer for now; "
                                             f"try again later")
                    elif status in _RETRY_STATUS:
                        reason = f"server error ({status})"
                    elif status in (401, 403):
                        raise FetchError(shown, _refused(self.label, status, self.hint), refused=True, status=status)
                    elif status == 404:
                        raise FetchError(shown, "not found (404)", not_found=True, status=404)
                    elif status >= 400:
                        raise FetchError(shown, f"refused the request ({status}): {_snippet(response)}", status=status)
                    else:
                        body = _read_capped(response, shown)
                        try:
                            data = check(body) if check else None
                        except BadBody as exc:
                            reason = f"unusable answer ({exc})"
                        else:
                            return body, status, data
            except httpx.TransportError as exc:  # refused, reset, timed out, cut mid-body
                reason = f"{_describe(exc)}"
            attempt += 1
            if attempt > self.retries:
                raise FetchError(shown, f"{reason}; gave up after {attempt} attempts")
            self.retried += 1
            wait = wait if wait is not None else min(MAX_BACKOFF, self.backoff * 2 ** (attempt - 1))
            self._on_wait(f"{self.source}: {reason}; retrying in {wait:.1f} s")
            self._sleep(wait)

    def _pace(self) -> None:
        if self.min_interval <= 0:
            return
        with self._lock:
            last = self._last.get(self.source)
            now = time.monotonic()
            if last is not None and now - last < self.min_interval:
                self._sleep(self.min_interval - (now - last))
            self._last[self.source] = time.monotonic()


def json_check(body: bytes) -> Any:
    """A `check` for JSON answers: the decoded value; BadBody when cut or not JSON."""
    import json

    try:
        return json.loads(body.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError) as exc:
        raise BadBody(f"not valid JSON: {' '.join(str(exc).split())[:120]}") from None


def _read_capped(response: httpx.Response, shown: str) -> bytes:
    chunks, size = [], 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_BODY:
            raise FetchError(shown, f"the answer is larger than {MAX_BODY >> 20} MiB; not read")
        chunks.append(chunk)
    return b"".join(chunks)


def _retry_after(value: str | None, default: float) -> float:
    if not value:
        return default
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    return max(0.0, when.timestamp() - time.time())


def _refused(source: str, status: int, hint: str) -> str:
    text = f"{source} refused {'anonymous ' if hint else ''}access ({status})"
    return f"{text}: {hint}" if hint else text


def _snippet(response: httpx.Response) -> str:
    try:
        text = response.read()[:300].decode("utf-8", errors="replace")
    except httpx.HTTPError:
        return "no details"
    return " ".join(text.split())[:200] or "no details"


def _describe(exc: httpx.TransportError) -> str:
    kind = {httpx.ConnectError: "cannot connect", httpx.ConnectTimeout: "connection timed out",
            httpx.ReadTimeout: "no answer in time", httpx.RemoteProtocolError: "connection closed mid-answer",
            httpx.ReadError: "connection reset"}.get(type(exc), type(exc).__name__)
    text = " ".join(str(exc).split())[:120]
    return f"{kind} ({text})" if text else kind


def _shown(url: str, params: dict[str, Any] | None) -> str:
    if not params:
        return url
    return str(httpx.URL(url, params={k: v for k, v in params.items() if v is not None}))
