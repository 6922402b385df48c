"""`paperscope build` + `load` (local engine) give the same library as `ingest`; incremental
builds compute only new texts; an interrupted build resumes from its finished shards."""
from __future__ import annotations

import json

import pytest
from build_support import assert_same, snapshot
from conftest import EXAMPLES

from paperscope.bulk import shards
from paperscope.library import Library

pytest.importorskip("pyarrow")

NEW_LIST = """NeurIPS 2023 paper list

We study contextual bandits with delayed and aggregated feedback and give an algorithm whose regret matches the lower bound up to logarithmic factors, with experiments on recommendation logs.

Sparse autoencoders trained on the residual stream of a language model recover interpretable features; we measure how many of them survive a change of random seed and of dictionary size.

A benchmark of 40 tabular datasets shows that gradient boosted trees still beat deep networks when features are heterogeneous, and we explain the gap with a study of rotation invariance.
"""


def _ingested(tmp_path, inputs):
    lib = Library.open(tmp_path / "ingest.db")
    lib.ingest(inputs)
    return lib


def _loaded(tmp_path, out, name="load.db"):
    lib = Library.open(tmp_path / name)
    lib.load(out)
    return lib


@pytest.mark.corpora
@pytest.mark.slow
def test_build_and_load_equal_ingest_on_examples_and_a_corpus(tmp_path, shared_corpora):
    inputs = [EXAMPLES, shared_corpora / "pmlr_v247_colt2024"]
    out = tmp_path / "build"
    report = Library.build(inputs, out, shard_size=64)
    with _ingested(tmp_path, inputs) as a, _loaded(tmp_path, out) as b:
        assert report["counts"]["papers"] == a.stats()["papers"] == b.stats()["papers"] > 250
        assert_same(snapshot(a), snapshot(b))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["papers"] == report["counts"]["papers"]
    assert manifest["versions"]["model"] and len(manifest["shards"]) == report["shards"] >= 4


def test_rebuild_with_one_more_input_computes_only_the_new_papers(tmp_path):
    extra = tmp_path / "neurips.txt"
    extra.write_text(NEW_LIST, encoding="utf-8")
    out = tmp_path / "build"
    first = Library.build([EXAMPLES], out, shard_size=40)
    assert first["computed"] == 95 and first["shards_skipped"] == 0
    again = Library.build([EXAMPLES], out)
    assert again["computed"] == 0 and again["shards_skipped"] == again["shards"] == 3
    with _loaded(tmp_path, out) as lib:
        before = {p["id"] for p in lib.papers()}
        second = Library.build([EXAMPLES, extra], out)
        assert second["computed"] == 3  # only the three new abstracts reach the model
        assert second["shards_skipped"] == 2  # shards 0-1 untouched; the last one gained papers
        report = lib.load(out)
        assert (report["added"], report["updated"], report["shards_skipped"]) == (3, 0, 2)
        assert report["unchanged"] == 95 - 80  # the rest of the shard that grew
        after = {p["id"] for p in lib.papers()}
        assert before < after and len(after - before) == 3
        assert len(lib.engine.vectors().ids) == 98
        assert lib.search("sparse autoencoders residual stream", limit=1)[0].paper["id"] in after - before
        assert lib.load(out)["shards_skipped"] == 3  # nothing left to load
    with _ingested(tmp_path, [EXAMPLES, extra]) as a, _loaded(tmp_path, out, "fresh.db") as b:
        assert_same(snapshot(a), snapshot(b))


def test_interrupted_build_resumes_from_finished_shards(tmp_path):
    out = tmp_path / "build"
    said = []

    def stop_after_two(text):
        said.append(text)
        if len(said) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Library.build([EXAMPLES], out, shard_size=20, say=stop_after_two)
    kept = json.loads((out / "manifest.json").read_text())["shards"]
    assert [e["name"] for e in kept] == ["00000", "00001"]
    assert "papers/s" in said[0] and "ETA" in said[0]
    resumed = Library.build([EXAMPLES], out)
    assert resumed["shards_skipped"] == 2 and resumed["computed"] == 95 - 40
    ids = [r["id"] for e in json.loads((out / "manifest.json").read_text())["shards"]
           for r in shards.read_table(out, "papers", e["name"], ["id"])]
    assert len(ids) == len(set(ids)) == 95


