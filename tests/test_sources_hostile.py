"""Hostile and absurd input: every file ends in a clean answer naming the file and the record,
the other files of the same command still go in, and the library stays intact."""
from __future__ import annotations

import codecs
import json
import random

import pytest

from paperscope import sources
from paperscope.ingest import Ingester
from paperscope.model import InputError, Problem, Record
from paperscope.sources import base, registry
from paperscope.store import SQLiteStore

ABSTRACT = ("We study the problem of learning sparse representations from noisy data and show "
            "that a simple thresholding rule recovers the support with high probability.")


SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "so", "ti", "va", "ze", "po", "qui", "den")


def abstract(i: int) -> str:
    """A distinct paper per i: near-identical abstracts of one venue would rightly meet by
    fuzzy identity, so each carries its own made-up words."""
    rng = random.Random(i)
    words = ["".join(rng.choice(SYLLABLES) for _ in range(3)) for _ in range(40)]
    return f"Paper {i} reports on {' '.join(words)}. {ABSTRACT}"


def good_list(tmp_path, name="good.txt", n=2, first=100):
    path = tmp_path / name
    path.write_text("ICLR 2024\n\n" + "\n\n".join(abstract(first + i) for i in range(n)) + "\n",
                    encoding="utf-8")
    return path


def ingest(tmp_path, *paths, **kw):
    """Ingest through the Ingester the CLI uses, on a fresh library; returns (report by file
    name, papers stored)."""
    store = SQLiteStore(tmp_path / "lib.db")
    try:
        report = Ingester(store, **kw).run(paths)
        conn = store.conn
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        papers = conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
    finally:
        store.close()
    return {f.path.rsplit("/", 1)[-1]: f for f in report.files}, papers


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


# ---------------------------------------------------------------------------- 1. YAML aliases

BOMB = "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" + "".join(
    f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi")
) + "title: *i\nabstract: *i\n---\n"


def test_yaml_alias_bomb_is_refused_and_the_next_post_goes_in(tmp_path):
    posts = tmp_path / "v1" / "_posts"
    posts.mkdir(parents=True)
    # a volume's config may hold an alias (UAI 2024's does): read, and only its scalars used
    (tmp_path / "v1" / "_config.yml").write_text(
        "shortname: UAI\nyear: 2024\nvolume: '7'\nstart: &1 2024-07-15\ndates:\n- *1\n", encoding="utf-8")
    (posts / "a-bomb.md").write_text(BOMB, encoding="utf-8")
    (posts / "b-good.md").write_text(f"---\ntitle: Good\nid: g24a\nabstract: '{ABSTRACT}'\n---\n",
                                     encoding="utf-8")
    [rec] = sources.read(posts / "b-good.md")
    assert (rec.venue, rec.year, rec.urls["paper"]) == ("UAI", 2024, "https://proceedings.mlr.press/v7/g24a.html")
    files, papers = ingest(tmp_path, tmp_path / "v1")
    bomb = files["a-bomb.md"]
    assert bomb.error and "a-bomb.md:3" in bomb.error and "aliases" in bomb.error
    assert files["b-good.md"].added == 1 and papers == 1


def test_pmlr_title_and_abstract_must_be_text(tmp_path):
    posts = tmp_path / "_posts"
    posts.mkdir()
    (posts / "list-title.md").write_text(
        f"---\ntitle: [a, b]\nabstract: '{ABSTRACT}'\ncontainer-title: UAI\nissued:\n  date-parts: [[2024]]\n---\n",
        encoding="utf-8")
    (posts / "map-abstract.md").write_text(
        "---\ntitle: T\nabstract: {x: 1}\ncontainer-title: UAI\nissued: 2024\n---\n", encoding="utf-8")
    records, problems = split(sources.read(posts / "list-title.md"))
    assert records[0].title is None and records[0].abstract == ABSTRACT
    [note] = problems
    assert note.warning and "title is a list, not text" in note.reason
    [bad] = sources.read(posts / "map-abstract.md")
    assert "post map-abstract.md" in bad.reason and "the abstract is an object, not text" in bad.reason


# ---------------------------------------------------------------------------- 3. the boundary

