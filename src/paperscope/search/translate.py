"""Chinese queries, translated to the English the library is written in, offline.

`translate_query("扩散模型 图像生成 venue:ICML")` gives
`Translation(english="diffusion model image generation venue:ICML", coverage=1.0, ...)`.

1. The query is split the way the query language reads it: `key:value` filters and English
   words, phrases and operators pass through untouched; Chinese runs are translated in place
   (inside quotes a translated phrase stays quoted, `-对抗` becomes `-adversarial`).
2. A Chinese run is segmented over the ML glossary (data/ml_glossary_zh_en.tsv, written for
   this project): the segmentation with the fewest pieces, unknown characters costing most.
   When the glossary covers the whole run, that is the answer, so its ML senses always win
   (图 -> graph, 强化学习 -> reinforcement learning, 元学习 -> meta-learning). Otherwise the
   general dictionary (CC-CEDICT, see cedict.py) joins in for the rest, each of its words
   costing more than a glossary word, so it fills gaps rather than re-splitting ML terms.
   Traditional characters are first mapped to simplified ones (強化學習 -> 强化学习).
   (No jieba: it needs ~0.55 s CPU to load per process and splits ML terms its dictionary
   lacks, 元学习 -> 元/学习, 强化学习 -> 强化/学习; segmenting over exactly the words we can
   translate costs nothing to load and keeps every term whole.)
3. Coverage says how much of the query was understood as ML vocabulary: the share of its
   Chinese characters (function words left out) translated by the glossary, dictionary words
   counting half (a general sense may not be the ML one), unknown characters nothing. Below
   `POOR_COVERAGE` the caller should show a warning next to "searched as: ...".

Pure: no I/O beyond reading the glossary and the cached dictionary once.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from .query import TOKEN

POOR_COVERAGE = 0.7
GLOSSARY = "ml_glossary_zh_en.tsv"
_COST = {"glossary": 1.0, "stop": 1.0, "dictionary": 2.5, "unknown": 4.0}
_DICT_MAX = 8  # longest dictionary word tried, in characters
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_HAN_DASH = re.compile(r"(?<=[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])[-‐‑–—](?=[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "『": '"', "』": '"',
                         "《": " ", "》": " ", "、": " ", "。": " ", "〈": " ", "〉": " ", "【": " ",
                         "】": " ", "·": " "})
_EDGE_PUNCT = ",.;:!?()[]{}<>'`~|\\"


class Term(NamedTuple):
    zh: str
    en: str
    source: str  # glossary | stop | dictionary | unknown


@dataclass
class Translation:
    english: str  # the query to run: English words, untouched filters and phrases
    coverage: float  # 0..1, see the module docstring; 1.0 for a query without Chinese
    terms: list[Term] = field(default_factory=list)
    is_chinese: bool = False

    @property
    def poor(self) -> bool:
        return self.is_chinese and self.coverage < POOR_COVERAGE

    @property
    def warning(self) -> str | None:
        if not self.poor:
            return None
        unknown = [t.zh for t in self.terms if t.source in ("unknown", "dictionary")]
        detail = f" (not ML terms: {'、'.join(unknown)})" if unknown else ""
        return (f"only {self.coverage:.0%} of the Chinese query was translated as ML terms{detail}; "
                "results may be unrelated: edit the English query to search better")

    def to_dict(self) -> dict:
        return {"searched_as": self.english, "coverage": round(self.coverage, 3),
                "is_chinese": self.is_chinese, "warning": self.warning,
                "terms": [{"zh": t.zh, "en": t.en, "source": t.source} for t in self.terms]}

    def hit_fields(self) -> dict | None:
        """What each search result carries for a Chinese query (None for others):
        `searched_as` and `translation` {coverage, warning, terms}."""
        if not self.is_chinese:
            return None
        d = self.to_dict()
        return {"searched_as": d.pop("searched_as"),
                "translation": {k: d[k] for k in ("coverage", "warning", "terms")}}


# --------------------------------------------------------------------------- lexicons


def read_glossary(text: str) -> dict[str, str]:
    """Chinese -> English from the glossary's TSV text (an empty English marks a function word)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        zh, _, en = line.partition("\t")
        zh = zh.strip()
        if zh and zh not in out:
            out[zh] = " ".join(en.split())
    return out


@lru_cache(maxsize=1)
def glossary() -> dict[str, str]:
    text = resources.files("paperscope.search").joinpath("data", GLOSSARY).read_text("utf-8")
    return read_glossary(text)


def _dictionary():
    """The general dictionary (`cedict.Dictionary`: words, traditional -> simplified)."""
    from . import cedict

    return cedict.load()


# --------------------------------------------------------------------------- segmentation


