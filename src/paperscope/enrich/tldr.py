"""Extractive TL;DR: the sentence of the abstract that best states the contribution, made to
stand alone, and when it only names the method, joined with the next sentence that says what the
method does (a TL;DR is one or two complete sentences).

Each sentence is scored on cues a reader uses: the authors speaking ("we propose", "this
paper introduces"), the paper's own method names, contribution words, and its place in the
abstract; background ("Recently, ...", "However, existing ..."), side remarks ("We also ...",
"Specifically, ..."), experiments and housekeeping ("Code is available at ...") are pushed down.
The few best sentences are then rewritten to stand alone (standalone.py) and the one that reads
best wins; a short winner goes on with the authors' next sentence when it says how or what they
find (blind readers accepted such pairs far more often than the short sentence alone).
"""
from __future__ import annotations

import re

from ..words import STOP_WORDS
from .rules import DANGLING, names_only, tldr_breaks, unresolved_refs
from .standalone import OPEN_CLAUSE, lead_off, resolved, rewrite, strip_lead
from .cues import DESCRIBE, MAIN_CONTRIBUTION, RESULTS, RESULTS_START
from .text import Doc, token_starts

# the authors speaking, the verb within a few words: "we then propose", "this paper presents"
_WHO = (r"\b(?:we|this (?:paper|work|study|article)|our (?:paper|work|study))(?:,[^,]{1,40},)?"
        r"(?:\s+(?!that\b|the\b|an?\b|our\b|its\b|their\b)[\w-]+){0,3}?\s+")
_CONTRIB = re.compile(_WHO + r"(?:propose|introduce|present|develop|design|devise|build|construct|"
                      r"create|release|formulate|put forward|offer|contribute)s?\b|"
                      r"\bwe have (?:\w+ )?(?:proposed|introduced|presented|developed|designed|built|"
                      r"created)\b|"
                      r"\bour (?:main |first |key |primary |central )?contributions? (?:is|are)\b|"
                      + DESCRIBE + r"|"
                      + MAIN_CONTRIBUTION + r" (?=an?\b|the\b|that\b|to\b|\w+ing\b)|"
                      r"\bour main results? (?:include\b|(?:is|are) (?=an?\b|the\b|that\b|\w+ing\b))|"
                      r"\bwe (?:improve|extend|enhance|advance|address|tackle|solve|overcome|"
                      r"mitigate|close|bridge|fill|generali[sz]e|augment|strengthen|revisit|rethink)\w* "
                      r"[^.;]{0,80}?\bby (?:introducing|proposing|developing|designing|providing|presenting)\b", re.I)
# "In this work, X is proposed": the authors in the passive voice
_PASSIVE_OWN = re.compile(r"in this (?:paper|work|study),?\s+[^.;]{3,150}?\b(?:is|are) (?:\w+ly )?(?:proposed|introduced|"
                          r"presented|developed|designed|modell?ed and analy[sz]ed)\b", re.I)
# the method speaking for the authors: "our method introduces a regularization term that ..."
_OURS_DO = re.compile(r"\bour (?:proposed |new )?(?:method|approach|framework|model|algorithm|technique)s? "
                      r"(?:introduces|proposes|uses|leverages|employs|exploits|learns|combines|builds)\b", re.I)
_RESTATED = re.compile(r"\s*(?:(?:the|this|these|our) (?:[\w-]+ )?(?:problems?|tasks?)|it|them)(?=\s+(?:as|in|into|with|using)\b)",
                       re.I)
_AND_CONTRIB = re.compile(r"\b(?:and|then) (?:propose|introduce|present|develop|design)s?\b")
_FINDING = re.compile(_WHO + r"(?:show|prove|demonstrate|find|argue|establish|derive|identify|"
                      r"characteri[sz]e|reveal|provide|give|obtain|extend|generali[sz]e|apply|adapt|"
                      r"improve|reformulate|cast|frame|recast|combine|leverage|use|employ|exploit|"
                      r"initiate|settle|resolve|solve|unify|bridge|connect|relate|model|learn|train|"
                      r"answer|discover|observe|uncover|pinpoint|highlight)(?:s|es|d|ed)?\b", re.I)
_NEED_TO = re.compile(r"\bwe (?:\w+ )?(?:need|want|wish|have|aim|seek|try|hope) to\b", re.I)
_FOUND = re.compile(_WHO + r"found\b", re.I)  # a finding to join, not a sentence to score up
# the authors naming their problem: less than a finding, more than background
_PROBLEM = re.compile(_WHO + r"(?:study|studie|investigate|analy[sz]e|explore|examine|address|"
                      r"tackle|consider|focus|aim)(?:s|es|d|ed)?\b|\bour (?:main )?(?:goal|aim|objective|"
                      r"purpose)(?: in this (?:paper|work))? is to\b", re.I)
