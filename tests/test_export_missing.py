"""Exports say what is derived or missing: a derived title and unknown authors are marked in
every format, `missing_summary` counts them for the warning, `skip_untitled` leaves them out,
and the CLI warns on stderr."""
from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from paperscope.export import missing_summary, render
from paperscope.export.entry import HINT

UNTITLED = {"id": "a1", "title": None, "label": "Maestro: trainable low-rank layers", "authors": [],
            "venue": "ICML", "year": 2024, "abstract": "We propose Maestro, a framework.",
            "urls": {}, "tags": ["to-read"], "keywords": []}
TITLED = {"id": "b2", "title": "Reflected Flow Matching", "label": "Reflected Flow Matching",
          "authors": ["Tianyu Xie", "Cheng Zhang"], "venue": "ICML", "year": 2024,
          "abstract": "We propose reflected flow matching.", "urls": {}, "tags": [], "keywords": []}
KEYS = {"a1": "icml2024maestro", "b2": "xie2024reflected"}


def test_summary_counts_what_is_missing():
    assert missing_summary([TITLED]) is None
    assert missing_summary([]) is None
    text = missing_summary([UNTITLED, UNTITLED | {"id": "c"}, TITLED])
    assert text.startswith("2 of 3 entries have no real title (a derived label stands in); 2 have no authors.")
    assert HINT in text and "OpenReview" in text
    one = missing_summary([UNTITLED | {"authors": ["A B"]}, TITLED])
    assert one.startswith("1 of 2 entries has no real title") and "no authors" not in one


def test_bibtex_marks_a_derived_title_and_missing_authors():
    import bibtexparser

    entries = bibtexparser.parse_string(render("bibtex", [UNTITLED, TITLED], KEYS)).entries
    marked, plain = entries
    assert marked["title"] == "Maestro: trainable low-rank layers"
    assert "derived by paperscope" in marked["note"] and "authors not given" in marked["note"]
    assert "author" not in marked.fields_dict
    assert "note" not in plain.fields_dict


def test_ris_csl_markdown_and_csv_mark_it_too():
    import rispy

    ris = rispy.loads(render("ris", [UNTITLED, TITLED], KEYS))
    assert any("derived by paperscope" in n for n in ris[0]["notes"])
    assert not any("derived" in n for n in ris[1].get("notes", []))
    csl = json.loads(render("csljson", [UNTITLED, TITLED], KEYS))
    assert "derived by paperscope" in csl[0]["note"] and "note" not in csl[1]
    md = render("markdown", [UNTITLED, TITLED], KEYS)
    assert "Maestro: trainable low-rank layers** _(derived title: the source list has none)_" in md
    assert "_authors unknown_" in md and "1 of 2 entries has no real title" in md
    rows = list(csv.DictReader(io.StringIO(render("csv", [UNTITLED, TITLED], KEYS))))
    assert [r["missing"] for r in rows] == ["title; authors", ""]
    lines = [json.loads(x) for x in render("jsonl", [UNTITLED, TITLED], KEYS).splitlines()]
    assert [x["missing"] for x in lines] == [["title", "authors"], []]


@pytest.mark.parametrize("fmt", ["bibtex", "ris", "csljson", "csv", "jsonl", "markdown"])
def test_skip_untitled_leaves_derived_titles_out(fmt):
    text = render(fmt, [UNTITLED, TITLED], KEYS, skip_untitled=True)
    assert "Maestro" not in text and "Reflected" in text


def test_cli_export_warns_on_stderr_and_skips(tmp_path, samples_dir):
    from paperscope.cli import app

    db = str(tmp_path / "lib.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--db", db, "ingest", str(samples_dir / "000_57cfd0dc3b5a87a8.txt"),
                               "--no-embed"]).exit_code == 0
    ids = [p["id"] for p in json.loads(runner.invoke(app, ["--db", db, "list", "--json"]).stdout)][:3]
    res = runner.invoke(app, ["--db", db, "export", "-f", "bibtex", "--ids", ",".join(ids)])
    assert res.exit_code == 0
    assert "3 of 3 entries have no real title" in res.stderr and "--skip-untitled" in res.stderr
    assert res.stdout.count("derived by paperscope") == 3
    skipped = runner.invoke(app, ["--db", db, "export", "-f", "bibtex", "--ids", ",".join(ids),
                                  "--skip-untitled"])
    assert skipped.exit_code == 0 and "@inproceedings" not in skipped.stdout
    assert "left out 3 of 3 entries" in skipped.stderr
    shown = runner.invoke(app, ["--db", db, "show", ids[0]])
    assert "(derived)" in shown.stdout
