"""A small library of papers with hard-to-export fields (LaTeX specials, accents, math, acronyms,
name particles, DOI / arXiv / OpenReview links) plus the title-less sample lists, tagged and
annotated, for the export and import tests."""
from __future__ import annotations

import json
from pathlib import Path

from paperscope.library import Library

TRICKY = [
    {"title": "Fast & Accurate 50% Pruning of GANs with $\\ell_1$ Penalties",
     "authors": ["Bernhard Schölkopf", "Laurens van der Maaten", "Zhang Wei"],
     "abstract": "We prune 50% of a GAN's weights with an $\\ell_1$ penalty; cost drops by ~3x and "
                 "FID stays within 1% of the dense model on CIFAR-10 & ImageNet, see Section #4 for "
                 "the {braces} and under_scores and a caret ^ in the appendix.",
     "venue": "ICML", "year": 2024, "status": "Oral",
     "url": "https://doi.org/10.5555/icml.2024.12345"},
    {"title": "BERT Meets Graphs: Message Passing for Token Interactions",
     "authors": ["José Álvarez-Núñez", "Søren Kierkegaard Jr."],
     "abstract": "Transformers such as BERT treat tokens as a set; we add message passing along a "
                 "dependency graph and show gains on GLUE and SuperGLUE without extra parameters "
                 "or pre-training compute budget.",
     "venue": "ICML", "year": 2024,
     "url": "https://arxiv.org/abs/2401.01234"},
    {"title": "Pruning Transformers Without Retraining",
     "authors": ["Bernhard Schölkopf"],
     "abstract": "A second paper by the same first author, same year and same first title word as "
                 "the pruning paper above, so that citation keys must be told apart by suffixes.",
     "venue": "ICML", "year": 2024,
     "url": "https://openreview.net/forum?id=AbC123xyz"},
    {"title": "Fast Kernels: Another Collision for the Key Disambiguation Test Case",
     "authors": ["Bernhard Schölkopf"],
     "abstract": "A third paper with the same first author, year and first significant title word, "
                 "needed to check that keys get distinct suffixes in a deterministic order.",
     "venue": "ICML", "year": 2024},
]


def build_library(path: Path, samples_dir: Path) -> Library:
    rich = path.parent / "tricky.jsonl"
    rich.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in TRICKY), encoding="utf-8")
    lib = Library.open(path)
    lib.ingest([rich], embed=False)
    lib.ingest([samples_dir / "000_57cfd0dc3b5a87a8.txt"], embed=False)
    ids = [paper_id(lib, t["title"]) for t in TRICKY]
    first = ids[0]
    lib.tag(ids, "reading-list")
    lib.tag(first, "gans & pruning")
    lib.note(first, 'Check the "50%" claim; compare with {magnitude} pruning\nsecond line')
    lib.star(first)
    lib.read(ids[1])
    untitled = [p["id"] for p in lib.papers(collection="ICML 2024") if not p["title"]][:2]
    lib.tag(untitled, "reading-list")
    return lib


def paper_id(lib: Library, title: str) -> str:
    """The id of the paper whose title starts like `title` (stored titles are plain text)."""
    head = title[:20]
    found = [p["id"] for p in lib.papers() if (p["title"] or "").startswith(head)]
    assert len(found) == 1, (title, found)
    return found[0]
