"""Distributed build commands: build (inputs -> Parquet shards, local or on Ray) and load
(shards -> the library)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import app, console, err_console, json_option, open_library, print_json, progress_bar, user_errors


def _say(enabled: bool):
    def say(text: str) -> None:
        if enabled:
            err_console.print(text, highlight=False, markup=False)
    return say


@app.command()
def build(
    paths: List[Path] = typer.Argument(..., help="Inputs, as for ingest (files or folders; arXiv snapshot JSONL streams)."),
    out: Path = typer.Option(..., "--out", help="Build folder (Parquet shards, manifest, content-hash cache)."),
    engine: str = typer.Option("local", "--engine", help="local (this process, needs nothing) or ray."),
    address: Optional[str] = typer.Option(None, "--address", help="Ray cluster: auto or ray://host:port (default: start a local Ray)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Ray workers (one CPU each)."),
    shard_size: int = typer.Option(1000, "--shard-size", min=1, help="Papers per shard (kept from the first build of a folder)."),
    fmt: Optional[str] = typer.Option(None, "--format", help="Override format detection."),
    venue: Optional[str] = typer.Option(None, "--venue", help="Venue when the list does not name it."),
    year: Optional[int] = typer.Option(None, "--year", help="Year when the list does not name it."),
    as_json: bool = json_option(),
) -> None:
    """Compute facts and embeddings for the inputs into Parquet shards (incremental, resumable)."""
    from ..library import Library

    with user_errors():
        report = Library.build(paths, out, engine=engine, address=address, workers=workers,
                               shard_size=shard_size, fmt=fmt, venue=venue, year=year, say=_say(True))
    if as_json:
        print_json(report)
        return
    c = report["counts"]
    console.print(f"build {out}: {c['papers']} papers, {c['memberships']} memberships in {report['shards']} shards "
                  f"({report['shards_skipped']} already done); computed {report['computed']} texts, "
                  f"reused {report['reused']}; engine {report['engine']} with {report['workers']} worker(s)",
                  highlight=False, markup=False)


@app.command()
def load(
    folder: Path = typer.Argument(..., help="A build folder (made by `paperscope build --out`)."),
    as_json: bool = json_option(),
) -> None:
    """Bulk-load a build folder into the library (only what changed) and build the search indexes."""
    from ..bulk.load import check_build_folder

    with user_errors():
        check_build_folder(folder)  # before a library is created for it
        with open_library(create=True) as lib, progress_bar(not as_json) as progress:
            report = lib.load(folder, say=_say(not as_json), progress=progress)
    if as_json:
        print_json(report)
        return
    console.print(f"load {folder}: +{report['added']} papers, {report['updated']} updated, "
                  f"{report['unchanged']} unchanged, {report['memberships']} memberships added, "
                  f"{report['shards_skipped']} shards already loaded; library has {report['papers']} papers",
                  highlight=False, markup=False)