_OPENERS = re.compile(r"^(?:in this (?:paper|work)|here,? we|this (?:paper|work)|to (?:address|"
                      r"tackle|overcome|fill|bridge|solve|mitigate|this end)|we )", re.I)
_PAPER = re.compile(r"^(?:in )?this (?:paper|work|study)\b|^here,? we\b", re.I)
_NOVEL = re.compile(r"\b(?:novel|new|first|simple|principled|unified|general)\b", re.I)
_BACKGROUND_START = re.compile(r"(?:however|recently|although|while|despite|existing|current|"
                               r"traditional|conventional|previous|prior|many|most)\b", re.I)
_BACKGROUND = re.compile(r"\b(?:has|have) (?:been|become|shown|gained|emerged|attracted)\b|"
                         r"\bremains? (?:a |an |largely |poorly )?(?:challenge|open|unclear|"
                         r"unexplored|elusive)", re.I)
# a side remark or a detail of the main contribution, not the contribution itself
_SECONDARY = re.compile(r"(?:furthermore|moreover|additionally|in addition|further|besides|also|"
                        r"concurrently|meanwhile|simultaneously|"
                        r"finally|lastly|for (?:example|instance)|as a (?:consequence|result|by-?product|special "
                        r"case)|subsequently|second(?:ly)?|third(?:ly)?)\b|\(?(?:\d|i+|[a-e])\)", re.I)
_DETAIL = re.compile(r"(?:specifically|in particular|more specifically|concretely|first(?:ly)?,|"
                     r"(?:in this (?:paper|work),? )?we first\b)", re.I)
_SECONDARY_IN = re.compile(r"\bwe (?:also|further|additionally|finally)\b|;\s*\(?(?:2|ii|b)\)", re.I)
_HOUSEKEEPING = re.compile(r"https?:|www\.|\bcode (?:is|and|will be)\b|\bavailable (?:at|on)\b|"
                           r"\bgithub\b|\bopen-?source[sd]?\b", re.I)
# one sentence or two: longer than this, a sentence ends at a clause boundary
MAX_CHARS = 400


_WE_START = re.compile(r"(?:we|this (?:paper|work|study))\s+(?!also\b|believe\b|hope\b|expect\b|"
                       r"conjecture\b|leave\b|discuss\b)[a-z]+\b", re.I)
_HOWEVER_WE = re.compile(r"however,?\s+(?:[^,]{0,60},\s*)?we\b", re.I)
_HOUSEKEEPING_HINTS = ("http", "www.", "code", "available", "github", "source")


# "Our contribution is two-fold.": announces what follows and says nothing itself
_LEAD_IN = re.compile(r"(?:our|the) (?:main |key |primary )?contributions? (?:of this (?:paper|work) )?(?:is|are) "
                      r"(?:(?:two|three|four)-?fold|as follows)\s*[.:]?$", re.I)


def _housekeeping(s: str) -> bool:
    low = s.lower()
    return any(h in low for h in _HOUSEKEEPING_HINTS) and bool(_HOUSEKEEPING.search(s))


def _contributes(s: str) -> bool:
    m = _CONTRIB.search(s)
    if m and _frames(s, m):  # "we formulate the problem in a Bayesian framework": a framing
        m = _CONTRIB.search(s, m.end())
    if m or (("our" in s or "Our" in s) and _OURS_DO.search(s)) or \
            (s[:7].lower() == "in this" and _PASSIVE_OWN.match(s)):
        return True
    m = _AND_CONTRIB.search(s)  # "we provide a lower bound ... and propose an algorithm"
    return bool(m) and bool(re.search(r"\bwe\b", s[:m.start()], re.I))


def _frames(s: str, m: re.Match | None = None) -> bool:
    """Does the authors' verb only restate the problem said before ("we formulate the problem as X")?"""
    m = m or _CONTRIB.search(s)
    return bool(m) and bool(_RESTATED.match(s, m.end()))


def _background(s: str, low: str) -> bool:
    return bool(_BACKGROUND_START.match(s)) or (("has " in low or "have " in low or "remain" in low)
                                                and bool(_BACKGROUND.search(s)))


def _results(s: str, low: str) -> bool:
    return bool(RESULTS_START.match(s)) or (any(w in low for w in _RESULT_HINTS)
                                             and bool(RESULTS.search(s)))


_RESULT_HINTS = ("experiment", "empirical", "result", "evaluation", "analys", "comparison", "ablation", "efficacy",
                 "effectiveness", "superiority", "benefit", "merit")
_NOVEL_HINTS = ("novel", "new", "first", "simple", "principled", "unified", "general")


def sentence_scores(doc: Doc, method_names: list[str]) -> list[float]:
    return [f[0] for f in _features(doc, method_names)]


