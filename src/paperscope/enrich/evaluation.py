"""Score derived facts against a hand-labelled set (tests/data/enrich_eval.jsonl).

Each line holds `key` (the first 48 characters of the abstract's identity key, see
`model.match_key`), `split` (`samples`: the bundled example lists; `icml_heldout`: ICML 2024
posters from the shared corpus), `methods` (expected names; `A|B` accepts either spelling) and
`paper_type`. The abstracts themselves are looked up in the lists and the corpus, so the label
file carries no copied text. Used by the test suite and by benchmarks/enrich_eval.py.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..model import clean_text, latex_to_plain, match_key
from .text import name_key


@dataclass
class LabelledPaper:
    key: str
    split: str
    methods: list[str]
    paper_type: str
    title: str | None
    abstract: str = ""


def load_labels(path: Path) -> list[LabelledPaper]:
    out = []
    for line in Path(path).read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out.append(LabelledPaper(row["key"], row["split"], row["methods"],
                                     row["paper_type"], row.get("title")))
    return out


def _plain(text: str) -> str:
    return latex_to_plain(clean_text(text))


def sample_abstracts(samples_dir: Path) -> dict[str, str]:
    """Identity key prefix -> plain abstract, for every paragraph of the sample lists."""
    out = {}
    for path in sorted(Path(samples_dir).glob("*.txt")):
        paras = [p.strip() for p in path.read_text("utf-8").split("\n\n") if p.strip()]
        for para in paras[1:]:  # the first paragraph is the list header
            out[match_key(para)[:48]] = _plain(para)
    return out


def icml_abstracts(corpora_dir: Path) -> dict[str, tuple[str, str]]:
    """Identity key prefix -> (plain title, plain abstract) for ICML 2024 posters."""
    path = Path(corpora_dir) / "icml2024_events" / "icml2024_events.json"
    out = {}
    for e in json.loads(path.read_text("utf-8")):
        if e.get("type") == "Poster" and e.get("abstract"):
            out[match_key(e["abstract"])[:48]] = (_plain(e["name"]), _plain(e["abstract"]))
    return out


def attach_abstracts(labels: list[LabelledPaper], samples: dict[str, str],
                     icml: dict[str, tuple[str, str]] | None) -> list[LabelledPaper]:
    """Labels whose abstract was found (ICML ones only when the corpus is given)."""
    out = []
    for lab in labels:
        if lab.key in samples:
            lab.abstract = samples[lab.key]
        elif icml is not None and lab.key in icml:
            lab.abstract = icml[lab.key][1]
        else:
            continue
        out.append(lab)
    return out


# --------------------------------------------------------------------------- scoring


@dataclass
class Scores:
    papers: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    type_correct: int = 0
    confusion: Counter = field(default_factory=Counter)  # (expected, predicted) -> count
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def type_accuracy(self) -> float:
        return self.type_correct / self.papers if self.papers else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "methods": {"precision": round(self.precision, 3), "recall": round(self.recall, 3),
                        "f1": round(self.f1, 3), "tp": self.tp, "fp": self.fp, "fn": self.fn},
            "paper_type": {"accuracy": round(self.type_accuracy, 3),
                           "confusion": {f"{e}->{p}": n for (e, p), n in
                                         sorted(self.confusion.items())}},
        }


def match_methods(expected: list[str], predicted: list[str]) -> tuple[int, list[str], list[str]]:
    """(true positives, false positives, missed) for one paper; each expected item may list
    alternative spellings separated by `|`, and matches at most one predicted name."""
    wanted = [{name_key(a) for a in item.split("|")} for item in expected]
    hit = [False] * len(wanted)
    extra = []
    for name in predicted:
        key = name_key(name)
        for j, alts in enumerate(wanted):
            if not hit[j] and key in alts:
                hit[j] = True
                break
        else:
            extra.append(name)
    missed = [item for item, h in zip(expected, hit) if not h]
    return sum(hit), extra, missed


def score(papers: Iterable[LabelledPaper],
          derive: Callable[[str | None, str], dict[str, Any]], use_titles: bool = False) -> Scores:
    s = Scores()
    for p in papers:
        facts = derive(p.title if use_titles else None, p.abstract)
        tp, extra, missed = match_methods(p.methods, facts.get("methods", []))
        s.papers += 1
        s.tp += tp
        s.fp += len(extra)
        s.fn += len(missed)
        predicted_type = facts.get("paper_type")
        s.type_correct += predicted_type == p.paper_type
        s.confusion[(p.paper_type, predicted_type)] += 1
        if extra or missed or predicted_type != p.paper_type:
            s.errors.append({"key": p.key, "title": p.title, "extra": extra, "missed": missed,
                             "type": [p.paper_type, predicted_type]})
    return s
