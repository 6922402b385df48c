"""The personal-library commands as a user types them: tag, untag, tags, note, star, read,
irrelevant, mine, export; errors exit 1 with a message."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from backends import location
from paperscope.cli import app
from paperscope.library import Library


@pytest.fixture(scope="module")
def db(tmp_path_factory, samples_dir, backend):
    path = location(backend, tmp_path_factory.mktemp("cli"))
    with Library.open(path) as lib:
        lib.ingest([samples_dir], embed=False)
    return path


def run(db, *args):
    result = CliRunner().invoke(app, ["--db", str(db), *args])
    return result


def ids(db, n=3):
    with Library.open(db) as lib:
        return [p["id"] for p in lib.papers(limit=n)]


def test_tag_commands_and_tag_counts(db):
    a, b, _ = ids(db)
    assert run(db, "tag", f"{a},{b}", "llm", "to read").exit_code == 0
    assert run(db, "tag", a[:6], "theory").exit_code == 0
    result = run(db, "tags", "--json")
    counts = {t["tag"]: t["papers"] for t in json.loads(result.stdout)}
    assert counts == {"llm": 2, "to read": 2, "theory": 1}
    assert run(db, "untag", b, "llm").exit_code == 0
    counts = {t["tag"]: t["papers"] for t in json.loads(run(db, "tags", "--json").stdout)}
    assert counts["llm"] == 1
    table = run(db, "tags").stdout
    assert "to read" in table and "theory" in table


def test_note_star_read_show_in_paper_json(db):
    _, _, c = ids(db)
    assert run(db, "note", c, "Compare with [our] baseline").exit_code == 0
    assert run(db, "star", c).exit_code == 0
    assert run(db, "read", c).exit_code == 0
    shown = json.loads(run(db, "show", c, "--json").stdout)
    assert shown["note"] == "Compare with [our] baseline"
    assert shown["starred"] is True and shown["read"] is True
    assert run(db, "read", c, "--off").exit_code == 0
    assert run(db, "star", c, "--off").exit_code == 0
    shown = json.loads(run(db, "show", c, "--json").stdout)
    assert shown["starred"] is False and shown["read"] is False and shown["note"]
    mine = json.loads(run(db, "mine", "--noted", "--json").stdout)
    assert [p["id"] for p in mine] == [c]


def test_mine_lists_papers_that_are_only_tagged(tmp_path, samples_dir):
    path = tmp_path / "mine.db"
    with Library.open(path) as lib:
        lib.ingest([samples_dir], embed=False)
    a, b, c = ids(path)
    assert run(path, "tag", f"{a},{b}", "quantization").exit_code == 0
    assert run(path, "star", c).exit_code == 0
    mine = json.loads(run(path, "mine", "--json").stdout)
    assert sorted(p["id"] for p in mine) == sorted([a, b, c])


def test_irrelevant_command(db):
    a = ids(db, 5)[4]
    assert run(db, "irrelevant", a, "--tag", "llm").exit_code == 0
    shown = json.loads(run(db, "show", a, "--json").stdout)
    assert shown["irrelevant_tags"] == ["llm"] and shown["irrelevant"] is False
    assert run(db, "irrelevant", a, "--tag", "llm", "--off").exit_code == 0
    assert json.loads(run(db, "show", a, "--json").stdout)["irrelevant_tags"] == []


def test_errors_are_messages_not_tracebacks(db):
    result = run(db, "tag", "ffffffffffff", "x")
    assert result.exit_code == 1 and "no paper with id" in result.output
    result = run(db, "export", "--format", "pdf")
    assert result.exit_code == 1 and "unknown export format" in result.output
    result = run(db, "recommend")
    assert result.exit_code == 2
    result = run(db, "recommend", "--tag", "never-used")
    assert result.exit_code == 1 and "no papers tagged" in result.output


def test_export_to_file(db, tmp_path):
    a, b, _ = ids(db)
    run(db, "tag", a, "export-me")
    out = tmp_path / "sub" / "list.ris"
    result = run(db, "export", "--format", "ris", "--tag", "export-me", "-o", str(out))
    assert result.exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("TY  - CPAPER") == 1 and f"paperscope:{a}" in text
    assert not list(out.parent.glob("*.tmp"))
    stdout = run(db, "export", "--format", "markdown", "--tag", "export-me").stdout
    assert stdout.startswith("# Reading list: export-me")


def test_match_marks_a_derived_title(db):
    untitled = [p["id"] for p in json.loads(run(db, "papers", "--json").stdout) if not p.get("title")]
    out = run(db, "match", "--ids", untitled[0], "-n", "5")
    assert out.exit_code == 0, out.output
    assert "(derived)" in out.stdout
