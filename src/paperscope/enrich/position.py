"""Does an abstract argue rather than report? A position paper ("Position: ...") is told by what
it says of itself ("this position paper", "we argue", "we call on the community") and by how
little it says about experiments: a weighted count of cues, fitted on development data. Its label
is "Position: <what the paper argues>" (`position_headline`)."""
from __future__ import annotations

import re
from functools import lru_cache

from .noun_phrase import ASIDE, LEAD, capital, content, leans_back, tidy
from .rules import label_breaks

_POSITION = re.compile(r"position paper|this position|our position|we take the position|"
                       r"in this (?:piece|essay)", re.I)
_ADVOCATE = re.compile(r"\bwe (?:\w+ )?(?:advocate|urge|call on)\b|this paper (?:argues|advocates|"
                       r"calls)", re.I)
# cues of a position paper when the abstract does not say "position paper" (weights of a
# logistic fit on the tuning half of ICML 2024 against ICLR 2020 / PMLR / NIPS abstracts,
# rounded; a match counts at most twice); POSITION_AT: the score that makes it one
# (run on the lower-cased abstract, except the one that needs its case: faster than re.I)
_POSITION_CUES = [(w, re.compile(rx), "(?-i:" in rx) for w, rx in (
    (2.2, r"\bwe (?:\w+ )?(?:argue|contend|posit|believe|caution)\b|"
          r"\b(?:paper|work|piece|essay) (?:argues|contends)\b"),
    (2.1, r"\badvocat\w+|\burg(?:e|es)\b|\bcalls? (?:for|on|to action)\b"),
    (2.1, r"\bposition\b(?! (?:embeddings?|encodings?|ind(?:ex|ices)|ids?|bias|information|interpolation|"
          r"of (?:the|each|a|an|tokens?|objects?))\b)|\bperspective\b|\bessay\b|\bpiece\b"),  # not "position indices"
    (0.5, r"\bshould\b"),
    (1.5, r"\b(?:research|ml|ai|machine learning|scientific) communit\w+"),
    (2.0, r"\bfuture (?:research|directions?)\b|\bresearch (?:agenda|directions?)\b|"
          r"\bopen (?:problems|challenges|questions)\b|\bopportunit\w+"),
    (-0.4, r"\bexperiment\w*|\boutperform\w*|\bstate-of-the-art\b|\bbenchmarks?\b|\bdatasets?\b"),
    (-0.25, r"\bwe (?:propose|introduce)\b"),
    (1.9, r"(?-i:\bAI\b|\bAGI\b)"),
    (1.5, r"\bwe (?:discuss|outline|highlight|identify|reflect)\b"))]
POSITION_AT = 5.5


def position_score(text: str) -> float:
    """How much an abstract reads like a position paper (argues, calls for, speaks to the
    community, little about experiments)."""
    lower = text.lower()
    return sum(w * min(len(rx.findall(text if cased else lower)), 2) for w, rx, cased in _POSITION_CUES)


@lru_cache(maxsize=64)  # the label asks twice per abstract
def is_position(text: str, paper_type: str | None = None) -> bool:
    return paper_type == "position" or bool(_POSITION.search(text)) or \
        (paper_type not in (None, "method") and bool(_ADVOCATE.search(text))) or \
        position_score(text) >= POSITION_AT


_ARGUE = re.compile(r"\b(?:we|this (?:position )?(?:paper|piece|work)|our position is)\s+(?:\w+ly\s+)?"
                    r"(?:argue|contend|posit|advocate|urge|call)s?\s+(?:and (?:\w+ly )?\w+\s+)?"  # "argue and show that"
                    r"(?:that\s+|for\s+)?", re.I)
# "advocate for the construction of foundation agents": what is advocated, not its making
_MAKING = re.compile(r"^(?:the )?(?:construction|development|creation|use|adoption|establishment) of (?=\w)", re.I)


def position_headline(sentences: list[str], limit: int) -> str | None:
    """"Position: <what the paper argues>" for a position paper, from "we argue that S",
    "we advocate for X" or "we propose X"; None when no such sentence reads as a title."""
    room = limit - len("Position: ")
    for s in sentences:
        for m in _ARGUE.finditer(s):
            rest = ASIDE.sub(r"\1 ", s[m.end():])
            if re.match(r"(?:to|how|why|whether|what|a (?:new |novel )?(?:perspective|view))\b", rest, re.I):
                continue
            clause = re.split(r";|:\s|\s[-–—]+\s|---|,\s(?:and|but|which|while|as|since|because|"
                              r"thereby|so)\b|\.(?:\s|$)", rest)[0]
            text = tidy(LEAD.sub("", clause) if not m.group().rstrip().endswith("that") else clause)
            if m.group().rstrip().endswith("for"):
                text = "The case for " + _MAKING.sub("", text)
            if not text or len(text) > room or len(text.split()) < 4 or leans_back(text) or \
                    content(text) < 3:
                continue  # a claim cut to fit says less than it claims: another sentence, or the scored phrases
            label = f"Position: {capital(text)}"
            if not label_breaks(label, position=True):
                return label
    return None
