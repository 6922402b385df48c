"""A generated answer from numbered sources: the prompt, the call, the citation check.

    sources = [Source(1, paper_id, title, abstract), ...]
    got = generate(endpoint, question, sources, stream=print_piece)   # LLMError on any fault
    got.text      # the answer, every citation a source that was given, uncited claims marked
    got.cited     # the source numbers it cites; got.removed: invented markers taken out;
    got.uncited   # the sentences marked "[citation needed]"

With `stream`, each piece of the answer is passed on as it arrives, its markers already checked
(an invented citation is never shown, not even for a moment); the returned text is the checked
whole, uncited claims marked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from . import citations
from .client import Endpoint, chat, chat_stream

ANSWER_MAX_TOKENS = 800  # a few paragraphs; the sources are abstracts, not whole papers
SOURCE_CHARS = 3000  # of each source's text in the prompt (abstracts are shorter)
_HAN = re.compile(r"[\u3400-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")

SYSTEM = (
    "You answer questions about research papers using only the numbered sources given. "
    "Cite the source of every claim with its number in square brackets, like [1] or [2][3], "
    "right after the claim. Use only the numbers of the sources listed; never cite anything else. "
    "If the sources do not answer the question, say so briefly. "
    "Answer in the language of the question."
)


@dataclass(frozen=True)
class Source:
    n: int  # the number the answer cites it by
    paper_id: str
    title: str  # the paper's title, or its label when it has none
    text: str  # its abstract (or the passages given as evidence)


@dataclass
class Generated:
    text: str
    cited: list[int] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    uncited: list[str] = field(default_factory=list)


def _language_hint(question: str) -> str:
    if _KANA.search(question):
        return " The question is in Japanese: answer in Japanese."
    if _HANGUL.search(question):
        return " The question is in Korean: answer in Korean."
    if _HAN.search(question):
        return " The question is in Chinese: answer in Chinese."
    return ""


def build_messages(question: str, sources: Sequence[Source]) -> list[dict[str, str]]:
    """The chat messages: the instructions, then the numbered sources and the question."""
    parts = ["Sources:"]
    for s in sources:
        text = " ".join(s.text.split())
        if len(text) > SOURCE_CHARS:
            text = text[:SOURCE_CHARS].rsplit(" ", 1)[0] + " ..."
        parts.append(f"[{s.n}] {' '.join(s.title.split())}\n{text}")
    numbers = ", ".join(f"[{s.n}]" for s in sources)
    parts.append(f"Question: {question.strip()}\n\nAnswer using only the sources above and cite them "
                 f"({numbers}).{_language_hint(question)}")
    return [{"role": "system", "content": SYSTEM + _language_hint(question)},
            {"role": "user", "content": "\n\n".join(parts)}]


def check_citations(text: str, sources: Sequence[Source]) -> Generated:
    """The answer with unknown source numbers removed (and listed in `removed`), every marker
    written `[n]`, and each claim without a citation marked `[citation needed]` (listed in `uncited`)."""
    got = citations.check(text, {s.n for s in sources})
    return Generated(got.text, got.cited, got.removed, got.uncited)


def generate(endpoint: Endpoint, question: str, sources: Sequence[Source], *,
             stream: Callable[[str], None] | None = None) -> Generated:
    """Ask the model; LLMError (with a message for the user) when it cannot answer."""
    if not sources:
        raise ValueError("generate needs at least one source")
    if len({s.n for s in sources}) != len(sources):
        raise ValueError("source numbers must be distinct")
    messages = build_messages(question, sources)
    if stream is None:
        return check_citations(chat(endpoint, messages, max_tokens=ANSWER_MAX_TOKENS), sources)
    pieces: list[str] = []
    shown = citations.CitationFilter({s.n for s in sources})
    for delta in chat_stream(endpoint, messages, max_tokens=ANSWER_MAX_TOKENS):
        pieces.append(delta)
        ready = shown.feed(delta)
        if ready:
            stream(ready)
    rest = shown.flush()
    if rest:
        stream(rest)
    return check_citations("".join(pieces), sources)
