"""Lexical search semantics on a small hand-made library (no embeddings needed):
phrases, prefixes, exclusions, filters, field weights, tokenisation, snippets."""
from __future__ import annotations

import pytest

from search_support import PAPERS, make_library, titles

TITLE = {p["key"]: p["title"] for p in PAPERS}


@pytest.fixture(scope="module")
def small(tmp_path_factory, backend):
    lib, ids = make_library(tmp_path_factory.mktemp("lexical"), backend=backend)
    yield lib, ids
    lib.close()


def lex(lib, query, **kw):
    return titles(lib.search(query, mode="lexical", **kw))


def test_words_rank_papers_holding_them(small):
    lib, _ = small
    found = lex(lib, "diffusion probabilistic")
    assert found[0] == TITLE["ddpm"]


def test_phrase_requires_adjacent_words(small):
    lib, _ = small
    # graphmatch has "flow" and "matching" but never "flow matching"
    assert lex(lib, '"flow matching"') == [TITLE["flow"]]
    unquoted = lex(lib, "flow matching")
    assert TITLE["flow"] in unquoted and TITLE["graphmatch"] in unquoted
    assert unquoted[0] == TITLE["flow"]


def test_prefix_matches_word_starts(small):
    lib, _ = small
    assert lex(lib, "transduc*") == [TITLE["attention"]]  # "transduction"
    assert lex(lib, "transduc") == []  # no such word without the star
    assert TITLE["bert"] in lex(lib, "bidirection*")
    assert lex(lib, "xyzzy*") == []


def test_prefix_matches_words_whose_stem_is_shorter_than_the_prefix(small):
    lib, _ = small
    # "normalizing" is indexed under its stem "normal", "representation" under "represent":
    # a prefix reaching past the stem still finds them through the surface words.
    assert lex(lib, "normaliz*") == [TITLE["flow"]]
    assert lex(lib, "representat*") == [TITLE["bert"]]
    found = lib.search("normaliz*", mode="lexical")[0]
    text = found.snippet["text"]
    assert any(text[a:b].lower() == "normalizing" for a, b in found.snippet["highlights"])


def test_exclusion_drops_papers_with_the_word(small):
    lib, _ = small
    with_gan = lex(lib, "generative")
    assert TITLE["gan"] in with_gan and TITLE["flow"] in with_gan
    without = lex(lib, "generative -adversarial")
    assert TITLE["gan"] not in without and TITLE["flow"] in without
    assert TITLE["gan"] not in lex(lib, 'generative -"image generation"')


@pytest.mark.parametrize("query,expected", [
    ("venue:ICLR", {"flow", "lora", "bert"}),
    ("venue:iclr year:2022..2023", {"flow", "lora"}),
    ("year:>=2022", {"flow", "lora", "bandit", "rl"}),
    ("status:oral", {"flow", "lora", "attention"}),
    ("has:code", {"flow", "lora"}),
    ('author:"Jane Doe"', {"rl"}),
    ("author:garcia", {"gat"}),  # diacritics fold: García
    ("venue:NeurIPS status:oral", {"attention"}),
])
def test_filters_alone_select_papers(small, query, expected):
    lib, _ = small
    got = set(lex(lib, query, limit=50))
    assert got == {TITLE[k] for k in expected}


def test_filters_restrict_ranked_words(small):
    lib, _ = small
    assert set(lex(lib, "graph venue:ICML")) == {TITLE["graphmatch"], TITLE["gat"]}
    assert lex(lib, "graph venue:COLT") == []
    # the --venue/--year arguments are the same filters
    assert set(titles(lib.search("attention", mode="lexical", venue="ICML"))) <= {TITLE["graphmatch"], TITLE["gat"]}
    assert titles(lib.search("models", mode="lexical", year=2014)) == [TITLE["gan"]]


def test_title_match_outranks_abstract_match(small):
    lib, _ = small
    found = lex(lib, "attention")
    assert found[0] == TITLE["attention"]  # only its title says it
    assert TITLE["gat"] in found


def test_hyphenated_compounds_meet_their_joined_form(small):
    lib, _ = small
    assert TITLE["bert"] in lex(lib, "pretraining")  # abstract says "pre-training"
    assert TITLE["lora"] in lex(lib, "pre-trained")  # abstract says "pretrained"


def test_stemming_and_case(small):
    lib, _ = small
    assert lex(lib, "BANDIT")[0] == TITLE["bandit"]
    assert TITLE["rl"] in lex(lib, "explores")


def test_latex_markup_is_not_indexed_but_latex_queries_work(small):
    lib, _ = small
    assert lex(lib, "mathcal") == []  # only the LaTeX source says it
    assert lex(lib, r"$\mathcal{O}(\sqrt{T})$ regret")[0] == TITLE["bandit"]


