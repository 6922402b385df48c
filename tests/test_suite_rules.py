"""The suite's own rules: `make install` installs every package a test needs, and a test skipped
because a dependency is missing fails the run instead of passing it quietly."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


def _installed_extras() -> set[str]:
    line = next(l for l in (REPO / "Makefile").read_text().splitlines() if "pip install" in l and "-e" in l)
    return set(re.search(r"\.\[([^\]]+)\]", line).group(1).split(","))


def test_make_install_installs_every_package_a_test_imports_or_skips():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    installed = " ".join(project["dependencies"] + [d for e in _installed_extras() for d in extras[e]]).lower()
    needed = set()
    for path in TESTS.glob("*.py"):
        needed |= set(re.findall(r"importorskip\(\"([\w.]+)\"", path.read_text(encoding="utf-8")))
    missing = sorted(m for m in needed if m.split(".")[0].lower() not in installed)
    assert not missing, f"tests import {missing} but `make install` does not install them"


def test_a_skip_for_a_missing_module_fails_the_run(tmp_path):
    for name in ("conftest.py", "backends.py"):
        shutil.copy(TESTS / name, tmp_path / name)
    (tmp_path / "test_probe.py").write_text(
        "import pytest\n"
        "def test_needs_a_module():\n    pytest.importorskip('no_such_module_for_this_probe')\n"
        "@pytest.mark.skipif(True, reason='somepackage is not installed')\n"
        "def test_marked():\n    pass\n"
        "def test_data_absent():\n    pytest.skip('shared corpora not found at /nowhere')\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 1, proc.stdout
    assert "1 failed, 1 skipped, 1 error" in proc.stdout, proc.stdout
    assert "skipped for a missing dependency" in proc.stdout
