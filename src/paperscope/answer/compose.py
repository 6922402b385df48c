"""The answer a user reads: a summary line, the quoted sentences grouped by paper, each group
cited `[n]`, and the citations mapping each number to a paper (id, title or derived label).

`Answer.to_json()` is the shape every face returns (`paperscope ask --json`, `/api/ask`, the
MCP tool `ask`):

    {"question", "answer", "citations": [{"n", "id", "title", "sentences"}],
     "mode": "extractive" | "generated", "weak": bool, "model": null | "...",
     "searched_as", "warning", "fallback", "removed", "uncited"}

The last five are null or empty unless something happened: a Chinese question was translated
(`searched_as`, `warning` when little of it was understood), the model failed and the
extractive answer stands in (`fallback`: why), the model cited sources it was not given
(`removed`) or made claims without a citation (`uncited`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Citation:
    n: int
    paper: dict[str, Any]  # the paper's JSON
    sentences: list[str]
    weak: bool = False  # a weak match (the closest paper, not an answer)

    @property
    def id(self) -> str:
        return self.paper["id"]

    @property
    def title(self) -> str:
        return self.paper.get("title") or self.paper.get("label") or "(untitled)"

    @property
    def derived(self) -> bool:
        """The title is a label derived from the abstract (the list gave none)."""
        return not self.paper.get("title")

    @property
    def where(self) -> str:
        return " ".join(str(x) for x in (self.paper.get("venue"), self.paper.get("year")) if x)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "id": self.id, "title": self.title, "sentences": list(self.sentences)}


@dataclass
class Answer:
    question: str
    summary: str
    citations: list[Citation]
    weak: bool
    mode: str = "extractive"
    model: str | None = None
    generated: str | None = None  # the model's checked text (mode "generated")
    searched_as: str | None = None
    warning: str | None = None
    fallback: str | None = None
    removed: list[str] = field(default_factory=list)
    uncited: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The answer as one text: the summary line, then the generated answer or the quoted
        sentences (one paragraph per paper, ending with its citation)."""
        if self.generated is not None:
            return f"{self.summary}\n\n{self.generated}"
        if self.weak:
            return "\n".join([self.summary, *(f"[{c.n}] {c.title}" for c in self.citations)])
        body = [f"{' '.join(c.sentences)} [{c.n}]" for c in self.citations if c.sentences]
        return "\n\n".join([self.summary, *body])

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "answer": self.text,
                "citations": [c.to_json() for c in self.citations], "mode": self.mode,
                "weak": self.weak, "model": self.model, "searched_as": self.searched_as,
                "warning": self.warning, "fallback": self.fallback, "removed": list(self.removed),
                "uncited": list(self.uncited)}


def summary(found: int, *, weak: bool, total: int | None, scope: str | None) -> str:
    """The one line saying how many papers were found (and that the evidence is weak)."""
    where = f" in {scope}" if scope else ""
    if not found:
        return f"No paper{where} matches this question: nothing to answer from."
    if weak:
        return (f"No paper{where} answers this question well (weak evidence); the closest "
                f"{'one' if found == 1 else found}, not an answer:")
    matched = f" ({total} match its words or meaning)" if total and total > found else ""
    return (f"Found {found} {'paper' if found == 1 else 'papers'}{where} on this question{matched}; "
            f"from {'its abstract' if found == 1 else 'their abstracts'}:")
