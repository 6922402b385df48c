"""Commands print what the user asked for and nothing else: no warning lines from the
libraries underneath (platformdirs, Ray), and a build spreads its papers over every worker."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import EXAMPLES

from paperscope.bulk import shards


def cli(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "paperscope", *map(str, args)], capture_output=True, text=True,
                          timeout=900, env=env or dict(os.environ), cwd=cwd)


def test_db_stop_prints_no_runtime_dir_warning(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}  # cron, ssh, containers
    proc = cli("db", "stop", "--dir", tmp_path / "pg", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "no server was running there"
    assert proc.stderr == "", proc.stderr


def test_shard_size_out_of_range_is_a_message(tmp_path):
    proc = cli("build", EXAMPLES, "--out", tmp_path / "b", "--shard-size", str(10**23))
    assert proc.returncode == 1 and "--shard-size must be between 1 and 1,000,000" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_ray_build_gives_every_worker_a_shard_and_prints_no_ray_warning(tmp_path):
    out = tmp_path / "build"
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    proc = cli("build", EXAMPLES, "--out", out, "--engine", "ray", "--workers", "2", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "95 papers, 95 memberships in 2 shards" in " ".join(proc.stdout.split())
    assert "WARNING" not in proc.stderr and "Token authentication" not in proc.stderr, proc.stderr
    manifest = shards.read_manifest(out)
    assert manifest["shard_size"] == 48 and [e["papers"] for e in manifest["shards"]] == [48, 47]
    again = cli("build", EXAMPLES, "--out", out, "--json")  # the folder keeps its layout
    assert json.loads(again.stdout)["shards_skipped"] == 2
