"""search and related commands (registered on import)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import app, console, fail, open_library, print_json, user_errors

MODES = ("hybrid", "lexical", "semantic")


@app.command()
def search(
    query: List[str] = typer.Argument(..., help='Words, "phrases", prefix*, -exclusions, venue: year: status: has:code author:"..."'),
    limit: int = typer.Option(20, "--limit", "-n", min=1, max=10_000, help="How many results."),
    mode: str = typer.Option("hybrid", "--mode", "-m", help="hybrid (default), lexical or semantic."),
    venue: Optional[str] = typer.Option(None, "--venue", help="Only this venue (e.g. ICML)."),
    year: Optional[str] = typer.Option(None, "--year", help="Only this year or range (2024, 2020..2024, >=2022)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (a list of papers with score, snippet)."),
    explain: bool = typer.Option(False, "--explain", help="Say why each result matched."),
) -> None:
    """Search the library: exact words and meaning, fused (see --mode).

    Quote a query that holds exclusions, or put it after --:
    paperscope search "diffusion -gan venue:ICML"   or   paperscope search -- diffusion -gan
    """
    if mode not in MODES:
        fail(f"unknown mode {mode!r}: use {', '.join(MODES)}", code=2)
    text = " ".join(query)
    if mode != "lexical":
        from ..search.embedder import preload

        preload()  # the model loads while the library opens
    with user_errors():
        lib = open_library(readonly=True)
        try:
            results = lib.search(text, limit=limit, mode=mode, venue=venue, year=year, explain=explain)
        finally:
            lib.close()
    _show(results, as_json, explain, "no results")


@app.command()
def related(
    paper_id: Optional[str] = typer.Argument(None, help="A paper id (from list/search/show)."),
    text: Optional[str] = typer.Option(None, "--text", help="Your own text, e.g. a draft abstract."),
    file: Optional[Path] = typer.Option(None, "--file", help="Read your text from this file."),
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=1000),
    venue: Optional[str] = typer.Option(None, "--venue", help="Only papers of this venue."),
    year: Optional[str] = typer.Option(None, "--year", help="Only papers of this year or range."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Papers related to a paper, or to your own text (--text / --file)."""
    given = [x for x in (paper_id, text, file) if x]
    if len(given) != 1:
        fail("give exactly one of: a paper id, --text, --file", code=2)
    from ..search.embedder import preload

    preload()
    with user_errors():
        if file is not None:
            try:
                text = file.read_text("utf-8", errors="replace")
            except OSError as exc:
                raise ValueError(f"cannot read {file}: {exc.strerror or exc}") from None
            if not text.strip():
                raise ValueError(f"{file} is empty")
        lib = open_library(readonly=True)
        try:
            results = lib.related(paper_id, text=text, limit=limit, venue=venue, year=year)
        finally:
            lib.close()
    _show(results, as_json, False, "no related papers")


def _show(results: list[dict], as_json: bool, explain: bool, empty: str) -> None:
    if as_json:
        print_json(results)
    elif not results:
        console.print(empty, style="dim")
    else:
        _print_results(results, explain)


def _print_results(results: list[dict], explain: bool) -> None:
    from rich.markup import escape

    from ..search.snippets import rich_markup

    for r in results:
        where = " ".join(str(x) for x in (r.get("venue"), r.get("year")) if x)
        title = r.get("title") or r.get("label") or "(untitled)"
        console.print(f"[bold]{r['rank']:>3}.[/] [bold cyan]{escape(title)}[/]  "
                      f"[dim]{escape(where)} · {r['id']} · score {r['score']:.3f}[/]", highlight=False)
        if r.get("snippet"):
            console.print("     " + rich_markup(r["snippet"]), highlight=False)
        if explain and r.get("explain"):
            e = r["explain"]
            parts = [f"bm25 {e['bm25']:.2f}" if e.get("bm25") is not None else "bm25 -",
                     f"cosine {e['cosine']:.3f}" if e.get("cosine") is not None else "cosine -",
                     f"lexical #{e['lexical_rank']}" if e.get("lexical_rank") else "lexical -",
                     f"semantic #{e['semantic_rank']}" if e.get("semantic_rank") else "semantic -"]
            if e.get("fused_score") is not None:
                parts.append(f"fused {e['fused_score']:.3f}")
            fields = "; ".join(f"{f}: {', '.join(ts)}" for f, ts in e.get("matched_fields", {}).items())
            console.print(f"     [dim]{escape(' · '.join(parts))}[/]", highlight=False)
            if fields:
                console.print(f"     [dim]matched {escape(fields)}[/]", highlight=False)
        if r.get("similarity"):
            s = r["similarity"]
            cos = f"{s['cosine']:.3f}" if s.get("cosine") is not None else "-"
            console.print(f"     [dim]cosine {cos} · shared words {s['lexical']:.3f}[/]", highlight=False)
