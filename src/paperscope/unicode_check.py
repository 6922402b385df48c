"""Where a parsed request (JSON from HTTP or MCP) holds text that is not valid Unicode: a lone
surrogate (`"\\ud800"` in JSON) parses into a Python string that cannot be encoded, searched,
stored or sent back, so the faces refuse it at the door, naming the field."""
from __future__ import annotations

from typing import Any


def bad_text_field(value: Any, where: str = "") -> str | None:
    """The dotted path (e.g. `params.arguments.query`, `texts.1`) of the first string in
    `value`, a key included, that is not valid Unicode; None when all are."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where or "(the value)"
    elif isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            found = bad_text_field(key, where or "(a key)") or bad_text_field(item, path)
            if found:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if (found := bad_text_field(item, f"{where}.{i}" if where else str(i))):
                return found
    return None
