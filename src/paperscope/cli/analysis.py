"""Analysis commands: topics, map, compare, trends (registered on import)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from .common import (app, check_output, collection_option, console, err_console, fail, open_library, print_json,
                     user_errors, year_option)

MAP_FORMATS = (".png", ".svg", ".html")


def _level(level: str) -> str | int:
    if level in ("coarse", "fine"):
        return level
    if level.isdigit() and int(level) > 0:
        return int(level)
    raise typer.BadParameter("use coarse, fine or a number of topics", param_hint="--level")


@app.command()
def topics(
    collection: Optional[str] = collection_option(),
    venue: Optional[str] = typer.Option(None, "--venue", help="Only papers of this venue."),
    year: Optional[str] = year_option(),
    level: str = typer.Option("coarse", "--level", help="coarse (~15 for 2,600 papers), fine (~75), or a number."),
    as_json: bool = typer.Option(False, "--json", help="Print the topics as JSON (id, label, size, papers, ...)."),
) -> None:
    """Topics of the library (or of a venue/year): labels, sizes and a representative paper."""
    lvl = _level(level)
    with user_errors(), open_library() as lib:
        rows = lib.topics(collection=collection, venue=venue, year=year, level=lvl)
        total = len(lib.papers(collection=collection, venue=venue, year=year))
        for warning in lib.topic_warnings(rows):  # on stderr, so --json output stays clean
            err_console.print(f"[yellow]note:[/] {escape(warning)}", highlight=False)
    if as_json:
        print_json(rows)
        return
    if not total:
        fail("no papers match (see `paperscope stats`)")
    table = Table(title=f"{len(rows)} topics ({level}) over {total} papers", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("size", justify="right")
    table.add_column("label")
    table.add_column("representative paper", overflow="fold")
    for t in rows:
        table.add_row(str(t["id"]), str(t["size"]), escape(t["label"]),
                      escape(t["representative"].get("label") or t["representative"]["id"]))
    console.print(table)
    assigned = sum(t["size"] for t in rows)
    console.print(f"unassigned: {total - assigned} of {total} ({100 * (total - assigned) / total:.1f} %)",
                  highlight=False)


@app.command("map")
def map_command(
    out: Path = typer.Option(..., "--out", help="map.png, map.svg or map.html (self-contained)."),
    collection: Optional[str] = collection_option(),
    venue: Optional[str] = typer.Option(None, "--venue", help="Only papers of this venue."),
    year: Optional[str] = year_option(),
) -> None:
    """Draw a 2-D map of the papers, coloured by topic, with topic labels on the clusters."""
    suffix = out.suffix.lower()
    if suffix not in MAP_FORMATS:
        fail(f"--out must end in {', '.join(MAP_FORMATS)} (got {out.name!r})")
    check_output(out)
    from .render_map import render_html, render_image

    with user_errors(), open_library() as lib:
        points = lib.map(collection=collection, venue=venue, year=year)
        rows = lib.topics(collection=collection, venue=venue, year=year)
    if not points:
        fail("no papers match (see `paperscope stats`)")
    title = collection or " ".join(str(v) for v in (venue, year) if v) or "paperscope library"
    title = f"{title}: {len(points)} papers, {len(rows)} topics"
    with user_errors():
        if suffix == ".html":
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(render_html(points, rows, title), encoding="utf-8")
        else:
            render_image(points, rows, out, title)
    console.print(f"wrote {out} ({len(points)} papers, {len(rows)} topics)", highlight=False, markup=False)


@app.command()
def compare(
    a: str = typer.Argument(..., help='A collection, e.g. "ICML 2024".'),
    b: str = typer.Argument(..., help='Another collection, e.g. "ICLR 2020".'),
    out: Optional[Path] = typer.Option(None, "--out", help="Also draw a chart (compare.png or .svg)."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
) -> None:
    """Compare two venues: topic shares, most distinctive terms, paper types."""
    if out is not None and out.suffix.lower() not in (".png", ".svg"):
        fail(f"--out must end in .png or .svg (got {out.name!r})")
    if out is not None:
        check_output(out)
    with user_errors(), open_library() as lib:
        result = lib.compare(a, b)
    if out is not None:
        from .render_compare import render_compare

        render_compare(result, out)
    if as_json:
        print_json(result)
        return
    na, nb = result["a"]["name"], result["b"]["name"]
    table = Table(title=f"{na} ({result['a']['papers']}) vs {nb} ({result['b']['papers']})")
    table.add_column("topic")
    table.add_column(f"{na} %", justify="right")
    table.add_column(f"{nb} %", justify="right")
    for t in sorted(result["topics"], key=lambda t: -(t["a_share"] + t["b_share"])):
        table.add_row(escape(t["label"]), f"{100 * t['a_share']:.1f}", f"{100 * t['b_share']:.1f}")
    console.print(table)
    for name in (na, nb):
        terms = ", ".join(t["term"] for t in result["distinctive"][name][:12]) or "(no term stands out)"
        console.print(f"[bold]most distinctive of {escape(name)}:[/] {escape(terms)}")
    for warning in result.get("warnings", []):
        console.print(f"[yellow]note:[/] {escape(warning)}")
    for name in (na, nb):
        kinds = ", ".join(f"{k} {v}" for k, v in result["paper_types"][name].items())
        console.print(f"[bold]paper types in {escape(name)}:[/] {escape(kinds)}")
    if out is not None:
        console.print(f"wrote {out}", highlight=False, markup=False)


@app.command()
def trends(
    query: Optional[str] = typer.Argument(None, help='Words that must all occur, e.g. "adversarial examples".'),
    venue: Optional[str] = typer.Option(None, "--venue", help="Only this venue's collections (e.g. NIPS)."),
    growth: Optional[List[str]] = typer.Option(None, "--growth", help="Two collections: which topics grew from the first to the second (give it twice)."),
    as_json: bool = typer.Option(False, "--json", help="Print the trend as JSON."),
) -> None:
    """The share of papers matching a query per year of a venue; with --growth A --growth B, the
    topics that grew most from collection A to B."""
    with user_errors(), open_library(readonly=True) as lib:
        result = lib.trends(query, venue=venue, growth=growth)
    if as_json:
        print_json(result)
        return
    if growth:
        table = Table(title=f"topics from {result['before']['name']} to {result['after']['name']}")
        for col in ("topic", "before %", "after %", "change"):
            table.add_column(col, justify="left" if col == "topic" else "right")
        for t in result["topics"]:
            table.add_row(escape(t["label"]), f"{100 * t['before']:.1f}", f"{100 * t['after']:.1f}",
                          f"{100 * t['change']:+.1f}")
        console.print(table)
        for warning in result["warnings"]:
            console.print(f"[yellow]note:[/] {escape(warning)}")
        return
    table = Table(title=f"papers containing every word of {escape(result['query'])!r}")
    for col in ("collection", "papers", "matching", "share", ""):
        table.add_column(col, justify="left" if col in ("collection", "") else "right")
    top = max((y["share"] for y in result["years"]), default=0) or 1
    for y in result["years"]:
        table.add_row(escape(y["collection"]), str(y["papers"]), str(y["matching"]), f"{100 * y['share']:.2f} %",
                      "█" * round(30 * y["share"] / top))
    console.print(table)
