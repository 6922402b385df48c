"""Text from a user, a file or an exception reaches the terminal intact: Rich markup never eats
`[...]` out of a path, an install hint or a title. One behaviour test per path a message takes,
plus a scan of the CLI's source so a new `print` cannot bring the class back."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

from typer.testing import CliRunner

from paperscope.cli import app

CLI = Path(__file__).resolve().parents[1] / "src" / "paperscope" / "cli"
# Calls whose result is markup built from escaped text, or a number.
SAFE_CALLS = {"escape", "title_markup", "snippet_markup", "cited_markup", "len", "int", "round", "float", "sum"}
PRINTERS = {"print", "add_row"}
# Values that are numbers or generated ids (hex), never text from a user or a file; a name not
# here must be escaped. Renderables (a Rich Table) are passed bare and are not strings.
NUMBERS = {"total", "assigned", "papers", "memberships", "shards", "shards_skipped", "computed", "reused",
           "workers", "added", "updated", "unchanged", "papers_removed", "position", "embeddings", "user_tags",
           "user_marks", "in_library", "conflicts_excluded", "papers_count", "removed", "entries",
           "papers_tagged", "bound_port", "more", "merged", "duplicates", "skipped", "id", "lists", "size",
           "matching", "detached", "year", "rank", "score", "cos", "cosine", "coverage", "entry",
           "untitled", "fetched", "untitled_before", "resolved_by_venue", "resolved_by_arxiv", "still_untitled",
           "paper"}
RENDERABLES = {"table"}
# Fixed words chosen by the code (a phase name, a format name, a label), never user text.
FIXED = {"why", "phase", "label", "format", "key", "derived", "marks", "tags", "extra", "engine", "verb", "head"}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.BoolOp):  # paper['year'] or ''
        names = {_name(v) if not isinstance(v, ast.Constant) else "" for v in node.values} - {""}
        return names.pop() if len(names) == 1 else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "total":
        return "total"  # report.total('added'): a count
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and node.args and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    return None


def _unsafe_parts(node: ast.AST) -> list[str]:
    """The interpolated parts of a markup string that are not escaped (nor plainly numeric)."""
    if isinstance(node, ast.Constant) or _name(node) in NUMBERS | RENDERABLES | FIXED:
        return []
    if isinstance(node, ast.JoinedStr):
        bad = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                bad += _unsafe_value(part)
        return bad
    if isinstance(node, ast.BinOp):
        return _unsafe_parts(node.left) + _unsafe_parts(node.right)
    if isinstance(node, ast.IfExp):
        return _unsafe_parts(node.body) + _unsafe_parts(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SAFE_CALLS:
        return []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        return _unsafe_parts(node.args[0])
    return [ast.unparse(node)]


def _unsafe_value(part: ast.FormattedValue) -> list[str]:
    if part.format_spec is not None and part.conversion == -1:
        # a number formatted for width or precision ({x:.3f}, {n:>3}); a string would need
        # escape() like any other
        spec = ast.unparse(part.format_spec)
        if any(c in spec for c in "fdeg%,+"):
            return []
    return _unsafe_parts(part.value) if not isinstance(part.value, ast.Constant) else []


def _markup_off(call: ast.Call) -> bool:
    return any(k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
               for k in call.keywords)


def _findings() -> list[str]:
    out = []
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in PRINTERS) or _markup_off(node):
                continue
            for arg in node.args:
                for bad in _unsafe_parts(arg):
                    out.append(f"{path.name}:{node.lineno}: {bad}")
    return out


def test_every_interpolated_value_in_cli_markup_is_escaped():
    """A value reaching Rich markup must go through escape() (or be printed with markup=False);
    numbers are recognised by their format spec or by len()/int()/round()."""
    assert _findings() == []


def test_error_message_keeps_brackets(tmp_path):
    draft = tmp_path / "drafts" / "draft[v2].txt"
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "lib.db"), "related", "--file", str(draft)])
    assert result.exit_code != 0
    assert "draft[v2].txt" in result.output


def test_missing_mcp_extra_names_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp raises ImportError
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "lib.db"), "mcp"])
    assert result.exit_code == 1
    assert "pip install 'paperscope[mcp]'" in result.output


def test_a_tag_with_brackets_is_printed_whole(tmp_path, samples_dir):
    db = str(tmp_path / "lib.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--db", db, "ingest", "--no-embed", str(samples_dir)]).exit_code == 0
    first = runner.invoke(app, ["--db", db, "list", "--json", "--limit", "1"]).output
    paper = first.split('"id": "')[1].split('"')[0]
    tagged = runner.invoke(app, ["--db", db, "tag", paper, "[red]x[/red]"])
    assert tagged.exit_code == 0 and "[red]x[/red]" in tagged.output
    note = runner.invoke(app, ["--db", db, "note", paper, "see [bold]draft[v2][/bold]"])
    assert note.exit_code == 0
    assert "[red]x[/red]" in runner.invoke(app, ["--db", db, "tags"]).output