def test_latex_superscripts_in_method_names_meet_their_plain_spelling(tmp_path):
    from search_support import write_papers

    from paperscope.library import Library

    papers = [
        {"title": None, "venue": "ICML", "year": 2024,
         "abstract": "We present E$^2$GAN, an efficient GAN for image-to-image translation that runs on "
                     "mobile phones in real time after distillation from a large diffusion model."},
        {"title": None, "venue": "ICML", "year": 2024,
         "abstract": "A generative adversarial network with two discriminators makes image-to-image "
                     "translation efficient and stable, without any paired examples at training time."},
    ]
    lib = Library.open(tmp_path / "lib.db")
    lib.ingest([write_papers(tmp_path / "p.jsonl", [{k: v for k, v in p.items() if v} for p in papers])],
               embed=False)
    for query in ("E2GAN", r"E$^2$GAN", "E^2GAN"):
        res = lib.search(query, mode="lexical")
        assert res and "E^2GAN" in res[0].paper["abstract"], query
    lib.close()


def test_snippet_highlights_point_at_query_words(small):
    lib, _ = small
    res = lib.search("normalizing flows simulation", mode="lexical")
    snip = res[0].snippet
    assert res[0].paper["title"] == TITLE["flow"]
    words = {snip["text"][a:b].lower() for a, b in snip["highlights"]}
    assert {"normalizing", "flows", "simulation"} <= words
    for a, b in snip["highlights"]:
        assert 0 <= a < b <= len(snip["text"])


def test_explain_names_terms_fields_and_scores(small):
    lib, _ = small
    res = lib.search("attention", mode="lexical", explain=True)
    top = res[0].why
    assert top["matched_fields"] == {"title": ["attention"]}
    assert top["bm25"] > 0 and top["lexical_rank"] == 1
    assert top["cosine"] is None  # lexical mode computes no meaning


def test_limit_and_rank_fields(small):
    lib, _ = small
    res = lib.search("models", mode="lexical", limit=2)
    assert [r.rank for r in res] == [1, 2]
    assert res[0].score >= res[1].score


def test_changed_paper_is_reindexed(tmp_path):
    lib, ids = make_library(tmp_path)
    assert lex(lib, "zebrafish") == []
    with lib.store.transaction():
        lib.store.update_paper(ids["gan"], {"abstract": PAPERS[3]["abstract"] + " Zebrafish too."})
    lib.refresh_derived(embed=False)
    assert lex(lib, "zebrafish") == [TITLE["gan"]]
    lib.remove(collection="NeurIPS 2014")
    assert lex(lib, "zebrafish") == []
    lib.close()


def test_read_only_library_searches_papers_not_yet_indexed(tmp_path):
    from paperscope.library import Library

    lib, ids = make_library(tmp_path)
    with lib.store.transaction():  # as if an older version had written the paper
        lib.store.conn.execute("DELETE FROM paper_terms")
    lib.close()
    ro = Library.open(tmp_path / "lib.db", readonly=True)
    assert lex(ro, "curiosity")[0] == TITLE["rl"]
    ro.close()


def test_unknown_filter_values_are_reported_not_applied(small):
    lib, _ = small
    res = lib.search("graph has:nothing year:soon", mode="lexical", explain=True)
    assert set(titles(res)) == set(lex(lib, "graph"))
    warnings = " ".join(res[0].why["query"]["warnings"])
    assert "has:nothing" in warnings and "year:soon" in warnings


def _spans_word_by_word(text: str, words: set[str], prefixes: list[str]) -> list[tuple[int, int]]:
    """The highlighter's rule written the slow, obvious way: tokenise every word of the text
    as the index does and keep the ones that match (a compound by its joined form, else by
    its parts)."""
    from paperscope.search import tokens

    folded, where = tokens._fold_char_map(text)

    def hit(word: str) -> bool:
        if word in tokens.STOPWORDS or len(word) > tokens.MAX_TERM:
            return False
        term = tokens.stem(word)
        return term in words or any(term.startswith(p) or word.startswith(p) for p in prefixes)

    def span(a: int, b: int) -> tuple[int, int]:
        return where[a], (where[b - 1] + 1 if b - 1 < len(where) else len(text))

    out = []
    for m in tokens._WORD.finditer(folded):
        parts = list(tokens._PART.finditer(folded, m.start(), m.end()))
        joined = "".join(p.group(0) for p in parts)
        if len(parts) > 1 and (tokens.stem(joined) in words or any(joined.startswith(p) for p in prefixes)):
            out.append(span(m.start(), m.end()))
        else:
            out += [span(p.start(), p.end()) for p in parts if hit(p.group(0))]
    return sorted(out)


@pytest.mark.parametrize("query", ["pre-training", "pretraining language models", "LoRA-GA", "self-supervised",
                                   "graph network*", "E^2GAN", "training", "studies", "Café naïve", "a/b testing"])
def test_highlight_spans_match_word_by_word_tokenisation(query):
    from paperscope.search import snippets, tokens
    from paperscope.search.query import parse

    texts = [p["abstract"] for p in PAPERS] + [
        "We pre-train (pre-training, pretraining) self-supervised LoRA-GA and GPT-4 models; E^2GAN, "
        "ℓ_0-sparse x_1-y_2 a/b/c testing--not a compound -lead trail- Café naïve studies study-based.",
        "Naïve café-style pre—training, re-pre-training, multi-task/multi-domain graph-network networks.",
    ]
    words, prefixes = snippets._query_terms(parse(query))
    for text in texts:
        assert sorted(tokens.match_spans(text, words, prefixes)) == _spans_word_by_word(text, set(words), list(prefixes)), text
