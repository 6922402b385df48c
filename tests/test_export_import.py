"""import-library: a user's own bibliography (a Zotero export, say) is matched to the library's
papers by DOI, arXiv id, OpenReview id, title or abstract; matches get the tag, the rest are
reported."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from export_support import TRICKY, build_library, paper_id
from paperscope.cli import app
from paperscope.model import InputError

ZOTERO_BIB = r"""
@inproceedings{mine1,
  title = {A Different Title Zotero Got From Crossref},
  doi = {10.5555/ICML.2024.12345},
}
@article{mine2,
  title = {Message passing for token interactions (preprint)},
  eprint = {2401.01234}, archivePrefix = {arXiv},
}
@misc{mine3,
  title = {Some Other Title},
  url = {https://openreview.net/pdf?id=AbC123xyz},
}
@inproceedings{mine4,
  title = {FAST KERNELS -- another collision for the key disambiguation test-case},
  year = {2024},
}
@inproceedings{mine5,
  title = {Maestro: Uncovering Low-Rank Structures via Trainable Decompositions},
  abstract = {%s},
}
@inproceedings{mine6,
  title = {Attention Is All You Need},
  year = {2017},
}
"""


@pytest.fixture()
def ilib(tmp_path, samples_dir):
    lib = build_library(tmp_path / "lib.db", samples_dir)
    yield lib
    lib.close()


def _maestro(lib):
    return next(p for p in lib.papers(collection="ICML 2024") if (p.get("label") or "").startswith("Maestro"))


def test_zotero_bibtex_matched_by_ids_title_and_abstract(ilib, tmp_path):
    maestro = _maestro(ilib)
    bib = tmp_path / "zotero.bib"
    bib.write_text(ZOTERO_BIB % maestro["abstract_source"].replace("%", r"\%"), encoding="utf-8")
    report = ilib.import_library(bib, tag="mine")
    by_entry = {m["entry"]: (m["paper"], m["by"]) for m in report["matched"]}
    assert by_entry == {
        1: (paper_id(ilib, TRICKY[0]["title"]), "doi"),
        2: (paper_id(ilib, TRICKY[1]["title"]), "arxiv"),
        3: (paper_id(ilib, TRICKY[2]["title"]), "openreview"),
        4: (paper_id(ilib, TRICKY[3]["title"]), "title"),
        5: (maestro["id"], "abstract"),
    }
    assert report["unmatched"] == [{"entry": 6, "title": "Attention Is All You Need"}]
    assert report["papers_tagged"] == 5
    assert sorted(p["id"] for p in ilib.mine(tag="mine")) == sorted(pid for pid, _ in by_entry.values())


def test_zotero_ris_matched(ilib, tmp_path):
    ris = tmp_path / "zotero.ris"
    ris.write_text(
        "TY  - CPAPER\nTI  - Fast & accurate 50% pruning of GANs with ℓ_1 penalties\nPY  - 2024\nER  - \n\n"
        "TY  - JOUR\nTI  - Unknown Paper About Something Else Entirely\nDO  - 10.1000/none\nER  - \n",
        encoding="utf-8")
    report = ilib.import_library(ris, tag="zotero")
    assert [(m["paper"], m["by"]) for m in report["matched"]] == [(paper_id(ilib, TRICKY[0]["title"]), "title")]
    assert [u["entry"] for u in report["unmatched"]] == [2]
    assert ilib.show(paper_id(ilib, TRICKY[0]["title"]))["tags"].count("zotero") == 1


@pytest.mark.parametrize("fmt,suffix", [("bibtex", "bib"), ("ris", "ris"), ("csljson", "json"),
                                        ("csv", "csv"), ("jsonl", "jsonl")])
def test_own_export_imports_into_a_fresh_library(ilib, tmp_path, samples_dir, fmt, suffix):
    """A reading list exported from one library tags the same papers in another library built
    from the same lists (ids are stable hashes, and titles/abstracts match too)."""
    exported = tmp_path / f"list.{suffix}"
    exported.write_text(ilib.export(fmt, tag="reading-list"), encoding="utf-8")
    wanted = sorted(p["id"] for p in ilib.mine(tag="reading-list"))
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    other = build_library(other_dir / "lib.db", samples_dir)
    try:
        report = other.import_library(exported, tag="from-colleague")
        assert report["unmatched"] == []
        assert sorted(p["id"] for p in other.mine(tag="from-colleague")) == wanted
    finally:
        other.close()


def test_bad_library_files_are_user_errors(ilib, tmp_path):
    with pytest.raises(InputError, match="no such file"):
        ilib.import_library(tmp_path / "missing.bib")
    odd = tmp_path / "library.docx"
    odd.write_text("x")
    with pytest.raises(InputError, match="unknown library format"):
        ilib.import_library(odd)
    empty = tmp_path / "empty.bib"
    empty.write_text("% nothing here\n")
    with pytest.raises(InputError, match="no entries"):
        ilib.import_library(empty)


def test_cli_import_library_reports_unmatched(ilib, tmp_path):
    bib = tmp_path / "mine.bib"
    bib.write_text(ZOTERO_BIB % "no abstract", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["--db", str(ilib.path), "import-library", str(bib), "--tag", "zot", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["matched"]) == 4 and [u["entry"] for u in report["unmatched"]] == [5, 6]
    result = runner.invoke(app, ["--db", str(ilib.path), "import-library", str(bib)])
    assert result.exit_code == 0
    assert "unmatched" in result.output and "Attention Is All You Need" in result.output