def _features(doc: Doc, method_names: list[str]) -> list[tuple[float, bool, bool, bool]]:
    """Per sentence: its score, and whether it is background, results or housekeeping."""
    n = len(doc.sentences)
    out = []
    opening, proposes = [], False  # "We study X" opening the authors' part; "we propose"
    names = method_names[:3]
    for i, s in enumerate(doc.sentences):
        words = len(s.split())
        low = s.lower()
        speaks = "we" in low or "this" in low or "our" in low  # no one speaks otherwise
        rest = strip_lead(s)
        score = 0.0
        if speaks and _contributes(s) and not _NEED_TO.search(s):  # "we aim to create X" is an aim
            proposes = True
            score += 3.0
            if i <= doc.own_start:  # "We present X, ..." opening the authors' part
                score += 0.8
        elif speaks and _FINDING.search(s):
            score += 1.8
        elif speaks and _PROBLEM.search(s):
            score += 1.0
            if i <= doc.own_start:
                opening.append(i)
        elif _WE_START.match(rest):  # "We optimize X by ...": the authors
            score += 0.5 if i <= doc.own_start else 0.0
        else:
            score -= 1.5  # no one says what the paper does
        said = score > 0
        if _OPENERS.search(s) or _OPENERS.search(rest):
            score += 1.3 if _PAPER.search(s) else 0.8
        if any(token_starts(s, name) for name in names):
            score += 1.5
        if any(w in low for w in _NOVEL_HINTS) and _NOVEL.search(s):
            score += 0.4
        background, results, housekeeping = _background(s, low), _results(s, low), _housekeeping(s) or bool(_LEAD_IN.match(rest))
        if background and not (said and (_HOWEVER_WE.match(s) or _OURS_DO.search(s))):  # "However, we find ..." is theirs
            score -= 1.5
        if results:
            score -= 1.0
        if _SECONDARY.match(s) or (speaks and _SECONDARY_IN.search(s)):
            score -= 1.0
        elif _DETAIL.match(s):  # a detail of the contribution, often the contribution itself
            score -= 0.5
        if housekeeping:
            score -= 4.0
        if i < doc.own_start:
            score -= 1.0
        # contributions sit in the first half more often than at the very end
        score -= 1.0 * (i / max(n - 1, 1))
        if words < 7:
            score -= 1.5
        elif words > 70:
            score -= 1.0
        out.append((score, background, results, housekeeping))
    if not proposes:  # no one proposes anything: what the authors study is the contribution
        for i in opening:
            out[i] = (out[i][0] + 0.5,) + out[i][1:]
    return out


_CLAUSE_END = re.compile(r";\s|,\s(?:which|where|while|whereas|and|thereby|thus|allowing|"
                         r"enabling|leading|resulting|yielding)\b|\s[-–—]+\s")


def shorten(sentence: str, limit: int = MAX_CHARS) -> str:
    """A long sentence ends at its last clause boundary within `limit`; only a sentence without
    one is cut with an ellipsis (which the TL;DR rules reject, so another sentence is taken)."""
    if len(sentence) <= limit:
        return sentence
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence[:limit])]
    ends = [e for e in ends if len(sentence[:e].split()) >= 8]
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
    """Does the sentence only say what the authors study, not what they make or find?"""
    return bool(_PROBLEM.search(text)) and not _CONTRIB.search(text) and not _FINDING.search(text)


def _joined(text: str, nxt: str) -> str | None:
    """`text` followed by the sentence `nxt`, when the two fit a TL;DR and break none of its rules."""
    longer = f"{text} {lead_off(nxt)}"
    return longer if len(longer) <= MAX_CHARS and not tldr_breaks(longer) else None


