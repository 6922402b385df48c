"""Rooms a reader can take in at once: no module in src over 400 lines, no function over 80.
Run as a script to list what is over (`python tests/test_code_shape.py`)."""
from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "paperscope"
MAX_FILE = 400
MAX_FUNCTION = 80


def oversized(root: Path = SRC) -> list[tuple[str, str | None, int]]:
    """(file, function or None for the file itself, lines) for everything over the limits."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        text = path.read_text("utf-8")
        if len(text.splitlines()) > MAX_FILE:
            out.append((rel, None, len(text.splitlines())))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION:
                    out.append((rel, node.name, lines))
    return out


def test_no_module_over_400_lines_and_no_function_over_80():
    found = oversized()
    over = [f"{f}{':' + fn if fn else ''} ({n} lines)" for f, fn, n in found]
    assert not over, "split these: " + ", ".join(over)


def test_the_measure_sees_a_long_function_and_a_long_file(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n" + "\n" * MAX_FILE, "utf-8")
    assert oversized(tmp_path) == [("long.py", None, MAX_FUNCTION + 1 + MAX_FILE), ("long.py", "long", MAX_FUNCTION + 1)]


if __name__ == "__main__":
    for f, fn, n in oversized():
        print(f"{n:5d}  {f}{':' + fn if fn else ''}")
