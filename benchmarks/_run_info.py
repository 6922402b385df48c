"""What a benchmark result records besides its numbers: the command, the git commit, the
package versions, the machine's load and the data it read."""
from __future__ import annotations

import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return out.stdout.strip() + (" (with uncommitted changes in the tree)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def versions(*packages: str) -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in ("paperscope", *packages):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_info(data: dict, *packages: str) -> dict:
    return {"command": " ".join([Path(sys.executable).name, *[_rel(a) for a in sys.argv]]),
            "git_commit": git_commit(), "versions": versions(*packages), "cpus": os.cpu_count(),
            "load_average_at_start": load(), "data": data}


def _rel(arg: str) -> str:
    """Arguments as typed from the repository root (no machine paths in results)."""
    try:
        return str(Path(arg).resolve().relative_to(ROOT))
    except ValueError:  # outside the repository: its name only, never a machine's path
        return f"<outside the repository>/{Path(arg).name}" if Path(arg).is_absolute() else arg
