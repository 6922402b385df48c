"""A short display line for a paper: its title when known; otherwise the name it introduces
with what it is ("Maestro: trainable low-rank layers"), or a compressed contribution clause
("Low rank matrix completion problem in an online setting with M users")."""
from __future__ import annotations

import re

from .methods import Mention
from .text import Doc, strip_markup
from .vocab import GENERIC_WORDS, STOPWORDS

MAX_LABEL = 80

_OPENER = re.compile(
    r"^(?:(?:in|with) this (?:paper|work|study|note)|here(?=,? we)|to \w+[^,]{0,60}|"
    r"\w+ing\b[^,]{0,80}|(?:from|with|for|under|in|on|at|by|through|using|as) [^,]{1,60}|"
    r"(?:motivated|inspired|driven) by [^,]{1,60}|"
    r"to (?:address|tackle|overcome|fill|bridge|solve|mitigate|remedy|alleviate|this end|that end)"
    r"[^,]{0,60}|building (?:on|upon) [^,]{1,60}|based on [^,]{1,60}|in particular|specifically|"
    r"concretely|in (?:contrast|response|addition)[^,]{0,40}|to (?:do|achieve) (?:so|this)|"
    r"first(?:ly)?|second(?:ly)?|finally|moreover|furthermore|additionally|thus|therefore|"
    r"consequently|instead|accordingly)\s*(?:,\s*|\s+(?=we\b))", re.I)
_SUBJECT_VERB = re.compile(
    r"^(?:we|this (?:paper|work|study|article)|our (?:paper|work|study))\s+(?:\w+ly\s+|also\s+|"
    r"further\s+|then\s+|first\s+)?(\w+)\s+", re.I)
_CLAIM_VERBS = {"show", "shows", "prove", "proves", "find", "finds", "argue", "argues",
                "demonstrate", "demonstrates", "establish", "establishes", "observe", "reveal",
                "reveals", "posit", "suggest", "suggests", "conjecture", "hypothesize", "confirm"}
_LEAD = re.compile(r"^(?:(?:a|an|the|two|three|several|novel|new|simple|effective|efficient|"
                   r"scalable|general|principled|unified|first|rigorous|comprehensive|systematic|"
                   r"and|but|yet|more|highly|very)\s+)+", re.I)
_BOUNDARY = re.compile(r",|;|:|\s[-–—]\s|\s(?:which|where|whereby|while|whose|that|by|using|via|"
                       r"based on|in order to|so that|such that|thereby|leveraging|through|and "
                       r"(?:show|prove|demonstrate|find|derive|analy[sz]e|establish|provide|"
                       r"achieve|evaluate|apply|conduct|perform|propose|present|introduce|use|"
                       r"employ|develop|study|investigate|explore|discuss|identify|design|"
                       r"obtain|give|offer|release|train|test|compare)\w*)\b")
_PAREN = re.compile(r"\s*\([^()]{0,60}\)")


def _fit(text: str, limit: int) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,;:.")
    if len(text) <= limit:
        return text
    cut = text[:limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:-(")
    return cut + "…"


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text and text[0].islower() and not \
        re.match(r"[a-z]+[A-Z]", text.split(" ", 1)[0]) else text


def _clause(text: str, min_words: int = 4) -> str:
    """Cut `text` at the first clause boundary that still leaves `min_words` words."""
    for m in _BOUNDARY.finditer(text):
        head = text[:m.start()]
        if len(head.split()) >= min_words:
            return head
    return text


def compress(sentence: str, limit: int = MAX_LABEL) -> str:
    """The gist of a contribution sentence as a label."""
    s = _PAREN.sub("", strip_markup(sentence)).strip()
    for _ in range(2):
        s = _OPENER.sub("", s)
    m = _SUBJECT_VERB.match(s)
    if m:
        verb = m.group(1).lower()
        rest = s[m.end():]
        if verb in _CLAIM_VERBS:
            rest = re.sub(r"^(?:that|how|why|when|whether)\s+", "", rest)
            s = _clause(rest, 6)
        else:
            s = _clause(_LEAD.sub("", rest))
    else:
        s = _clause(s, 6)
    return _capitalise(_fit(s, limit))


def _content_words(text: str | None) -> int:
    return sum(1 for w in (text or "").split() if w.lower() not in GENERIC_WORDS
               and w.lower() not in STOPWORDS)


def _usable(desc: str | None, name: str, words: int = 2) -> bool:
    return bool(desc) and _content_words(desc) >= words and desc.casefold() != name.casefold()


def make_label(title: str | None, doc: Doc, mentions: list[Mention], tldr: str,
               limit: int = MAX_LABEL) -> str:
    if title and title.strip():
        return re.sub(r"\s+", " ", strip_markup(title)).strip()
    if mentions:
        primary = next((m for m in mentions if m.how != "variant"), mentions[0])
        name = primary.name
        if _usable(primary.desc, name, 2) and len(primary.desc.split()) <= 6:
            desc = primary.desc
        elif _usable(primary.long, name, 1) and len(primary.long.split()) >= 2:
            desc = primary.long
        elif _usable(primary.desc, name, 2):
            desc = primary.desc
        elif _usable(primary.rel, name, 2):
            desc = primary.rel
        elif _usable(primary.desc, name, 1):
            desc = primary.desc
        else:
            desc = compress(tldr, limit)
            if desc.casefold().startswith(name.casefold()):
                return desc
            first = desc.split(" ", 1)[0]
            if first[1:].islower() and re.search(r"\b" + re.escape(first.lower()) + r"\b", tldr):
                desc = desc[:1].lower() + desc[1:]  # "DiffFPR: challenging ..." (not "markov")
        return _fit(f"{name}: {desc}", limit)
    return compress(tldr or (doc.sentences[0] if doc.sentences else ""), limit)
