"""The committed examples (docs/examples: ten ICML 2024 papers as BibTeX and RIS) parse with
independent parsers and carry what Zotero needs; and they match a fresh export."""
from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
IDS = ["1ed417caa999", "acad2ac38874", "4d90db8d7e14", "d5b78052bd61", "fe77db5b99b4",
       "54adaaf5b2d8", "a387916ec2e0", "d15b5b2d2d0c", "674576adb522", "61e791535962"]


def test_example_bibtex_parses_with_bibtexparser():
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors

    lib = bibtexparser.parse_string((EXAMPLES / "icml2024_ten.bib").read_text(encoding="utf-8"),
                                    append_middleware=[LatexDecodingMiddleware(), SeparateCoAuthors()])
    assert not lib.failed_blocks and len(lib.entries) == 10
    assert len({e.key for e in lib.entries}) == 10
    for e in lib.entries:
        assert e.entry_type == "inproceedings"
        assert e["booktitle"] == "International Conference on Machine Learning (ICML 2024)"
        assert e["title"] and e["author"] and e["abstract"] and e["url"].startswith("https://")
    maestro = next(e for e in lib.entries if e["paperscope_id"] == "1ed417caa999")
    assert maestro.key == "horvath2024maestro" and maestro["author"][0] == "Horváth, Samuel"
    assert "50% fewer FLOPs" in maestro["annote"]


def test_example_ris_parses_with_rispy():
    import rispy

    entries = rispy.loads((EXAMPLES / "icml2024_ten.ris").read_text(encoding="utf-8"))
    assert len(entries) == 10
    for e in entries:
        assert e["type_of_reference"] == "CPAPER"
        assert e["secondary_title"] == "International Conference on Machine Learning (ICML 2024)"
        assert e["authors"] and e["title"] and e["abstract"] and e["year"] == "2024"
        assert "icml2024-examples" in e["keywords"]
    assert {e["note"].split(":", 1)[1] for e in entries} == set(IDS)


@pytest.mark.corpora
@pytest.mark.slow
def test_examples_match_a_fresh_export(tmp_path, samples_dir, shared_corpora):
    from paperscope.library import Library

    with Library.open(tmp_path / "lib.db") as lib:
        lib.ingest([samples_dir], embed=False)
        lib.ingest([shared_corpora / "icml2024_events" / "icml2024_events.json"], embed=False)
        lib.tag(IDS, "icml2024-examples")
        lib.note(IDS[0], "Low-rank layers learned during training; compare with SVD-based compression "
                         "(50% fewer FLOPs?)")
        lib.star("a387916ec2e0")
        for fmt, name in (("bibtex", "icml2024_ten.bib"), ("ris", "icml2024_ten.ris")):
            assert lib.export(fmt, tag="icml2024-examples") == (EXAMPLES / name).read_text(encoding="utf-8")
