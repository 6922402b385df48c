"""Expertise commands: match (papers for a profile), reviewers (authors for a paper), experts
(authors for a topic). Registered on import."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from .common import (app, console, fail, json_option, limit_option, open_library, print_json,
                     title_markup, user_errors, venue_option, year_option)


def aggregate_option(default: str):
    return typer.Option(None, "--aggregate", metavar="facets|centroid|fused",
                        help=f"How a profile's papers combine: facets (each candidate meets its closest "
                             f"profile papers), centroid (the papers as one), fused (both rankings); "
                             f"default {default}, chosen on development data.")


def recency_option(reference: str):
    return typer.Option(None, "--recency", min=0.1, metavar="YEARS",
                        help=f"Half-life in years: a paper this much older than {reference} counts half "
                             "(default: no recency weighting).")


@app.command()
def match(
    profile: Optional[Path] = typer.Option(None, "--profile", help="A file of your papers: BibTeX, RIS, CSL JSON, JSON/JSONL, CSV."),
    tag: Optional[str] = typer.Option(None, "--tag", help="The papers carrying this tag."),
    ids: Optional[List[str]] = typer.Option(None, "--ids", help="Paper ids (repeat, or comma-separated)."),
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    limit: int = limit_option(20),
    everything: bool = typer.Option(False, "--all", help="Rank every paper of the scope."),
    as_json: bool = json_option(),
    explain: bool = typer.Option(False, "--explain", help="Show the profile papers and shared words behind each score."),
    aggregate: Optional[str] = aggregate_option("facets"),
    recency: Optional[float] = recency_option("the profile's newest"),
) -> None:
    """Papers closest to a body of work (yours, a tag's, some ids'), each with its evidence."""
    given = [x for x in (profile, tag, ids) if x]
    if len(given) != 1:
        fail("give exactly one of: --profile FILE, --tag TAG, --ids ID...", code=2)
    from ..search.embedder import preload
    from ..sources.textio import require_file

    preload()
    with user_errors():
        lib = open_library(readonly=True)
        try:
            source = str(profile) if profile else tag if tag else [i for part in ids for i in part.replace(",", " ").split()]
            if profile:
                require_file(profile, "file of papers")
            prof = lib.profile(Path(source) if profile else source)
            hits = lib.match(prof, venue=venue, year=year, limit=None if everything else limit,
                             aggregate=aggregate, recency=recency)
        finally:
            lib.close()
    if as_json:
        print_json({"profile": prof.describe(), "results": [h.to_json() for h in hits]})
        return
    d = prof.describe()
    console.print(f"[dim]profile: {d['papers']} papers ({d['in_library']} in the library) from "
                  f"{escape(d['source'])}[/]", highlight=False)
    if not hits:
        console.print("no papers to rank", style="dim")
    for h in hits:
        p = h.paper
        where = " ".join(str(x) for x in (p.get("venue"), p.get("year")) if x)
        console.print(f"[bold]{h.rank:>3}.[/] {title_markup(p, 'bold cyan')}  [dim]{escape(where)} · {h.id} · "
                      f"score {h.score:.3f}[/]", highlight=False)
        ev = h.why or {}
        drivers = ev.get("profile") or []
        shown = drivers if explain else drivers[:1]
        for d in shown:
            console.print(f"     [dim]near[/] {escape(str(d['title'])[:90])} [dim]({d['similarity']:.3f})[/]",
                          highlight=False)
        if explain and ev.get("terms"):
            console.print(f"     [dim]shared words: {escape(', '.join(ev['terms']))}[/]", highlight=False)


@app.command()
def reviewers(
    paper_id: Optional[str] = typer.Argument(None, help="Paper id (or a unique prefix)."),
    text: Optional[str] = typer.Option(None, "--text", help="A draft's title and abstract instead of a paper."),
    file: Optional[Path] = typer.Option(None, "--file", help="Read the draft's title and abstract from this file."),
    keep_authors: bool = typer.Option(False, "--keep-authors/--exclude-authors",
                                      help="Keep the paper's own authors (left out by default: conflicts of interest)."),
    keep_coauthors: bool = typer.Option(False, "--keep-coauthors/--exclude-coauthors",
                                        help="Keep everyone who wrote a paper of the library with them (left out by default)."),
    conflict: Optional[List[str]] = typer.Option(None, "--conflict", help="A name to leave out with their co-authors (repeat)."),
    min_papers: int = typer.Option(2, "--min-papers", min=1, help="Only authors with at least this many papers here."),
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    limit: int = limit_option(10, 500),
    as_json: bool = json_option(),
    aggregate: Optional[str] = aggregate_option("facets (fused with --min-papers 1)"),
    recency: Optional[float] = recency_option("the library's newest"),
) -> None:
    """Suggest reviewers for a paper or a draft: authors whose papers fit it, with evidence."""
    if text is not None and file is not None:
        fail("give --text or --file, not both", code=2)
    from ..search.embedder import preload
    from .search import draft_text

    with user_errors():  # a bad file is told before the model starts loading
        if file is not None:
            text = draft_text(file)
    preload()
    with user_errors():
        lib = open_library(readonly=True)
        try:
            out = lib.reviewers(paper_id, text=text, limit=limit, keep_authors=keep_authors,
                                keep_coauthors=keep_coauthors, conflicts=conflict or [],
                                min_papers=min_papers, venue=venue, year=year, aggregate=aggregate,
                                recency=recency)
        finally:
            lib.close()
    if as_json:
        print_json({**out, "reviewers": [r.to_json() for r in out["reviewers"]]})
        return
    if out["own_authors"]:
        console.print(f"[dim]authors: {escape(', '.join(out['own_authors']))} · left out as conflicts: "
                      f"{out['conflicts_excluded']}[/]", highlight=False)
    print_authors(out["reviewers"])


@app.command()
def experts(
    query: List[str] = typer.Argument(..., help="Topic words or a short description."),
    min_papers: int = typer.Option(2, "--min-papers", min=1, help="Only authors with at least this many papers here."),
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    limit: int = limit_option(10, 500),
    as_json: bool = json_option(),
) -> None:
    """Who here works on a topic: authors whose papers fit some words, with evidence."""
    from ..search.embedder import preload

    preload()
    with user_errors():
        lib = open_library(readonly=True)
        try:
            found = lib.experts(" ".join(query), limit=limit, min_papers=min_papers, venue=venue, year=year)
        finally:
            lib.close()
    if as_json:
        print_json([r.to_json() for r in found])
        return
    print_authors(found)


def print_authors(found: list) -> None:
    if not found:
        console.print("no authors found", style="dim")
    for r in found:
        console.print(f"[bold]{r.rank:>3}.[/] [bold cyan]{escape(r.name)}[/]  [dim]{r.papers_count} papers · "
                      f"score {r.score:.3f}[/]", highlight=False)
        if r.also:
            console.print(f"     [dim]with the same papers: {escape(', '.join(r.also))}[/]", highlight=False)
        for e in r.evidence:
            console.print(f"     {escape(str(e['title'])[:90])} [dim]{e['id']} ({e['similarity']:.3f})[/]",
                          highlight=False)
