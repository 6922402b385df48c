"""Extractive TL;DR: the one sentence of the abstract that best states the contribution.

Each sentence is scored on cues a reader uses: the authors speaking ("we propose", "this
paper introduces"), the paper's own method names, contribution words, and its place in the
abstract; background ("Recently, ...", "However, existing ...") and housekeeping ("Code is
available at ...") sentences are pushed down.
"""
from __future__ import annotations

import re

from .rules import BACKREF, DANGLING, SELF_REF, tldr_breaks
from .text import Doc

_CONTRIB = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:paper|work))\b[^.;]{0,150}?\b(?:propose|introduce|"
    r"present|develop|design|devise|build|construct|establish|create|release|formulate|"
    r"put forward|offer)s?\b", re.I)
_FINDING = re.compile(r"\b(?:we|this (?:paper|work))\s+(?:\w+\s+)?(?:show|prove|demonstrate|find|"
                      r"argue|establish|derive|study|investigate|analy[sz]e|explore|examine|"
                      r"identify|characteri[sz]e|reveal|address|tackle)s?\b", re.I)
_OPENERS = re.compile(r"^(?:in this (?:paper|work)|here,? we|this (?:paper|work)|to (?:address|"
                      r"tackle|overcome|fill|bridge|solve|mitigate|this end)|we )", re.I)
_NOVEL = re.compile(r"\b(?:novel|new|first|simple|principled|unified|general)\b", re.I)
_BACKGROUND = re.compile(r"^(?:however|recently|although|while|despite|existing|current|"
                         r"traditional|conventional|previous|prior|many|most|despite)\b|"
                         r"\b(?:has|have) (?:been|become|shown|gained|emerged|attracted)\b|"
                         r"\bremains? (?:a |an |largely |poorly )?(?:challenge|open|unclear|"
                         r"unexplored|elusive)", re.I)
_RESULTS = re.compile(r"\b(?:experiments?|empirical(?:ly)?|results?|evaluations?) "
                      r"(?:on|show|demonstrate|indicate|confirm|validate|verify|suggest)\w*\b|"
                      r"^(?:extensive|empirical|experimental|finally|furthermore|moreover)\b", re.I)
_HOUSEKEEPING = re.compile(r"https?:|www\.|\bcode (?:is|and|will be)\b|\bavailable (?:at|on)\b|"
                           r"\bgithub\b|\bopen-?source[sd]?\b", re.I)
MAX_CHARS = 360


def sentence_scores(doc: Doc, method_names: list[str]) -> list[float]:
    n = len(doc.sentences)
    scores = []
    names = [re.compile(r"(?<![\w-])" + re.escape(m) + r"(?![\w-])") for m in method_names[:3]]
    for i, s in enumerate(doc.sentences):
        words = len(s.split())
        score = 0.0
        if _CONTRIB.search(s):
            score += 3.0
        elif _FINDING.search(s):
            score += 1.5
        if _OPENERS.search(s):
            score += 0.8
        if any(rx.search(s) for rx in names):
            score += 1.5
        if _NOVEL.search(s):
            score += 0.4
        if _BACKGROUND.search(s):
            score -= 1.5
        if _RESULTS.search(s):
            score -= 0.7
        if _HOUSEKEEPING.search(s):
            score -= 4.0
        if i < doc.own_start:
            score -= 1.0
        # contributions sit in the first half more often than at the very end
        score -= 1.0 * (i / max(n - 1, 1))
        if words < 7:
            score -= 1.5
        elif words > 70:
            score -= 1.0
        scores.append(score)
    return scores


_CLAUSE_END = re.compile(r";\s|,\s(?:which|where|while|whereas|and|thereby|thus|allowing|"
                         r"enabling|leading|resulting|yielding)\b|\s[-–—]+\s")


def shorten(sentence: str, limit: int = MAX_CHARS) -> str:
    """A long sentence ends at its last clause boundary within `limit`; only a sentence without
    one is cut with an ellipsis."""
    if len(sentence) <= limit:
        return sentence
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence[:limit])]
    ends = [e for e in ends if len(sentence[:e].split()) >= 8]
    if ends:
        return sentence[:ends[-1]].rstrip(" ,;:") + "."
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


