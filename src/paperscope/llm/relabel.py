"""Generated titles and TL;DRs for title-less papers: the prompt, reading the reply, the checks.

A generated title is kept only when it passes every check, each failure counted by its reason:

* `unreadable`: the reply holds no title (neither the JSON asked for nor `Title:` lines);
* `sentence`: it reads as a sentence, not a title: it ends in a full stop, opens like prose
  ("This paper", "We propose", "In this work"), or runs over `MAX_TITLE_WORDS` words;
* `length`: the title is shorter than `MIN_TITLE_CHARS` characters or two words, or longer than
  `MAX_TITLE_CHARS`; the TL;DR shorter than `MIN_TLDR_WORDS` or longer than `MAX_TLDR_WORDS` words;
* `off_topic`: the title's embedding cosine to its own abstract is below `MIN_COSINE`.

`MIN_COSINE` comes from `benchmarks/relabel_threshold.py` (the product's MiniLM model; ICLR 2020,
UAI 2024, COLT 2024: 687, 201, 169 papers): real titles reach 0.35 against their own abstract
for 98.5-100 % of papers, while a real title put on another paper of the same venue stays below
it for 81-90 % and generic titles ("A Novel Approach to Deep Learning") for 77-89 %. At 0.30
wrong-paper titles got through nearly twice as often; at 0.40 up to 2.5 % of real titles failed.
A generated title borrows the abstract's words, so it sits above a real one, not below.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ..store.protocol import Store
    from .client import Endpoint

MIN_COSINE = 0.35
MAX_TITLE_WORDS = 20
MIN_TITLE_CHARS = 8
MAX_TITLE_CHARS = 160
MIN_TLDR_WORDS = 5
MAX_TLDR_WORDS = 60
MAX_TOKENS = 200
ABSTRACT_CHARS = 4000
REASONS = ("unreadable", "sentence", "length", "off_topic")

SYSTEM = ("You write titles for research papers. Given a paper's abstract, you write the title the "
          "paper would have and a one-sentence TL;DR. Answer with JSON only.")
_PROSE = re.compile(r"^(this (paper|work|study)|we |in this (paper|work)|the authors|here,? we|our )", re.I)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_LINE = re.compile(r"(?im)^\W*(title|tl;?\s*dr|summary)\W*[:：]\s*(.+)$")


@dataclass
class Label:
    title: str
    tldr: str | None


def messages(abstract: str) -> list[dict[str, str]]:
    text = " ".join(abstract.split())
    if len(text) > ABSTRACT_CHARS:
        text = text[:ABSTRACT_CHARS].rsplit(" ", 1)[0] + " ..."
    ask = ("Abstract:\n" + text + "\n\nWrite the paper's title (at most 15 words; a title, not a sentence: "
           "no full stop at the end) and a TL;DR of one sentence (at most 30 words), in the language "
           'of the abstract. Answer with JSON only: {"title": "...", "tldr": "..."}')
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": ask}]


def _clean(text: object) -> str:
    s = " ".join(str(text or "").split())
    s = s.strip().strip("*_#`").strip()
    if len(s) >= 2 and s[0] in "\"'“‘«" and s[-1] in "\"'”’»":
        s = s[1:-1].strip()
    return s


def parse(reply: str) -> Label | None:
    """The title and TL;DR a reply holds (JSON, possibly fenced, or `Title:` / `TL;DR:` lines)."""
    body = _FENCE.sub("", reply.strip())
    start, end = body.find("{"), body.rfind("}")
    if 0 <= start < end:
        try:
            data = json.loads(body[start:end + 1])
        except ValueError:
            data = None
        if isinstance(data, dict):
            title = _clean(data.get("title"))
            tldr = _clean(data.get("tldr") or data.get("tl;dr") or data.get("summary")) or None
            return Label(title, tldr) if title else None
    found = {m.group(1).lower()[:2]: _clean(m.group(2)) for m in _LINE.finditer(body)}
    if found.get("ti"):
        return Label(found["ti"], found.get("tl") or found.get("su") or None)
    return None


def _words(text: str) -> int:
    cjk = len(re.findall(r"[\u3400-\u9fff\u3040-\u30ff\uac00-\ud7af]", text))
    return len(re.findall(r"[^\W\u3400-\u9fff\u3040-\u30ff\uac00-\ud7af]+", text)) + (cjk + 1) // 2


def form_fault(label: Label) -> str | None:
    """Why the label is not kept before any embedding: "sentence", "length", or None."""
    title = label.title
    if title.endswith((".", "。")) and not title.endswith("..."):
        return "sentence"
    if _PROSE.match(title) or _words(title) > MAX_TITLE_WORDS:
        return "sentence"
    if len(title) < MIN_TITLE_CHARS or len(title) > MAX_TITLE_CHARS or _words(title) < 2:
        return "length"
    if label.tldr is not None and not MIN_TLDR_WORDS <= _words(label.tldr) <= MAX_TLDR_WORDS:
        return "length"
    return None


# ---------------------------------------------------------------------------- the run
BATCH = 8  # papers asked, checked and written per transaction


@dataclass
class Report:
    model: str
    untitled: int = 0  # title-less papers in scope
    had_one: int = 0  # already carried a generated title (left alone)
    asked: int = 0
    written: int = 0
    rejected: dict[str, int] | None = None
    failed: int = 0  # replies the client could not use (not JSON, cut off, empty)
    error: str | None = None  # the endpoint fault that stopped the run
    first_failure: str | None = None
    examples: list[dict[str, str]] | None = None  # a few rejected titles with their reason

    def to_dict(self) -> dict:
        return {"model": self.model, "untitled": self.untitled, "had_one": self.had_one, "asked": self.asked,
                "written": self.written, "rejected": dict(self.rejected or {}), "failed": self.failed,
                "error": self.error, "first_failure": self.first_failure, "examples": list(self.examples or [])}


class Relabeler:
    """Asks the model for each title-less paper's title and TL;DR, checks them, and writes the
    kept ones `BATCH` papers per transaction (an interruption loses at most one batch's calls).
    An endpoint fault (unreachable, refused, rate limited, server error, stall) stops the run
    with `Report.error`; a single unusable reply is counted in `failed` and the run goes on."""

    def __init__(self, store: Store, endpoint: Endpoint, embed: Callable[[list[str]], Any],
                 progress: Callable[[str, int, int], None] | None = None):
        self.store, self.endpoint, self.embed = store, endpoint, embed
        self.progress = progress or (lambda phase, done, total: None)

    def run(self, papers: list[tuple[str, str]], report: Report) -> Report:
        """`papers`: (id, abstract) of the title-less papers without a generated title."""
        from .client import LLMError, chat

        report.rejected = {r: 0 for r in REASONS}
        report.examples = []
        self.progress("relabel", 0, len(papers))
        for start in range(0, len(papers), BATCH):
            batch, labels = papers[start:start + BATCH], []
            for pid, abstract in batch:
                try:
                    reply = chat(self.endpoint, messages(abstract), max_tokens=MAX_TOKENS, temperature=0.0)
                except LLMError as exc:
                    if not exc.bad_reply:
                        report.error = str(exc)
                        break
                    report.failed += 1
                    report.first_failure = report.first_failure or str(exc)
                    continue
                finally:
                    report.asked += 1
                labels.append((pid, abstract, parse(reply)))
            self._keep(labels, report)
            self.progress("relabel", min(start + BATCH, len(papers)), len(papers))
            if report.error:
                report.asked -= 1  # the call that found the fault produced nothing
                break
        return report

    def _keep(self, labels: list[tuple[str, str, Label | None]], report: Report) -> None:
        ready = []
        for pid, abstract, label in labels:
            fault = "unreadable" if label is None else form_fault(label)
            if fault:
                self._reject(report, fault, label)
            else:
                ready.append((pid, abstract, label))
        if not ready:
            return
        vectors = self.embed([label.title for _, _, label in ready] + [abstract for _, abstract, _ in ready])
        n = len(ready)
        rows = []
        for i, (pid, _, label) in enumerate(ready):
            a, b = vectors[i], vectors[n + i]
            cosine = float(a @ b / max(1e-12, float((a @ a) ** 0.5 * (b @ b) ** 0.5)))
            if cosine < MIN_COSINE:
                self._reject(report, "off_topic", label, cosine)
            else:
                rows.append((pid, label.title, label.tldr, self.endpoint.model, round(cosine, 4)))
        if rows:
            with self.store.transaction():
                self.store.save_generated_labels(rows)
            report.written += len(rows)

    @staticmethod
    def _reject(report: Report, reason: str, label: Label | None, cosine: float | None = None) -> None:
        report.rejected[reason] += 1
        if len(report.examples) < 5:
            example = {"reason": reason, "title": label.title if label else ""}
            if cosine is not None:
                example["cosine"] = f"{cosine:.2f}"
            report.examples.append(example)
