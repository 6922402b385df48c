"""A generated answer in place of the quoted sentences, from the user's own model
(`paperscope.llm`): the retrieved abstracts are its numbered sources, its citations are checked
there (invented ones removed and reported, claims without one marked), and any failure of the
model (unreachable, 401, 429, 5xx, a malformed or cut-off reply, a timeout) leaves the
extractive answer with the reason in `fallback`. Weak evidence never reaches the model.

Kept apart from the library so a server can retrieve with a library handle and then release
it while the model writes."""
from __future__ import annotations

from typing import Any, Callable

from .compose import Answer

WEAK_NOT_ASKED = "the model was not asked: no paper matches the question well (weak evidence)"


def endpoint_of(llm: Any, model: str | None = None) -> Any:
    """An Endpoint from an Endpoint, or from a URL (the model and key from the arguments or
    $PAPERSCOPE_LLM_MODEL / $PAPERSCOPE_LLM_KEY); None for None."""
    from ..llm import Endpoint

    if llm is None or isinstance(llm, Endpoint):
        return llm
    return Endpoint.from_env(url=str(llm), model=model)


def wanted(answer: Answer, llm: Any) -> bool:
    """Whether the model is asked at all: a model is configured and the evidence is not weak."""
    return llm is not None and bool(answer.citations) and not answer.weak


def add_generated(answer: Answer, llm: Any, model: str | None = None,
                  stream: Callable[[str], None] | None = None) -> Answer:
    """The answer with the model's text (mode "generated") or, on failure, with `fallback`
    (also when a model was given but not asked: nothing matches the question well)."""
    if llm is not None and answer.weak:
        answer.fallback = WEAK_NOT_ASKED
    if not wanted(answer, llm):
        return answer
    from ..llm import LLMError
    from ..llm.answer import Source, generate

    try:
        endpoint = endpoint_of(llm, model)
        if endpoint is None:
            return answer
        sources = [Source(c.n, c.id, c.title, c.paper.get("abstract") or "") for c in answer.citations]
        made = generate(endpoint, answer.question, sources, stream=stream)
    except LLMError as exc:
        answer.fallback = str(exc)
        return answer
    answer.mode, answer.model, answer.generated = "generated", endpoint.model, made.text
    answer.removed, answer.uncited = list(made.removed), list(made.uncited)
    return answer
