"""CSV and TSV tables with a header row."""
from __future__ import annotations

import csv

from paperscope import sources
from paperscope.model import Problem, Record

ABSTRACT = ("We study the problem of learning sparse representations from noisy data and show "
            "that a simple thresholding rule recovers the support with high probability.")


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


def write_rows(path, rows, delimiter=","):
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter=delimiter).writerows(rows)
    return path


def test_miniconf_style_csv(tmp_path):
    path = write_rows(tmp_path / "papers.csv", [
        ["UID", "title", "authors", "abstract", "keywords", "sessions"],
        ["B1xSperKvH", "Spiking Nets", "Nitin Rathi|Kaushik Roy", ABSTRACT, "snn|energy", ""],
        ["HkxWXkStDB", "Other", "A B", "Second: " + ABSTRACT, "", ""],
    ])
    assert sources.detect(path) == "csv"
    records, problems = split(sources.read(path, venue="ICLR", year=2020))
    assert problems == []
    first = records[0]
    assert first.authors == ["Nitin Rathi", "Kaushik Roy"] and first.keywords == ["snn", "energy"]
    assert first.external_id == "B1xSperKvH"
    assert first.urls == {"openreview": "https://openreview.net/forum?id=B1xSperKvH"}
    assert [r.line for r in records] == [2, 3]


def test_venue_year_from_file_name_and_python_list_keywords(tmp_path):
    path = write_rows(tmp_path / "ICLR17_submissions.csv", [
        ["PID", "Decision", "Title", "Abstract", "Keyword"],
        ["HJWHIKqgl", "2", "MMD GANs", ABSTRACT, "['Unsupervised Learning', 'Theory']"],
        ["Hyx1", "0", "Rejected one", "Other " + ABSTRACT, "[]"],
        ["Hyx2", "1", "Oral one", "Third " + ABSTRACT, "['Deep learning']"],
    ])
    records, problems = split(sources.read(path))
    assert problems == []
    assert {(r.venue, r.year) for r in records} == {("ICLR", 2017)}
    assert [r.status for r in records] == ["Poster", "Rejected", "Oral"]
    assert records[0].keywords == ["Unsupervised Learning", "Theory"] and records[1].keywords == []


def test_nips_style_with_year_column_and_index_column(tmp_path):
    path = write_rows(tmp_path / "NIPS13_paper.csv", [
        ["", "Year", "Title", "Decision", "Abstract"],
        ["0", "2013", "RDC", "Spotlight", ABSTRACT],
    ])
    [rec] = sources.read(path)
    assert (rec.venue, rec.year, rec.status, rec.external_id) == ("NeurIPS", 2013, "Spotlight", None)


def test_tsv_and_sniffed_semicolons(tmp_path):
    tsv = write_rows(tmp_path / "papers.tsv", [["title", "abstract", "venue", "year"],
                                               ["T, with comma", ABSTRACT, "UAI", "2022"]], "\t")
    assert sources.detect(tsv) == "tsv"
    [rec] = sources.read(tsv)
    assert (rec.title, rec.venue, rec.year) == ("T, with comma", "UAI", 2022)
    semi = write_rows(tmp_path / "export.txt", [["Title", "Abstract", "Authors"],
                                                ["T", ABSTRACT, "Ada Lovelace; Alan Turing"]], ";")
    assert sources.detect(semi) == "csv"
    [rec] = sources.read(semi, venue="COLT", year=2020)
    assert rec.authors == ["Ada Lovelace", "Alan Turing"]


def test_missing_abstract_column_is_fatal_naming_the_columns(tmp_path):
    path = write_rows(tmp_path / "ICLR17_reviews.csv", [["PID", "Title", "Review", "Rating"],
                                                        ["x", "Good paper", "I liked it", "7"]])
    [problem] = sources.read(path)
    assert problem.fatal and problem.line == 1 and problem.source == str(path)
    assert "no abstract column" in problem.reason and "'Review'" in problem.reason


def test_short_and_long_rows_are_problems_at_their_physical_line(tmp_path):
    path = tmp_path / "papers.csv"
    multi_line = ABSTRACT.replace(" show ", " show\n")  # a quoted field spanning two lines
    path.write_text(
        "title,abstract,year\n"
        f'"First","{multi_line}",2021\n'
        '"Too few","only two fields"\n'
        f'"Too many","{ABSTRACT}",2021,extra\n'
        f'"Fine","{ABSTRACT}",2021\n', encoding="utf-8")
    records, problems = split(sources.read(path, venue="ICML"))
    assert [r.line for r in records] == [2, 6]
    assert [(p.line, p.reason.split(":")[0]) for p in problems] == [(4, "missing fields"),
                                                                   (5, "extra fields")]
    assert "2 fields" in problems[0].reason and "header has 3" in problems[0].reason


def test_row_without_abstract(tmp_path):
    path = write_rows(tmp_path / "NIPS14_paper.csv", [["Title", "Abstract"], ["Ghost", "  "],
                                                      ["Real", ABSTRACT]])
    records, problems = split(sources.read(path))
    assert len(records) == 1 and records[0].position == 0
    assert problems[0].line == 2 and "no abstract" in problems[0].reason and "Ghost" in problems[0].reason
