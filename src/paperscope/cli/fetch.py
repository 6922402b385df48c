"""`paperscope fetch VENUE YEAR`: a venue's accepted papers from its source, merged like ingest."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from .common import app, console, err_console, fail, json_option, open_library, print_json, progress_bar, user_errors

_SOURCE_HELP = ("openreview, virtual (the conference site) or pmlr; default: each that publishes the "
                "venue, in that order, until one works")


@app.command()
def fetch(
    venue: str = typer.Argument(..., help="ICLR, NeurIPS, ICML, COLM, TMLR, UAI, COLT, AISTATS, CoRL, ... (any case)."),
    year: int = typer.Argument(..., help="The conference year."),
    source: Optional[str] = typer.Option(None, "--source", help=_SOURCE_HELP),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="The source's address (a mirror, a test server); "
                                           "else $PAPERSCOPE_OPENREVIEW_URL / _VIRTUAL_URL / _PMLR_URL."),
    save: Optional[Path] = typer.Option(None, "--save", help="Keep the raw answers in DIR: `paperscope ingest DIR` "
                                        "replays them offline, and a rerun resumes from them."),
    all_submissions: bool = typer.Option(False, "--all-submissions", help="OpenReview: every submission, "
                                         "rejected and withdrawn ones too (default: accepted papers)."),
    venue_id: Optional[str] = typer.Option(None, "--venue-id", help="The source's own id: an OpenReview venue id "
                                           "(or API v1 invitation), a PMLR volume number, a virtual-site name."),
    token: Optional[str] = typer.Option(None, "--token", help="An OpenReview token (else $OPENREVIEW_USERNAME "
                                        "and $OPENREVIEW_PASSWORD log in, when set)."),
    embed: bool = typer.Option(True, "--embed/--no-embed", help="Compute embeddings for new papers now."),
    as_json: bool = json_option(),
) -> None:
    """Fetch a venue's accepted papers from its source and merge them into the library."""
    from ..sources.remote import FetchError

    def say(message: str) -> None:
        err_console.print(f"[dim]{escape(message)}[/]", highlight=False)

    with user_errors():
        with open_library(create=True) as lib, progress_bar(not as_json) as progress:
            try:
                report = lib.fetch(venue, year, source=source, base_url=base_url, save=save,
                                   all_submissions=all_submissions, venue_id=venue_id, token=token,
                                   embed=embed, progress=progress, say=say)
            except FetchError as exc:
                fail(f"fetch failed: {exc}")
            except KeyboardInterrupt:
                err_console.print("interrupted: every page read so far is in the library and saved; run the "
                                  "same command again to resume", highlight=False)
                raise typer.Exit(130) from None
            stats = lib.stats()
    if as_json:
        print_json({**report, "library": stats})
    else:
        _print(report, stats)
    if report["errors"]:
        raise typer.Exit(1)


def _print(report: dict, stats: dict) -> None:
    table = Table(title=f"fetch {report['venue']} {report['year']} from {report['source']}",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    names = ("fetched", "added", "merged", "titles_filled", "unchanged", "duplicates", "left_out", "skipped")
    for name in ("fetched", "added", "merged", "titles filled", "unchanged", "dup", "left out", "skipped"):
        table.add_column(name, justify="right")
    r = {n: report[n] for n in names}
    table.add_row(f"{r['fetched']:d}", f"{r['added']:d}", f"{r['merged']:d}", f"{r['titles_filled']:d}",
                  f"{r['unchanged']:d}", f"{r['duplicates']:d}", f"{r['left_out']:d}", f"{r['skipped']:d}")
    console.print(table)
    line = (f"{report['pages']} page{'s' * (report['pages'] != 1)}, {report['requests']} request"
            f"{'s' * (report['requests'] != 1)}, {report['from_saved']} from saved answers, "
            f"{report['retries']} retries, {report['seconds']:.1f} s")
    console.print(escape(line), highlight=False)
    if report["not_accepted"]:
        console.print(f"left out {int(report['not_accepted'])} submissions that were not accepted "
                      f"(--all-submissions keeps them)", highlight=False)
    if report["skip_reasons"]:
        reasons = ", ".join(f"{k}: {v}" for k, v in report["skip_reasons"].items())
        console.print(escape(f"skipped or doubled: {reasons}"), highlight=False)
    if report["count_changed"]:
        first, last = report["count_changed"]
        err_console.print(f"[yellow]warning[/] the source's count changed from {int(first)} to {int(last)} while paging: "
                          f"run the fetch again (with a new --save folder) to be sure nothing moved past",
                          highlight=False)
    for error in report["errors"]:
        err_console.print(f"[red]rejected[/] {escape(error)}", highlight=False)
    for attempt in report["attempts"][:-1]:
        err_console.print(escape(f"{attempt['source']}: {attempt['result']} {attempt['reason']}".strip()),
                          highlight=False)
    if report["saved"]:
        console.print(escape(f"saved in {report['saved']} (replay: paperscope ingest {report['saved']})"),
                      highlight=False)
    console.print(escape(f"library: {stats['papers']} papers in {len(stats['collections'])} collections "
                         f"({stats['path']})"), highlight=False)
