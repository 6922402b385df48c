"""Ingest: counts, idempotence, identity and merging, user-visible reports."""
from __future__ import annotations

import json

import pytest

from paperscope.library import Library
from paperscope.model import InputError, latex_to_plain, match_key


def _ids(lib):
    return sorted(p["id"] for p in lib.papers())


def test_samples_ingest_to_95_papers_by_venue(lib, samples_dir):
    report = lib.ingest([samples_dir], embed=False)
    assert report.ok
    assert report.total("added") == 95
    stats = lib.stats()
    assert stats["papers"] == 95
    by_name = {c["name"]: c for c in stats["collections"]}
    assert by_name["ICML 2024"]["papers"] == 57 and by_name["ICML 2024"]["lists"] == 3
    assert by_name["ICLR 2024"]["papers"] == 38 and by_name["ICLR 2024"]["lists"] == 2
    # each paper remembers which list it came from and where
    for paper in lib.papers():
        assert paper["collections"], paper["id"]
        for c in paper["collections"]:
            assert c["source"].endswith(".txt")
            assert c["position"] >= 0
    assert all(p["title"] is None for p in lib.papers())


def test_reingest_changes_nothing(lib, samples_dir):
    lib.ingest([samples_dir], embed=False)
    before = _ids(lib)
    rows_before = lib.store.conn.execute("SELECT COUNT(*) FROM memberships").fetchone()[0]
    report = lib.ingest([samples_dir], embed=False)
    assert report.total("added") == 0 and report.total("merged") == 0
    assert report.total("unchanged") == 95
    assert _ids(lib) == before
    assert lib.store.conn.execute("SELECT COUNT(*) FROM memberships").fetchone()[0] == rows_before


def test_ids_are_stable_across_libraries(tmp_path, samples_dir):
    a = Library.open(tmp_path / "a.db")
    b = Library.open(tmp_path / "b.db")
    a.ingest([samples_dir], embed=False)
    # b sees the lists in the other order
    b.ingest(sorted(samples_dir.iterdir(), reverse=True), embed=False)
    assert _ids(a) == _ids(b)