def test_facts_or_model_of_another_version_are_not_reused(tmp_path):
    out = tmp_path / "build"
    Library.build([EXAMPLES], out, shard_size=50)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["versions"]["facts"] = "older"
    (out / "manifest.json").write_text(json.dumps(manifest))
    again = Library.build([EXAMPLES], out)
    assert again["computed"] == 95 and again["shards_skipped"] == 0


def test_load_refuses_a_folder_without_manifest(tmp_path, lib):
    from paperscope.model import InputError

    with pytest.raises(InputError, match="no manifest.json"):
        lib.load(tmp_path)


def test_cli_build_then_load(tmp_path):
    import subprocess
    import sys

    extra = tmp_path / "neurips.txt"
    extra.write_text(NEW_LIST, encoding="utf-8")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "paperscope", "--db", str(tmp_path / "cli.db"), *args],
                              capture_output=True, text=True, timeout=600)

    built = run("build", str(extra), "--out", str(tmp_path / "b"), "--json")
    assert built.returncode == 0, built.stderr
    assert json.loads(built.stdout)["counts"] == {"papers": 3, "memberships": 3, "keys": 3, "collections": 1}
    assert "papers/s" in built.stderr and "ETA" in built.stderr
    loaded = run("load", str(tmp_path / "b"), "--json")
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout)["added"] == 3
    hits = json.loads(run("search", "gradient boosted trees tabular", "--json").stdout)
    assert hits and "tabular" in hits[0]["abstract"]
    bad = run("build", str(extra), "--out", str(tmp_path / "c"), "--engine", "spark")
    assert bad.returncode == 1 and "unknown engine" in bad.stderr


def test_load_into_the_library_backend(tmp_path, lib):
    """`load` into each backend (SQLite executemany, PostgreSQL COPY)."""
    extra = tmp_path / "neurips.txt"
    extra.write_text(NEW_LIST, encoding="utf-8")
    Library.build([extra], tmp_path / "b")
    assert lib.load(tmp_path / "b")["added"] == 3
    assert lib.stats()["papers"] == 3 and [c["name"] for c in lib.collections()] == ["NeurIPS 2023"]
    assert "tabular" in lib.search("gradient boosted trees tabular", limit=1)[0].paper["abstract"]
    again = lib.load(tmp_path / "b")
    assert (again["added"], again["shards_skipped"]) == (0, 1)


def test_a_richer_record_in_a_later_input_merges_like_ingest(tmp_path):
    from paperscope import sources
    from paperscope.model import Record

    first_list = sorted(EXAMPLES.iterdir())[0]
    records = [r for r in sources.read(first_list) if isinstance(r, Record)][:2]
    richer = tmp_path / "titles.json"
    richer.write_text(json.dumps([{"title": f"A Title For Paper {i}", "abstract": r.abstract, "venue": "ICML",
                                   "year": 2024, "authors": ["Ada Lovelace"]} for i, r in enumerate(records)]),
                      encoding="utf-8")
    out = tmp_path / "build"
    Library.build([EXAMPLES], out, shard_size=40)
    with _loaded(tmp_path, out) as lib:
        again = Library.build([EXAMPLES, richer], out)
        assert again["ingest"]["merged"] == 2 and again["counts"]["papers"] == 95
        assert again["computed"] == 2  # the two papers whose text gained a title
        report = lib.load(out)
        assert (report["added"], report["updated"]) == (0, 2)
        titled = [p for p in lib.papers() if p["title"]]
        assert len(titled) == 2 and all(p["authors"] == ["Ada Lovelace"] for p in titled)
        assert len({c["source"] for c in titled[0]["collections"]}) == 2  # both lists are memberships
        loaded_after_update = snapshot(lib)
    with _ingested(tmp_path, [EXAMPLES, richer]) as a:
        assert_same(snapshot(a), loaded_after_update)
