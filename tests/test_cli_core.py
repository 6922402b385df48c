"""The core CLI in a real subprocess: ingest, list, show, stats, remove; JSON shapes; exit codes."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PAPER_KEYS = {"id", "title", "abstract", "authors", "venue", "year", "status", "urls", "keywords", "collections"}


def run(*args, db=None, env_db=None, check=True):
    env = {k: v for k, v in os.environ.items() if k != "PAPERSCOPE_DB"}
    if env_db:
        env["PAPERSCOPE_DB"] = str(env_db)
    cmd = [sys.executable, "-m", "paperscope"] + (["--db", str(db)] if db else []) + list(args)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"{cmd} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def cli_db(tmp_path_factory, samples_dir):
    db = tmp_path_factory.mktemp("cli") / "lib.db"
    run("ingest", "--no-embed", str(samples_dir), db=db)
    return db


def test_stats_json_shape(cli_db):
    data = json.loads(run("stats", "--json", db=cli_db).stdout)
    assert data["papers"] == 95
    assert {(c["venue"], c["year"], c["papers"]) for c in data["collections"]} == {("ICML", 2024, 57), ("ICLR", 2024, 38)}


def test_papers_json_is_every_paper_with_required_fields(cli_db):
    papers = json.loads(run("papers", "--json", db=cli_db).stdout)
    assert len(papers) == 95
    assert all(PAPER_KEYS <= set(p) for p in papers)
    icml = json.loads(run("papers", "--venue", "icml", "--year", "2024", "--json", db=cli_db).stdout)
    assert len(icml) == 57 and {p["venue"] for p in icml} == {"ICML"}
    assert json.loads(run("list", "--json", db=cli_db).stdout) == papers  # the old name still works
    shown = [line.strip("│ ").split(" ")[0] for line in run("--help", db=cli_db).stdout.splitlines()]
    assert "papers" in shown and "list" not in shown  # hidden from --help


def test_show_json_and_unknown_id(cli_db):
    first = json.loads(run("papers", "--json", "--limit", "1", db=cli_db).stdout)[0]
    shown = json.loads(run("show", first["id"], "--json", db=cli_db).stdout)
    assert shown["id"] == first["id"] and shown["abstract"] == first["abstract"]
    assert "label" in shown
    by_prefix = json.loads(run("show", first["id"][:8], "--json", db=cli_db).stdout)
    assert by_prefix["id"] == first["id"]
    proc = run("show", "doesnotexist", db=cli_db, check=False)
    assert proc.returncode == 1 and "no paper" in proc.stderr


def test_help_shows_no_type_after_a_flag(cli_db):
    for command in ("search", "show", "stats", "export", "reviewers"):
        shown = run(command, "--help", db=cli_db).stdout
        assert "--help" in shown and "<bool>" not in shown, command


def test_usage_error_exits_2(cli_db):
    proc = run("papers", "--limit", "zero", db=cli_db, check=False)
    assert proc.returncode == 2


def test_bad_file_exits_1_and_names_the_file(tmp_path):
    bad = tmp_path / "empty.txt"
    bad.write_text("", encoding="utf-8")
    proc = run("ingest", "--no-embed", str(bad), db=tmp_path / "x.db", check=False)
    assert proc.returncode == 1
    assert "empty.txt" in proc.stderr


def test_ingest_json_report_and_env_db(tmp_path, samples_dir):
    db = tmp_path / "env.db"
    out = json.loads(run("ingest", "--no-embed", "--json", str(samples_dir / sorted(os.listdir(samples_dir))[0]), env_db=db).stdout)
    assert out["added"] == 19 and out["library"]["papers"] == 19
    assert db.exists()
    again = json.loads(run("ingest", "--no-embed", "--json", str(samples_dir / sorted(os.listdir(samples_dir))[0]), env_db=db).stdout)
    assert again["added"] == 0 and again["unchanged"] == 19


def test_remove_collection_cli(tmp_path, samples_dir):
    db = tmp_path / "r.db"
    run("ingest", "--no-embed", str(samples_dir), db=db)
    run("remove", "--collection", "ICLR 2024", db=db)
    assert json.loads(run("stats", "--json", db=db).stdout)["papers"] == 57
    proc = run("remove", "--collection", "Nope 1999", db=db, check=False)
    assert proc.returncode == 1 and "no collection" in proc.stderr