def _write_list(path, header, paragraphs):
    path.write_text(header + "\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    return path


ABSTRACT = ("We study the problem of recovering the original weights of a model from several "
            "low-rank fine-tuned versions of it, and show that a spectral method recovers them "
            "exactly when the adapters are diverse enough, with experiments on $\\mathcal{O}(n)$ "
            "models.")


def test_same_paper_two_sources_merges_and_fills_title(lib, tmp_path):
    _write_list(tmp_path / "a.txt", "ICML 2024 论文列表", [ABSTRACT])
    lib.ingest([tmp_path / "a.txt"], embed=False)
    # the same abstract with different whitespace, LaTeX spacing and a title, in JSON
    variant = ABSTRACT.replace("  ", " ").replace("$\\mathcal{O}(n)$", "$\\mathcal{O} ( n )$").replace(" of it,", "  of it,\n")
    (tmp_path / "b.json").write_text(json.dumps([{
        "title": "Recovering Pre-Fine-Tuning Weights", "abstract": variant,
        "authors": ["Ada Lovelace", "Alan Turing"], "venue": "ICML", "year": 2024}]), encoding="utf-8")
    report = lib.ingest([tmp_path / "b.json"], embed=False)
    assert report.total("added") == 0 and report.total("merged") == 1
    assert report.merges and "title" in report.merges[0]["filled"]
    (paper,) = lib.papers()
    assert paper["title"] == "Recovering Pre-Fine-Tuning Weights"
    assert paper["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert len(paper["collections"]) == 2


def test_merge_never_overwrites_known_values_with_empty(lib, tmp_path):
    (tmp_path / "rich.json").write_text(json.dumps([{
        "title": "A Title That Is Known", "abstract": ABSTRACT, "authors": ["Ada Lovelace"],
        "venue": "ICML", "year": 2024, "status": "Oral"}]), encoding="utf-8")
    lib.ingest([tmp_path / "rich.json"], embed=False)
    _write_list(tmp_path / "poor.txt", "ICML 2024 paper list", [ABSTRACT])
    lib.ingest([tmp_path / "poor.txt"], embed=False)
    (paper,) = lib.papers()
    assert paper["title"] == "A Title That Is Known"
    assert paper["authors"] == ["Ada Lovelace"] and paper["status"] == "Oral"


def test_latex_is_kept_as_source_and_rendered_for_display(lib, tmp_path):
    _write_list(tmp_path / "a.txt", "ICML 2024 论文列表",
                ["We prove a rate of $\\mathcal{O}(\\epsilon^{-2})$ for finding stationary points of "
                 "smooth nonconvex functions with noisy gradients, which is optimal up to 50% of "
                 "the constant factor in the worst case."])
    lib.ingest([tmp_path / "a.txt"], embed=False)
    (paper,) = lib.papers()
    assert "O(ε^-2)" in paper["abstract"]
    assert "50%" in paper["abstract"] and "worst case" in paper["abstract"]
    assert "\\mathcal{O}" in paper["abstract_source"]


def test_a_group_set_in_a_font_keeps_its_words_without_braces():
    text = ("We propose a black-box algorithm called {\\it Adversarial Variational Inference and Learning} (AdVIL) "
            "that is {\\em fast}, with $\\{0,1\\}$-valued weights.")
    plain = latex_to_plain(text)
    assert "called Adversarial Variational Inference and Learning (AdVIL)" in plain
    assert "is fast," in plain and "{0,1}" in plain and "{ " not in plain
    same = "We propose a black-box algorithm called Adversarial Variational Inference and Learning (AdVIL) that is fast"
    assert match_key(text).startswith(match_key(same))  # braces never counted in a paper's identity


def test_a_name_set_in_a_typewriter_or_sans_font_is_kept():
    text = ("To fill the gap, we propose $\\textbf{\\texttt{Lingual-SMoE}}$ by equipping the SMoE with adaptive "
            "routing; \\textsf{X-Net} and \\mbox{Our Model} follow \\textup{Y}.")
    plain = latex_to_plain(text)
    assert "we propose Lingual-SMoE by equipping" in plain
    assert "X-Net and Our Model follow Y." in plain


def test_missing_path_is_a_user_error(lib, tmp_path):
    with pytest.raises(InputError, match="no such file"):
        lib.ingest([tmp_path / "nope.txt"], embed=False)


def test_list_without_header_needs_venue_and_year(lib, tmp_path):
    path = tmp_path / "bare.txt"
    path.write_text(ABSTRACT + "\n\n" + ABSTRACT.replace("weights", "parameters") + "\n", encoding="utf-8")
    report = lib.ingest([path], embed=False)
    assert not report.ok and "venue" in report.files[0].error.lower()
    assert lib.stats()["papers"] == 0
    report = lib.ingest([path], venue="COLT", year=2024, embed=False)
    assert report.ok and lib.stats()["collections"][0]["name"] == "COLT 2024"


def test_short_paragraph_skipped_with_line_good_records_kept(lib, tmp_path):
    path = _write_list(tmp_path / "a.txt", "ICLR 2024 paper list", [ABSTRACT, "Too short.", ABSTRACT.replace("weights", "parameters")])
    report = lib.ingest([path], embed=False)
    assert report.total("added") == 2 and report.total("skipped") == 1
    problem = report.files[0].problems[0]
    assert problem.source.endswith("a.txt") and problem.line == 5


def test_strict_rejects_the_whole_file(lib, tmp_path):
    path = _write_list(tmp_path / "a.txt", "ICLR 2024 paper list", [ABSTRACT, "Too short."])
    report = lib.ingest([path], strict=True, embed=False)
    assert not report.ok
    assert lib.stats()["papers"] == 0


def test_duplicate_inside_one_file_is_one_paper(lib, tmp_path):
    path = _write_list(tmp_path / "a.txt", "ICLR 2024 paper list", [ABSTRACT, ABSTRACT])
    report = lib.ingest([path], embed=False)
    assert lib.stats()["papers"] == 1 and report.total("duplicates") == 1


def test_remove_collection_keeps_papers_of_other_collections(lib, samples_dir):
    lib.ingest([samples_dir], embed=False)
    out = lib.remove(collection="ICLR 2024")
    assert out["papers_removed"] == 38
    assert lib.stats()["papers"] == 57
    with pytest.raises(InputError):
        lib.remove(collection="NeurIPS 1999")


@pytest.mark.corpora
@pytest.mark.slow
def test_icml_export_after_samples_fills_all_57_titles(lib, samples_dir, shared_corpora):
    lib.ingest([samples_dir], embed=False)
    report = lib.ingest([shared_corpora / "icml2024_events"], embed=False)
    assert report.ok
    icml = lib.papers(venue="ICML", year=2024)
    assert len(icml) == 2634
    sample_papers = [p for p in icml if any(c["source"].endswith(".txt") for c in p["collections"])]
    assert len(sample_papers) == 57
    assert all(p["title"] for p in sample_papers)
    assert all(len(p["collections"]) == 2 for p in sample_papers)
    assert report.total("merged") == 57
    assert lib.stats()["papers"] == 2634 + 38


def test_latin1_and_utf16_lists_go_in_with_a_warning_not_a_skip(lib, tmp_path):
    text = "ICML 2024 paper list\n\n" + ABSTRACT.replace("spectral", "café-style spectral") + "\n"
    (tmp_path / "latin1.txt").write_bytes(text.encode("latin-1"))
    # another paper (a one-word variant would be the same paper, met by fuzzy identity)
    other = ("We propose a café-style spectral test for whether two graphs share a community structure, "
             "prove that its power tends to one as the graphs grow, and show on citation networks that "
             "it separates related from unrelated graphs far better than the tests in use today.")
    (tmp_path / "utf16.txt").write_bytes(f"ICML 2024 paper list\n\n{other}\n".encode("utf-16"))
    report = lib.ingest([tmp_path / "latin1.txt", tmp_path / "utf16.txt"], embed=False)
    assert report.ok and report.total("added") == 2 and report.total("skipped") == 0
    latin = report.files[0]
    assert latin.warnings and "latin1.txt" in str(latin.warnings[0]) and "UTF-8" in latin.warnings[0].reason
    assert all("café-style" in p["abstract"] for p in lib.papers())
    # --strict accepts a file whose only note is a decoding warning
    strict = lib.ingest([tmp_path / "latin1.txt"], strict=True, embed=False)
    assert strict.ok


ENTITY_ABSTRACT = ("We study the model&#39;s calibration under shift &amp;amp; show that a "
                   "temperature fitted on one domain transfers when the &quot;shift&quot; is mild, "
                   "with experiments on twelve benchmarks and three architectures.")


def _entity_csv(path):
    path.write_text("title,abstract,venue,year\n"
                    f'"Calibration &amp; Shift","{ENTITY_ABSTRACT}",NeurIPS,2018\n', encoding="utf-8")
    return path


def test_html_entities_in_exports_are_decoded(lib, tmp_path):
    lib.ingest([_entity_csv(tmp_path / "nips.csv")], embed=False)
    (paper,) = lib.papers()
    assert "the model's calibration" in paper["abstract"]
    assert "shift & show" in paper["abstract"] and '"shift"' in paper["abstract"]
    assert paper["title"] == "Calibration & Shift"
    assert "&#39;" not in paper["abstract"] and "&amp;" not in paper["abstract"]
    assert lib.search("model's calibration", mode="lexical")[0].id == paper["id"]


def test_paper_stored_with_entities_by_an_older_version_is_decoded_not_duplicated(lib, tmp_path, monkeypatch):
    from paperscope.sources import base

    path = _entity_csv(tmp_path / "nips.csv")
    with monkeypatch.context() as m:  # an older version kept the entities
        m.setattr(base, "decode_entities", lambda text: text)
        lib.ingest([path], embed=False)
    (old,) = lib.papers()
    assert "&#39;" in old["abstract"]
    lib.tag(old["id"], "calibration")
    report = lib.ingest([path], embed=False)
    assert report.total("added") == 0 and report.total("merged") == 1
    (paper,) = lib.papers()
    assert paper["id"] == old["id"] and "the model's calibration" in paper["abstract"]
    assert [p["id"] for p in lib.mine(tag="calibration")] == [paper["id"]]  # the tag survives
    assert lib.ingest([path], embed=False).total("unchanged") == 1  # and stays one paper


TAGGED_ABSTRACT = ("We propose <b>Ch</b>aracteristic <b>I</b>nterventional Sum-Product Networks, which estimate "
                   "interventional distributions over <em>mixed</em> variables with 10<sup>5</sup> samples, "
                   "and we keep every x with a <b and c> d in prose as written.")


def _tagged_csv(path):
    path.write_text("title,abstract,venue,year\n"
                    f'"<i>Hybrid</i> causal inference","{TAGGED_ABSTRACT}",UAI,2024\n', encoding="utf-8")
    return path


def test_inline_html_formatting_in_exports_becomes_plain_text(lib, tmp_path):
    lib.ingest([_tagged_csv(tmp_path / "uai.csv")], embed=False)
    (paper,) = lib.papers()
    assert "We propose Characteristic Interventional Sum-Product Networks" in paper["abstract"]
    assert "over mixed variables with 10^5 samples" in paper["abstract"]
    assert "a <b and c> d" in paper["abstract"]  # not a tag: prose stays as written
    assert paper["title"] == "Hybrid causal inference"
    assert lib.search("characteristic interventional", mode="lexical")[0].id == paper["id"]


def test_paper_stored_with_tags_by_an_older_version_is_cleaned_not_duplicated(lib, tmp_path, monkeypatch):
    from paperscope.sources import base

    path = _tagged_csv(tmp_path / "uai.csv")
    with monkeypatch.context() as m:  # an older version kept the tags
        m.setattr(base, "strip_inline_html", lambda text: text)
        lib.ingest([path], embed=False)
    (old,) = lib.papers()
    assert "<b>Ch</b>" in old["abstract"]
    report = lib.ingest([path], embed=False)
    assert report.total("added") == 0 and report.total("merged") == 1
    (paper,) = lib.papers()
    assert paper["id"] == old["id"] and "<b>" not in paper["abstract"]
