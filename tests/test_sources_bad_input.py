"""Bad input: empty, binary, other encodings, unknown formats, missing paths."""
from __future__ import annotations

import codecs

import pytest

from paperscope import sources
from paperscope.model import InputError, Problem, Record

ABSTRACT = ("We study the problem of learning sparse representations from noisy data and show "
            "that a simple thresholding rule recovers the support with high probability.")
ACCENTED = ("Café-style résumé embeddings: we study naïve Bayes models whose features come from "
            "short texts and show that they rival larger encoders on noisy data.")


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


def only_fatal(path, **kw):
    items = list(sources.read(path, **kw))
    assert len(items) == 1, items
    problem = items[0]
    assert isinstance(problem, Problem) and problem.fatal and problem.source == str(path)
    return problem


@pytest.mark.parametrize("fmt", [None, *sources.FORMATS])
def test_empty_file_is_fatal_in_every_format(tmp_path, fmt):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert "empty" in only_fatal(path, fmt=fmt).reason


def test_blank_file_is_empty(tmp_path):
    path = tmp_path / "blank.txt"
    path.write_bytes(b"\xef\xbb\xbf \n\n\t\n")
    assert "empty" in only_fatal(path).reason
    with pytest.raises(InputError, match="blank.txt"):
        sources.detect(path)


def test_binary_file_is_fatal_with_offset(tmp_path):
    path = tmp_path / "figure.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    problem = only_fatal(path, fmt="list")
    assert "binary" in problem.reason and "offset 8" in problem.reason and problem.line == 3
    with pytest.raises(InputError, match="figure.png.*binary"):
        sources.detect(path)


@pytest.mark.parametrize("encoding, bom", [
    ("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
])
def test_byte_order_marks_decide_the_encoding(tmp_path, encoding, bom):
    path = tmp_path / f"{encoding}.txt"
    path.write_bytes(bom + f"ICML 2024 论文列表\r\n\r\n{ACCENTED}\r\n".encode(encoding))
    assert sources.detect(path) == "list"
    records, problems = split(sources.read(path))
    assert problems == [] and [r.abstract for r in records] == [ACCENTED]
    assert (records[0].venue, records[0].year, records[0].line) == ("ICML", 2024, 3)


def test_utf16_csv_with_bom(tmp_path):
    path = tmp_path / "papers.csv"
    text = f'title,abstract,year,venue\n"Naïve embeddings","{ACCENTED}",2023,ICLR\n'
    path.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    [rec] = sources.read(path)
    assert (rec.title, rec.abstract, rec.venue, rec.year) == ("Naïve embeddings", ACCENTED, "ICLR", 2023)


def test_windows_1252_file_is_decoded_with_a_warning_naming_the_line(tmp_path):
    path = tmp_path / "legacy.txt"
    path.write_bytes(f"ICML 2024\n\n{ABSTRACT}\n\n{ACCENTED}\n".encode("cp1252"))
    records, problems = split(sources.read(path))
    assert [r.abstract for r in records] == [ABSTRACT, ACCENTED]
    [warning] = problems
    assert not warning.fatal and warning.line == 5 and warning.source == str(path)
    assert "Windows-1252" in warning.reason and "0xe9" in warning.reason


def test_damaged_utf8_keeps_good_text_and_marks_bad_bytes(tmp_path):
    path = tmp_path / "damaged.txt"
    data = f"ICML 2024 论文列表\n\n{ACCENTED}\n\n{ABSTRACT}\n".encode("utf-8")
    cut = data.index(b"thresholding")
    path.write_bytes(data[:cut] + b"\xff" + data[cut:])
    records, problems = split(sources.read(path))
    assert records[0].abstract == ACCENTED  # valid UTF-8 stays as it was
    assert "\ufffdthresholding" in records[1].abstract
    [warning] = problems
    assert warning.line == 5 and f"offset {cut}" in warning.reason and "U+FFFD" in warning.reason


def test_invalid_byte_split_across_read_chunks_is_located(tmp_path):
    from paperscope.sources.textio import CHUNK

    path = tmp_path / "big.txt"
    para = ABSTRACT + "\n\n"
    body = "ICML 2024\n\n" + para * (CHUNK // len(para) + 5)
    data = body.encode() + "Ünïcödé ".encode("cp1252") + ABSTRACT.encode() + b"\n"
    path.write_bytes(data)
    records, problems = split(sources.read(path))
    [warning] = problems
    assert warning.line == body.count("\n") + 1
    assert f"offset {len(body.encode())}" in warning.reason
    assert records[-1].abstract.startswith("Ünïcödé We study")


def test_html_page_matches_no_format(tmp_path):
    path = tmp_path / "page.html"
    path.write_text("<!doctype html><html><body>papers</body></html>", encoding="utf-8")
    with pytest.raises(InputError, match="page.html.*no|page.html.*not a paper list"):
        sources.detect(path)
    problem = only_fatal(path)
    assert "--format" in problem.reason


def test_unknown_format_and_bad_year_are_input_errors(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text(f"ICML 2024\n\n{ABSTRACT}\n", encoding="utf-8")
    with pytest.raises(InputError, match="unknown format 'xml'"):
        sources.read(path, fmt="xml")
    with pytest.raises(InputError, match="year"):
        sources.read(path, year="twenty")


def test_missing_path_and_directory(tmp_path):
    with pytest.raises(InputError, match="nope.txt"):
        sources.expand([tmp_path / "nope.txt"])
    with pytest.raises(InputError, match="directory"):
        sources.detect(tmp_path)
    problem = only_fatal(tmp_path / "gone.txt", fmt="list")
    assert "gone.txt" in str(problem) and "unreadable" in problem.reason


def test_expand_walks_folders_skipping_hidden_files_and_config(tmp_path):
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("x", encoding="utf-8")
    (tmp_path / "_config.yml").write_text("x: 1", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("x", encoding="utf-8")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "deeper" / "c.json").write_text("[]", encoding="utf-8")
    (tmp_path / "sub" / "b.csv").write_text("abstract\n", encoding="utf-8")
    (tmp_path / "sub" / "loop").symlink_to(tmp_path)
    files = sources.expand([tmp_path, tmp_path / "a.txt"])
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "a.txt", "sub/b.csv", "sub/deeper/c.json"]
