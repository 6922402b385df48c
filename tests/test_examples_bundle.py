"""The bundled demo data: ICML 2024's and ICLR 2024's accepted papers next to the title-less
example lists, so every example paper shows its real title."""
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
        # 2,634 ICML posters and 2,261 ICLR papers; the lists' 57 + 38 abstracts are among them
        assert sizes == {"ICML 2024": (2634, 4), "ICLR 2024": (2261, 3)}
        from_lists = [p for p in lib.papers() if any(Path(c["source"]).parent.name == "lists"
                                                     for c in p["collections"])]
        assert len(from_lists) == 95
        assert all(p["title"] for p in from_lists)  # each title-less abstract gained its title


def test_the_bundle_states_its_source_and_licence():
    text = (REPO / "examples" / "README.md").read_text(encoding="utf-8")
    assert "icml.cc/Downloads" in text and "Licence" in text
    assert "speedcell4/glimpse-data" in text and "CC BY 4.0" in text
    assert (PROCEEDINGS / "icml2024_posters.json.gz").stat().st_size < 2_000_000
    assert (PROCEEDINGS / "iclr2024_accepted.json.gz").stat().st_size < 2_000_000
