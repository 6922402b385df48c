"""Sentence scores for the extractive TL;DR (tldr.py): the cues a reader uses to find the
contribution in an abstract. The authors speaking ("we propose", "this paper introduces"), the
paper's own method names, contribution words and the sentence's place score it up; background
("Recently, ...", "However, existing ..."), side remarks ("We also ...", "Specifically, ..."),
experiments and housekeeping ("Code is available at ...") push it down.
"""
from __future__ import annotations

import re

from .acronyms import long_forms
from .cues import DESCRIBE, MAIN_CONTRIBUTION, RESULTS, RESULTS_START
from .standalone import strip_lead
from .text import Doc, token_starts

# the authors speaking, the verb within a few words: "we then propose", "this paper presents"
_WHO = (r"\b(?:we|this (?:paper|work|study|article)|our (?:paper|work|study))(?:,[^,]{1,40},)?"
        r"(?:\s+(?!that\b|the\b|an?\b|our\b|its\b|their\b)[\w-]+){0,3}?\s+")
CONTRIB = re.compile(_WHO + r"(?:propose|introduce|present|develop|design|devise|build|construct|"
                      r"create|release|formulate|put forward|offer|contribute)s?\b|"
                      + _WHO + r"(?:stud(?:y|ies)|considers?|analy[sz]es?|investigates?) (?:an? )?(?:novel|new)\b(?! (?:[\w-]+ ){0,2}(?:problem|setting|setup|task|question|scenario|direction|"
                      r"perspective|type|kind|view|angle|formulation|variant of))|"
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
FINDING = re.compile(_WHO + r"(?:show|prove|demonstrate|find|argue|establish|derive|identify|"
                      r"characteri[sz]e|reveal|provide|give|obtain|extend|generali[sz]e|apply|adapt|"
                      r"improve|reformulate|cast|frame|recast|combine|leverage|use|employ|exploit|"
                      r"initiate|settle|resolve|solve|unify|bridge|connect|relate|model|learn|train|"
                      r"answer|discover|observe|uncover|pinpoint|highlight|quantif(?:y|ie))(?:s|es|d|ed)?\b", re.I)
NEED_TO = re.compile(r"\bwe (?:\w+ )?(?:need|want|wish|have|aim|seek|try|hope) to\b", re.I)
FOUND = re.compile(_WHO + r"found\b", re.I)  # a finding to join, not a sentence to score up
# the authors naming their problem: less than a finding, more than background
PROBLEM = re.compile(_WHO + r"(?:study|studie|investigate|analy[sz]e|explore|examine|address|"
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
SECONDARY = re.compile(r"(?:furthermore|moreover|additionally|in addition|further|besides|also|"
                        r"concurrently|meanwhile|simultaneously|"
                        r"finally|lastly|for (?:example|instance)|as a (?:consequence|result|by-?product|special "
                        r"case)|subsequently|second(?:ly)?|third(?:ly)?)\b|\(?(?:\d|i+|[a-e])\)", re.I)
_DETAIL = re.compile(r"(?:specifically|in particular|more specifically|concretely|first(?:ly)?,|"
                     r"(?:in this (?:paper|work),? )?we first\b)", re.I)
_SECONDARY_IN = re.compile(r"\bwe (?:also|further|additionally|finally)\b|;\s*\(?(?:2|ii|b)\)", re.I)
_HOUSEKEEPING = re.compile(r"https?:|www\.|\bcode (?:is|and|will be)\b|\bavailable (?:at|on)\b|"
                           r"\bgithub\b(?!\s+(?:issues?|repositor(?:y|ies)|projects?|commits?|pull requests?|users?)\b)|"
                           r"\bopen-?source[sd]?\b", re.I)  # "problems drawn from GitHub issues" are data, not a link


# the authors report on a method they have not said anything about ("We validate our approach on X")
_UNDESCRIBED = re.compile(r"^(?:[^,]{0,80},\s*)?(?:we (?:\w+ly )?(?:show|demonstrate|validate|prove|proved|find|observe|evaluate|test|"
                          r"apply|use|extend)(?:s|ed|d)?\s+(?:(?:how|that|empirically|theoretically)\s+)*)?our (?:proposed |new )?"
                          r"(?:method|approach|framework|model|algorithm|technique|system)s?\b(?!,?\s+(?:called|named|dubbed|(?-i:[A-Z])))", re.I)


WE_START = re.compile(r"(?:we|this (?:paper|work|study))\s+(?!also\b|believe\b|hope\b|expect\b|"
                       r"conjecture\b|leave\b|discuss\b)[a-z]+\b", re.I)
_HOWEVER_WE = re.compile(r"however,?\s+(?:[^,]{0,60},\s*)?we\b", re.I)
_HOUSEKEEPING_HINTS = ("http", "www.", "code", "available", "github", "source")


# "Our contribution is two-fold.": announces what follows and says nothing itself
_LEAD_IN = re.compile(r"(?:our|the) (?:main |key |primary )?contributions? (?:of this (?:paper|work) )?(?:is|are) "
                      r"(?:(?:two|three|four)-?fold|as follows)\s*[.:]?$", re.I)


def _housekeeping(s: str) -> bool:
    low = s.lower()
    return any(h in low for h in _HOUSEKEEPING_HINTS) and bool(_HOUSEKEEPING.search(s))


def contributes(s: str) -> bool:
    m = CONTRIB.search(s)
    if m and frames(s, m):  # "we formulate the problem in a Bayesian framework": a framing
        m = CONTRIB.search(s, m.end())
    if m or (("our" in s or "Our" in s) and _OURS_DO.search(s)) or \
            (s[:7].lower() == "in this" and _PASSIVE_OWN.match(s)):
        return True
    m = _AND_CONTRIB.search(s)  # "we provide a lower bound ... and propose an algorithm"
    return bool(m) and bool(re.search(r"\bwe\b", s[:m.start()], re.I))


def frames(s: str, m: re.Match | None = None) -> bool:
    """Does the authors' verb only restate the problem said before ("we formulate the problem as X")?"""
    m = m or CONTRIB.search(s)
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


def features(doc: Doc, method_names: list[str]) -> list[tuple[float, bool, bool, bool]]:
    """Per sentence: its score, and whether it is background, results or housekeeping."""
    n = len(doc.sentences)
    out = []
    opening, proposes, described = [], False, False  # "We study X" opening the authors' part; "we propose"; said before
    names = method_names[:3]
    for i, s in enumerate(doc.sentences):
        words = len(s.split())
        low = s.lower()
        speaks = "we" in low or "this" in low or "our" in low  # no one speaks otherwise
        rest = strip_lead(s)
        score = 0.0
        own = speaks and contributes(s)  # (a contribution always speaks: every cue holds "we", "this" or "our")
        if own and not NEED_TO.search(s):  # "we aim to create X" is an aim
            proposes = True
            score += 3.0
            if i <= doc.own_start:  # "We present X, ..." opening the authors' part
                score += 0.8
        elif speaks and FINDING.search(s):
            score += 1.8
        elif speaks and PROBLEM.search(s):
            score += 1.0
            if i <= doc.own_start:
                opening.append(i)
        elif WE_START.match(rest):  # "We optimize X by ...": the authors
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
        if "our" in low and not described and _UNDESCRIBED.search(s):
            score -= 1.5  # "We show our approach improves X": what the approach is, no sentence before says
        described = described or own
        if SECONDARY.match(s) or (speaks and _SECONDARY_IN.search(s)):
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


# --------------------------------------------------------------------------- what a next sentence says

# "We propose a simple but novel method that improves X.": an object with nothing but praise
VAGUE = re.compile(r"^(?:(?:in this (?:paper|work|study)|here),?\s+)?(?:we|this (?:paper|work|study)) (?:propose|present|introduce|"
                   r"develop|suggest|design|devise)s?\s+(?:a|an)\s+(?:(?:new|novel|simple|straightforward|effective|efficient|"
                   r"principled|general|generic|innovative|unified|versatile|plug-and-play|flexible|practical|easily implemented|"
                   r"lightweight|yet|but|and|highly|very|,)\s*)*(?:[\w-]+\s+)?"
                   r"(?:method|approach|algorithm|framework|technique|scheme|strategy|pipeline|solution|paradigm)s?"
                   r"(?:\s+(?:for|to|that (?:improves|outperforms|achieves|enhances))\s+[^.]{0,80}|"
                   r",?\s+(?:called|named|dubbed|termed)\s+[^.]{0,60})?\.$", re.I)  # "... a technique called AdaMerging."
OURS = re.compile(r"^(?:\S+\s+){0,5}?(?:we|ours?|it|this (?:new )?(?:method|approach|framework|algorithm))\b", re.I)
# a next sentence about the contribution ("By construction, the proposed LFlows satisfy X", "This strategy is
# prompt-free"), not about earlier work
ABOUT_IT = re.compile(r"\b(?:we|our|ours|the proposed|this (?:construction|strategy|approach|method|framework|model|"
                      r"algorithm|design|formulation|representation|technique|architecture|scheme|loss|objective))\b", re.I)
ABOUT_OTHERS = re.compile(r"\b(?:recent(?:ly)?|prior|previous(?:ly)?|existing|typically|traditional(?:ly)?|conventional|"
                          r"state-of-the-art|has attracted|have been|has been|experiments?|results?|evaluations?|outperforms?|"
                          r"surpass(?:es)?|benchmarks?)\b", re.I)
# "This dataset has two crucial features.": a list the sentence announces and does not give
LIST_TO_COME = re.compile(r"\b(?:two|three|four|several|multiple) (?:[\w-]+ ){0,2}(?:features|components|parts|steps|"
                          r"stages|properties|advantages|benefits|contributions|aspects|ingredients|innovations|ideas|"
                          r"techniques|modules|characteristics)(?: of (?:our|the|this) [\w-]+)?[.:]?$", re.I)
# "Our main result shows that ...": a theory paper's finding, not an experiment's
THEORY_CLAIM = re.compile(r"^our (?:main|key|central|principal|first) (?:results?|findings?|observations?|insights?|conclusions?) "
                          r"(?:is|are) that\b|^our (?:\w+ )?(?:results|findings|analys[ie]s)(?:,[^,]{1,80},)? (?:\w+ )?(?:show|reveal|suggest|"
                          r"indicate|demonstrate|confirm)(?:ed)?\b(?! (?:that )?(?:they|it|these|those|this)\b)(?!.*\b(?:experiment|empirical|benchmark|outperform|state-of-the-art|"
                          r"effective(?:ness)?|efficacy|superior(?:ity)?|proposed))|^(?:our|the) (?:(?:main|key|central|principal|first) (?:theoretical )?(?:results?|theorems?)|"
                          r"theoretical (?:results?|analysis)|analysis|theorems?) (?:\w+ )?(?:shows?|proves?|establish(?:es)?|"
                          r"reveals?|demonstrates?|states?|implies|characteri[sz]es?)\b(?!.*\b(?:experiment|empirical|benchmark))", re.I)


def undefined_name(doc: Doc, i: int, text: str, names: list[str]) -> bool:
    """Does a TL;DR made from sentence `i` speak of the paper's method by a name that an earlier
    sentence, left out, introduces ("We theoretically show that the criterion used by PINNACLE
    is related to ...": what is PINNACLE)? Not when the TL;DR introduces it itself ("we propose
    X", "called X", "Cache Merging (CaM)", "X, a method that"), nor when the TL;DR will spell it out
    as the abstract defines it ("CaM" -> "Cache Merging (CaM)")."""
    spelled = long_forms(doc.sentences)
    for name in names:
        if name in spelled or (name.endswith("s") and name[:-1] in spelled):  # "GMNs" of "Graph Metanetworks (GMNs)"
            continue
        at = token_starts(text, name)
        if not at:
            continue
        first = next((j for j, s in enumerate(doc.sentences) if token_starts(s, name)), i)
        if first >= i or _INTRODUCED.search(text[:at[0]][-80:]) or \
                re.match(r"\s*(?:\(|,\s*(?:a|an|the)\b|:)", text[at[0] + len(name):]):
            continue
        return True
    return False


_INTRODUCED = re.compile(r"(?:\(\s*|\b(?:call|called|named|dubbed|term|termed|coined|introduc\w*|propos\w*|present\w*|develop\w*|"
                         r"design\w*|devis\w*|build|built|creat\w*)\b[^.;]*)$", re.I)
