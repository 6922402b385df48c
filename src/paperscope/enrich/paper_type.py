"""What kind of paper this is: method, theory, benchmark (or dataset), empirical study,
position or survey, with a confidence in [0, 1].

A transparent cue-phrase classifier: each type collects weighted evidence from phrases in the
abstract (and the title when known); the scores go through a softmax. `method` starts with a
prior because most ML papers propose one.
"""
from __future__ import annotations

import math
import re

TYPES = ("method", "theory", "benchmark", "empirical", "position", "survey")

_OWN = r"(?:we|this (?:paper|work|study)|our (?:paper|work))"
_RULES: dict[str, list[tuple[float, str]]] = {
    "method": [
        (1.2, r"\b(?:we|this (?:paper|work))\b[^.]{0,80}?\b(?:propose|introduce|present|develop|"
              r"design|devise)s?\b(?![^.]{0,50}\b(?:benchmark|dataset|suite|testbed|"
              r"evaluation framework|bounds?|guarantees?)\b)"),
        (1.0, r"\b(?:outperform|surpass)\w*|\bstate-of-the-art (?:performance|results)\b|"
              r"\bachiev\w+ (?:the )?(?:state-of-the-art|sota|superior|significant|competitive)\b"),
        (0.8, r"\b(?:our|the proposed) (?:method|approach|framework|model|algorithm|technique)s?\b"),
        (0.6, r"\b(?:novel|new) (?:\w+ )?(?:method|approach|framework|architecture|algorithm|"
              r"technique|model|module|loss|objective|strategy|layer|mechanism)\b"),
        (0.5, r"\bextensive experiments\b|\bexperiments? (?:on|across) \w+"),
    ],
    "theory": [
        (1.2, r"\bwe (?:\w+ )?(?:prove|derive)\b|\bwe (?:establish|provide|give|obtain|show) "
              r"(?:\w+ ){0,3}(?:bounds?|rates?|guarantees?|regret|complexity|convergence)\b"),
        (0.8, r"\b(?:upper|lower|regret|minimax|generalization|error|risk|sample complexity) "
              r"bounds?\b|\bregret\b|\bsample complexity\b|\bminimax\b|\bconvergence rates?\b"),
        (0.7, r"\btheorem\b|\blemma\b|\bcorollar\w+\b|\bprovabl\w+|\btight\b|\bnear-optimal\b|"
              r"\bnp-hard\b|\bpolynomial[- ]time\b|\basymptotic\w*\b|\balmost surely\b"),
        # one \b in front of all words: a branch without one first makes the scan 5x slower
        (0.6, r"\b(?:O\(|excess risk\b|identifiab\w+|consisten(?:t|cy) estimat\w+|"
              r"we characteri[sz]e\b|theoretical (?:analysis|understanding|study|results?|"
              r"framework|guarantees?|insights?)\b|mathematical\w*\b)|[ÕΘΩ]\("),
        (0.5, r"\bunder (?:\w+ ){0,3}assumptions?\b|\bin the regime\b|\bstationary point\b|"
              r"\bwe (?:study|analy[sz]e|investigate) (?:the )?(?:\w+ ){0,3}(?:problem|setting)\b"),
        (0.4, r"\bbounds?\b|\bguarantee[sd]?\b|\bconverge\w*\b|"
              r"\bcomplexity\b|\btheor\w+\b|\bproofs?\b|\bprove[sn]?\b"),
        (0.15, r"[εδΔθλμσΩΘÕ∈≤≥√∑∞ℓ]|\^-?\d|_\{?\w\}?\^"),
    ],
    "benchmark": [
        (2.2, r"\b(?:introduce|present|propose|release|construct|develop|build|curate|create|"
              r"collect)s?\w* (?:[\w,\-]+ ){0,6}?(?:benchmarks?|datasets?|suites?|testbeds?|"
              r"leaderboards?|corpus|evaluation (?:framework|protocol|suite))\b"),
        (1.2, r"\bthe first (?:\w+ ){0,4}(?:benchmark|dataset|suite|testbed)\b|"
              r"\b(?:benchmark|dataset) (?:for|of|to) (?:evaluat|assess|measur)\w+"),
        (0.8, r"\bwe (?:evaluate|benchmark|assess|test) (?:a range of |several |many |various |"
              r"\d+ |existing |popular |state-of-the-art |recent |leading )(?:\w+ ){0,3}"
              r"(?:models|methods|llms|algorithms|approaches|systems)\b"),
        (0.6, r"\bbenchmarking\b|\bleaderboard\b|\bevaluation (?:framework|protocol|suite)\b|"
              r"\bpublicly available\b[^.]{0,200}\b(?:dataset|benchmark)\b"),
    ],
    "empirical": [
        (1.6, r"\b(?:conduct|perform|present|carry out)\w* (?:an? |the )?(?:first |comprehensive |"
              r"extensive |large-scale |systematic |thorough |careful |rigorous |empirical |in-depth )+"
              r"(?:\w+ ){0,2}(?:study|analysis|evaluation|investigation|comparison|examination)\b"),
        (1.2, r"\b(?:empirical|experimental) (?:study|analysis|investigation|evaluation|"
              r"evidence)\b|\bwe (?:empirically )?(?:find|observe|discover|reveal|uncover) that\b"),
        (1.0, r"\bwe (?:ask|investigate|examine|study|explore|question) (?:whether|how|why|what|if)\b|"
              r"\bour (?:findings|analysis|results) (?:suggest|show|reveal|indicate|highlight|"
              r"underline|underscore)\b|\bsober\b|\brevisit\w*\b|\breexamin\w+|\bre-examin\w+"),
        (0.6, r"\bsurprisingly\b|\bcontrary to\b|\bpitfalls?\b|\bfindings\b|\bsanity check\b|"
              r"\bdissect\w*\b|\bwe (?:analy[sz]e|study|investigate) (?:the )?(?:effect|impact|role|"
              r"behavio\w+)\b"),
    ],
    "position": [
        (3.0, r"\bposition paper\b|\bwe take the position\b|\bthis position\b"),
        (1.5, r"\bwe (?:\w+ )?(?:argue|advocate|contend|posit|urge|call (?:for|on)|caution)\b|"
              r"\bthis (?:paper|work|essay) (?:argues|advocates|calls)\b"),
        (0.8, r"\bresearch (?:agenda|community|directions?)\b|\bopen (?:problems|challenges|"
              r"questions)\b|\bopportunit(?:y|ies)\b|\bwe (?:discuss|outline|identify|highlight) "
              r"(?:\w+ ){0,3}(?:challenges|opportunities|directions|implications|risks)\b"),
        (0.5, r"\bshould\b|\bmust\b|\bsociet\w+|\bpolicy ?makers?\b|\bstakeholders?\b|"
              r"\bregulat\w+|\bgovernance\b|\bresponsible\b|\bethic\w+"),
    ],
    "survey": [
        (3.0, r"\b(?:this|we|our) (?:\w+ ){0,2}(?:survey|literature review|systematic review)\b|"
              r"\bwe review\b|\bcomprehensive (?:overview|review|survey)\b"),
        (1.0, r"\btaxonomy\b|\bwe (?:summari[sz]e|categori[sz]e|organi[sz]e) (?:\w+ ){0,3}"
              r"(?:existing|recent|the literature|prior)\b|\bexisting literature\b"),
    ],
}
# Rules run on the lower-cased abstract (faster than case-insensitive matching).
_COMPILED = {t: [(w, re.compile(rx.lower())) for w, rx in rules] for t, rules in _RULES.items()}
_TITLE_RULES = [
    ("position", 4.0, re.compile(r"^\s*position\s*:", re.I)),
    ("survey", 3.0, re.compile(r"\b(?:survey|review|overview|primer|tutorial)\b", re.I)),
    ("benchmark", 2.0, re.compile(r"\b(?:benchmark|dataset|bench|suite|arena|leaderboard)\b", re.I)),
    ("empirical", 1.0, re.compile(r"\b(?:empirical|study|investigat\w+|understanding|revisit\w*|"
                                  r"rethinking|sober|lessons?|what|how|when|why|does|do|can|is|are)\b",
                                  re.I)),
    ("theory", 1.0, re.compile(r"\b(?:bounds?|regret|complexity|convergence|provabl\w+|"
                               r"theory|theoretical|optimal|guarantees?|minimax|hardness)\b", re.I)),
]
_EXPERIMENTS = re.compile(r"\bexperiment\w*|\bempirical\w*|\bdatasets?\b|\bbenchmarks?\b|"
                          r"\bstate-of-the-art\b|\boutperform\w*")
