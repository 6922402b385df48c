"""Compare two venues: topic shares (topics fitted on the union), distinctive terms by weighted
log-odds with an informative Dirichlet prior (Monroe, Colaresi & Quinn 2008, "Fightin' Words"),
and counts by paper type."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np

from ..filters import Filter, scope_key
from ..model import InputError
from .terms import Terms
from .topics import SMALL_SAMPLE
from .vectors import paper_text


def log_odds(counts_a: np.ndarray, counts_b: np.ndarray, prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Monroe et al. (2008) eq. 16-22: the log-odds ratio of each word between corpora a and b,
    shrunk by Dirichlet prior counts `prior` (alpha_w), and its z-score (delta / sqrt(var)).
    Positive z: the word is typical of a."""
    ya, yb, aw = (np.asarray(v, dtype=np.float64) for v in (counts_a, counts_b, prior))
    na, nb, a0 = ya.sum(), yb.sum(), aw.sum()
    delta = (np.log((ya + aw) / np.maximum(na + a0 - ya - aw, 1e-12))
             - np.log((yb + aw) / np.maximum(nb + a0 - yb - aw, 1e-12)))
    var = 1.0 / (ya + aw) + 1.0 / (yb + aw)
    return delta, delta / np.sqrt(var)


SIGNIFICANT_Z = 1.96  # a term is listed only when its log-odds z-score says it really leans one way
MIN_PAPERS = 3  # ... and it occurs in at least this many papers (and 1 %) of that side
SMALL_SIDE = SMALL_SAMPLE  # under this many papers a side's statistics are weak: the result says so


def distinctive_terms(texts_a: list[str], texts_b: list[str], *, n: int = 15,
                      prior_scale: float = 1.0) -> dict[str, list[dict[str, Any]]]:
    """Most distinctive terms of each side. The prior is the pooled corpus: alpha_w =
    prior_scale * (count in a + count in b), i.e. an informative prior centred on the shared
    vocabulary, so rare words need real evidence to rank. Only significant terms (|z| >=
    1.96) that several papers of their side use are listed: a word one paper repeats, or a
    generic word ("different", "quality") that leans one way by chance in small samples, is not
    distinctive. Two small samples of one population may well have none."""
    terms = Terms(list(texts_a) + list(texts_b), min_df=3)
    counts = terms.counts
    ya = np.asarray(counts[:len(texts_a)].sum(axis=0)).ravel()
    yb = np.asarray(counts[len(texts_a):].sum(axis=0)).ravel()
    present = counts > 0
    docs_a = np.asarray(present[:len(texts_a)].sum(axis=0)).ravel()
    docs_b = np.asarray(present[len(texts_a):].sum(axis=0)).ravel()
    prior = prior_scale * (ya + yb)
    delta, z = log_odds(ya, yb, np.maximum(prior, 1e-3))

    def side(sign: int, docs: np.ndarray, size: int) -> list[dict[str, Any]]:
        order = sorted(range(len(z)), key=lambda j: (-sign * z[j], terms.vocab[j]))
        enough = max(MIN_PAPERS, 0.01 * size)
        out: list[dict[str, Any]] = []
        said: list[set[str]] = []
        for j in order:
            if sign * z[j] < SIGNIFICANT_Z or len(out) >= n:
                break
            if docs[j] < enough:
                continue
            words = set(terms.vocab[j].split())
            if any(words <= s for s in said):
                continue  # "llm" after "llm prompt", "language" after "language model"
            said.append(words)
            out.append({"term": terms.display[j], "z": round(float(z[j]), 3),
                        "log_odds": round(float(delta[j]), 4), "count_a": int(ya[j]), "count_b": int(yb[j]),
                        "papers_a": int(docs_a[j]), "papers_b": int(docs_b[j])})
        return out

    return {"a": side(1, docs_a, len(texts_a)), "b": side(-1, docs_b, len(texts_b))}


def paper_type(paper: dict[str, Any]) -> str:
    """The enrich package's `paper_type` (a string or {type|label|value, confidence}), else
    'unknown'."""
    t = paper.get("paper_type")
    if isinstance(t, dict):
        t = t.get("type") or t.get("label") or t.get("value") or t.get("name")
    return str(t) if t else "unknown"


def resolve(analysis: Any, name: str) -> tuple[str, list[dict[str, Any]]]:
    """A collection name ("ICML 2024"), or a venue with an optional year, to its papers."""
    name = " ".join(name.split())
    papers = analysis.papers(Filter(collection=name))
    if papers:
        return name, papers
    m = re.fullmatch(r"(.+?)\s*(\d{4})", name)
    venue, year = (m.group(1), int(m.group(2))) if m else (name, None)
    papers = analysis.papers(Filter.of(venue=venue, year=year))
    if papers:
        return name, papers
    known = ", ".join(c["name"] for c in analysis.store.collection_stats()) or "none"
    raise InputError(f"no papers for {name!r} (collections: {known})")


def compare(analysis: Any, a: str, b: str, *, level: str | int = "coarse") -> dict[str, Any]:
    name_a, papers_a = resolve(analysis, a)
    name_b, papers_b = resolve(analysis, b)
    ids_a = {p["id"] for p in papers_a}
    ids_b = {p["id"] for p in papers_b}
    if ids_a == ids_b:
        raise InputError(f"{name_a!r} and {name_b!r} are the same papers: compare two different collections")
    union = {p["id"]: p for p in papers_a + papers_b}
    result = analysis.topic_result(list(union.values()),
                          scope=scope_key(collections=[name_a, name_b]), level=level)
    n_a = sum(1 for pid in result.ids if pid in ids_a)
    n_b = sum(1 for pid in result.ids if pid in ids_b)
    rows = []
    for topic in result.table():
        in_a = sum(1 for pid in topic["papers"] if pid in ids_a)
        in_b = sum(1 for pid in topic["papers"] if pid in ids_b)
        rows.append({"id": topic["id"], "label": topic["label"], "size": topic["size"],
                     "a": in_a, "b": in_b,
                     "a_share": round(in_a / n_a, 4) if n_a else 0.0,
                     "b_share": round(in_b / n_b, 4) if n_b else 0.0,
                     "papers": topic["papers"]})
    terms = distinctive_terms([paper_text(p) for p in papers_a], [paper_text(p) for p in papers_b])
    return {
        "a": {"name": name_a, "papers": len(papers_a), "unassigned": len(papers_a) - n_a},
        "b": {"name": name_b, "papers": len(papers_b), "unassigned": len(papers_b) - n_b},
        "shared_papers": len(ids_a & ids_b),
        "small": [name for name, papers in ((name_a, papers_a), (name_b, papers_b)) if len(papers) < SMALL_SIDE],
        "warnings": [f"{name} has only {len(papers)} papers: shares and distinctive terms are weak evidence"
                     for name, papers in ((name_a, papers_a), (name_b, papers_b)) if len(papers) < SMALL_SIDE],
        "topics": rows,
        "distinctive": {name_a: terms["a"], name_b: terms["b"]},
        "paper_types": {name_a: dict(sorted(Counter(paper_type(p) for p in papers_a).items())),
                        name_b: dict(sorted(Counter(paper_type(p) for p in papers_b).items()))},
        "method": {"topics": "spherical k-means on the union of both venues, c-TF-IDF labels",
                   "terms": "weighted log-odds, informative Dirichlet prior = pooled counts "
                            "(Monroe et al. 2008); z-scores; listed when |z| >= 1.96 and used by "
                            ">= 3 papers (and 1 %) of the side"},
    }
