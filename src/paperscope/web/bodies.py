"""Request bodies the routes parse themselves (JSON objects, urlencoded forms), read strictly:
bytes that are not UTF-8, a string holding a lone surrogate (`"\\ud800"` in JSON), nesting too
deep to parse, or too many fields answer 4xx naming the field, never a server error. FastAPI's
own `Body(...)` parameters are checked by pydantic, which refuses the same strings with 422."""
from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_to_bytes

from fastapi import HTTPException

from ..unicode_check import bad_text_field

MAX_DEPTH = 32  # JSON nesting a body may have (the shapes the routes take need 3)


def _utf8(raw: bytes, field: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HTTPException(400, f"{field}: not UTF-8 text (byte {exc.start + 1})") from None


def _depth_ok(text: str) -> bool:
    """No more than MAX_DEPTH open brackets at any point outside strings (json.loads would hit
    Python's recursion limit on a deep body and fail with RecursionError)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def json_object(body: bytes, shape: str) -> dict[str, Any]:
    """The JSON object a body holds (an empty body is `{}`); `shape` says what is expected."""
    text = _utf8(body, "body") if body else "{}"
    if not _depth_ok(text):
        raise HTTPException(400, f"body: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise HTTPException(400, f"body: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise HTTPException(400, f"body must be a JSON object: {shape}")
    if (where := bad_text_field(data)):
        raise HTTPException(422, f"{where}: not valid Unicode text (a lone surrogate)")
    return data


def form_fields(body: bytes, fields: tuple[str, ...], max_fields: int = 10) -> dict[str, str]:
    """The first value of each of `fields` in an urlencoded form body ("" when absent). Each
    value is percent-decoded and must be UTF-8."""
    text = _utf8(body, "form")
    pairs = [p for p in text.split("&") if p]
    if len(pairs) > max_fields:
        raise HTTPException(400, f"form: more than {max_fields} fields")
    out = {name: "" for name in fields}
    seen: set[str] = set()
    for pair in pairs:
        key, _, value = pair.partition("=")
        name = _utf8(unquote_to_bytes(key.replace("+", " ")), "form field name")
        if name in out and name not in seen:
            seen.add(name)
            out[name] = _utf8(unquote_to_bytes(value.replace("+", " ")), name)
    return out