# "To address these challenges, we propose X" -> "We propose X"
_LEAD_CLAUSE = re.compile(
    r"^(?:(?:to|in order to) [^,]{2,90}|towards? (?:this|that) end|in (?:response|light of|"
    r"addition|particular|contrast|this (?:context|setting|regard))[^,]{0,80}|regarding [^,]{2,80}|"
    r"(?:motivated|inspired|guided|driven) by [^,]{2,80}|(?:building|based) (?:on|upon) [^,]{2,80}|"
    r"from (?:this|these|that) [^,]{1,60}|given (?:this|these|that) [^,]{1,60}|with (?:this|these) "
    r"[^,]{1,60}|as (?:a result|such)|under (?:this|these) [^,]{1,60}|unlike [^,]{2,80}|"
    r"going (?:further|beyond)|beyond (?:this|that)|"
    r"however|moreover|furthermore|additionally|thus|therefore|hence|consequently|accordingly|"
    r"instead|then|finally|specifically|concretely|notably|importantly|also|here|second(?:ly)?|"
    r"third(?:ly)?|first(?:ly)?|next|lastly|overall|(?:\d|i+|[a-e])\)|\((?:\d|i+|[a-e])\))"
    r"\s*,?\s*(?=\w)", re.I)
_ADVERB = re.compile(r"^(we|this (?:paper|work)) (?:then|further|also|thus|therefore|hence|"
                     r"next|finally|additionally|instead|now) ", re.I)
_BACKREF_CUT = re.compile(r",\s|\s(?:which|that|to|on|for|in|by|using|with|from|across|under|"
                          r"and|where|while|via|through|of)\s")


# a "that"-clause without its verb yet: "We demonstrate that a simple fusion" is no sentence
_OPEN_CLAUSE = re.compile(r"\b(?:that|whether|how|why|what)\s+(?!.*\b(?:is|are|was|were|can|could|"
                          r"may|might|will|would|has|have|had|do|does|\w+ed|\w+[^s]s)\b)[^,;]*$", re.I)


def self_contained(sentence: str) -> str:
    """Rewrite a sentence that leans on earlier text: drop an opening "To address these
    challenges," or "However,", and end the sentence before a clause that refers back
    ("... decoding to address this challenge")."""
    s = _LEAD_CLAUSE.sub("", re.sub(r"\s*\(\s*\)", "", sentence.strip()), count=1)
    s = _ADVERB.sub(r"\1 ", s)
    s = s[:1].upper() + s[1:]
    m = BACKREF.search(SELF_REF.sub(lambda x: "x" * len(x.group()), s))
    if m:
        cuts = [c.start() for c in _BACKREF_CUT.finditer(s[:m.start()])]
        cuts = [c for c in cuts if len(s[:c].split()) >= 5 and
                s[:c].rsplit(" ", 1)[-1].lower() not in DANGLING and not _OPEN_CLAUSE.search(s[:c])]
        if cuts:
            s = s[:cuts[-1]].rstrip(" ,;:") + "."
    return s


def best_sentence(doc: Doc, method_names: list[str]) -> str:
    """The contribution sentence (display text, markup removed), rewritten to stand alone;
    when it cannot, the next best sentence that can."""
    if not doc.sentences:
        return ""
    scores = sentence_scores(doc, method_names)
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    first = None
    for i in order[:4]:
        text = shorten(self_contained(doc.sentences[i]))
        if first is None:
            first = text
        broken = tldr_breaks(text)
        whole = doc.sentences[i].rstrip(" .").endswith(text.rstrip(" .").rsplit(" ", 1)[-1])
        if broken == ["thin"] and whole and i + 1 < len(doc.sentences) and \
                not _HOUSEKEEPING.search(doc.sentences[i + 1]):  # say what it is: add the next
            longer = f"{text} {doc.sentences[i + 1]}"
            if len(longer) <= MAX_CHARS and not tldr_breaks(longer):
                return longer
        if not broken and not _HOUSEKEEPING.search(text):
            return text
    return first or ""
