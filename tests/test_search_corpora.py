"""Search over a real proceedings dump (ICML 2024, 2,634 papers; skipped without the shared
corpora): titles as users paste them, LaTeX included, find their paper first."""
from __future__ import annotations

import json
import random

import pytest

pytestmark = pytest.mark.corpora


@pytest.fixture(scope="module")
def icml(shared_corpora, tmp_path_factory):
    from paperscope.library import Library

    src = shared_corpora / "icml2024_events" / "icml2024_events.json"
    lib = Library.open(tmp_path_factory.mktemp("icml") / "lib.db")
    lib.ingest([src], embed=False)  # lexical only: no embedding of 2,634 abstracts here
    events = [e for e in json.loads(src.read_text("utf-8")) if e.get("type") == "Poster"]
    yield lib, events
    lib.close()


def test_pasted_titles_find_their_paper_first(icml):
    lib, events = icml
    sample = random.Random(3).sample(events, 100)
    first = 0
    for e in sample:
        res = lib.search(e["name"], mode="lexical", limit=3)
        first += bool(res) and res[0].paper["abstract_source"][:60] in " ".join(e["abstract"].split())
    assert first >= 95, first


def test_latex_titles_match_their_plain_text(icml):
    lib, events = icml
    latex = [e for e in events if "$" in e["name"] or "\\" in e["name"]]
    assert latex
    for e in latex[:20]:
        res = lib.search(e["name"], mode="lexical", limit=5)
        assert any(r.paper["abstract_source"][:60] in " ".join(e["abstract"].split()) for r in res), e["name"]


def test_phrase_and_filters_at_corpus_scale(icml):
    lib, _ = icml
    res = lib.search('"flow matching" venue:ICML year:2024', mode="lexical", limit=50)
    assert res
    for r in res:
        text = " ".join(str(r.paper.get(f) or "") for f in ("title", "abstract")).lower()
        assert "flow matching" in text.replace("-", " ")
    assert lib.search('"flow matching" year:2023', mode="lexical") == []
