"""Core commands: ingest, papers (also answers to its old name `list`), show, stats, remove."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from .common import (app, console, err_console, fail, json_option, limit_option, open_library, print_json,
                     progress_bar, title_markup, user_errors, venue_option, year_option)


@app.command()
def ingest(
    paths: List[Path] = typer.Argument(..., help="List files or folders (text lists, JSON/JSONL, CSV/TSV, BibTeX, PMLR _posts)."),
    fmt: Optional[str] = typer.Option(None, "--format", help="Override format detection."),
    venue: Optional[str] = typer.Option(None, "--venue", help="Venue when the list does not name it (overrides the header)."),
    year: Optional[int] = typer.Option(None, "--year", help="Year when the list does not name it (overrides the header)."),
    strict: bool = typer.Option(False, "--strict", help="Reject a whole file if any record in it is bad."),
    embed: bool = typer.Option(True, "--embed/--no-embed", help="Compute embeddings for new papers now."),
    as_json: bool = typer.Option(False, "--json", help="Print the ingest report as JSON."),
) -> None:
    """Read paper lists into the library (idempotent: re-ingesting changes nothing)."""
    from ..library import DiskFull
    from .ingest_report import print_report, print_stopped

    with user_errors():
        with open_library(create=True) as lib, progress_bar(not as_json) as progress:
            try:
                report = lib.ingest(paths, fmt=fmt, venue=venue, year=year, strict=strict,
                                    embed=embed, progress=progress)
            except (KeyboardInterrupt, DiskFull) as exc:  # say what was kept
                print_stopped(exc, _papers_now(lib))
                if isinstance(exc, KeyboardInterrupt):
                    raise typer.Exit(130) from None
                raise
            stats = lib.stats()
    if as_json:
        print_json({**report.to_dict(), "library": stats})
    else:
        print_report(report, stats)
    if not report.ok:
        raise typer.Exit(1)


def _papers_now(lib) -> int | None:
    """How many papers the library holds after a stopped run (None when it cannot tell)."""
    try:
        return lib.stats()["papers"]
    except Exception:  # a full disk, a lost connection: the message says what the run kept
        return None


@app.command("papers")
def papers(
    venue: Optional[str] = venue_option(),
    year: Optional[str] = year_option(),
    collection: Optional[str] = typer.Option(None, "--collection", help='A collection name, e.g. "ICML 2024".'),
    limit: Optional[int] = limit_option(None, 10_000_000),
    as_json: bool = json_option(),
) -> None:
    """List papers (all of them unless filtered)."""
    _list_papers(venue, year, collection, limit, as_json)


@app.command("list", hidden=True)
def list_alias(venue: Optional[str] = venue_option(), year: Optional[str] = year_option(),
               collection: Optional[str] = typer.Option(None, "--collection"),
               limit: Optional[int] = limit_option(None, 10_000_000), as_json: bool = json_option()) -> None:
    """The old name of `papers`."""
    _list_papers(venue, year, collection, limit, as_json)


def _list_papers(venue: str | None, year: str | None, collection: str | None, limit: int | None,
                 as_json: bool) -> None:
    with user_errors(), open_library() as lib:
        papers = lib.papers(venue=venue, year=year, collection=collection, limit=limit)
    if as_json:
        print_json(papers)
        return
    table = Table(show_header=True)
    table.add_column("id")
    table.add_column("venue")
    table.add_column("title / label", overflow="fold")
    for p in papers:
        table.add_row(p["id"], escape(f"{p['venue']} {p['year'] or ''}"), title_markup(p))
    console.print(table)
    console.print(f"{len(papers)} papers", highlight=False)


@app.command()
def show(paper_id: str = typer.Argument(..., help="Paper id (or a unique prefix)."),
         as_json: bool = typer.Option(False, "--json", help="Print the paper as JSON.")) -> None:
    """Show one paper."""
    with user_errors(), open_library() as lib:
        paper = lib.show(paper_id)
    if paper is None:
        fail(f"no paper with id {paper_id!r}")
    if as_json:
        print_json(paper)
        return
    from ..emphasis import md_plain

    console.print(title_markup(paper, "bold"), highlight=False)
    console.print(f"[dim]{paper['id']} · {escape(str(paper['venue']))} {paper['year'] or ''}"
                  f"{' · ' + escape(paper['status']) if paper['status'] else ''}[/]")
    if paper["authors"]:
        console.print(escape(", ".join(paper["authors"])))
    for key in ("methods", "paper_type", "tldr", "code_urls", "keyphrases"):
        if paper.get(key):
            value = paper[key]
            console.print(f"[cyan]{key}:[/] {escape(md_plain(', '.join(value) if isinstance(value, list) else str(value)))}")
    made = paper.get("generated") if not paper.get("title") else None
    if made and made.get("tldr"):
        console.print(f"[cyan]tldr (generated by {escape(str(made['model']))}):[/] {escape(made['tldr'])}")
    console.print()
    console.print(escape(md_plain(paper["abstract"])))
    console.print()
    for c in paper["collections"]:
        console.print(f"[dim]in {escape(c['name'])} from {escape(c['source'])} (#{c['position'] + 1})[/]")


@app.command()
def stats(as_json: bool = typer.Option(False, "--json", help="Print the counts as JSON.")) -> None:
    """Papers per collection."""
    with user_errors(), open_library() as lib:
        data = lib.stats()
    if as_json:
        print_json(data)
        return
    table = Table(title=f"{data['papers']} papers")
    for col in ("collection", "papers", "lists"):
        table.add_column(col)
    for c in data["collections"]:
        table.add_row(escape(c["name"]), str(c["papers"]), str(c["lists"]))
    console.print(table)


@app.command()
def remove(collection: str = typer.Option(..., "--collection", help='e.g. "ICML 2024"')) -> None:
    """Remove a collection (papers in no other collection go too; tags and notes are kept)."""
    with user_errors(), open_library() as lib:
        out = lib.remove(collection=collection)
    console.print(f"removed {collection}: {out['memberships']} memberships, {out['papers_removed']} papers",
                  highlight=False, markup=False)
