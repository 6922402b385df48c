"""`paperscope search` and `paperscope related` as a user runs them: JSON shape, terminal
output, exit codes."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from paperscope.cli import app
from search_support import PAPERS, small_library  # noqa: F401  (fixture)

runner = CliRunner()


@pytest.fixture(scope="module")
def small(small_library):
    return small_library


def run(db, *args):
    return runner.invoke(app, ["--db", str(db), *args])


def test_search_json_shape(small):
    db, ids = small
    res = run(db, "search", "normalizing flows", "--json", "--limit", "3")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert isinstance(data, list) and 1 <= len(data) <= 3
    for r in data:
        assert {"id", "title", "label", "venue", "year", "score", "rank", "snippet"} <= set(r)
        assert isinstance(r["score"], float) and isinstance(r["snippet"]["highlights"], list)
    assert data[0]["id"] == ids["flow"]
    assert [r["rank"] for r in data] == list(range(1, len(data) + 1))


def test_search_explain_json(small):
    db, _ = small
    data = json.loads(run(db, "search", "attention", "--json", "--explain", "--mode", "hybrid").stdout)
    e = data[0]["explain"]
    assert {"matched_terms", "matched_fields", "bm25", "cosine", "lexical_rank", "semantic_rank",
            "fused_score", "fusion"} <= set(e)


def test_search_modes_and_filters(small):
    db, ids = small
    for mode in ("lexical", "semantic", "hybrid"):
        data = json.loads(run(db, "search", "graph", "--mode", mode, "--venue", "ICML", "--json").stdout)
        assert data and {r["venue"] for r in data} == {"ICML"}, mode
    data = json.loads(run(db, "search", "--json", "--", "generative", "-adversarial").stdout)
    assert ids["gan"] not in [r["id"] for r in data]
    data = json.loads(run(db, "search", "generative -adversarial year:2023", "--json").stdout)
    assert [r["id"] for r in data] == [ids["flow"]]


def test_search_terminal_output_highlights_without_leaking_markup(small):
    db, _ = small
    res = run(db, "search", "normalizing flows", "--explain", "-n", "2")
    assert res.exit_code == 0
    assert "Flow Matching for Generative Modeling" in res.stdout
    assert "[bold" not in res.stdout and "bm25" in res.stdout


def test_search_usage_and_user_errors(small, tmp_path):
    db, _ = small
    assert run(db, "search", "x", "--mode", "fuzzy").exit_code == 2
    assert run(db, "search", "x", "--year", "soon").exit_code == 1
    missing = run(tmp_path / "none.db", "search", "x")
    assert missing.exit_code == 1 and "ingest" in missing.output


def test_related_cli(small, tmp_path):
    db, ids = small
    data = json.loads(run(db, "related", ids["gat"], "--json").stdout)
    assert ids["gat"] not in [r["id"] for r in data] and len(data) == len(PAPERS) - 1
    assert data[0]["id"] == ids["graphmatch"]
    draft = tmp_path / "draft.txt"
    draft.write_text("An intrinsic curiosity reward helps agents explore when rewards are sparse.")
    by_file = json.loads(run(db, "related", "--file", str(draft), "--json", "-n", "2").stdout)
    by_text = json.loads(run(db, "related", "--text", draft.read_text(), "--json", "-n", "2").stdout)
    assert by_file[0]["id"] == by_text[0]["id"] == ids["rl"]
    out = run(db, "related", ids["gat"], "-n", "1")
    assert out.exit_code == 0 and "Graph Matching Networks" in out.stdout


def test_related_errors(small, tmp_path):
    db, ids = small
    assert run(db, "related").exit_code == 2
    assert run(db, "related", ids["gat"], "--text", "x").exit_code == 2
    unknown = run(db, "related", "000000000000")
    assert unknown.exit_code == 1 and "no paper" in unknown.output
    assert run(db, "related", "--file", str(tmp_path / "absent.txt")).exit_code == 1


def test_one_shot_process(small):
    """The installed entry point, as a shell runs it (a fresh process, JSON on stdout)."""
    db, ids = small
    env = {**os.environ, "PAPERSCOPE_DB": str(db)}
    out = subprocess.run([sys.executable, "-m", "paperscope", "search", "low-rank adaptation",
                          "--json", "-n", "1"], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0]["id"] == ids["lora"]
