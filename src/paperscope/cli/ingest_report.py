"""What `paperscope ingest` prints: the per-file table, the problems (each once), the summary,
and, when a run is stopped (Ctrl-C, a full disk), what the library kept."""
from __future__ import annotations

from pathlib import Path

from rich import box
from rich.markup import escape
from rich.table import Table

from .common import console, err_console

SHOWN = 20  # problems printed per file; the JSON report has them all


def print_report(report, stats) -> None:
    table = Table(title="ingest", show_lines=False, box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("file", "format", "added", "merged", "unchanged", "dup", "left out", "skipped"):
        if col == "file":  # full names, folded when the terminal is narrow, never cut
            table.add_column(col, overflow="fold")
        else:
            table.add_column(col, justify="left" if col == "format" else "right")
    for f in report.files:
        table.add_row(escape(Path(f.path).name), f.format, str(f.added), str(f.merged), str(f.unchanged),
                      str(f.duplicates), str(len(f.left_out)), "rejected" if f.error else str(f.skipped))
    console.print(table)
    for f in report.files:
        _print_problems(f)
    rejected = sum(1 for f in report.files if f.error)
    skipped = report.total("skipped")
    reasons = report.skip_reasons()
    line = (f"added {report.total('added')}, merged {report.total('merged')}, unchanged {report.total('unchanged')}, "
            f"skipped {skipped} record{'s' * (skipped != 1)}")
    if rejected:
        line += f" and {rejected} whole file{'s' * (rejected != 1)}"
    if reasons:
        line += f" ({', '.join(f'{k}: {v}' for k, v in reasons.items())})"
    left_out = sum(len(f.left_out) for f in report.files)
    if left_out:
        line += f"; left out {left_out} (not papers: workshops, talks, prefaces)"
    console.print(escape(line), highlight=False)
    console.print(f"library: {stats['papers']} papers in {len(stats['collections'])} collections "
                  f"({escape(str(stats['path']))})", highlight=False)


def _print_problems(f) -> None:
    if f.error:
        err_console.print(f"[red]rejected[/] {escape(f.error)}", highlight=False)
    label = "problem" if f.error else "skipped"  # a rejected file kept nothing: nothing was skipped
    shown = [p for p in f.problems if not p.fatal and str(p) != f.error]  # the fatal one is the error
    for p in f.warnings[:SHOWN]:
        err_console.print(f"[yellow]warning[/] {escape(str(p))}", highlight=False)
    for p in shown[:SHOWN]:
        err_console.print(f"[yellow]{label}[/] {escape(str(p))}", highlight=False)
    more = max(0, len(shown) - SHOWN) + max(0, len(f.warnings) - SHOWN)
    if more:
        err_console.print(f"... and {more} more in {escape(f.path)} (--json lists them all)", highlight=False)


def print_stopped(exc: BaseException, papers_now: int | None = None) -> None:
    """What the library holds when a run stopped early (Ctrl-C, a full disk): the batches
    committed are in, whole; the batch in flight, if any, was rolled back."""
    why = "interrupted" if isinstance(exc, KeyboardInterrupt) else "stopped"
    report = getattr(exc, "ingest_report", None)
    total = f"; the library holds {papers_now:,} papers" if papers_now is not None else ""
    if report is None:  # stopped before reading began (opening the library, finding files)
        say(f"{why} before any record was written: the library is as it was{total}.")
        return
    kept = (f"{report.total('added'):,} new papers, {report.total('merged'):,} merged and "
            f"{report.total('unchanged'):,} unchanged from {report.batches:,} whole batch"
            f"{'es' * (report.batches != 1)}")
    if report.read_all:
        say(f"{why} after every file was read: {kept} are in the library{total}; "
            f"their derived data (facts, search index, embeddings, topics) is not complete. Run the same "
            f"command again to finish it: nothing is read twice or duplicated.")
        return
    cut = report.files[-1] if report.files else None
    where = (f"; {Path(cut.path).name} stopped after its last whole batch (a batch in flight was rolled back)"
             if cut is not None else "")
    say(f"{why} while reading: {kept} are in the library{total}{where}; later files were not read and "
        f"derived data was not computed. Run the same command again to finish: what is in is recognised, "
        f"nothing is duplicated.")


def say(text: str) -> None:
    err_console.print(text, highlight=False, markup=False, soft_wrap=True)
