"""Every export format parsed back by an independent parser (bibtexparser, rispy, citeproc-py,
csv, json): titles, authors, venue, abstracts, links, tags and notes survive the round trip."""
from __future__ import annotations

import csv
import io
import json
import re
import warnings

import pytest

from export_support import TRICKY, build_library, paper_id

KEY = re.compile(r"^[a-z]+\d{4}[a-z0-9]+$")


@pytest.fixture(scope="module")
def xlib(tmp_path_factory, samples_dir):
    lib = build_library(tmp_path_factory.mktemp("export") / "lib.db", samples_dir)
    yield lib
    lib.close()


@pytest.fixture(scope="module")
def papers(xlib):
    """The exported papers as the library shows them (expected values come from here)."""
    ids = [r[0] for r in xlib.store.conn.execute(
        "SELECT paper_id FROM user_tags WHERE tag = 'reading-list'")]
    return {p["id"]: p for p in xlib.papers(ids=ids)}


def _bibtex_entries(text):
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors, SplitNameParts

    lib = bibtexparser.parse_string(text, append_middleware=[
        LatexDecodingMiddleware(), SeparateCoAuthors(), SplitNameParts()])
    assert not lib.failed_blocks
    return lib.entries


def test_bibtex_round_trip(xlib, papers):
    entries = _bibtex_entries(xlib.export("bibtex", tag="reading-list"))
    assert len(entries) == len(papers) == 6
    keys = [e.key for e in entries]
    assert len(set(keys)) == len(keys) and all(KEY.match(k) for k in keys)
    for e in entries:
        p = papers[e["paperscope_id"]]
        assert e.entry_type == "inproceedings"
        assert e["booktitle"] == "International Conference on Machine Learning (ICML 2024)"
        assert e["year"] == "2024"
        # Math stays LaTeX source (the decoder keeps $...$); LaTeX renders \textasciicircum as
        # ^, pylatexenc's decoder returns the modifier letter.
        expected = p["abstract_source"] if "$" in p["abstract_source"] else p["abstract"]
        assert e["abstract"].replace("\u02c6", "^") == expected
        if p["title"] and "$" not in e.fields_dict["title"].value:
            assert e["title"] == p["title"]
        elif p["title"]:
            assert e["title"] == TRICKY[0]["title"]
        assert [n.last[-1] for n in e["author"]] if p["authors"] else True
        assert "reading-list" in e["keywords"]
    first = papers[paper_id(xlib, TRICKY[0]["title"])]
    e = next(x for x in entries if x["paperscope_id"] == first["id"])
    assert [" ".join(n.von + n.last) for n in e["author"]] == ["Schölkopf", "van der Maaten", "Wei"]
    assert [" ".join(n.first) for n in e["author"]][:2] == ["Bernhard", "Laurens"]
    assert e["annote"] == first["note"]
    assert "gans & pruning" in e["keywords"]
    assert e["doi"] == "10.5555/icml.2024.12345"
    assert e["url"] == "https://doi.org/10.5555/icml.2024.12345"


def test_bibtex_escapes_specials_and_keeps_math(xlib):
    pid = paper_id(xlib, TRICKY[0]["title"])
    text = xlib.export("bibtex", ids=[pid])
    title = re.search(r"title\s+= \{(.*)\},\n", text).group(1)
    assert title == r"Fast {\&} Accurate 50{\%} Pruning of {GANs} with $\ell_1$ Penalties"
    abstract = re.search(r"abstract\s+= \{(.*)\},\n", text).group(1)
    outside_math = re.sub(r"\$[^$]*\$", "", abstract)
    unescaped = re.sub(r"\\[&%#_{}]|\{\\text\w+\}", "", outside_math)
    assert not set("&%#_~^") & set(unescaped)
    assert r"{\#}4" in abstract and r"under{\_}scores" in abstract and r"{\{}braces{\}}" in abstract
    # a second-author particle and an accented given name
    other = xlib.export("bibtex", ids=[paper_id(xlib, TRICKY[1]["title"])])
    assert r"{\'A}lvarez-N{\'u}{\~n}ez, Jos{\'e}" in other
    assert "Kierkegaard, Jr., S{\\o}ren" in other


def test_untitled_papers_export_with_derived_title_and_a_note(xlib, papers):
    entries = _bibtex_entries(xlib.export("bibtex", tag="reading-list"))
    untitled = [e for e in entries if papers[e["paperscope_id"]]["title"] is None]
    assert len(untitled) == 2
    for e in untitled:
        p = papers[e["paperscope_id"]]
        assert e["title"] == p["label"]
        assert "Title not given" in e["note"]
        assert e.key.startswith("icml2024")


