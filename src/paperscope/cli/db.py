"""`db start|stop` (a local PostgreSQL from the postgres extra) and `copy SRC DEST` (move a
library between backends). Registered on import."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import app, console, err_console, json_option, print_json, progress_bar, user_errors

db_app = typer.Typer(help="A local PostgreSQL + pgvector server for a shared library.", no_args_is_help=True)
app.add_typer(db_app, name="db")
FOLDER_HELP = "Where the server keeps its data (default: the per-user data dir)."


@db_app.command("start")
def db_start(folder: Optional[Path] = typer.Option(None, "--dir", help=FOLDER_HELP),
             database: str = typer.Option("paperscope", "--database", help="Database to create and use.")) -> None:
    """Start the server (if not running) and print the library URL to pass as --db or $PAPERSCOPE_DB."""
    from ..library import Library

    with user_errors():
        url = Library.db_start(folder, database)
    err_console.print("PostgreSQL is running; use it with:", highlight=False)
    typer.echo(url)


@db_app.command("stop")
def db_stop(folder: Optional[Path] = typer.Option(None, "--dir", help=FOLDER_HELP)) -> None:
    """Stop the server."""
    from ..library import Library

    with user_errors():
        stopped = Library.db_stop(folder)
    console.print("stopped" if stopped else "no server was running there", highlight=False)


@app.command("copy")
def copy_library(source: str = typer.Argument(..., help="Library to copy from: a file or a postgresql:// URL."),
                 dest: str = typer.Argument(..., help="Library to copy into (created when missing)."),
                 as_json: bool = json_option()) -> None:
    """Copy a library between backends (SQLite <-> PostgreSQL): ids, tags and notes intact."""
    from ..library import Library

    with user_errors(), Library.open(source, readonly=True) as src, Library.open(dest) as target, \
            progress_bar(not as_json) as progress:
        counts = target.copy(src, progress=progress)
    if as_json:
        print_json(counts)
        return
    console.print(f"copied {counts['papers']} papers, {counts['memberships']} memberships, "
                  f"{counts['embeddings']} embeddings, {counts['user_tags']} tags, {counts['user_marks']} marks "
                  f"into {target.path}", highlight=False, markup=False)