_PRIOR = {"method": 0.8, "theory": 0.0, "benchmark": 0.0, "empirical": 0.0, "position": -0.5,
          "survey": -0.5}
_CAPS = {0.4: 5, 0.15: 8}  # broad rules count more hits; the others at most two


def type_scores(abstract: str, title: str | None = None) -> dict[str, float]:
    scores = dict(_PRIOR)
    lower = abstract.lower()
    for t, rules in _COMPILED.items():
        for weight, rx in rules:
            hits = len(rx.findall(lower))
            scores[t] += weight * min(hits, _CAPS.get(weight, 2))
    if title:
        for t, weight, rx in _TITLE_RULES:
            if rx.search(title):
                scores[t] += weight
    # a paper full of guarantees and no experiments is theory even if it "proposes" an algorithm
    experiments = len(_EXPERIMENTS.findall(lower))
    if experiments == 0:
        scores["theory"] += 1.0
    elif experiments >= 3:
        scores["method"] += 0.5 * min(experiments - 2, 3)
    return scores


def classify(abstract: str, title: str | None = None) -> tuple[str, float]:
    """(paper type, confidence): the softmax share of the winning type."""
    scores = type_scores(abstract, title)
    best = max(TYPES, key=lambda t: (scores[t], -TYPES.index(t)))
    z = sum(math.exp(scores[t] - scores[best]) for t in TYPES)
    return best, round(1.0 / z, 2)