@pytest.mark.parametrize("name, data", [
    ("utf16.txt", codecs.BOM_UTF16_LE + f"ICML 2024\n\n{ABSTRACT}\n".encode("utf-16-le") + b"\x00"),
    ("utf16be.txt", codecs.BOM_UTF16_BE + f"ICML 2024\n\n{ABSTRACT}\n".encode("utf-16-be") + b"\xd8\x00"),
    ("utf32.txt", codecs.BOM_UTF32_LE + f"ICML 2024\n\n{ABSTRACT}\n".encode("utf-32-le") + b"\xff\xff\xff\xff"),
])
def test_bom_file_with_a_stray_byte_goes_in_with_a_warning(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    good = good_list(tmp_path)
    assert sources.detect(tmp_path / name) == "list"
    files, papers = ingest(tmp_path, tmp_path / name, good)
    odd = files[name]
    assert odd.added == 1 and not odd.error
    [warning] = odd.warnings
    assert name in str(warning) and "offset" in warning.reason and "U+FFFD" in warning.reason
    assert files["good.txt"].added == 2 and papers == 3


def test_detection_failure_is_an_input_error_naming_the_file(tmp_path, monkeypatch):
    def broken(head, suffix=""):
        raise LookupError("sniffer bug")

    monkeypatch.setattr(registry, "sniff", broken)
    path = good_list(tmp_path, "a.txt")
    with pytest.raises(InputError, match="a.txt.*sniffer bug.*--format"):
        sources.detect(path)
    [problem] = sources.read(path)
    assert problem.fatal and "a.txt" in str(problem)
    files, papers = ingest(tmp_path, path, good_list(tmp_path, "b.txt"), fmt=None)
    assert "a.txt" in files["a.txt"].error and papers == 0  # b.txt meets the same sniffer


def test_a_reader_that_fails_midway_keeps_what_it_read_and_the_next_file(tmp_path, monkeypatch):
    real = registry.READERS["list"]

    def failing(path, ctx):
        for item in real(path, ctx):
            yield item
            if isinstance(item, Record) and path.name == "fails.txt":
                raise ZeroDivisionError("reader bug")

    monkeypatch.setitem(registry.READERS, "list", failing)
    bad, good = good_list(tmp_path, "fails.txt", n=3), good_list(tmp_path, "fine.txt", n=3, first=200)
    records, problems = split(sources.read(bad))
    [problem] = problems
    assert len(records) == 1 and not problem.fatal and problem.line == 3
    assert "after the paragraph at line 3" in problem.reason and "reader bug" in problem.reason
    files, papers = ingest(tmp_path, bad, good)
    assert files["fails.txt"].added == 1 and files["fails.txt"].skipped == 1
    assert "fails.txt:3" in str(files["fails.txt"].problems[0])
    assert files["fine.txt"].added == 3 and papers == 4


def test_a_record_that_breaks_its_builder_costs_only_itself(tmp_path, monkeypatch):
    real = base.ReadContext.finish

    def finish(self, rec, where=None):
        if "Paper 101" in rec.abstract:
            raise KeyError("builder bug")
        return real(self, rec, where)

    monkeypatch.setattr(base.ReadContext, "finish", finish)
    records, problems = split(sources.read(good_list(tmp_path, n=3)))
    assert [r.line for r in records] == [3, 7]
    [problem] = problems
    assert problem.line == 5 and "the paragraph at line 5" in problem.reason and "builder bug" in problem.reason


# ---------------------------------------------------------------------------- 4. deep nesting

DEEP = "[" * 5000 + "]" * 5000


def test_deeply_nested_json_element_is_one_problem(tmp_path):
    path = tmp_path / "icml2024_deep.json"
    path.write_text(f'[{{"abstract": "{abstract(1)}"}}, {DEEP}, {{"abstract": {DEEP}}}, '
                    f'{{"abstract": "{abstract(4)}", "x": "]]"}}]', encoding="utf-8")
    assert sources.detect(path) == "json"
    records, problems = split(sources.read(path))
    assert [r.line for r in records] == [1, 4]
    assert [(p.line, "nests lists or objects too deeply" in p.reason) for p in problems] == [(2, True), (3, True)]
    other = tmp_path / "deep_head.json"
    other.write_text(DEEP, encoding="utf-8")
    files, papers = ingest(tmp_path, path, other)
    assert files["icml2024_deep.json"].added == 2 and files["icml2024_deep.json"].skipped == 2
    assert "deep_head.json" in files["deep_head.json"].error and papers == 2


def test_deeply_nested_json_lines(tmp_path):
    path = tmp_path / "papers.jsonl"
    lines = [json.dumps({"abstract": abstract(1)}), '{"abstract": ' + DEEP + "}", DEEP,
             '{"abstract": "' + abstract(4) + '", "n": 1' + "0" * 5000 + "}", json.dumps({"abstract": abstract(5)})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records, problems = split(sources.read(path, venue="ICML", year=2024))
    assert [r.line for r in records] == [1, 5]
    assert [p.line for p in problems] == [2, 3, 4]
    assert all("unreadable record: line" in p.reason for p in problems)


# ---------------------------------------------------------------------------- 5. absurd values

def test_absurd_values_are_ignored_or_refused_per_record(tmp_path):
    recs = [{"abstract": abstract(i), "venue": "ICML", "year": y} for i, y in
            enumerate(["1e400", "NaN", "-Infinity", -5, 20240, True, 2024])]
    text = json.dumps(recs).replace('"1e400"', "1e400").replace('"NaN"', "NaN").replace('"-Infinity"', "-Infinity")
    path = tmp_path / "absurd.json"
    path.write_text(text, encoding="utf-8")
    records, problems = split(sources.read(path))
    assert [r.line for r in records] == [7]
    assert [p.line for p in problems] == [1, 2, 3, 4, 5, 6] and not any(p.fatal for p in problems)
    assert "year inf is not a year" in problems[0].reason and "year 20240" in problems[4].reason
    named = tmp_path / "icml2023_absurd.json"  # a year from the file name: kept, with a note
    named.write_text(text, encoding="utf-8")
    records, problems = split(sources.read(named))
    assert [r.year for r in records] == [2023] * 6 + [2024]
    assert all(p.warning and "ignored: record" in p.reason for p in problems) and len(problems) == 6


def test_wrong_kinds_of_values(tmp_path):
    recs = [{"abstract": [abstract(1)], "venue": "ICML", "year": 2024},
            {"abstract": abstract(2), "title": 7, "venue": ["ICML"], "year": 2024.0,
             "authors": [1, None, {"name": 5}, ["Last", "First", {"x": 1}], [[["deep"]]], True],
             "keywords": [["a"], "b", {"c": 1}, 3], "url": {"x": 1}, "doi": ["d"]}]
    path = tmp_path / "icml2024.json"
    path.write_text(json.dumps(recs), encoding="utf-8")
    records, problems = split(sources.read(path))
    [rec] = records
    assert (rec.title, rec.venue, rec.year) == ("7", "ICML", 2024)
    assert rec.authors == ["5", "First Last"] and rec.keywords == ["b", "3"] and rec.urls == {}
    assert "bad field: record 1: the abstract is a list, not text" in problems[0].reason
    assert "venue is a list" in problems[1].reason and problems[1].warning


# ---------------------------------------------------------------------------- 6. CSV header

def test_csv_header_over_the_field_limit(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text('title,abstract,"' + "x" * 200_000 + '\nt,a,b\n', encoding="utf-8")
    [problem] = sources.read(path)
    assert problem.fatal and problem.line == 1 and "malformed header" in problem.reason
    files, papers = ingest(tmp_path, path, good_list(tmp_path))
    assert "wide.csv:1" in files["wide.csv"].error and files["good.txt"].added == 2 and papers == 2


# ---------------------------------------------------------------------------- 2. caps

def test_oversized_fields_are_cut_with_a_warning(tmp_path):
    huge = {"title": "T " * 5000, "abstract": (ABSTRACT + " ") * 8000,
            "authors": [f"Author {i}" for i in range(5000)], "keywords": [f"k{i}" for i in range(3000)],
            "url": "https://example.org/" + "x" * 10_000, "venue": "ICML", "year": 2024}
    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps(huge) + "\n" + json.dumps({**huge, "abstract": abstract(2), "title": "Other"}) + "\n",
                    encoding="utf-8")
    records, problems = split(sources.read(path))
    rec = records[0]
    assert len(rec.abstract) <= base.MAX_ABSTRACT and rec.abstract.startswith(ABSTRACT)
    assert len(rec.title) <= base.MAX_TITLE and len(rec.authors) == base.MAX_AUTHORS
    assert len(rec.keywords) == base.MAX_KEYWORDS and "paper" not in rec.urls
    cut = [p.reason for p in problems if p.line == 1]
    assert all(p.warning for p in problems) and len(cut) == 4
    assert any(f"the abstract has {len(huge['abstract']) - 1:,} characters" in c for c in cut)
    assert any("5,000 authors; kept the first 1,000" in c for c in cut)
    files, papers = ingest(tmp_path, path)
    assert files["huge.jsonl"].added == 2 and len(files["huge.jsonl"].warnings) == 6 and papers == 2


def test_unstorable_characters_do_not_break_the_batch(tmp_path):
    recs = [{"abstract": abstract(i) + "\ud800 \x00", "title": "A\udfffB", "url": "https://x.org/\ud800",
             "id": "id\x00\ud834", "status": "Oral\udc00", "venue": "ICML", "year": 2024} for i in range(3)]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(recs), encoding="utf-8")  # \\ud800 escapes decode to lone surrogates
    files, papers = ingest(tmp_path, path, good_list(tmp_path))
    assert files["odd.json"].added == 3 and files["good.txt"].added == 2 and papers == 5


def test_a_file_of_mostly_garbage_is_given_up_after_many_problems(tmp_path):
    path = tmp_path / "papers.csv"
    good = f'"T","{ABSTRACT}",2024,ICML\n'
    path.write_text("title,abstract,year,venue\n" + good + "a,\n" * 200_000 + good, encoding="utf-8")
    records, problems = split(sources.read(path))
    assert len(records) == 1 and len(problems) == 1001
    assert "too many problems: stopped reading after 1,000 problems and 1 records" in problems[-1].reason
    # a big list with scattered bad records is read to the end
    path.write_text("title,abstract,year,venue\n" + (good.replace("T", "U") + "a,\n") * 1500, encoding="utf-8")
    records, problems = split(sources.read(path))
    assert len(records) == 1500 and len(problems) == 1500


def test_an_overlong_bibtex_entry_is_refused_whole(tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text('@article{a,\n  title = {T},\n  abstract = {' + '"' * 300_000 + '},\n  year = 2024\n}\n'
                    f"@inproceedings{{b,\n  title = {{U}},\n  booktitle = {{ICML}},\n  year = 2024,\n"
                    f"  abstract = {{{ABSTRACT}}}\n}}\n", encoding="utf-8")
    records, problems = split(sources.read(path))
    assert [r.title for r in records] == ["U"]
    assert problems[0].line == 1 and "too long: the entry at line 1 has more than 200,000 characters" in problems[0].reason
