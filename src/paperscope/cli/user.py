"""Personal library commands: tag, untag, tags, note, star, read, irrelevant, mine, recommend,
export, import-library (registered on import). Thin: everything goes through `Library`."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from .common import (app, check_output, console, err_console, fail, json_option, limit_option, open_library, print_json,
                     title_markup, user_errors, venue_option, year_option)


@app.command()
def tag(paper_ids: str = typer.Argument(..., help="Paper id (or unique prefix; several: ID,ID)."),
        tags: List[str] = typer.Argument(..., help="One or more tags.")) -> None:
    """Tag a paper."""
    with user_errors(), open_library() as lib:
        out = lib.tag(paper_ids.split(","), tags)
    console.print(f"tagged {len(out['papers'])} paper(s) with {', '.join(out['tags'])} "
                  f"({out['added']} new)", highlight=False, markup=False)


@app.command()
def untag(paper_ids: str = typer.Argument(..., help="Paper id (or unique prefix; several: ID,ID)."),
          tags: List[str] = typer.Argument(..., help="One or more tags.")) -> None:
    """Remove tags from a paper."""
    with user_errors(), open_library() as lib:
        out = lib.untag(paper_ids.split(","), tags)
    console.print(f"removed {out['removed']} tag(s)", highlight=False)


@app.command("tags")
def list_tags(as_json: bool = typer.Option(False, "--json")) -> None:
    """Every tag with the number of papers carrying it."""
    with user_errors(), open_library() as lib:
        rows = lib.tags()
    if as_json:
        print_json(rows)
        return
    if not rows:
        console.print("no tags yet: paperscope tag ID TAG")
        return
    table = Table()
    table.add_column("tag")
    table.add_column("papers", justify="right")
    for r in rows:
        extra = f" (+{r['detached']} not in library)" if r["detached"] else ""
        table.add_row(escape(r["tag"]), f"{r['papers']}{extra}")
    console.print(table)


@app.command()
def note(paper_id: str = typer.Argument(...),
         text: str = typer.Argument(..., help='The note ("" clears it).')) -> None:
    """Write a note on a paper (replaces the previous one)."""
    with user_errors(), open_library() as lib:
        paper = lib.note(paper_id, text)
    console.print(f"{'noted' if paper['note'] else 'note cleared'}: {title_markup(paper)}", highlight=False)


@app.command()
def star(paper_id: str = typer.Argument(...), off: bool = typer.Option(False, "--off", help="Remove the star.")) -> None:
    """Star a paper."""
    with user_errors(), open_library() as lib:
        paper = lib.star(paper_id, not off)
    console.print(f"{'starred' if paper['starred'] else 'unstarred'}: {title_markup(paper)}", highlight=False)


@app.command("read")
def read(paper_id: str = typer.Argument(...), off: bool = typer.Option(False, "--off", help="Mark unread.")) -> None:
    """Mark a paper read."""
    with user_errors(), open_library() as lib:
        paper = lib.read(paper_id, not off)
    console.print(f"{'read' if paper['read'] else 'unread'}: {title_markup(paper)}", highlight=False)


@app.command()
def irrelevant(paper_id: str = typer.Argument(...),
               tag: Optional[str] = typer.Option(None, "--tag", help="Not relevant for this tag only."),
               off: bool = typer.Option(False, "--off", help="Take the mark back.")) -> None:
    """Mark a paper "not relevant": recommendations learn from it and never show it."""
    with user_errors(), open_library() as lib:
        paper = lib.irrelevant(paper_id, not off, tag=tag)
    scope = f" for {tag}" if tag else ""
    console.print(f"{'not relevant' if not off else 'relevant again'}{escape(scope)}: {title_markup(paper)}",
                  highlight=False)


@app.command()
def mine(tag: Optional[str] = typer.Option(None, "--tag", help="Only the papers with this tag."),
         starred: bool = typer.Option(False, "--starred", help="Only starred papers."),
         read: bool = typer.Option(False, "--read", help="Only papers marked read."),
         noted: bool = typer.Option(False, "--noted", help="Only papers with a note."),
         as_json: bool = json_option()) -> None:
    """My library: papers with a tag, a star, a read mark or a note."""
    with user_errors(), open_library() as lib:
        papers = lib.mine(tag=tag, starred=starred, read=read, noted=noted)
    if as_json:
        print_json(papers)
        return
    for p in papers:
        marks = ("★" if p["starred"] else " ") + ("✓" if p["read"] else " ")
        tags = f" [cyan]{escape(', '.join(p['tags']))}[/]" if p["tags"] else ""
        console.print(f"{marks} [dim]{p['id']}[/] {title_markup(p)}{tags}", highlight=False)
        if p["note"]:
            console.print(f"      [italic]{escape(p['note'])}[/]", highlight=False)
    console.print(f"{len(papers)} papers", highlight=False)


@app.command()
def recommend(tag: Optional[str] = typer.Option(None, "--tag", help="Learn from this tag's papers."),
              ids: Optional[str] = typer.Option(None, "--ids", help="More like these: ID,ID,..."),
              venue: Optional[str] = venue_option(),
              year: Optional[str] = year_option(),
              limit: int = limit_option(10, 1000),
              explain: bool = typer.Option(False, "--explain", help="Show driving terms and nearest tagged papers."),
              as_json: bool = json_option()) -> None:
    """Rank the papers you have not tagged by what you tagged."""
    if bool(tag) == bool(ids):
        fail("give --tag T or --ids ID,ID", 2)
    with user_errors(), open_library() as lib:
        results = lib.recommend(tag=tag, ids=ids.split(",") if ids else None, venue=venue,
                                year=year, limit=limit, explain=True)
    if as_json:
        print_json([r.to_json() for r in results])
        return
    for r in results:
        p = r.paper
        where = f"{p.get('venue') or ''} {p.get('year') or ''}".strip()
        console.print(f"{r.rank:>2}. {title_markup(p, 'bold')} [dim]{p['id']} · {escape(where)} · "
                      f"score {r.score:.2f}[/]", highlight=False)
        if explain and r.why:
            ex = r.why
            terms = ", ".join(t["term"] for t in ex["terms"])
            if terms:
                console.print(f"    [cyan]terms:[/] {escape(terms)}", highlight=False)
            for n in ex["nearest"][:2]:
                console.print(f"    [cyan]like:[/] {escape(str(n['title']))} [dim]({n['similarity']:.2f})[/]",
                              highlight=False)
    if not results:
        err_console.print("nothing to recommend (every candidate is tagged or filtered out)")


@app.command("export")
def export_cmd(fmt: str = typer.Option(..., "--format", "-f", help="bibtex | ris | csljson | csv | jsonl | markdown"),
               tag: Optional[str] = typer.Option(None, "--tag", help="The papers carrying this tag."),
               query: Optional[str] = typer.Option(None, "--query", help="The top results of this search (see --limit)."),
               collection: Optional[str] = typer.Option(None, "--collection", help='A collection, e.g. "ICML 2024".'),
               ids: Optional[str] = typer.Option(None, "--ids", help="ID,ID,..."),
               limit: Optional[int] = typer.Option(None, "--limit", min=1),
               skip_untitled: bool = typer.Option(False, "--skip-untitled",
                                                  help="Leave out papers whose list gave no title."),
               output: Optional[Path] = typer.Option(None, "--output", "-o", help="File (default: stdout).")) -> None:
    """Export a tag, a search, a collection (or everything) as a bibliography or reading list.
    Entries with a derived title or no authors are marked, and a warning on stderr says how many."""
    def warn(line: str) -> None:
        if not skip_untitled and "no real title" in line:
            line += " (--skip-untitled leaves them out)"
        err_console.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)

    if output:
        check_output(output)
    with user_errors(), open_library() as lib:
        text = lib.export(fmt, tag=tag, query=query, collection=collection,
                          ids=ids.split(",") if ids else None, limit=limit,
                          skip_untitled=skip_untitled, on_missing=warn)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        tmp = output.with_name(output.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(output)  # never a half-written file
        err_console.print(f"wrote {output}", highlight=False, markup=False)
    else:
        typer.echo(text, nl=False)


@app.command("import-library")
def import_library(path: Path = typer.Argument(..., help="Your library: .bib, .ris, .json (CSL), .jsonl, .csv"),
                   tag: str = typer.Option("mine", "--tag", help="Tag given to matched papers."),
                   as_json: bool = typer.Option(False, "--json")) -> None:
    """Tag the library's papers that your own bibliography (e.g. a Zotero export) lists."""
    with user_errors(), open_library() as lib:
        report = lib.import_library(path, tag=tag)
    if as_json:
        print_json(report)
        return
    console.print(f"{report['entries']} entries: {len(report['matched'])} matched, "
                  f"{len(report['unmatched'])} unmatched; tagged {report['papers_tagged']} papers "
                  f"'{escape(report['tag'])}'", highlight=False)
    for u in report["unmatched"][:30]:
        err_console.print(f"[yellow]unmatched[/] entry {u['entry']}: {escape(u['title'])}", highlight=False)
    if len(report["unmatched"]) > 30:
        err_console.print(f"... and {len(report['unmatched']) - 30} more unmatched", highlight=False)
