"""The README's commands work on a fresh clone: every path they name is in the repository (or
made by an earlier command), and the install hints point at nothing a machine may not reach."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [line.split("  #")[0].strip() for b in blocks for line in b.splitlines()
            if line.strip().startswith("paperscope ")]


def test_readme_commands_name_no_path_outside_the_repository():
    outside = [c for c in _commands() for word in shlex.split(c, comments=True) if word.startswith("../")]
    assert outside == []


def test_readme_example_inputs_exist():
    named = {w for c in _commands() for w in shlex.split(c, comments=True) if w.startswith("examples/")}
    assert named and all((REPO / w.rstrip("/")).exists() for w in named), named


def test_pyproject_names_no_package_index():
    assert not re.search(r"--(extra-)?index-url|https?://\S+/whl", (REPO / "pyproject.toml").read_text())
