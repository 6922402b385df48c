"""Answers to a researcher's question from the library, with citations (`paperscope ask`).

    question.to_query(...)   the question as a search query (Chinese translated, scaffolding
                             dropped, a venue named in it taken as a filter)
    sentences                the sentences of an abstract that answer the question
    extract.extract(...)     the extractive answer from the search's hits (weak evidence said)
    compose.Answer           what every face returns; `to_json()` is the one JSON shape

`Library.ask` (library_ask.py) runs the search and, when the user has a model, hands the
retrieved abstracts to `paperscope.llm` for a generated answer, with this one as the fallback.
"""
from __future__ import annotations

from .compose import Answer, Citation
from .extract import extract
from .question import Asked, check_question, to_query

__all__ = ["Answer", "Asked", "Citation", "check_question", "extract", "to_query"]
