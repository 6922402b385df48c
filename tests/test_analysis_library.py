"""Topics, map and compare through the `Library` facade on the sample lists (real store, real
embeddings): full coverage, caching in the library file, new papers placed without a refit."""
from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

from paperscope.library import Library

REQUIRED = {"id", "label", "size", "papers"}


def copy_library(samples_lib, path) -> Library:
    """A private copy of the shared samples library (which is read-only for tests)."""
    src = sqlite3.connect(samples_lib.path)
    dst = sqlite3.connect(path)
    src.backup(dst)
    src.close()
    dst.close()
    return Library.open(path)


@pytest.fixture()
def analysis_lib(samples_lib, tmp_path):
    lib = copy_library(samples_lib, tmp_path / "copy.db")
    yield lib
    lib.close()


def run_row(lib, kind, scope_like):
    return lib.store.conn.execute(
        "SELECT id, input_hash, model FROM analysis_runs WHERE kind = ? AND scope LIKE ?",
        (kind, scope_like)).fetchone()


def test_topics_cover_every_paper_and_are_stored_for_reuse(analysis_lib):
    lib = analysis_lib
    topics = lib.topics()
    all_ids = {p["id"] for p in lib.papers()}
    assert all(REQUIRED <= set(t) for t in topics)
    assert sorted(pid for t in topics for pid in t["papers"]) == sorted(all_ids)  # 0 % unassigned
    assert all(t["label"] and t["size"] == len(t["papers"]) for t in topics)
    first = run_row(lib, "topics", lib.analysis.scope_key())
    assert lib.topics() == topics
    assert run_row(lib, "topics", lib.analysis.scope_key()) == first  # served from the library, no refit


def test_a_new_paper_joins_the_topic_of_its_closest_paper_without_refit(analysis_lib, tmp_path):
    lib = analysis_lib
    before = lib.topics(venue="ICML")
    map_before = {p["id"]: (p["x"], p["y"]) for p in lib.map(venue="ICML")}
    run_before = run_row(lib, "topics", lib.analysis.scope_key("ICML"))
    source = before[0]["papers"][0]  # the most typical paper of the largest topic
    abstract = lib.show(source)["abstract"]
    new_list = tmp_path / "extra.txt"
    # its words with every third one left out: a paper on the same topic, not a copy of it (a copy
    # with a sentence added would be the same paper, met again by fuzzy identity)
    related = " ".join(w for i, w in enumerate(abstract.split()) if i % 3 != 2)
    new_list.write_text("ICML 2024 论文列表\n\nIn a follow-up study we revisit this question. "
                        + related + "\n", encoding="utf-8")
    lib.ingest([new_list])
    after = lib.topics(venue="ICML")
    new_ids = {p["id"] for p in lib.papers(venue="ICML")} - {pid for t in before for pid in t["papers"]}
    assert len(new_ids) == 1
    new_id = new_ids.pop()
    home = next(t for t in after if new_id in t["papers"])
    assert source in home["papers"]
    assert [t["label"] for t in after] == [t["label"] for t in before]  # same topics, not refitted
    assert run_row(lib, "topics", lib.analysis.scope_key("ICML"))[2] == run_before[2]
    fitted = lib.store.conn.execute("SELECT fitted FROM analysis_points WHERE paper_id = ?", (new_id,)).fetchall()
    assert fitted and all(f[0] == 0 for f in fitted)
    # on the map: old papers stay where they were, the new one lands next to its source
    map_after = {p["id"]: (p["x"], p["y"]) for p in lib.map(venue="ICML")}
    assert {k: v for k, v in map_after.items() if k != new_id} == map_before
    xy = np.array(list(map_before.values()))
    gap = np.linalg.norm(np.array(map_after[new_id]) - np.array(map_before[source]))
    typical = np.median(np.linalg.norm(xy - xy.mean(axis=0), axis=1))
    assert gap < 0.25 * typical


def test_topics_of_an_id_set_do_not_depend_on_its_order(analysis_lib):
    ids = [p["id"] for p in analysis_lib.papers(venue="ICLR")]
    forward = analysis_lib.topics(ids=ids, level="fine")
    backward = analysis_lib.topics(ids=list(reversed(ids)), level="fine")
    assert json.dumps(forward) == json.dumps(backward)
    assert sum(t["size"] for t in forward) == len(ids)


def test_map_points_match_topics_and_are_stable(analysis_lib):
    points = analysis_lib.map(venue="ICML")
    topics = analysis_lib.topics(venue="ICML")
    topic_of = {pid: t["id"] for t in topics for pid in t["papers"]}
    assert len(points) == len(topic_of)
    assert all(topic_of[p["id"]] == p["topic"] for p in points)
    xy = np.array([[p["x"], p["y"]] for p in points])
    assert np.isfinite(xy).all() and xy.std(axis=0).min() > 0.05  # a real spread, not a dot
    assert analysis_lib.map(venue="ICML") == points


