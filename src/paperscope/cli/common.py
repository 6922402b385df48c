"""Shared CLI plumbing: the Typer app, the global --db option, output helpers, error handling."""
from __future__ import annotations

import functools
import inspect
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, get_type_hints

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..filters import YEAR_HELP
from ..model import InputError, UsageError

app = typer.Typer(
    name="paperscope",
    help="Explore machine-learning conference paper lists offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


def _flag_type_hidden(option: Any, ctx: Any) -> str | None:
    """--help shows no type after a flag (`--json <bool>` reads as if it took a value)."""
    return None if option.is_flag else _shown_type(option, ctx)


_shown_type = typer.core.TyperOption.display_type_rich
typer.core.TyperOption.display_type_rich = _flag_type_hidden  # type: ignore[method-assign]


class State:
    db: Optional[str] = None


state = State()


def _version(show: bool) -> None:
    if show:
        from importlib.metadata import version

        typer.echo(f"paperscope {version('paperscope')}")
        raise typer.Exit()


@app.callback()
def _global(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                         help="Print the version and exit."),
            db: Optional[str] = typer.Option(
        None, "--db", help="Library: a SQLite file or a postgresql:// URL (default: $PAPERSCOPE_DB, "
                           "else the per-user data dir).")) -> None:
    state.db = db


# One set of option names across commands (-n/--limit, --venue, --year with one range syntax,
# --json), defined once.
def limit_option(default: int | None = 20, maximum: int = 10_000) -> Any:
    return typer.Option(default, "--limit", "-n", min=1, max=maximum, help="How many results.")


def venue_option() -> Any:
    return typer.Option(None, "--venue", help="Only this venue (e.g. ICML) or collection name.")


def year_option() -> Any:
    return typer.Option(None, "--year", help=f"Only this year or range: {YEAR_HELP}.")


def collection_option() -> Any:
    return typer.Option(None, "--collection", help='Only this collection, e.g. "ICML 2024".')


def status_option() -> Any:
    return typer.Option(None, "--status", help="Only this status (e.g. oral, spotlight, poster).")


def type_option() -> Any:
    return typer.Option(None, "--type", help="Only this paper type (method, theory, benchmark, ...).")


def code_option() -> Any:
    return typer.Option(False, "--has-code", help="Only papers with a code link.")


def json_option() -> Any:
    return typer.Option(False, "--json", help="Print JSON.")


def open_library(readonly: bool = False, create: bool = False):
    """The --db library; only `create` (ingest, load) makes one where there is none."""
    from ..library import Library

    return Library.open(state.db, readonly=readonly, create=create)


def title_markup(paper: dict, style: str = "") -> str:
    """A paper's title as Rich markup; a label derived from the abstract (the list gave no
    title) carries a dim "(derived)" mark, as on the web pages."""
    from ..emphasis import md_plain

    title = paper.get("title")
    text = escape(md_plain(title or paper.get("label") or "(untitled)"))
    text = f"[{style}]{text}[/]" if style else text
    return text if title else f"{text} [dim](derived)[/]"


def fail(message: str, code: int = 1) -> None:
    """Print `message` (plain text: a path, an exception, a hint with [brackets] stays whole) and exit."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def path_arg(value: Any) -> Path:
    """A path from the command line; an empty one names nothing (Path("") would silently be
    the current folder). Bytes that are not UTF-8 are kept: file names may hold them."""
    if isinstance(value, Path):
        return value
    if not str(value).strip():
        raise typer.BadParameter("an empty path names nothing (use . for the current folder)")
    return Path(value)


def _not_text(value: Any) -> str | None:
    """Why a command-line value is not text we can keep (None when it is)."""
    for v in value if isinstance(value, (list, tuple)) else [value]:
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return "is not valid UTF-8 text (check the terminal's or the script's encoding)"
            if "\x00" in v:
                return "contains a NUL character"
    return None


def guard_arguments(typer_app: typer.Typer) -> None:
    """Check every command's arguments at the door, once for all commands: paths go through
    `path_arg`; every other text value must be valid UTF-8 (invalid bytes in argv arrive as
    lone surrogates, which the store, the tokenizer and the terminal cannot take)."""
    groups = [typer_app, *(g.typer_instance for g in typer_app.registered_groups)]
    for group in groups:
        for command in group.registered_commands:
            command.callback = _guarded(command.callback)


def _guarded(callback: Callable[..., Any]) -> Callable[..., Any]:
    hints = get_type_hints(callback)
    texts: dict[str, str] = {}
    for name, param in inspect.signature(callback).parameters.items():
        info = param.default
        if "Path" in str(hints.get(name)):
            if getattr(info, "parser", "absent") is None:
                info.parser = path_arg
        else:
            decls = [d for d in getattr(info, "param_decls", None) or () if d.startswith("--")]
            texts[name] = decls[0] if decls else name.upper()

    @functools.wraps(callback)
    def checked(**kwargs: Any) -> Any:
        for name, shown in texts.items():
            problem = _not_text(kwargs.get(name))
            if problem:
                fail(f"{shown} {problem}", 2)
        try:
            return callback(**kwargs)
        except BrokenPipeError:
            raise
        except OSError as exc:  # a path too long, not readable or writable, a full disk ...
            fail(os_message(exc))
        except RecursionError:
            fail("a path or data nested too deeply to follow (past a thousand levels)")

    return checked


def check_output(path: Path) -> None:
    """Refuse, before any work, an output path that cannot be a file we write: a folder, a
    device, a file under /proc or /sys."""
    from ..sources.registry import shown_path, virtual_devices
    from ..sources.textio import special_file

    shown = shown_path(path)
    if path.name in ("", ".", "..") or path.is_dir():
        fail(f"{shown} is a folder: name a file to write")
    kind = special_file(path)
    if kind:
        fail(f"{shown} is {kind}: name a file to write")
    parent = next((p for p in path.absolute().parents if p.exists()), None)
    if parent is not None and parent.stat().st_dev in virtual_devices():
        fail(f"{shown} is on a virtual file system (kernel and process information): name a file to write")


def os_message(exc: OSError) -> str:
    """An OSError as one line naming the file (shortened when very long)."""
    from ..sources.registry import shown_path

    what = exc.strerror or str(exc)
    if exc.filename is None:
        return what
    return f"{shown_path(os.fsdecode(exc.filename) if isinstance(exc.filename, bytes) else exc.filename)}: {what}"


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn InputError / ValueError into a clean message and exit code 1."""
    try:
        yield
    except UsageError as exc:
        fail(str(exc), 2)
    except (InputError, ValueError, FileNotFoundError) as exc:
        fail(str(exc))


@contextmanager
def progress_bar(enabled: bool = True) -> Iterator[Callable[[str, int, int], None]]:
    """A `progress(phase, done, total)` callback backed by a Rich progress bar; silent when
    stderr is not a terminal."""
    if not enabled or not err_console.is_terminal:
        yield lambda phase, done, total: None
        return
    tasks: dict[str, int] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err_console, transient=False) as bar:
        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total or None)
            bar.update(tasks[phase], completed=done, total=total or None)
        yield update


def main() -> None:
    app()
