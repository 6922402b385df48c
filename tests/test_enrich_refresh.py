"""Derived facts are stored with the paper and recomputed only when its text or the extractors
change."""
from __future__ import annotations

import paperscope.enrich.refresh as enrich_store


def test_facts_are_stored_and_refreshed_only_when_stale(lib, samples_dir, monkeypatch):
    report = lib.ingest([samples_dir], embed=False)
    assert report.derived["facts"] == 95
    paper = next(p for p in lib.papers() if "Maestro" in p["abstract"])
    assert "Maestro" in paper["methods"] and paper["label"].startswith("Maestro")
    # nothing changed: nothing recomputed
    assert lib.refresh_derived(embed=False)["facts"] == 0
    # new extractor version: everything recomputed once
    monkeypatch.setattr(enrich_store, "FACTS_VERSION", "test-next")
    assert lib.refresh_derived(embed=False)["facts"] == 95
    assert lib.refresh_derived(embed=False)["facts"] == 0


def test_title_arriving_later_becomes_the_label(lib, tmp_path):
    abstract = ("We propose Gizmo, a method for counting sheep with transformers, and show that it "
                "counts sheep faster than all previous approaches on three farms.")
    (tmp_path / "a.txt").write_text("ICML 2024 paper list\n\n" + abstract + "\n", encoding="utf-8")
    lib.ingest([tmp_path / "a.txt"], embed=False)
    assert lib.papers()[0]["label"].startswith("Gizmo")
    (tmp_path / "b.jsonl").write_text(
        '{"title": "Gizmo: Counting Sheep", "abstract": "%s", "venue": "ICML", "year": 2024}\n' % abstract,
        encoding="utf-8")
    report = lib.ingest([tmp_path / "b.jsonl"], embed=False)
    assert report.derived["facts"] == 1
    assert lib.papers()[0]["label"] == "Gizmo: Counting Sheep"
    # the label is searchable through the full-text index, as a phrase and by search
    assert len(lib.store.matches_text('"counting"', column="label")) == 1
    assert [h.paper["label"] for h in lib.search('"counting sheep"', mode="lexical")] == ["Gizmo: Counting Sheep"]
