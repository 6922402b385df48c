"""`paperscope relabel`: generated titles and TL;DRs for title-less papers through the user's
own OpenAI-compatible model (Ollama, llama.cpp's server, vLLM, LM Studio)."""
from __future__ import annotations

from typing import Optional

import typer

from .common import app, console, err_console, json_option, open_library, print_json, progress_bar, user_errors


@app.command()
def relabel(
    llm_url: Optional[str] = typer.Option(None, "--llm-url", help="The model server's OpenAI-compatible URL, e.g. "
                                          "http://localhost:11434/v1 (default $PAPERSCOPE_LLM_URL)."),
    model: Optional[str] = typer.Option(None, "--model", help="The model name it serves (default $PAPERSCOPE_LLM_MODEL)."),
    collection: Optional[str] = typer.Option(None, "--collection", "-c", help="Only this collection (e.g. 'ICML 2024')."),
    undo: bool = typer.Option(False, "--undo", help="Remove the generated titles and TL;DRs (of the collection)."),
    as_json: bool = json_option(),
) -> None:
    """Write a generated title and TL;DR for each title-less paper with your own model (an API
    key, if it needs one: $PAPERSCOPE_LLM_KEY). Each is checked before it is kept (a title, not a
    sentence; its length; on topic by embedding similarity to its abstract) and stored apart
    from real titles with the model's name; a real title always wins. --undo removes them."""
    with user_errors():
        with open_library() as lib, progress_bar(not as_json and not undo) as progress:
            try:
                report = lib.relabel(collection, llm_url=llm_url, model=model, undo=undo, progress=progress)
            except KeyboardInterrupt as exc:
                kept = getattr(exc, "relabel_report", None)
                if kept is not None:
                    err_console.print(f"interrupted: {kept['written']} generated titles written before it are kept",
                                      markup=False, highlight=False)
                raise typer.Exit(130) from None
    if as_json:
        print_json(report)
    else:
        _print(report)
    if report.get("error"):
        raise typer.Exit(1)


def _print(report: dict) -> None:
    def say(text: str, to=console) -> None:
        to.print(text, markup=False, highlight=False, soft_wrap=True)

    if "undone" in report:
        return say(f"removed {report['undone']} generated titles")
    r = report["rejected"]
    say(f"{report['untitled']} title-less papers, {report['had_one']} already with a generated title; "
        f"asked {report['model']} about {report['asked']}: {report['written']} written, "
        f"{sum(r.values())} rejected (sentence {r['sentence']}, length {r['length']}, "
        f"off topic {r['off_topic']}, unreadable {r['unreadable']}), {report['failed']} unusable replies")
    for e in report["examples"]:
        cosine = f", cosine {e['cosine']}" if "cosine" in e else ""
        say(f"  rejected ({e['reason'].replace('_', ' ')}{cosine}): {e['title']}")
    if report["first_failure"]:
        say(f"first unusable reply: {report['first_failure']}")
    if report["error"]:
        say(f"error: {report['error']}", err_console)
        say(f"stopped; the {report['written']} generated titles written before the fault are kept", err_console)