def segment(run: str, gloss: dict[str, str], words: dict[str, str] | None = None) -> list[Term]:
    """Cheapest split of a run of Chinese characters into glossary words, dictionary words
    (`words`, if given) and unknown single characters."""
    n = len(run)
    g_max = max(map(len, gloss), default=1)
    best: list[tuple[float, int, Term | None]] = [(0.0, 0, None)] + [(float("inf"), 0, None)] * n
    for i in range(n):  # best[j] = cheapest split of run[:j]; forward relaxation
        base = best[i][0]
        if base == float("inf"):
            continue
        options: list[Term] = []
        for j in range(min(n, i + g_max), i, -1):
            piece = run[i:j]
            if piece in gloss:
                options.append(Term(piece, gloss[piece], "glossary" if gloss[piece] else "stop"))
        if words:
            for j in range(min(n, i + _DICT_MAX), i, -1):
                piece = run[i:j]
                if piece in words and piece not in gloss:
                    options.append(Term(piece, words[piece], "dictionary"))
        options.append(Term(run[i], "", "unknown"))
        for term in options:
            j = i + len(term.zh)
            cost = base + _COST[term.source]
            if cost < best[j][0]:  # options come longest first: ties keep the longer word
                best[j] = (cost, i, term)
    out: list[Term] = []
    j = n
    while j > 0:
        _, i, term = best[j]
        out.append(term)
        j = i
    return out[::-1]


def translate_run(run: str, gloss: dict[str, str] | None = None) -> list[Term]:
    """One run of Chinese characters: glossary alone when it covers everything, else with the
    dictionary (loaded only then)."""
    gloss = glossary() if gloss is None else gloss
    terms = segment(run, gloss)
    if not any(t.source == "unknown" for t in terms):
        return terms
    general = _dictionary()
    simplified = run.translate(general.simplified)  # traditional characters -> simplified
    if simplified != run:
        terms = segment(simplified, gloss)
        if not any(t.source == "unknown" for t in terms):
            return terms
    return segment(simplified, gloss, general.words)


# --------------------------------------------------------------------------- queries


def _normalise(text: str) -> str:
    """Full-width forms to ASCII (NFKC: ｙｅａｒ：２０２０ -> year:2020), Chinese quotes to ",
    Chinese punctuation to spaces, a dash between Chinese characters dropped (编码器-解码器 is
    looked up as 编码器解码器)."""
    text = unicodedata.normalize("NFKC", str(text or "")).translate(_QUOTES)
    return _HAN_DASH.sub("", text)


def _english(terms: list[Term]) -> str:
    return " ".join(t.en for t in terms if t.en)


def _translate_text(text: str, terms: list[Term], gloss: dict[str, str] | None) -> str:
    """A bare word or a phrase body: Chinese runs translated, the rest kept (edge
    punctuation around Chinese dropped)."""
    parts: list[str] = []
    pos = 0
    for m in _HAN_RUN.finditer(text):
        parts.append(text[pos:m.start()])
        run_terms = translate_run(m.group(0), gloss)
        terms += run_terms
        parts.append(f" {_english(run_terms)} ")
        pos = m.end()
    parts.append(text[pos:])
    words = [w.strip(_EDGE_PUNCT) if _HAN.search(text) else w for w in " ".join(parts).split()]
    return " ".join(w for w in words if w)


def translate_query(text: str | None, gloss: dict[str, str] | None = None) -> Translation:
    """The English query for `text` (see the module docstring); a query without Chinese
    comes back unchanged with coverage 1.0. `gloss` replaces the shipped glossary (tests,
    benchmarks of earlier glossary versions)."""
    raw = str(text or "")
    norm = _normalise(raw)
    if not _HAN.search(norm):
        return Translation(english=raw, coverage=1.0)
    terms: list[Term] = []
    out: list[str] = []
    any_chinese = False
    for m in TOKEN.finditer(norm):
        neg, key, value = m.group(1), m.group(2), m.group(3)
        if key or not _HAN.search(value):  # filters (author:"张伟" too) and English: untouched
            out.append(m.group(0))
            continue
        any_chinese = True
        if value.startswith('"'):
            body = _translate_text(value.strip('"'), terms, gloss)
            if body:
                out.append(f'{neg}"{body}"')
            continue
        body = _translate_text(value.rstrip('"').rstrip("*"), terms, gloss)  # a glued quote closes nothing
        if not body:
            continue
        if neg:
            out.append(f'-"{body}"' if " " in body else f"-{body}")
        else:
            out.append(body)
    if not any_chinese:
        return Translation(english=raw, coverage=1.0)
    return Translation(english=" ".join(out), coverage=coverage(terms), terms=terms, is_chinese=True)


def coverage(terms: list[Term]) -> float:
    weight = {"glossary": 1.0, "dictionary": 0.5, "unknown": 0.0}
    counted = [(len(t.zh), weight[t.source]) for t in terms if t.source != "stop"]
    total = sum(n for n, _ in counted)
    return sum(n * w for n, w in counted) / total if total else 0.0
