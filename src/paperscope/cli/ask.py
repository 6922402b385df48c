"""`paperscope ask QUESTION`: an answer with citations (registered on import)."""
from __future__ import annotations

import os
import re
from typing import List, Optional

import typer
from rich.markup import escape

from .common import (app, code_option, collection_option, console, err_console, json_option, open_library,
                     print_json, status_option, type_option, user_errors, venue_option, year_option)

_CITE = re.compile(r"\[(\d{1,3})\]")


@app.command()
def ask(
    question: List[str] = typer.Argument(..., help="Your question, in English or Chinese."),
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=20, help="How many papers to cite."),
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    collection: Optional[str] = collection_option(),
    status: Optional[str] = status_option(),
    paper_type: Optional[str] = type_option(),
    has_code: bool = code_option(),
    llm: Optional[str] = typer.Option(
        None, "--llm-url", help="Your OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio), e.g. "
                                "http://127.0.0.1:11434/v1 (default: $PAPERSCOPE_LLM_URL; key: $PAPERSCOPE_LLM_KEY). "
                                "Without one the answer quotes the abstracts."),
    model: Optional[str] = typer.Option(None, "--model", help="The model's name there (default: $PAPERSCOPE_LLM_MODEL)."),
    as_json: bool = json_option(),
) -> None:
    """Answer a question from the library, citing the papers: quoted sentences of their
    abstracts (offline), or your own model's answer from the same abstracts (--llm-url)."""
    from ..search.embedder import preload

    preload()  # the model loads while the library opens
    url = llm or os.environ.get("PAPERSCOPE_LLM_URL") or None
    if url and not as_json:
        err_console.print(f"asking {escape(model or os.environ.get('PAPERSCOPE_LLM_MODEL') or 'the model')} "
                          f"at {escape(url)} …", style="dim", highlight=False)
    with user_errors():
        lib = open_library(readonly=True)
        try:
            answer = lib.ask(" ".join(question), limit=limit, venue=venue, year=year, collection=collection,
                             status=status, paper_type=paper_type, has_code=has_code or None,
                             llm=url, model=model)
        finally:
            lib.close()
    if as_json:
        print_json(answer.to_json())
        return
    print_answer(answer)


def cited_markup(text: str) -> str:
    """Plain text as Rich markup with its [n] citations in bold."""
    out, at = [], 0
    for m in _CITE.finditer(text):
        out += [escape(text[at:m.start()]), f"[bold cyan]\\[{m.group(1)}][/]"]
        at = m.end()
    out.append(escape(text[at:]))
    return "".join(out)


def print_answer(answer) -> None:
    from ..emphasis import md_plain  # *emphasis* markers of list text shown as plain words

    if answer.searched_as:
        console.print(f"searched as: {escape(answer.searched_as)}", style="dim", soft_wrap=True, highlight=False)
    if answer.warning:
        console.print(f"warning: {escape(answer.warning)}", style="yellow", soft_wrap=True, highlight=False)
    if answer.fallback:
        err_console.print(f"note: {escape(answer.fallback)}; the answer quotes the abstracts instead",
                          style="yellow", soft_wrap=True, highlight=False)
    console.print(escape(answer.summary), style="bold yellow" if answer.weak else "bold", highlight=False)
    if answer.weak:
        pass  # the sources below are the closest papers; no sentence of theirs answers
    elif answer.generated is not None:
        console.print()
        console.print(cited_markup(answer.generated), highlight=False)
    else:
        for c in answer.citations:
            if c.sentences:
                console.print()
                console.print(cited_markup(md_plain(f"{' '.join(c.sentences)} [{c.n}]")), highlight=False)
    for note, items in (("citations removed (not among the sources)", answer.removed),
                        ("claims without a citation", answer.uncited)):
        if items:
            console.print(f"\n{escape(note)}: " + escape("; ".join(items)), style="yellow", highlight=False)
    if answer.citations:
        console.print("\nsources:", style="bold")
    for c in answer.citations:
        derived = " [dim](derived)[/]" if c.derived else ""
        console.print(f"[bold cyan]\\[{c.n:d}][/] {escape(md_plain(c.title))}{derived}  "
                      f"[dim]{escape(c.where)} · {c.id}{' · weak match' if c.weak else ''}[/]",
                      highlight=False, soft_wrap=True)
    if answer.model:
        console.print(f"\nanswer written by {escape(answer.model)} from the sources above", style="dim",
                      highlight=False)