def test_compare_two_venues(analysis_lib):
    out = analysis_lib.compare("ICML 2024", "ICLR 2024")
    assert (out["a"]["papers"], out["b"]["papers"]) == (57, 38)
    assert abs(sum(t["a_share"] for t in out["topics"]) - 1) < 0.01
    assert abs(sum(t["b_share"] for t in out["topics"]) - 1) < 0.01
    assert all(t["a"] + t["b"] == t["size"] for t in out["topics"])  # no paper in both
    # two small samples of one population: few (here any) terms are significant, and it says so
    assert all(abs(t["z"]) >= 1.96 for side in out["distinctive"].values() for t in side)
    assert out["small"] == ["ICML 2024", "ICLR 2024"] and len(out["warnings"]) == 2
    assert sum(out["paper_types"]["ICML 2024"].values()) == 57
    with pytest.raises(Exception, match="no papers"):
        analysis_lib.compare("ICML 2024", "NeurIPS 1999")
    with pytest.raises(Exception, match="same papers"):
        analysis_lib.compare("ICML 2024", "icml  2024")


def test_one_scope_one_stored_run_whichever_way_it_is_named(analysis_lib):
    """`--venue ICML`, `--venue ICML --year 2024` and the collection "ICML 2024" are the same
    papers: they read one stored run (the CLI's map is the one the web shows)."""
    lib = analysis_lib
    icml = next(c for c in lib.collections() if c["venue"] == "ICML")
    assert lib.analysis.scope_key("ICML") == lib.analysis.scope_key("icml", icml["year"]) \
        == lib.analysis.scope_key(icml["name"])
    assert lib.analysis.scope_key("ICML") != lib.analysis.scope_key()
    lib.map(venue="ICML")
    runs = lib.store.conn.execute("SELECT COUNT(*) FROM analysis_runs WHERE kind = 'map'").fetchone()[0]
    lib.map(venue=icml["venue"], year=icml["year"])
    assert lib.store.conn.execute("SELECT COUNT(*) FROM analysis_runs WHERE kind = 'map'").fetchone()[0] == runs


def test_ingest_stores_every_collections_topics_and_map(lib, tmp_path):
    """After an ingest the first map and topics of a collection only read stored runs."""
    from conftest import EXAMPLES

    seen = []
    lib.ingest([EXAMPLES], progress=lambda phase, done, total: seen.append((phase, done, total)))
    assert ("topics and map", len(lib.collections()), len(lib.collections())) in seen
    stored = {r[0] for r in lib.store.conn.execute("SELECT scope FROM analysis_runs WHERE kind = 'map'")}
    assert {lib.analysis.scope_key(c["venue"], c["year"]) for c in lib.collections()} <= stored
    before = lib.store.conn.execute("SELECT id, input_hash FROM analysis_runs ORDER BY id").fetchall()
    for c in lib.collections():
        assert lib.map(venue=c["venue"], year=c["year"])
        assert lib.topics(venue=c["venue"], year=c["year"])
    assert lib.store.conn.execute("SELECT id, input_hash FROM analysis_runs ORDER BY id").fetchall() == before


def test_a_scope_larger_than_the_sample_is_fitted_on_a_sample_and_covers_every_paper(analysis_lib):
    lib = analysis_lib
    full = lib.topics()
    n = sum(t["size"] for t in full)
    lib.analysis.sample = 40  # as if the library were far larger than the sample size
    sampled = lib.topics()
    points = lib.map()
    assert sorted(pid for t in sampled for pid in t["papers"]) == sorted(pid for t in full for pid in t["papers"])
    assert len(points) == n and len({p["id"] for p in points}) == n
    # the sampled run is stored apart from the full one (its parameters differ) and reused
    params = json.loads(lib.store.conn.execute(
        "SELECT params FROM analysis_runs WHERE kind = 'topics' AND scope = ?",
        (lib.analysis.scope_key(),)).fetchone()[0])
    assert params.get("sample") == 40
    assert lib.topics() == sampled
    # papers outside the sample sit among their nearest neighbours: a paper's map neighbour is
    # usually in its own topic
    xy = np.array([[p["x"], p["y"]] for p in points])
    topic = np.array([p["topic"] for p in points])
    d = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    np.fill_diagonal(d, np.inf)
    assert (topic[d.argmin(axis=1)] == topic).mean() > 0.5
