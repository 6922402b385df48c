"""A short label said in full. When the chosen label is a bare phrase ("Framework for graph
clustering", "Fast algorithm for ridge regression"), the TL;DR's own "we propose / present /
study X ..." usually says which one: its object is taken whole, with the clause that makes it
specific ("Framework for graph clustering where a label is observed to each pair of nodes"),
never cut at a phrase boundary inside it. A claim ("we show that ...") is not a title and is not
taken. The object ends where a clause does (a comma, a dash, "while", "thereby", "and show ...");
a restrictive "that / which / where" clause stays, as it is what makes the phrase specific, and
so does one after a comma that says which one (", which exploits X" as "that exploits X",
", specifically for X" as "for X") when the whole still fits.

`clean_object` and `tidy` are the object clean-up the label candidates of label.py share.
"""
from __future__ import annotations

import re

from . import phrases as ph
from .compose import trim_front
from .label_words import content_words
from .noun_phrase import fits
from .problem import PAREN
from .rules import DANGLING, MAX_LABEL_CHARS, label_breaks
from .text import Doc
from .vocab import VERBS

VERBS_S = frozenset(v for v in VERBS | ph.VERB_S if v.endswith(("s", "ed")))  # a verb in front of a label

SHORT_BODY = 10  # words of an unnamed label that may not say which paper it is (blind A/B on development
# and validation lists: <= 5 words 11 -> 41 of 78 marks, 6-7 words 36 -> 101 of 130, 8-10 words 53 -> 74 of 136)
SHORT_NAMED = 5  # words after "Name: "
MORE_WORDS = 2  # content words the full object must add

_END = re.compile(r"\s*(?:,|;|:|\s[-–—]+\s|---|\s\(|\.\s|\.$)|\s(?:while|whereas|although|though|because|since|"
                  r"thereby|thus|hence|so that|in order to|called|named|dubbed|termed|"
                  r"and (?:then |also |further )?(?:show|prove|demonstrate|find|derive|analy[sz]e|establish|"
                  r"provide|achieve|evaluate|appl(?:y|ie)|conduct|perform|propose|present|introduce|use|employ|"
                  r"develop|study|investigate|explore|discuss|identify|design|obtain|give|offer|release|train|"
                  r"test|compare|validate|verify)s?\b)")


# the clause that goes on after a comma and still says which one: ", which V", ", specifically for X"
_GOES_ON = re.compile(r"\s*(?:\([^()]{1,40}\)\s*)?,\s+(?P<how>which|that|specifically for|specifically in|particularly for|"
                      r"designed to|designed for|tailored to|tailored for|trained on|based on|using|utili[sz]ing|"
                      r"leveraging|via|through)\s+(?=[a-zA-Z])"
                      r"(?!(?:is|are|was|were|has|have|had|can|could|may|might|will|would|should|also|in turn)\b)", re.I)
_MEANS = ("based on", "using", "utilizing", "utilising", "leveraging", "via", "through")  # how it works: cut to fit
_JOIN = {"which": "that", "specifically for": "for", "specifically in": "in", "particularly for": "for",
         "utilizing": "using", "utilising": "using", "leveraging": "using"}


def tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", PAREN.sub("", text)).strip(" ,;:.-")
    words = text.split(" ")
    while words and (words[-1].lower().strip(",;:") in DANGLING or not words[-1].strip(",;:")):
        words.pop()
    return " ".join(words).strip(" ,;:")


def capitalise(text: str) -> str:
    first = text.split(" ", 1)[0]
    if text[:1].islower() and (not re.search(r"[A-Z0-9]", first[1:]) or re.match(r"[a-z]{3,}-[A-Z]", first)):
        return text[:1].upper() + text[1:]  # "quasi-Monte Carlo", "non-IID"; not "iGraphMix", "t-SNE"
    return text


def clean_object(text: str) -> str:
    text = PAREN.sub("", text)
    text = ph.drop_leading(text)
    if re.match(r"to\s+[a-z]+\b", text):
        verb = text.split()[1]
        g = ph.gerund(verb)
        text = g + text[3 + len(verb):] if g else text
    return ph.drop_leading(ph.as_gerund_phrase(text))


def is_short(label: str) -> bool:
    name, sep, body = label.partition(": ")
    n = len((body if sep else label).split())
    return n <= SHORT_NAMED if sep else n <= SHORT_BODY


def said_in_full(sentence: str) -> str | None:
    """The first object the authors introduce or study in `sentence`, whole, as a title; None
    when it does not fit or breaks a label rule."""
    for m in ph.OWN_VERB.finditer(sentence):
        verb, rest = m.group("verb"), re.sub(r"^and\s+[a-z]+\s+", "", sentence[m.end():])
        if ph.CLAIM_VERBS.match(verb) and (ph.THAT.match(rest) or not re.match(r"(?:a|an|the|new|novel)\b", rest, re.I)):
            continue  # a finding, not a thing ("we show that ..."); "we derive a bound" names one
        text = trim_front(clean_object(rest), VERBS_S)
        end = _END.search(text)
        more = _GOES_ON.match(text, end.start()) if end else None
        head = text[:end.start()].split() if end else []
        longer = None
        if more and len(head) >= 2 and not re.search(r"[A-Z].*[A-Z]|\d", head[0] + head[-1]):
            tail = text[more.end():]  # "method, which performs all label queries": what makes it this one
            stop = _END.search(tail)
            longer = tidy(f"{text[:end.start()]} {_JOIN.get(more.group('how').lower(), more.group('how'))} "
                          f"{tail[:stop.start()] if stop else tail}")
        text = tidy(text[:end.start()] if end else text)
        if longer and len(longer) > MAX_LABEL_CHARS and more.group("how").lower() in _MEANS:  # "... based on an exact
            # Hamiltonian Monte Carlo algorithm [applied to ...]"; a "that" clause cut short loses what it says
            longer = next((c for c in fits(longer, MAX_LABEL_CHARS, 3) if c.startswith(text) and
                           len(c.split()) >= len(text.split()) + 3 and not re.search(r"[$\\]", c) and
                           not label_breaks(capitalise(c))), None)
        text = longer if longer and len(longer) <= MAX_LABEL_CHARS else text
        if len(text.split()) < 2 or len(text) > MAX_LABEL_CHARS:
            continue
        text = capitalise(text)
        if not label_breaks(text):
            return text
    return None


def specific(label: str, tldr: str) -> str:
    """`label`, or when it is short, the TL;DR's object said in full if that adds content."""
    if not label or not is_short(label) or label.startswith("Position: "):
        return label
    have = len(content_words(label))
    name = label.split(": ", 1)[0] if ": " in label else ""
    for sentence in Doc.of(tldr).sentences if tldr else ():
        full = said_in_full(sentence)
        if full and len(content_words(full)) >= have + MORE_WORDS:
            if name and name not in full:  # the paper's name stays in front
                named = f"{name}: {full[:1].lower() + full[1:] if full[1:2].islower() else full}"
                return named if len(named) <= MAX_LABEL_CHARS and not label_breaks(named) else label
            return full
    return label
