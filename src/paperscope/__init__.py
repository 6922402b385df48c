"""paperscope: explore machine-learning conference paper lists offline."""
from __future__ import annotations

__version__ = "0.1.0"


def __getattr__(name: str):  # lazy: `from paperscope import Library` without import cost
    if name == "Library":
        from .library import Library

        return Library
    raise AttributeError(name)
