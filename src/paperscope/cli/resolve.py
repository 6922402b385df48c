"""`paperscope resolve`: real titles for the title-less papers (the venue's source, then arXiv)."""
from __future__ import annotations

from typing import Optional

import typer
from rich.markup import escape

from .common import app, console, err_console, json_option, open_library, print_json, progress_bar, user_errors


@app.command()
def resolve(
    collection: Optional[str] = typer.Option(None, "--collection", "-c", help="Only this collection (e.g. 'ICML 2024')."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; change nothing."),
    arxiv: bool = typer.Option(True, "--arxiv/--no-arxiv", help="Search arXiv for papers the venue's source leaves untitled."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="Ask this mirror (or test server) for every venue source."),
    arxiv_url: Optional[str] = typer.Option(None, "--arxiv-url", help="arXiv API base URL (default $PAPERSCOPE_ARXIV_URL or export.arxiv.org)."),
    embed: bool = typer.Option(True, "--embed/--no-embed", help="Compute embeddings for the fetched papers now."),
    as_json: bool = json_option(),
) -> None:
    """Give title-less papers their real title and authors: fetch their venue's accepted papers
    (openreview, then virtual, then pmlr) and merge, then search arXiv for the rest. A match is
    accepted only beyond the fuzzy-identity threshold; a real title is never overwritten."""
    with user_errors():
        with open_library() as lib, progress_bar(not as_json) as progress:
            say = (lambda m: err_console.print(escape(m), highlight=False)) if not as_json else None
            report = lib.resolve(collection, dry_run=dry_run, arxiv=arxiv, base_url=base_url,
                                 arxiv_url=arxiv_url, embed=embed, progress=progress, say=say)
    if as_json:
        print_json(report)
        return
    _print(report)


def _print(report: dict) -> None:
    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    verb = "would get" if report["dry_run"] else "got"
    for v in report["venue_sources"]:
        if "error" in v:
            say(f"{v['collection']}: no venue source: {v['error']}")
        else:
            say(f"{v['collection']}: {v['untitled']} untitled; {v['source']} "
                f"({v['fetched']} papers fetched, {v['added']} new to the library)")
    for p in report["papers"]:
        score = f", score {p['score']:.2f}" if p["score"] is not None else ""
        say(f"  {p['id']}  {verb} {p['title']}  ({p['origin']}{score})")
    for r in report["rejected"]:
        best = f"best {r['best_score']:.2f}: {r['best_title']}" if r["best_title"] else r["reason"]
        say(f"  {r['paper']}  stays untitled ({best})")
    a = report["arxiv"]
    if a.get("errors"):
        say(f"arXiv: {len(a['errors'])} failed searches, first: {a['errors'][0]['reason']}")
    head = "dry run, nothing changed: " if report["dry_run"] else ""
    rejected = sum(1 for r in report["rejected"] if r["best_title"])
    say(f"{head}untitled before {report['untitled_before']}, by the venue's source {report['resolved_by_venue']}, "
        f"by arXiv {report['resolved_by_arxiv']}, still untitled {report['still_untitled']}, "
        f"rejected candidates {rejected}")