def _with_finding(doc: Doc, i: int, feats: list, text: str) -> str | None:
    """`text` and the finding that completes it: "We introduce a task ... We prove that gradient
    descent learns to solve this task ..." (the next sentence, which points back at it); "We
    study X ... We find that Y" (what was studied, then the first finding within three sentences)."""
    studies = _studies(text)
    if studies:  # "We consider the problem of X, in which ...": the problem, then what the paper does
        head = _SETTING_TAIL.split(text, maxsplit=1)[0].rstrip(" ,;:.")
        text = head + "." if len(head.split()) >= 6 else text
    for j in range(i + 1, min(i + (6 if studies else 2), len(doc.sentences))):
        s = doc.sentences[j]
        if any(feats[j][2:] if j == i + 1 else feats[j][1:]):
            continue  # results, housekeeping; background only right after
        if not (_FINDING.search(s) or _FOUND.search(s) or _contributes(s)) or _NEED_TO.search(s):
            continue  # "When p = inf, we need to find a subspace V ...": a step, not a finding
        if j == i + 1 and not (studies or unresolved_refs(s)):
            return None
        longer = _joined(text, s) or (_joined(text, _cut(s, MAX_CHARS - len(text) - 1)) if studies else None)
        if longer:
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
    if thin and not (set(broken) - {"thin"}) and "…" not in text and i + 1 < len(doc.sentences):
        nxt = doc.sentences[i + 1]
        if not any(feats[i + 1][1:]) and not _OUTLOOK.match(nxt):
            longer = _joined(text, nxt)
            if longer:
                return score + _MAX_BONUS, longer  # what it is, then what it does
    elif nxt and (len(text) < 200 or _studies(text)) and not broken:
        longer = _with_finding(doc, i, feats, text)
        if longer:
            return quality + _MAX_BONUS, longer
    if thin:
        quality -= 1.5
    symbol = _SYMBOL.search(text)
    if symbol:  # "between Σ and ..." is undefined, "the covariance matrix Σ" is not
        before = re.findall(r"[a-z]+", text[:symbol.start()][-20:])
        if not before or before[-1] in STOP_WORDS or len(before[-1]) < 4:
            quality -= 1.5
    if _BARE_VARIABLE.search(text):  # "if $M$ is a multi-layer network": notation the TL;DR never defines
        quality -= 1.0
    return quality, text


def best_sentence(doc: Doc, method_names: list[str]) -> str:
    """The TL;DR (display text, markup removed): the contribution sentence rewritten to stand
    alone, with the next sentence when it alone only names the method; when it cannot stand
    alone, the next best sentence that can."""
    if not doc.sentences:
        return ""
    feats = _features(doc, method_names)
    order = sorted(range(len(feats)), key=lambda i: (-feats[i][0], i))[:5]
    best = None
    for i in order:
        if best is not None and feats[i][0] + _MAX_BONUS <= best[0]:
            break  # no later sentence can read better: none gains more than a join's bonus
        c = _candidate(doc, i, feats, method_names[:3]) + (i,)
        if best is None or c[0] > best[0]:
            best = c
    return _with_next(doc, best[2], feats, _with_setting(doc, best[2], feats, best[1]), method_names[:3])


def _with_setting(doc: Doc, i: int, feats: list, text: str) -> str:
    """A short TL;DR ("We design novel MIP relaxations for proving lower bounds.") after the
    earlier sentence in which the authors say what they work on, so it reads without the abstract."""
    if text.count(". ") or i == 0 or len(text) > _SET_LONG - 40:
        return text  # two sentences already, or no room for a setting of 8 words
    for j in range(i - 1, max(i - 4, -1), -1):
        s = doc.sentences[j]
        if any(feats[j][1:]) or not (_PROBLEM.search(s) or _WE_START.match(strip_lead(s))) or \
                _NEED_TO.match(strip_lead(s)) or _OUTLOOK.search(s) or _OUR_CLAIM.search(s) or _frames(s):
            continue
        setting, kept = rewrite(s)
        longer = _joined(setting, text) if kept == 1.0 and not _contributes(s) and len(setting.split()) >= 8 and \
            (len(text) < _SHORT or len(setting) + len(text) <= _SET_LONG) else None
        if longer:
            return longer
    return text


# the authors go on: "We demonstrate that ...", "Our bounds are ...", "Unlike X, our method ..."
_GOES_ON = re.compile(r"(?:unlike [^,]{2,60},\s*)?(?:we|our|it|this (?:method|approach|framework|model|algorithm))\b", re.I)
_THIN_AT = 180  # characters: a one-sentence TL;DR this short says what, rarely how or what it finds


def _with_next(doc: Doc, i: int, feats: list, text: str, names: list[str]) -> str:
    """A short one-sentence TL;DR ("We present a unified framework for deriving PAC-Bayesian
    bounds.") with the next sentence when the authors go on in it to say how or what they find."""
    j = i + 1
    if text.count(". ") or len(text) >= _THIN_AT or j >= len(doc.sentences) or any(feats[j][1:]):
        return text
    nxt = doc.sentences[j]
    rest = lead_off(nxt)
    if not (_GOES_ON.match(rest) or any(0 in token_starts(rest, n) for n in names)) or \
            _OUTLOOK.search(nxt) or _SECONDARY.match(nxt) or _NEED_TO.search(nxt):
        return text
    return _joined(text, nxt) or text


# "We provide evidence to verify our hypothesis": a setting that points at a claim it does not state
_OUR_CLAIM = re.compile(r"\bour (?:hypothesis|claim|conjecture|intuition)\b", re.I)
_SHORT = 220  # characters: a TL;DR this short often leaves out what the paper is about
_SET_LONG = 330  # a longer one takes a setting that keeps the two within this