def test_citation_keys_are_stable_and_disambiguated(xlib):
    def keys(text):
        return {e["paperscope_id"]: e.key for e in _bibtex_entries(text)}

    everything = keys(xlib.export("bibtex"))
    subset_ids = [paper_id(xlib, TRICKY[3]["title"])]
    assert keys(xlib.export("bibtex", ids=subset_ids)) == {subset_ids[0]: everything[subset_ids[0]]}
    fast = [everything[paper_id(xlib, TRICKY[i]["title"])] for i in (0, 3)]
    assert fast == ["scholkopf2024fast", "scholkopf2024fasta"]  # first added keeps the plain key
    assert len(set(everything.values())) == len(everything)


def test_ris_round_trip(xlib, papers):
    import rispy

    entries = rispy.loads(xlib.export("ris", tag="reading-list"))
    assert len(entries) == len(papers)
    for e in entries:
        pid = next(n for n in [e.get("note", "")] if n.startswith("paperscope:")).split(":", 1)[1]
        p = papers[pid]
        assert e["type_of_reference"] == "CPAPER"
        assert e["secondary_title"] == "International Conference on Machine Learning (ICML 2024)"
        assert e["title"] == (p["title"] or p["label"])
        assert e["year"] == "2024"
        assert e["abstract"] == p["abstract"]
        assert "reading-list" in e["keywords"]
        assert len(e.get("authors", [])) == len(p["authors"])
        if p["note"]:
            assert " ".join(p["note"].split()) in e["notes"]
        if p["urls"]:
            assert e["urls"][0] == next(iter(p["urls"].values()))
    first = next(e for e in entries if e["title"].startswith("Fast & Accurate"))
    assert first["authors"] == ["Schölkopf, Bernhard", "van der Maaten, Laurens", "Wei, Zhang"]
    assert first["doi"] == "10.5555/icml.2024.12345"


def test_csljson_round_trip_through_citeproc(xlib, papers):
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    items = json.loads(xlib.export("csljson", tag="reading-list"))
    assert {i["type"] for i in items} == {"paper-conference"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # citeproc-py warns about CSL fields it does not render
        source = CiteProcJSON(items)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bib = CitationStylesBibliography(style, source, formatter.plain)
    for item in items:
        bib.register(Citation([CitationItem(item["id"])]))
    rendered = "\n".join(str(b) for b in bib.bibliography())
    for item in items:
        p = papers[item["custom"]["paperscope_id"]]
        ref = source[item["id"].lower()]
        assert str(ref["title"]) == (p["title"] or p["label"])
        assert str(ref["container_title"]) == "International Conference on Machine Learning (ICML 2024)"
        assert ref["issued"]["year"] == 2024
        assert str(ref["abstract"]) == p["abstract"]
        assert item["custom"]["tags"] == p["tags"]
        assert (p["title"] or p["label"]) in rendered
    schoelkopf = [i for i in items if i.get("author", [{}])[0].get("family") == "Schölkopf"]
    assert len(schoelkopf) == 3 and "Schölkopf, B. (2024)" in rendered


def test_csv_and_jsonl_round_trip(xlib, papers):
    rows = list(csv.DictReader(io.StringIO(xlib.export("csv", tag="reading-list"))))
    assert len(rows) == len(papers)
    for row in rows:
        p = papers[row["id"]]
        assert row["title"] == (p["title"] or p["label"])
        assert row["note"] == (p["note"] or "")  # quotes, braces and a newline survive
        assert row["tags"].split("; ") == p["tags"]
        assert row["starred"] == ("yes" if p["starred"] else "")
        assert row["abstract"] == p["abstract"]
    lines = xlib.export("jsonl", tag="reading-list").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == len(papers)
    for r in records:
        p = papers[r["id"]]
        for field in ("title", "abstract", "authors", "tags", "note", "starred", "read", "urls"):
            assert r[field] == p[field]


def test_markdown_reading_list(xlib, papers):
    text = xlib.export("markdown", tag="reading-list")
    assert text.startswith("# Reading list: reading-list")
    items = re.findall(r"^- \[( |x)\] \*\*(.+?)\*\*", text, re.M)
    assert len(items) == len(papers)
    read = {p["title"] for p in papers.values() if p["read"]}
    assert {t for mark, t in items if mark == "x"} == {f"[{t}]({u})" for t in read
                                                        for u in [next(iter(papers[paper_id(xlib, t)]["urls"].values()))]}
    assert "> Check the \"50%\" claim; compare with {magnitude} pruning second line" in text
    assert "](https://arxiv.org/abs/2401.01234)" in text


def test_export_selection_errors(xlib):
    from paperscope.model import InputError

    with pytest.raises(InputError, match="no papers tagged"):
        xlib.export("bibtex", tag="nope")
    with pytest.raises(InputError, match="unknown export format"):
        xlib.export("docx", tag="reading-list")
    with pytest.raises(InputError, match="no collection"):
        xlib.export("ris", collection="NeurIPS 1987")
    with pytest.raises(InputError, match="choose one"):
        xlib.export("ris", tag="reading-list", collection="ICML 2024")
    assert len(_bibtex_entries(xlib.export("bibtex", collection="ICML 2024"))) == len(xlib.papers(collection="ICML 2024"))
