"""Recommendations: tagged papers in, ranked untagged papers out, each explained; "not
relevant" marks act as negatives; "more like these"; filters; TF-IDF alone when no vectors."""
from __future__ import annotations

import re
import sqlite3

import pytest

from paperscope.library import Library
from paperscope.model import InputError

RL = re.compile(r"reinforcement learning|\bRL\b|Q-learning|Q-iteration", re.I)


@pytest.fixture()
def rlib(tmp_path, samples_lib):
    """A writable copy of the sample library (embeddings included)."""
    target = tmp_path / "copy.db"
    dst = sqlite3.connect(target)
    samples_lib.store.conn.backup(dst)
    dst.close()
    lib = Library.open(target)
    yield lib
    lib.close()


def _rl_papers(lib):
    return [p["id"] for p in lib.papers() if RL.search(p["abstract"])]


def _words(p):
    return set(re.findall(r"[\w\-]+", f"{p['title'] or p.get('label') or ''} {p['abstract']}".lower()))


def test_recommendations_follow_the_tag_and_explain_themselves(rlib):
    rl = _rl_papers(rlib)
    assert len(rl) >= 6
    seeds, rest = rl[:3], set(rl[3:])
    rlib.tag(seeds, "rl")
    results = rlib.recommend(tag="rl", limit=5)
    assert len(results) == 5
    assert not {r.id for r in results} & set(seeds)
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    assert sum(r.id in rest for r in results) >= 3  # a random pick would give ~0.3
    for r in results:
        ex = r.why
        assert ex["terms"] and all(set(t["term"].split()) <= _words(r.paper) for t in ex["terms"])
        assert [n["id"] for n in ex["nearest"]] and all(n["id"] in seeds for n in ex["nearest"])
        assert set(ex["scores"]) == {"tfidf", "semantic"}  # embeddings were used
        assert ex["trained_on"] == {"positives": 3, "negatives": 0}
    assert results[0].paper["tags"] == [] and "title" in results[0].paper


def test_not_relevant_papers_are_negatives_and_never_shown(rlib):
    rl = _rl_papers(rlib)
    rlib.tag(rl[:3], "rl")
    before = [r.id for r in rlib.recommend(tag="rl", limit=100)]
    dismissed = before[0]
    rlib.irrelevant(dismissed, tag="rl")
    after = rlib.recommend(tag="rl", limit=100)
    assert dismissed not in [r.id for r in after]
    assert after[0].why["trained_on"]["negatives"] == 1
    # papers resembling the dismissed one fall in the ranking
    nearest = [p.id for p in rlib.recommend(ids=[dismissed], limit=10) if p.id not in rl[:3]][:3]
    after_ids = [r.id for r in after]
    moved = [after_ids.index(pid) - before.index(pid) for pid in nearest]
    assert len(moved) == 3 and sum(moved) > 0  # positions grow: further down the list
    # a global "not relevant" applies to every tag
    rlib.tag(rl[3], "other")
    rlib.irrelevant(before[1])
    assert before[1] not in [r.id for r in rlib.recommend(tag="other", limit=100)]


def test_more_like_these(rlib):
    rl = _rl_papers(rlib)
    results = rlib.recommend(ids=rl[:2], limit=5)
    assert not {r.id for r in results} & set(rl[:2])
    assert sum(RL.search(r.paper["abstract"]) is not None for r in results) >= 3


def test_venue_filter_and_limit(rlib):
    rlib.tag(_rl_papers(rlib)[:3], "rl")
    results = rlib.recommend(tag="rl", venue="ICLR", limit=4)
    assert len(results) == 4 and {r.paper["venue"] for r in results} == {"ICLR"}


def test_tfidf_alone_without_embeddings(tmp_path, samples_dir):
    with Library.open(tmp_path / "plain.db") as lib:
        lib.ingest([samples_dir], embed=False)
        rl = _rl_papers(lib)
        lib.tag(rl[:3], "rl")
        results = lib.recommend(tag="rl", limit=5)
        assert set(results[0].why["scores"]) == {"tfidf"}
        assert sum(r.id in set(rl[3:]) for r in results) >= 3


def test_errors(rlib):
    with pytest.raises(InputError, match="no papers tagged"):
        rlib.recommend(tag="empty")
    with pytest.raises(InputError):
        rlib.recommend()
    with pytest.raises(InputError, match="no paper"):
        rlib.recommend(ids=["ffffffffffff"])
