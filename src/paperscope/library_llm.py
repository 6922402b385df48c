"""The `Library`'s uses of the user's own language model (a mixin of the facade; the client
and the checks live in `paperscope.llm`): `relabel` writes generated titles and TL;DRs for
title-less papers, kept apart from real titles and derived labels, and removes them again."""
from __future__ import annotations

from typing import Any, Callable

from .model import InputError, UsageError

CHUNK = 1000  # papers read at a time when looking for the title-less ones


class LLMMethods:
    """Mixed into `Library`: needs `store`, `engine`, `filter()` and `invalidate()`."""

    def relabel(self, collection: str | None = None, *, llm_url: str | None = None, model: str | None = None,
                key: str | None = None, undo: bool = False,
                progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
        """Generated titles and TL;DRs for the title-less papers (of one collection) through an
        OpenAI-compatible model (`llm_url`, `model`, `key`, else $PAPERSCOPE_LLM_URL / _MODEL /
        _KEY), each checked (a title, not a sentence; length; on topic by embedding cosine to its
        own abstract) before it is kept with the model's name; `undo` removes them. A real
        title always wins. Returns the report (`error`: the endpoint fault that stopped it)."""
        from .llm import Endpoint, LLMError
        from .llm.relabel import Relabeler, Report

        f = self.filter(collection=collection)
        ids = self.store.ordered_ids(f)
        if undo:
            with self.store.transaction():
                removed = self.store.remove_generated_labels(ids)
            self.invalidate()
            return {"undone": removed, "collection": collection}
        try:
            endpoint = Endpoint.from_env(llm_url, model, key)
        except LLMError as exc:
            raise InputError(str(exc)) from None
        if endpoint is None:
            raise UsageError("relabel needs a model: give --llm-url URL --model NAME "
                             "(or set $PAPERSCOPE_LLM_URL and $PAPERSCOPE_LLM_MODEL)")
        report = Report(endpoint.model)
        todo = self._untitled(ids, report)
        try:
            Relabeler(self.store, endpoint, self.engine.embed, progress).run(todo, report)
        except BaseException as exc:  # Ctrl-C: every batch written before it is kept; say so
            exc.relabel_report = {**report.to_dict(), "collection": collection}
            raise
        finally:
            self.invalidate()
        return {**report.to_dict(), "collection": collection}

    def _untitled(self, ids: list[str], report: Any) -> list[tuple[str, str]]:
        """(id, abstract) of the papers with neither a real nor a generated title."""
        out = []
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start:start + CHUNK]
            papers = self.store.papers_by_id(chunk)
            untitled = [i for i in chunk if i in papers and not (papers[i].title or "").strip()]
            have = self.store.generated_labels(untitled)
            report.untitled += len(untitled)
            report.had_one += len(have)
            out += [(i, papers[i].abstract) for i in untitled if i not in have]
        return out
