"""Paper-list text files: headers, paragraphs, title lines, problems, streaming."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from paperscope import sources
from paperscope.model import Problem, Record
from paperscope.sources.base import MIN_ABSTRACT_WORDS

ABSTRACT_A = ("We study the problem of learning sparse representations from noisy data and show "
              "that a simple thresholding rule recovers the support with high probability under "
              "mild assumptions on the design matrix.")
ABSTRACT_B = ("Large language models can follow instructions, but their answers drift when the "
              "prompt is long; we propose a retrieval step that keeps the relevant passages in "
              "the context and halves the error on three benchmarks.")
ABSTRACT_C = ("Graph neural networks struggle with long-range interactions. We introduce a "
              "rewiring scheme based on effective resistance that adds few edges and improves "
              "accuracy on molecular property prediction tasks.")


def write(tmp_path: Path, text: str, name: str = "list.txt", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


def test_samples_give_19_records_each_with_header_venue_and_year(samples_dir):
    files = sorted(samples_dir.glob("*.txt"))
    assert len(files) == 5
    for path in files:
        header = path.read_text(encoding="utf-8").splitlines()[0]
        records, problems = split(sources.read(path))
        assert problems == []
        assert len(records) == 19, path.name
        expected_venue = "ICML" if header.startswith("ICML") else "ICLR"
        assert {(r.venue, r.year) for r in records} == {(expected_venue, 2024)}
        assert [r.position for r in records] == list(range(19))
        assert all(r.source == str(path) and r.title is None for r in records)
        assert sources.detect(path) == "list"


def test_sample_lines_point_at_the_paragraph_start(samples_dir):
    path = sorted(samples_dir.glob("*.txt"))[0]
    lines = path.read_text(encoding="utf-8").splitlines()
    for rec in sources.read(path):
        assert lines[rec.line - 1].strip()[:40] == rec.abstract[:40]
        assert rec.line == 1 or not lines[rec.line - 2].strip()


@pytest.mark.parametrize("header, venue, year", [
    ("ICML 2024 论文列表", "ICML", 2024),
    ("ICLR 2024 paper list", "ICLR", 2024),
    ("NeurIPS 2023 Papers", "NeurIPS", 2023),
    ("neurips 2023 papers", "NeurIPS", 2023),
    ("NIPS 2018", "NeurIPS", 2018),
    ("Accepted papers at COLT 2024", "COLT", 2024),
    ("ICML'24 accepted papers", "ICML", 2024),
    ("Proceedings of UAI-2023", "UAI", 2023),
    ("FooConf 2025 orals", "FooConf", 2025),
])
def test_header_variants(tmp_path, header, venue, year):
    path = write(tmp_path, f"{header}\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    records, problems = split(sources.read(path))
    assert problems == []
    assert [(r.venue, r.year) for r in records] == [(venue, year)] * 2


def test_venue_and_year_arguments_override_the_header(tmp_path):
    path = write(tmp_path, f"ICML 2024 paper list\n\n{ABSTRACT_A}\n")
    [rec] = sources.read(path, venue="iclr", year=2023)
    assert (rec.venue, rec.year) == ("ICLR", 2023)


def test_no_header_and_no_arguments_is_one_fatal_problem(tmp_path):
    path = write(tmp_path, f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    items = list(sources.read(path))
    assert len(items) == 1
    problem = items[0]
    assert isinstance(problem, Problem) and problem.fatal
    assert "--venue/--year" in problem.reason and problem.source == str(path)


def test_no_header_with_arguments_reads_every_paragraph(tmp_path):
    path = write(tmp_path, f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    records, problems = split(sources.read(path, venue="ICML", year=2022))
    assert problems == [] and [r.line for r in records] == [1, 3]


def test_header_without_year_asks_for_the_year(tmp_path):
    path = write(tmp_path, f"ICML paper list\n\n{ABSTRACT_A}\n")
    [problem] = sources.read(path)
    assert problem.fatal and "year" in problem.reason
    [rec] = sources.read(path, year=2021)
    assert (rec.venue, rec.year) == ("ICML", 2021)


def test_title_lines_are_split_from_abstracts(tmp_path):
    text = (f"ICLR 2024 paper list\n\nSparse Recovery by Thresholding\n{ABSTRACT_A}\n\n"
            f"Does Retrieval Keep Long Prompts on Track?\n{ABSTRACT_B}\n\n{ABSTRACT_C}\n")
    records, problems = split(sources.read(write(tmp_path, text)))
    assert problems == []
    assert [r.title for r in records] == ["Sparse Recovery by Thresholding",
                                          "Does Retrieval Keep Long Prompts on Track?", None]
    assert [r.abstract for r in records] == [ABSTRACT_A, ABSTRACT_B, ABSTRACT_C]
    assert [r.line for r in records] == [3, 6, 9]


def test_hard_wrapped_abstracts_are_not_mistaken_for_titles(tmp_path):
    import textwrap

    wrapped = "\n".join(textwrap.wrap(ABSTRACT_C, 60))
    text = f"NeurIPS 2023\n\n{wrapped}\n\nRewiring Graphs\n{wrapped}\n"
    records, _ = split(sources.read(write(tmp_path, text)))
    assert [r.title for r in records] == [None, "Rewiring Graphs"]
    assert records[0].abstract == ABSTRACT_C == records[1].abstract


def test_short_paragraph_is_a_problem_with_its_line(tmp_path):
    text = f"ICML 2024\n\n{ABSTRACT_A}\n\nPage 2 of 7\n\n{ABSTRACT_B}\n"
    records, problems = split(sources.read(write(tmp_path, text)))
    assert len(records) == 2 and [r.position for r in records] == [0, 1]
    [problem] = problems
    assert problem.line == 5 and not problem.fatal and problem.source.endswith("list.txt")
    assert "too short" in problem.reason and str(MIN_ABSTRACT_WORDS) in problem.reason


def test_crlf_and_latex_are_kept_as_source(tmp_path):
    abstract = ABSTRACT_A + r" The rate is $\mathcal{O}(\epsilon^{-2})$."
    path = write(tmp_path, f"ICML 2024\r\n\r\n{abstract}\r\n\r\n{ABSTRACT_B}\r\n")
    records, problems = split(sources.read(path))
    assert problems == [] and records[0].abstract == abstract and records[1].line == 5


def test_header_only_is_a_fatal_problem(tmp_path):
    [problem] = sources.read(write(tmp_path, "ICML 2024 论文列表\n\n\n"))
    assert problem.fatal and "no abstracts" in problem.reason


def test_reading_is_lazy_first_record_before_the_file_ends(tmp_path):
    """A list arriving through a pipe: the first record comes out while the writer still holds
    the rest of the file back."""
    fifo = tmp_path / "list.fifo"
    os.mkfifo(fifo)
    release, finished = threading.Event(), threading.Event()

    def writer():
        with open(fifo, "w", encoding="utf-8") as f:
            f.write(f"ICML 2024\n\n{ABSTRACT_A}\n\n")
            f.flush()
            release.wait(timeout=20)
            f.write(f"{ABSTRACT_B}\n\n{ABSTRACT_C}\n")
        finished.set()

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    items = sources.read(fifo, fmt="list")
    first = next(items)
    assert not finished.is_set(), "the reader waited for the whole file"
    release.set()
    rest = list(items)
    thread.join(timeout=20)
    assert [r.abstract for r in [first, *rest]] == [ABSTRACT_A, ABSTRACT_B, ABSTRACT_C]


def test_wrapped_first_line_with_capitalised_continuation_is_not_a_title():
    from paperscope.sources.paper_list import split_title

    wrapped = ["We introduce a rewiring scheme for graphs", "Based on effective resistance it adds",
               "few edges and improves accuracy on molecules."]
    assert split_title(wrapped) == (None, " ".join(wrapped))
    titled = ["Rewiring Graphs", *wrapped]
    assert split_title(titled) == ("Rewiring Graphs", " ".join(wrapped))


def test_numbered_paragraphs_are_a_list_not_json(tmp_path):
    path = write(tmp_path, f"[1] {ABSTRACT_A}\n\n[2] {ABSTRACT_B}\n")
    assert sources.detect(path) == "list"
    records, problems = split(sources.read(path, venue="ICML", year=2024))
    assert problems == [] and records[1].abstract == f"[2] {ABSTRACT_B}"


def test_overlong_paragraphs_are_problems_and_reading_goes_on(tmp_path):
    from paperscope.sources.paper_list import MAX_PARAGRAPH
    from paperscope.sources.textio import MAX_LINE

    long_words = ("word " * (MAX_PARAGRAPH // 5 + 10)).strip()  # one line, above the paragraph cap
    huge_line = "x" * (MAX_LINE + MAX_LINE // 2)  # one line longer than a read piece
    text = f"ICML 2024\n\n{long_words}\n\n{ABSTRACT_A}\n\n{huge_line}\n\n{ABSTRACT_B}\n"
    records, problems = split(sources.read(write(tmp_path, text)))
    assert [(r.line, r.abstract) for r in records] == [(5, ABSTRACT_A), (9, ABSTRACT_B)]
    assert [(p.line, p.reason.split(":")[0]) for p in problems] == [(3, "too long"), (7, "too long")]
