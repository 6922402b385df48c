"""The bundled demo data: ICML 2024's proceedings export next to the title-less example lists."""
from __future__ import annotations

from pathlib import Path

from paperscope.library import Library

REPO = Path(__file__).resolve().parents[1]
PROCEEDINGS = REPO / "examples" / "proceedings"


def test_the_proceedings_export_merges_with_the_title_less_lists(tmp_path):
    with Library.open(tmp_path / "demo.db") as lib:
        report = lib.ingest([REPO / "examples" / "lists", PROCEEDINGS], embed=False, analyse=False)
        assert not any(f.problems for f in report.files)
        sizes = {c["name"]: (c["papers"], c["lists"]) for c in lib.collections()}
        # 2,634 posters; the three ICML lists' 57 abstracts are among them, so ICML keeps 2,634
        # papers with 4 lists, and ICLR 2024 stays the 38 papers of its two lists
        assert sizes == {"ICML 2024": (2634, 4), "ICLR 2024": (38, 2)}
        icml_from_lists = [p for p in lib.papers()
                           if any(Path(c["source"]).parent.name == "lists" and c["name"] == "ICML 2024"
                                  for c in p["collections"])]
        assert len(icml_from_lists) == 57
        assert all(p["title"] for p in icml_from_lists)  # each title-less abstract gained its title


def test_the_bundle_states_its_source_and_licence():
    text = (REPO / "examples" / "README.md").read_text(encoding="utf-8")
    assert "icml.cc/Downloads" in text and "Licence" in text
    assert (PROCEEDINGS / "icml2024_posters.json.gz").stat().st_size < 2_000_000
