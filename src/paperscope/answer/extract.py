"""The extractive answer: for each retrieved paper, the sentences of its abstract that answer
the question, cited in retrieval order; weak evidence said as such.

Which papers are cited: the search's hits in rank order, `limit` of them. When some hits are
strong matches, the weak ones (little of the question's words and little of its meaning, the
search's weak-match flag) are left out; when every hit is weak, the answer is weak: it says that
nothing answers the question well and names the closest papers (each citation still carries
its sentence nearest to the question by meaning, for the reader to judge).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from . import sentences as sent
from .compose import Answer, Citation, summary

# (papers' sentences, question) -> index of the nearest sentence of each paper (embedding)
Nearest = Callable[[list[list[str]], str], list[int]]


# a strong hit scoring under this share of the first hit's score is not cited: when one paper
# answers the question and the rest only share a word, the answer names that one, not `limit`.
# On the development questions (benchmarks/ask_eval.py) the paper asked about, when it is not
# first, scores at least 0.57 of the first.
RELATIVE_FLOOR = 0.4


def chosen_hits(hits: Sequence[Any], limit: int) -> tuple[list[Any], bool]:
    """The hits to cite and whether the evidence is weak (no strong hit at all, or no hit)."""
    strong = [h for h in hits if not getattr(h, "weak", False)]
    if strong:
        top = float(getattr(strong[0], "score", 0.0) or 0.0)
        if top > 0:
            strong = [strong[0]] + [h for h in strong[1:] if float(h.score) >= RELATIVE_FLOOR * top]
        return strong[:limit], False
    return list(hits[:limit]), True


def extract(question: str, hits: Sequence[Any], weight: dict[str, float], *, limit: int,
            nearest: Nearest | None = None, semantic_text: str = "", scope: str | None = None) -> Answer:
    """An extractive `Answer` from search hits (paper JSON in `hit.paper`); `weight` is the
    question's term weights (`sentences.weights`)."""
    picked, weak = chosen_hits(hits, limit)
    split = [sent.split(h.paper.get("abstract") or "") for h in picked]
    # weak evidence: a word the question shares by chance picks no sentence; meaning does
    chosen = [[] if weak else sent.best(s, weight) for s in split]
    missing = [i for i, c in enumerate(chosen) if not c and split[i]]
    if missing and nearest is not None:
        for i, k in zip(missing, nearest([split[i] for i in missing], semantic_text or question)):
            chosen[i] = [k]
    for i in missing:
        chosen[i] = chosen[i] or [0]
    citations = [Citation(n, h.paper, [split[n - 1][k] for k in chosen[n - 1]], weak=bool(getattr(h, "weak", False)))
                 for n, h in enumerate(picked, 1)]
    total = getattr(picked[0], "total", None) if picked else None
    return Answer(question=question, summary=summary(len(citations), weak=weak, total=total, scope=scope),
                  citations=citations, weak=weak)
