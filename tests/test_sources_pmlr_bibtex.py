"""PMLR proceedings posts and BibTeX files."""
from __future__ import annotations

from paperscope import sources
from paperscope.model import Problem, Record

ABSTRACT = ("We study the problem of learning sparse representations from noisy data and show "
            "that a simple thresholding rule recovers the support with high probability, "
            "at rate $\\mathcal{O}(n^{-1/2})$.")

POST = """---
title: Sparse Recovery by Thresholding
abstract: '{abstract}'
openreview: q9TqTSk9cy
software: https://github.com/example/sparse
section: Papers
id: an24a
author:
- given: Steven
  family: An
- given: Sanjoy
  family: Dasgupta
container-title: Proceedings of the Fortieth Conference on Uncertainty in Artificial Intelligence
issued:
  date-parts:
  - 2024
  - 9
  - 12
pdf: https://raw.githubusercontent.com/mlresearch/v244/main/assets/an24a/an24a.pdf
---
"""


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


def make_volume(root, config="shortname: UAI\nyear: '2023'\nvolume: '216'\n"):
    posts = root / "_posts"
    posts.mkdir(parents=True)
    if config is not None:
        (root / "_config.yml").write_text(config, encoding="utf-8")
    (posts / "2024-09-12-an24a.md").write_text(POST.format(abstract=ABSTRACT), encoding="utf-8")
    (posts / "2024-09-12-preface.md").write_text(
        "---\ntitle: Preface\nsection: Preface\nabstract: Welcome to the conference.\n---\n", encoding="utf-8")
    (posts / "2024-09-12-zz24a.md").write_text(
        "---\ntitle: Broken\nabstract: 'unclosed\nauthor: []\n---\n", encoding="utf-8")
    (root / "README.md").write_text("not a post", encoding="utf-8")
    return posts


def test_pmlr_volume_folder(tmp_path):
    make_volume(tmp_path / "v216")
    files = sources.expand([tmp_path / "v216"])
    assert [f.name for f in files] == ["2024-09-12-an24a.md", "2024-09-12-preface.md", "2024-09-12-zz24a.md"]
    assert {sources.detect(f) for f in files} == {"pmlr"}
    [rec] = sources.read(files[0])
    assert (rec.venue, rec.year) == ("UAI", 2023)  # the volume's config wins over the post's dates
    assert rec.title == "Sparse Recovery by Thresholding" and rec.abstract == ABSTRACT
    assert rec.authors == ["Steven An", "Sanjoy Dasgupta"]
    assert rec.urls == {"pdf": "https://raw.githubusercontent.com/mlresearch/v244/main/assets/an24a/an24a.pdf",
                        "code": "https://github.com/example/sparse",
                        "openreview": "https://openreview.net/forum?id=q9TqTSk9cy",
                        "paper": "https://proceedings.mlr.press/v216/an24a.html"}
    [preface] = sources.read(files[1])
    assert not preface.fatal and "preface" in preface.reason
    [broken] = sources.read(files[2])
    assert broken.fatal and broken.line == 3 and "invalid YAML" in broken.reason


def test_pmlr_without_config_uses_the_post_then_arguments(tmp_path):
    posts = make_volume(tmp_path / "loose", config=None)
    [rec] = sources.read(posts / "2024-09-12-an24a.md")
    assert (rec.venue, rec.year) == ("UAI", 2024)  # container-title and issued date
    [rec] = sources.read(posts / "2024-09-12-an24a.md", venue="AISTATS", year=2025)
    assert (rec.venue, rec.year) == ("AISTATS", 2025)


def test_markdown_without_front_matter_is_fatal(tmp_path):
    path = tmp_path / "post.md"
    path.write_text("---\ntitle: x\nabstract: never closed\n", encoding="utf-8")
    [problem] = sources.read(path, fmt="pmlr")
    assert problem.fatal and "not closed" in problem.reason


BIB = r"""% exported from a reference manager
@string{icml = "Proceedings of the 41st International Conference on Machine Learning"}

@inproceedings{an24,
  title     = {Sparse {Recovery} by Thresholding},
  author    = {An, Steven and Dasgupta, Sanjoy and others},
  booktitle = icml,
  year      = {2024},
  url       = {https://proceedings.mlr.press/v235/an24a.html},
  doi       = {10.5555/123},
  keywords  = {sparsity, thresholding},
  abstract  = {@ABSTRACT@}
}

@article{noabs,
  title   = {No Abstract Here},
  author  = {Turing, Alan},
  journal = {Journal of Machine Learning Research},
  year    = 2020
}

@comment{ignored}

@misc{arx,
  title = {From arXiv},
  author = {Ada Lovelace and Grace Hopper},
  eprint = {2401.00001},
  archivePrefix = {arXiv},
  year = {2024},
  abstract = {@ABSTRACT@}
}

@article{broken,
  title = {Missing brace,
  year = 2021

@inproceedings{neurips,
  title = {Last One},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2023},
  abstract = {@ABSTRACT@}
}
""".replace("@ABSTRACT@", ABSTRACT)


def test_bibtex_entries(tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    assert sources.detect(path) == "bibtex"
    records, problems = split(sources.read(path))
    lines = BIB.splitlines()
    assert [lines[r.line - 1].split("{")[0] for r in records] == ["@inproceedings", "@misc", "@inproceedings"]
    first, arx, last = records
    assert first.title == "Sparse {Recovery} by Thresholding" and first.abstract == ABSTRACT
    assert first.authors == ["Steven An", "Sanjoy Dasgupta"]
    assert (first.venue, first.year) == ("ICML", 2024)
    assert first.keywords == ["sparsity", "thresholding"]
    assert first.urls == {"paper": "https://proceedings.mlr.press/v235/an24a.html",
                          "doi": "https://doi.org/10.5555/123"}
    assert (arx.venue, arx.external_id, arx.authors) == ("arXiv", "arXiv:2401.00001", ["Ada Lovelace", "Grace Hopper"])
    assert (last.venue, last.year) == ("NeurIPS", 2023)
    no_abstract, broken = problems
    assert lines[no_abstract.line - 1].startswith("@article{noabs") and "no abstract" in no_abstract.reason
    assert lines[broken.line - 1].startswith("@article{broken") and "invalid BibTeX" in broken.reason
    assert all(p.source == str(path) and not p.fatal for p in problems)
