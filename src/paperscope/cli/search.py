"""search and related commands (registered on import)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from ..filters import MODES
from ..model import Hit
from .common import (app, code_option, console, err_console, fail, json_option, limit_option, open_library,
                     print_json, status_option, title_markup, type_option, user_errors, venue_option,
                     year_option)


@app.command()
def search(
    query: List[str] = typer.Argument(..., help='Words, "phrases", prefix*, -exclusions, venue: year: status: has:code author:"..."'),
    limit: int = limit_option(20),
    mode: str = typer.Option("hybrid", "--mode", "-m", help=f"{' | '.join(MODES)} (hybrid: words and meaning)."),
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    status: Optional[str] = status_option(),
    paper_type: Optional[str] = type_option(),
    has_code: bool = code_option(),
    as_json: bool = json_option(),
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
            hits = lib.search(text, limit=limit, mode=mode, explain=explain, venue=venue, year=year,
                              status=status, paper_type=paper_type, has_code=has_code or None)
        finally:
            lib.close()
    _searched_as(text, as_json)
    _show(hits, as_json, explain, "no results")


def _searched_as(text: str, as_json: bool) -> None:
    """A Chinese query: the English it was searched as, and a warning when little of it was
    understood (to stderr with --json, which carries both in every result)."""
    from ..search.translate import translate_query

    asked = translate_query(text)
    if not asked.is_chinese:
        return
    out = err_console if as_json else console
    out.print(f"searched as: {escape(asked.english)}", style="dim", soft_wrap=True)
    if asked.warning:
        out.print(f"warning: {escape(asked.warning)}", style="yellow", soft_wrap=True)


MAX_DRAFT = 4_000_000  # characters of a draft read by --file (the web form takes as many bytes)


def draft_text(file: Path) -> str:
    """A draft given as --file: a device, a huge or binary file gives a message, not a hang;
    ValueError naming the file when it is empty."""
    from ..sources.textio import read_text_file

    text = read_text_file(file, MAX_DRAFT)
    if not text.strip():
        raise ValueError(f"{file} is empty")
    return text


@app.command()
def related(
    paper_id: Optional[str] = typer.Argument(None, help="A paper id or unique prefix (from list/search/show)."),
    text: Optional[str] = typer.Option(None, "--text", help="Your own text, e.g. a draft abstract."),
    file: Optional[Path] = typer.Option(None, "--file", help="Read your text from this file."),
    limit: int = limit_option(10, 1000),
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    as_json: bool = json_option(),
) -> None:
    """Papers related to a paper, or to your own text (--text / --file)."""
    if text is not None and file is not None:
        fail("give --text or --file, not both", code=2)
    from ..search.embedder import preload

    with user_errors():  # a bad file is told before the model starts loading
        if file is not None:
            text = draft_text(file)
    preload()
    with user_errors():
        lib = open_library(readonly=True)
        try:
            hits = lib.related(paper_id, text=text, limit=limit, venue=venue, year=year)
        finally:
            lib.close()
    if text:
        _searched_as(text, as_json)
    _show(hits, as_json, False, "no related papers")


def _show(hits: list[Hit], as_json: bool, explain: bool, empty: str) -> None:
    if as_json:
        print_json([h.to_json() for h in hits])
    elif not hits:
        console.print(empty, style="dim", markup=False)
    else:
        print_hits(hits, explain)


def snippet_markup(snip: dict, style: str = "bold yellow") -> str:
    """A snippet as Rich markup: highlights styled, everything else escaped."""
    text, out, at = snip["text"], [], 0
    for a, b in snip["highlights"]:
        out.append(escape(text[at:a]))
        out.append(f"[{style}]{escape(text[a:b])}[/]")
        at = b
    out.append(escape(text[at:]))
    return "".join(out)


def print_hits(hits: list[Hit], explain: bool) -> None:
    """Hits in rank order; search hits graded weak come after the others under "weaker
    matches" (numbered on, in rank order, with "weak match" in place of a score that could
    be higher than the strong ones above), and a search says how many papers matched at all."""
    strong = [h for h in hits if not getattr(h, "weak", False)]
    weak = [h for h in hits if getattr(h, "weak", False)]
    _print_hit_list(strong, explain, 1)
    if weak:
        console.print("weaker matches" if strong else "only weaker matches (nothing matches the query well)",
                      style="bold dim")
        _print_hit_list(weak, explain, len(strong) + 1)
    total = getattr(hits[0], "total", None) if hits else None
    if total is not None:
        console.print(f"top {len(hits)} of {total} matching papers" if total >= len(hits) else
                      f"{total} matching papers; the others shown are only the nearest by meaning", style="dim")


def _print_hit_list(hits: list[Hit], explain: bool, first: int) -> None:
    for number, h in enumerate(hits, first):
        p = h.paper
        where = " ".join(str(x) for x in (p.get("venue"), p.get("year")) if x)
        score = "weak match" if getattr(h, "weak", False) else f"score {h.score:.3f}"
        console.print(f"[bold]{number:>3}.[/] {title_markup(p, 'bold cyan')}  "
                      f"[dim]{escape(where)} · {h.id} · {score}[/]", highlight=False)
        if h.snippet:
            console.print("     " + snippet_markup(h.snippet), highlight=False)
        if explain and h.why and "bm25" in h.why:
            _print_explain(h.why)
        elif h.why and "lexical" in h.why and "cosine" in h.why:
            cos = f"{h.why['cosine']:.3f}" if h.why.get("cosine") is not None else "-"
            console.print(f"     [dim]cosine {cos} · shared words {h.why['lexical']:.3f}[/]", highlight=False)


def _print_explain(e: dict) -> None:
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
    r = e.get("ranker")
    if r:
        top = sorted(r["contributions"].items(), key=lambda kv: -abs(kv[1]))[:5]
        console.print("     [dim]ranker " + escape(", ".join(f"{k} {v:+.2f}" for k, v in top)) + "[/]", highlight=False)
    elif e.get("rerank"):
        rr = e["rerank"]
        console.print("     [dim]" + escape(" · ".join(f"{k} {rr[k]:.3f}" for k in ("coverage", "cosine_gap", "bigrams")
                                                  if rr.get(k) is not None)) + "[/]", highlight=False)
    if e.get("weak"):
        t = e.get("weak_thresholds") or {}
        cos = f" ({e['cosine']:.3f})" if e.get("cosine") is not None else ""
        console.print(f"     [dim]weak: cosine under {t.get('cosine')}{cos} and query coverage under {t.get('coverage')}: "
                      f"listed with the weaker matches, whatever its score[/]", highlight=False)
