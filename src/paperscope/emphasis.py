"""Markdown emphasis in list text (*Spectral DeTuning*, **bold**, `code`): dropped for plain
displays (titles, labels, the CLI), shown as emphasis by the web pages (web/render.py)."""
from __future__ import annotations

import re
from typing import Any

# Markdown emphasis some lists carry in their text (*Spectral DeTuning*, **bold**, `code`):
# a marked run that starts and ends at a word boundary, on one line. snake_case and 2*3*4 stay.
# Never across a `$`: LaTeX (f^*, a_i) is left to KaTeX.
EMPHASIS = re.compile(r"(?<![\w*`$^\\])(\*\*|\*|__|_|`)(?=[^\s*_`$])([^\n$]*?[^\s*_`$\\])\1(?![\w*`$])")


def md_plain(text: Any) -> str:
    """Text with markdown emphasis markers dropped (titles, labels, snippet pieces)."""
    return EMPHASIS.sub(r"\2", str(text)) if text else ""
