"""The question a paper asks, as its label, when it proposes nothing it names: "We study how
down-scaling LLM size impacts LLM capabilities" -> "How down-scaling large language model size
impacts LLM capabilities"; "we ask whether language models can directly learn to generate
watermarked text" -> "Can language models directly learn to generate watermarked text?"."""
from __future__ import annotations

import re

from .rules import label_breaks, unresolved_refs
from .standalone import strip_lead
from .vocab import VERBS

# "We study how ...", "this paper investigates whether ...", "we aim to understand why ..."
_ASKS = re.compile(r"^(?:we|this (?:paper|work|study))\s+(?:(?:first|further|then|also|systematically|empirically|"
                   r"theoretically|carefully|rigorously|formally)\s+)?(?:(?:aim|seek|set out|try|attempt|wish)s? to\s+)?"
                   r"(?:stud(?:y|ies)|investigates?|examines?|analy[sz]es?|explores?|asks?|understand|characteri[sz]es?|"
                   r"quantif(?:y|ies)|revisits?)\s+(?P<wh>how|what|why|when|whether)\s+(?P<rest>.+)$", re.I)
# where the question ends: the clause that goes on after it
_ENDS = re.compile(r"\s*(?:[;:.?]\s|[;:?]$|\.$|,\s+(?:and|but|which|while|where|thereby|thus|by|through|with|using|"
                   r"via|as|in|from|under|given|focusing|specifically|i\.e\.|e\.g\.|namely|especially|particularly|"
                   r"building|leading|revealing|showing|finding|discovering)\b|\s+[-–—]+\s|\s+and\s+(?:how|what|why|"
                   r"when|whether|if|propose|introduce|present|develop|find|show)\b)", re.I)
# a shorter question when the whole one is too long: before a relative clause or an example
_SHORTER = re.compile(r",?\s+(?:that|which|who|such as|including|e\.g\.|i\.e\.|in order to|so that|by|through|via|"
                      r"using|without|when|while|under|in terms of|across)\b")
_PARENS = re.compile(r"\s*\((?:[^()]{1,60})\)")
# "whether X can Y" -> "Can X Y?": the auxiliary after a short subject
_AUX = re.compile(r"^(?P<subj>(?:[\w'’-]+\s+){0,9}?[\w'’-]+)\s+(?P<aux>can|could|is|are|was|were|will|would|should|may|"
                  r"might|do|does|has|have)\s+(?P<pred>.+)$")
MAX_CHARS = 100


def _clause(rest: str) -> str:
    end = _ENDS.search(rest)
    clause = rest[:end.start()] if end else rest
    return _PARENS.sub("", clause).strip(" ,")


def _fit(wh: str, clause: str) -> str | None:
    """The clause, or its longest cut before a relative clause or an example, that fits after `wh`."""
    room = MAX_CHARS - len(wh) - 2
    if len(clause) <= room:
        return clause
    fitting = [m.start() for m in _SHORTER.finditer(clause)
               if len(clause[:m.start()].split()) >= 4 and m.start() <= room]
    return clause[:fitting[-1]].rstrip(" ,") if fitting else None


def _says(clause: str) -> bool:
    """Does the clause hold its verb ("how to adapt X", "how X affects Y"), not only a noun
    phrase cut short ("how the inherent invariances")? A clause of five words or more is taken to."""
    words = clause.lower().split()
    return words[0] == "to" or len(words) >= 5 or any(w in _AUXILIARY or w in VERBS or (w.endswith("s") and w[:-1] in VERBS) or
                                   (w.endswith("es") and w[:-2] in VERBS) for w in words[1:])


_AUXILIARY = frozenset("is are was were can could do does did will would should may might has have".split())


def question(sentences: list[str], own_start: int, tldr: str) -> str | None:
    """The paper's own question as a title, from the first sentences of its own part (or the
    TL;DR's sentence), or None."""
    picks = list(range(own_start, min(own_start + 3, len(sentences))))
    if tldr in sentences and sentences.index(tldr) not in picks:
        picks.append(sentences.index(tldr))
    for i in picks:
        m = _ASKS.match(strip_lead(sentences[i]))
        if not m:
            continue
        wh, clause = m.group("wh").lower(), _clause(m.group("rest"))
        clause = _fit(wh, clause) if clause else None
        if not clause or len(clause.split()) < 3 or "," in clause or unresolved_refs(clause) or \
                re.search(r"\b(?:this|these|those|such|it|they|them|its|their|the above)\b", clause, re.I):
            continue
        if wh == "whether":
            aux = _AUX.match(clause)
            if not aux or aux.group("subj").lower() in ("it", "this", "that"):
                continue
            label = f"{aux.group('aux').capitalize()} {aux.group('subj')} {aux.group('pred')}?"
        elif wh in ("how", "what", "why", "when"):
            label = f"{wh.capitalize()} {clause}"
        else:
            continue
        if _says(clause) and not set(label_breaks(label.rstrip("?"))) - {"opener", "claim"}:  # opens on its word
            return label
    return None
