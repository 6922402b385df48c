"""Extractive TL;DR: the sentence of the abstract that best states the contribution, made to
stand alone, and when it only names the method, joined with the next sentence that says what the
method does (a TL;DR is one or two complete sentences).

Each sentence is scored on cues a reader uses (tldr_score.py); the few best are rewritten to stand
alone (standalone.py) and the one that reads best wins; a short winner goes on with the authors' next
sentence when it says how or what they find. A sentence that would lose a clause pointing back stands
whole after the sentence it points to; one that never names what the abstract opens on is shown after
that opening sentence (`with_topic`).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..words import FILLER_WORDS, STOP_WORDS, singular
from .problem import stems
from .rules import DANGLING, names_only, tldr_breaks, unresolved_refs
from .standalone import OPEN_CLAUSE, lead_off, resolved, rewrite, strip_lead
from .tldr_score import (ABOUT_IT, ABOUT_OTHERS, CONTRIB, FINDING, FOUND, LIST_TO_COME, NEED_TO, OURS, PROBLEM,
                         SECONDARY, THEORY_CLAIM, VAGUE, WE_START, contributes, features, frames, undefined_name)
from .text import Doc, clean_token, is_coined, token_starts

# one sentence or two: longer than this, a sentence ends at a clause boundary
MAX_CHARS = 460  # blind A/B, 400 -> 460: a study and its finding 64 -> 138 of 162, every other join 129 -> 141 of 160

_CLAUSE_END = re.compile(r";\s|,\s(?:(?:in|by|with|through) which|which|where|while|whereas|and|thereby|thus|allowing|"
                         r"enabling|leading|resulting|yielding)\b|\s[-–—]+\s|"
                         r"\.\s+(?=\(?[a-z0-9]\)\s)")  # "... assessment. a) To evaluate ...": an enumerated item glued on


# "three realms: A, B(, and C)": a cut there drops an item the sentence announced
_ANNOUNCED = re.compile(r"\b(two|three|four|five|six)\b[^:;]*:([^:;]*)$", re.I)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _drops_item(head: str) -> bool:
    m = _ANNOUNCED.search(head)
    if not m:
        return False
    marks = re.findall(r"(?:^|\s)\(?(?:[ivx]{1,3}|\d|[a-f])\)", m.group(2))  # "i) ..., ii) ...": items with clauses
    return (len(marks) if marks else m.group(2).count(", ") + 1) < _COUNTS[m.group(1).lower()]


# "which span RoI identification, style transfer(, and position manipulation)": ", and" before a
# list's last item, not a clause ("..., and it achieves ...")
_SHORT_ITEM = re.compile(r",\s+(?:[\w-]+\s+){0,3}[\w-]+$")
_CLAUSE_START = re.compile(r"\s*(?:we|it|they|this|these|that|our|its|their|thus|then|so|hence|therefore|also|"
                           r"can|show|shows|achieve|achieves|demonstrate|demonstrates|provide|provides)\b", re.I)


def _last_item(sentence: str, m: re.Match) -> bool:
    head = sentence[:m.start()]
    return m.group().startswith(", and") and bool(_SHORT_ITEM.search(head)) and \
        not re.search(r"\b(?:we|is|are|was|were)\b", head.rsplit(",", 1)[-1], re.I) and \
        not _CLAUSE_START.match(sentence[m.end():])


def shorten(sentence: str, limit: int = MAX_CHARS) -> str:
    """A long sentence ends at its last clause boundary within `limit`; only a sentence without
    one is cut with an ellipsis (which the TL;DR rules reject, so another sentence is taken)."""
    if len(sentence) <= limit:
        return sentence
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence[:limit]) if not _last_item(sentence, m)]
    ends = [e for e in ends if len(sentence[:e].split()) >= 8 and not _drops_item(sentence[:e]) and
            not re.search(r"\bnot only\b(?!.*\bbut\b)", sentence[:e])]  # "not only X" waits for "but also Y"
    if ends:
        return sentence[:ends[-1]].rstrip(" ,;:.") + "."
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


# hopes and outlooks say nothing about what the method does
_OUTLOOK = re.compile(r"(?:we|our work|this work|this paper) (?:\w+ )?(?:believe|hope|expect|envision|"
                      r"anticipate|leave|plan)\b", re.I)
_MAX_BONUS = 0.5  # a joined second sentence: the most a candidate gains over its score
# a lone mathematical symbol the TL;DR would have to define
_BARE_VARIABLE = re.compile(r"\$\\?[A-Za-z](?:_\{?\w\}?)?\$")
_SYMBOL = re.compile(r"(?<=\s)[Α-Ωα-ω](?=[\s,.;:])")
# a next sentence that says what the method just introduced is or does
_ELABORATES = re.compile(r"^(?:(?:in|with) (?=our|the proposed))?(?:our|the proposed|this|the resulting) (?:\w+ )?(?:method|approach|model|"
                         r"framework|algorithm|system|technique|architecture|estimator|objective|"
                         r"loss|procedure|scheme|agent|metric)\b", re.I)


def _studies(text: str) -> bool:
    """Does it only say what the authors study ("This work provides a theoretical understanding of X"), not what they find?"""
    return (bool(PROBLEM.search(text)) and not CONTRIB.search(text) and not FINDING.search(text)) or bool(_STUDY_NOUN.search(text))


_STUDY_NOUN = re.compile(r"\b(?:we|this (?:paper|work|study))\s+(?:provide|offer|present|give|conduct|perform)s? "
                         r"(?:an? |the )?(?:[\w-]+ ){0,2}(?:understanding|analysis|study|investigation|explanation|"
                         r"examination|exploration) (?:of|on|into)\b", re.I)


def _joined(text: str, nxt: str, back: bool = False) -> str | None:
    """`text` and the sentence `nxt`, when the two fit a TL;DR and break none of its rules (`back`: but "these X" for `text`'s)."""
    if len(nxt) < 90 and LIST_TO_COME.search(nxt.rstrip()):  # "We make three contributions." gives none
        return None
    said = re.search(r"\bin this (?:paper|work|study)\b", text, re.I)  # said once is enough
    longer = f"{text} {lead_off(nxt, keep_paper=not said)}"
    return longer if len(longer) <= MAX_CHARS and not set(tldr_breaks(longer)) - ({"back-reference"} if back else set()) else None


def _with_finding(doc: Doc, i: int, feats: list, text: str) -> str | None:
    """`text` and the finding that completes it: "We introduce a task ... We prove that gradient
    descent learns to solve this task ..." (the next sentence, which points back at it); "We
    study X ... We find that Y" (what was studied, then the first finding within three sentences)."""
    studies, whole = _studies(text), text
    if studies:  # "We consider the problem of X, in which ...": the problem, then what the paper does
        head = _SETTING_TAIL.split(text, maxsplit=1)[0].rstrip(" ,;:.")
        text = head + "." if len(head.split()) >= 6 else text
    for j in range(i + 1, min(i + (6 if studies else 2), len(doc.sentences))):
        s = doc.sentences[j]
        claim = studies and THEORY_CLAIM.match(strip_lead(s))  # "Our main result shows that ..."
        if not claim and any(feats[j][2:] if j == i + 1 else feats[j][1:]):
            continue  # results, housekeeping; background only right after
        if not (claim or FINDING.search(s) or FOUND.search(s) or contributes(s)) or NEED_TO.search(s):
            continue  # "When p = inf, we need to find a subspace V ...": a step, not a finding
        if j == i + 1 and not (studies or unresolved_refs(s)):
            return None
        back = studies and j == i + 1 and text == whole and len(s) > 80  # "Our key result is that ... these models ..."
        if longer := _joined(text, s, back) or (_joined(text, _cut(s, MAX_CHARS - len(text) - 1)) if studies else None):
            return longer
    return None


# the next sentence says how the contribution does what it claims
_MEANS_BY = re.compile(r"^this (?:is|was|can be) (?:\w+ly )?(?:achieved|done|accomplished|realized|made possible|enabled) "
                       r"(?P<by>by|through|via) (?=\S)", re.I)
_MEANS_TO = re.compile(r"^(?:to (?:achieve|do|accomplish|realize) (?:this|so|that)|the (?:key|main|core|central) "
                       r"(?:idea|insight|ingredient) (?:is|behind))\b", re.I)


def _means(text: str, nxt: str) -> str | None:
    """A claim of what the contribution does with the next sentence's how: "We present a method
    that trains X with lower cost, by gating Y." / "... We train an ensemble of policies ..."."""
    by = _MEANS_BY.match(nxt)
    if by:  # said as one sentence: "..., by gating Y."
        longer = f"{text.rstrip(' .')}, {nxt[by.start('by'):]}"
        return longer if len(longer) <= MAX_CHARS and not tldr_breaks(longer) else None
    return _joined(text, nxt) if _MEANS_TO.match(nxt) else None


def _cut(sentence: str, room: int) -> str:
    """`sentence` ended at a clause boundary to fit `room`, when the cut keeps most of it and
    leaves no clause waiting for its verb ("we show that O(log n) interventions on X.")."""
    whole = lead_off(sentence)
    cut = shorten(whole, room)
    last = cut.rstrip(" .").rsplit(" ", 1)[-1].lower()
    if "…" in cut or len(cut.split()) < 0.6 * len(whole.split()) or OPEN_CLAUSE.search(cut.rstrip(" .")) or \
            last in DANGLING or last.endswith("ly"):
        return sentence  # too long to join
    return cut


_SETTING_TAIL = re.compile(r",\s+(?:in which|where|whereby|wherein)\s|;\s+(?:in particular|that is|i\.e\.|namely)\b|"
                           r":\s+given\b", re.I)


def _candidate(doc: Doc, i: int, feats: list, names: list[str] = ()) -> tuple[float, str]:
    """The TL;DR sentence `i` makes, and how good it is. `names`: the paper's method names (a
    next sentence that opens on one says what the method does)."""
    score = feats[i][0]
    text, kept = rewrite(doc.sentences[i])
    if kept < 1.0 or unresolved_refs(text):  # "these problems" said with the earlier sentence's noun may stand whole
        alt, alt_kept = rewrite(resolved(doc.sentences[i], doc.sentences[:i]))
        if alt_kept > kept or (alt_kept == kept and not unresolved_refs(alt)):
            text, kept = alt, alt_kept
    text = shorten(text)
    broken = tldr_breaks(text)
    if _CLOSING.search(text) and not CONTRIB.search(text):  # "This study may shed some light onto X": a closing remark
        score -= 3.0
    if _LATEX.search(text):  # "\[{O}\left(\frac{1}{\sqrt{\epsilon}} ...\]": display mathematics, no sentence
        score -= 3.0
    quality = score - 6.0 * len(broken) - 2.0 * (1.0 - kept)
    thin = "thin" in broken or kept < 0.65 or (len(text) < 160 and names_only(text))
    nxt = doc.sentences[i + 1] if i + 1 < len(doc.sentences) else ""
    named_next = not thin and len(text) < 130 and any(0 in token_starts(nxt, n) for n in names)
    if not thin and len(text) < 130 and _ELABORATES.match(nxt):  # "Our method, DARL, uses ..."
        thin = True
    means = _means(text, nxt) if not broken and len(text) < 200 and nxt and not any(feats[i + 1][2:]) else None
    if means:  # "We present a method that trains X with lower cost. This is achieved by gating Y."
        return quality + _MAX_BONUS, means
    if named_next:  # "We propose X (EXO) of Y. EXO is guaranteed to ...": joined, not held against it
        longer = None if broken or any(feats[i + 1][1:]) else _joined(text, nxt)
        if longer:
            return quality, longer
    if thin and not (set(broken) - {"thin", "empty"}) and "…" not in text and i + 1 < len(doc.sentences):  # "We propose X."
        nxt = doc.sentences[i + 1]
        if not any(feats[i + 1][1:]) and not _OUTLOOK.match(nxt):
            longer = _joined(text, nxt)
            if longer:  # what it is, then what it does; or, when the cut left only its first words
                # ("We provide a general framework."), the whole sentence after the one it refers to
                whole = _after_antecedent(doc, i, feats) if kept < _CUT_HARD and \
                    not any(0 in token_starts(nxt, n) for n in names) else None  # "SafeCoder performs ..." says it
                return score + _MAX_BONUS, whole or longer
    elif nxt and (len(text) < 200 or _studies(text)) and not broken:
        longer = _with_finding(doc, i, feats, text)
        if longer:
            return quality + _MAX_BONUS, longer
    if thin:
        quality -= 1.5
        whole = _after_antecedent(doc, i, feats) if kept < _CUT_HARD or "back-reference" in broken else None
        if whole:  # "... We tackle these challenges through adaptive environment design."
            return quality + (6.0 if "back-reference" in broken else 0.0), whole
    symbol = _SYMBOL.search(text)
    if symbol:  # "between Σ and ..." is undefined, "the covariance matrix Σ" is not
        before = re.findall(r"[a-z]+", text[:symbol.start()][-20:])
        if not before or before[-1] in STOP_WORDS or len(before[-1]) < 4:
            quality -= 1.5
    if _BARE_VARIABLE.search(text):  # "if $M$ is a multi-layer network": notation the TL;DR never defines
        quality -= 1.0
    if (kept < 1.0 or "back-reference" in broken) and not thin:  # "In this paper, we evaluate this phenomenon ..."
        whole = _after_antecedent(doc, i, feats)
        if whole:  # after the sentence that says what "this phenomenon" is, nothing points away
            return quality + (6.0 if "back-reference" in broken else 0.0), whole
    return quality, text


_CLOSING = re.compile(r"\bshed(?:s)? (?:\w+ )?light\b|\bpave[sd]? the way\b|\bopens? (?:up )?(?:new )?(?:avenues|doors)\b", re.I)
_LATEX = re.compile(r"\\\[|\\\]|\$\$|\\begin\{")  # display mathematics
_CUT_HARD = 0.65  # a rewrite that keeps less of the sentence than this leaves only its opening words


def _after_antecedent(doc: Doc, i: int, feats: list) -> str | None:
    """Sentence `i` whole after the sentence before it, which says what its "this scenario" is ("... We provide
    a general framework for analyzing this scenario, which ..." rather than "We provide a general framework.")."""
    if i == 0 or any(feats[i - 1][2:]):
        return None  # no sentence before, or it reports results or housekeeping
    before, kept = rewrite(doc.sentences[i - 1])
    whole = lead_off(doc.sentences[i])
    if kept < 1.0 or tldr_breaks(before) or _OUTLOOK.search(before) or not unresolved_refs(whole):
        return None
    longer = f"{before} {whole}"
    return longer if len(longer) <= MAX_CHARS and not set(tldr_breaks(longer)) - {"back-reference"} else None


def best_sentence(doc: Doc, method_names: list[str]) -> str:
    """The TL;DR (display text, markup removed): the contribution sentence rewritten to stand
    alone, with the next sentence when it alone only names the method; when it cannot stand
    alone, the next best sentence that can."""
    return pick(doc, method_names).text


# words two sentences share without sharing a subject ("model", "learning", "performance")
_BROAD = frozenset(singular(w) for w in FILLER_WORDS | {"learning", "network", "neural", "deep", "training", "machine"})


class Picked(NamedTuple):
    """The TL;DR and what it was made from: the index of its sentence and the sentences' features."""
    text: str
    index: int
    feats: list


def pick(doc: Doc, method_names: list[str]) -> Picked:
    """The TL;DR of `best_sentence`, with where it came from (for `with_topic`)."""
    if not doc.sentences:
        return Picked("", 0, [])
    feats = features(doc, method_names)
    order = sorted(range(len(feats)), key=lambda i: (-feats[i][0], i))[:5]
    best = None
    for i in order:
        if best is not None and feats[i][0] + _MAX_BONUS <= best[0]:
            break  # no later sentence can read better: none gains more than a join's bonus
        c = _candidate(doc, i, feats, method_names[:3]) + (i,)
        c = (c[0] - 1.5, *c[1:]) if undefined_name(doc, i, c[1], method_names[:3]) else c  # "... used by PINNACLE"
        if best is None or c[0] > best[0]:
            best = c
    first = _with_setting(doc, best[2], feats, best[1])
    text = _with_next(doc, best[2], feats, first, method_names[:3])
    if text != first and not first.count(". ") and _leans_on_opening(doc, first):
        text = _opening(doc, best[2], feats, first) or text  # "... learning the schedule ...": which schedule?
    return Picked(text, best[2], feats)


def _leans_on_opening(doc: Doc, text: str) -> bool:
    """Does `text` speak of "the X" ("the schedule") that only the abstract's opening sentence introduces?"""
    opening = stems(doc.sentences[0]) if doc.sentences else set()
    said = [(m.start(), stems(m.group(1))) for m in re.finditer(r"\bthe ([a-z]{4,})\b", text)]
    return any(noun and noun <= opening and not noun & _BROAD and not noun & stems(text[:at]) for at, noun in said)


def with_topic(doc: Doc, picked: Picked) -> str:
    """A one-sentence TL;DR after the sentence the abstract opens on, unless it already says most
    of it (five of its words; blind A/B: readers took the opening as welcome context even when the
    TL;DR shared two or four of its words): "Hyperspectral image super-resolution (HISR) aims to
    fuse ... We propose a multi-scale feature transfer network (MFTN) for HISR." (shown to readers;
    the label reads the TL;DR alone)."""
    text, i, feats = picked
    return (_opening(doc, i, feats, text) or text) if text and not text.count(". ") else text


def _opening(doc: Doc, i: int, feats: list, text: str) -> str | None:
    """`text` after the sentence the abstract opens on, or None (`with_topic`)."""
    if i == 0 or any(feats[0][2:]):  # no opening, or it reports results or housekeeping
        return None
    topic, kept = rewrite(doc.sentences[0])
    shared = (stems(topic) & stems(text)) - _BROAD  # words beyond "learning", "model", ...
    if kept < 1.0 or tldr_breaks(topic) or len(topic.split()) < 8 or len(shared) >= 5:
        return None  # the TL;DR already says what the abstract opens on
    return _joined(topic, text)  # within the TL;DR's limit, or not at all


def _with_setting(doc: Doc, i: int, feats: list, text: str) -> str:
    """A short TL;DR ("We design novel MIP relaxations for proving lower bounds.") after the
    earlier sentence in which the authors say what they work on, so it reads without the abstract."""
    if text.count(". ") or i == 0 or len(text) > _SET_LONG - 40:
        return text  # two sentences already, or no room for a setting of 8 words
    for j in range(i - 1, max(i - 4, -1), -1):
        s = doc.sentences[j]
        if any(feats[j][1:]) or not (PROBLEM.search(s) or WE_START.match(strip_lead(s))) or \
                NEED_TO.match(strip_lead(s)) or _OUTLOOK.search(s) or _OUR_CLAIM.search(s) or frames(s):
            continue
        setting, kept = rewrite(s)
        longer = _joined(setting, text) if kept == 1.0 and not contributes(s) and len(setting.split()) >= 8 and \
            (len(text) < _SHORT or len(setting) + len(text) <= _SET_LONG) else None
        if longer:
            return longer
    return text


# the authors go on: "We demonstrate that ...", "Our bounds are ...", "Unlike X, our method ..."
_LEAD = r"(?![^,]*\b(?:experiment|evaluation|result|empiric|benchmark|compar))[^,]{2,120},\s*"
_WE = r"(?:we|our|it|this (?:method|approach|framework|model|algorithm))\b"
_GOES_ON = re.compile(r"(?:" + _LEAD + r")?" + _WE, re.I)  # "Given X, our method ...", not "Through extensive experiments, we"
_GOES_ON_BY = re.compile(r"(?:unlike [^,]{2,60},\s*|(?:by|through) " + _LEAD + r")?" + _WE, re.I)  # "By conceptualizing X, we"
_THIN_AT = 180  # characters: a one-sentence TL;DR this short says what, rarely how or what it finds
_LONG_AT = 260  # up to this long when the next sentence is about the contribution
_BARE_AT = 110  # and one this short rarely says more than "we propose a method for X"


def _with_next(doc: Doc, i: int, feats: list, text: str, names: list[str]) -> str:
    """A short one-sentence TL;DR ("We present a unified framework for deriving PAC-Bayesian
    bounds.") with the next sentence when the authors go on in it to say how or what they find."""
    j = i + 1
    if text.count(". ") or len(text) >= _LONG_AT or j >= len(doc.sentences):
        return text
    # how the method works, where no opening goes in front (readers take the setting before the next sentence)
    more = bool(VAGUE.match(text)) or not _opening(doc, i, feats, text)  # or the sentence only praises its method
    if len(text) >= _THIN_AT and not (more and _about_it(lead_off(doc.sentences[j]), doc.sentences[j])):
        return text  # a longer one goes on only with a sentence about the contribution
    later = _names_it(doc, i, feats, text, names) if more else None  # "We introduce FROSTER, ... FROSTER employs X"
    if any(feats[j][1:]):
        return later or text
    nxt = doc.sentences[j]
    rest = lead_off(nxt)
    first = clean_token(rest.split(" ", 1)[0])
    said = is_coined(first) and _own_name(text, first, doc.uses_after(first, i))  # "NEFTune adds noise ..."
    kind = re.match(r"(?:the|this|our) (?:proposed |new |resulting )?([a-z][\w-]+) (?!of\b|(?:is|are) (?:shown|proven|demonstrated|evaluated|tested|validated|found)\b)", rest, re.I)
    said = said or bool(kind and re.search(r"\b(?:a|an) (?:(?!of )[\w-]+ ){0,4}" + re.escape(kind.group(1)) +
                                           r"(?=\s*(?:[,.(]|$|for|that|which|to|with|based|named|called)\b)", text))
    said = said or len(text) < _BARE_AT and (contributes(rest) or VAGUE.match(text) and OURS.match(rest)) and \
        not unresolved_refs(rest)  # "We propose a straightforward yet effective method for X." says nothing of how
    goes_on = _GOES_ON.match(rest) if more else _GOES_ON_BY.match(rest)
    said = said or more and _about_it(rest, rest)  # "This strategy is prompt-free"
    if not (goes_on or said or (_opens_on(rest, names) if more else any(0 in token_starts(rest, n) for n in names))) or \
            _OUTLOOK.search(nxt) or SECONDARY.match(nxt) or NEED_TO.search(nxt) or LIST_TO_COME.search(nxt):
        return later or text
    return _joined(text, nxt) or _joined(text, _cut(nxt, MAX_CHARS - len(text) - 1)) or later or text  # "..., and it"


def _about_it(rest: str, whole: str) -> bool:
    return bool(ABOUT_IT.search(rest[:120])) and not ABOUT_OTHERS.search(whole)


def _opens_on(rest: str, names: list[str]) -> bool:
    """Does the sentence open on one of the method's names, maybe after a clause ("By utilizing X, InsertNeRF ...")?"""
    lead = re.match(_LEAD, rest)
    return any(0 in token_starts(rest, n) or (lead and 0 in token_starts(rest[lead.end():], n)) for n in names)


def _names_it(doc: Doc, i: int, feats: list, text: str, names: list[str]) -> str | None:
    """A short TL;DR that names the method, with the first of the next three sentences that opens on
    that name after background in between ("To address these issues, FROSTER employs ...")."""
    named = [n for n in names if n in text]
    for j in range(i + 2, min(i + 4, len(doc.sentences))):
        nxt = doc.sentences[j]
        if any(feats[j][2:]) or not _opens_on(lead_off(nxt), named) or _OUTLOOK.search(nxt) or LIST_TO_COME.search(nxt):
            continue
        return _joined(text, nxt) or _joined(text, _cut(nxt, MAX_CHARS - len(text) - 1))
    return None


def _own_name(text: str, short: str, uses: int) -> bool:
    """Is `short` what the authors present: defined so in `text` ("Instructive Decoding (ID)", not
    "strategies for semi-supervised learning (SSL)"), or, undefined there, used again and again?"""
    m = re.search(r"((?:\S+\s+){0,6})\((?:" + re.escape(short.rstrip("s")) + r"s?)\)", text)
    if m:
        return not re.search(r"\b(?:for|of|on|to|into|in|from|with|over|under)\b", m.group(1))
    return uses >= 2


# "We provide evidence to verify our hypothesis": a setting that points at a claim it does not state
_OUR_CLAIM = re.compile(r"\bour (?:hypothesis|claim|conjecture|intuition)\b", re.I)
_SHORT = 220  # characters: a TL;DR this short often leaves out what the paper is about
_SET_LONG = MAX_CHARS  # a longer one takes a setting while the two fit a TL;DR (blind A/B: 330 -> 380 -> 400 read better)
