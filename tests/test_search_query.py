"""The query parser, and hostile strings through every search mode: nothing raises, nothing
reaches SQL or FTS5 unescaped, the library is intact afterwards."""
from __future__ import annotations

import pytest

from paperscope.search.query import fts_phrase, parse, parse_years
from search_support import PAPERS, make_library

HOSTILE = [
    '"', '""', '"""', '"unbalanced phrase', 'unbalanced" end', "'", "''", "*", "**", "a*b*", "-", "--",
    "---x", ":", "::", "venue:", "year:", "year:abc", "year:99999", "year:2024..", "has:", "has:nothing",
    "author:", 'author:"', "AND", "OR", "NOT", "NEAR", "NEAR(a b)", "a AND OR NOT b", "(", ")", "((a)",
    "{title}: x", "title:flow", "abstract : flow", "^flow", "flow^", "+flow", "a + b", "x OR",
    "'; DROP TABLE papers; --", "1; DELETE FROM papers", "\" OR 1=1 --", "papers_fts MATCH 'x'",
    "%", "_", "\\", "\\\\", "$", "$$", "\\mathcal{", "}{", "\x00", "\x00flow\x00", "\u202e\u200b",
    "😀 diffusion 🔥", "漢字 検索", "ﬁne-tuning", "Ａｔｔｅｎｔｉｏｎ", " " * 50, "\n\t\r", "a" * 5000,
    "-" * 300, "\"a\" " * 200, "x:y:z:w", "https://example.org/a?b=c&d=e", "rank:1", "bm25(papers_fts)",
    "NOT NOT NOT", "* * *", "-\"\"", "-\"", "author:\"a\"\"b\"", "status:'oral'",
]


def test_words_phrases_prefixes_exclusions_and_filters():
    q = parse('flow "normalizing flows" diffus* -gan -"image generation" venue:ICML '
              'year:2020..2022 status:Oral has:code author:"Jane Doe"')
    assert q.words == ["flow"]
    assert q.phrases == ["normalizing flows"]
    assert q.prefixes == ["diffus"]
    assert q.excluded_words == ["gan"]
    assert q.excluded_phrases == ["image generation"]
    assert q.venues == ["ICML"]
    assert q.years == (2020, 2022)
    assert q.statuses == ["oral"]
    assert q.has == ["code"]
    assert q.authors == ["Jane Doe"]
    assert q.text == "flow normalizing flows diffus"


def test_hyphen_inside_a_word_is_not_an_exclusion():
    q = parse("state-of-the-art pre-training")
    assert q.words == ["state-of-the-art", "pre-training"] and not q.excluded_words


def test_unknown_keys_and_operators_are_words():
    q = parse("title:flow a AND b OR NOT c")
    assert not q.has_filters
    assert q.words == ["title flow", "a", "AND", "b", "OR", "NOT", "c"]


def test_unbalanced_quote_closes_at_the_end():
    assert parse('diffusion "score matching').phrases == ["score matching"]


def test_a_quote_glued_to_a_word_end_opens_no_phrase():
    """A pasted LaTeX title: the quote after `Difficult` is a closing one; it must not make the
    rest of the title a required phrase (the paper was not found at all)."""
    q = parse('Why ``Difficult" Downstream Tasks in LLMs')
    assert q.phrases == [] and {"Downstream", "Tasks", "LLMs"} <= set(q.words)
    assert any("Difficult" in w for w in q.words)
    assert parse('a "flow matching" b').phrases == ["flow matching"]  # a real phrase still is one
    assert parse('-"image generation" x').excluded_phrases == ["image generation"]


@pytest.mark.parametrize("value,expected", [
    ("2024", (2024, 2024)), ("2020..2022", (2020, 2022)), ("2022-2020", (2020, 2022)),
    (">=2021", (2021, 9999)), ("<2021", (0, 2020)), ("20x4", None), ("", None),
])
def test_year_values(value, expected):
    assert parse_years(value) == expected


def test_bad_filter_value_is_a_warning_not_an_error():
    q = parse("year:soon diffusion")
    assert q.years is None and q.words == ["diffusion"]
    assert any("year:soon" in w for w in q.warnings)


def test_fts_phrase_quotes_everything():
    assert fts_phrase('a "b" c') == '"a ""b"" c"'


@pytest.mark.parametrize("raw", HOSTILE)
def test_parser_never_raises(raw):
    q = parse(raw)
    assert isinstance(q.text, str)


@pytest.fixture(scope="module")
def small(tmp_path_factory, backend):
    lib, ids = make_library(tmp_path_factory.mktemp("hostile"), embed=True, backend=backend)
    yield lib
    lib.close()


@pytest.mark.parametrize("mode", ["lexical", "semantic", "hybrid"])
def test_hostile_queries_return_lists_and_leave_the_library_intact(small, mode):
    for raw in HOSTILE:
        results = small.search(raw, mode=mode, limit=5, explain=True)
        assert isinstance(results, list), raw
        for r in results:
            assert {"id", "title", "label", "venue", "year", "score", "snippet", "rank"} <= set(r.to_json())
    assert small.stats()["papers"] == len(PAPERS)
    assert len(small.store.matches_text('"flow"')) >= 1  # the full-text index still answers
    if small.store.backend == "sqlite":
        assert small.store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_sql_text_is_just_words(small):
    # words that look like SQL still search as words (and find nothing here)
    assert small.search("'; DROP TABLE papers; --", mode="lexical") == []
    assert small.search('" OR 1=1 --', mode="lexical") == []


def test_query_words_equal_to_fts_operators_are_searched_as_words(small):
    # "NEAR" and "NOT" are plain words, not FTS5 syntax, even inside a phrase
    assert small.search('"NEAR flow"', mode="lexical") == []
    found = small.search('"matching for generative"', mode="lexical")
    assert [r.paper["title"] for r in found] == ["Flow Matching for Generative Modeling"]
