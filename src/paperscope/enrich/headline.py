"""The label a reader expects first: what the paper's contribution sentence says the paper
offers, kept whole as a title-style phrase.

The sentence where the authors say what they propose, introduce or study ("we present
UltraFeedback, a large-scale, high-quality, and diversified AI feedback dataset, which ...")
usually holds the paper's title in other words. This module takes that sentence's object and
writes it as a title:

- a named contribution becomes "Name: what the text says it is" ("UltraFeedback: a
  large-scale, high-quality, and diversified AI feedback dataset"), from the apposition after
  the name, the noun phrase before "called Name" / "(Name)", or the clause "Name, which ...";
- an unnamed one becomes its noun phrase with the phrases that make it specific ("Framework for
  probabilistic forecasting of dynamical systems based on generative modeling"; "The
  learnability of dynamical systems over multilayer networks").

The phrase ends where the noun phrase ends (a clause, a ", which", a result), never mid-phrase,
and is shortened only at a phrase boundary. A phrase that leans on earlier text ("this
problem", "their scaling"), names only a kind ("a simple method") or would not read as a title
gives no headline; the caller falls back to the scored candidates of label.py. Where a phrase
ends and how it is cut to fit is noun_phrase.py's; what a named contribution is said to be,
named.py's; the position paper's label is position.py's.
"""
from __future__ import annotations

import re

from ..words import STOP_WORDS
from .acronyms import expand
from .compose import reads_as_title
from .cues import DESCRIBE, MAIN_CONTRIBUTION
from .methods import Mention, is_background
from .named import (APPOSITION, CALLED_NAME, DASH_NAME, KIND_NAME, NAME_AFTER, RESULT_VERBS, named_descriptions,
                    subject_descriptions)
from .noun_phrase import (GENERIC_VERB, LEAD, abbreviated, before_lean, capital, content, fits, leans_back,
                          loose_end, phrase_end, prepared_object, tidy, with_relative)
from .phrases import gerund
from .rules import label_breaks
from .vocab import VERBS, is_modifier

VERBS_S = frozenset(v for v in VERBS if v.endswith(("s", "ed")))

# the authors say what they offer: tier 0 what they make, 1 what they study, 2 what they give
_VOICE = (r"\b(?:we|this (?:paper|work|study|article)|our (?:paper|work|study|analysis|(?:main |key |primary )?"
          r"contribution))\s+"
          r"(?:(?:\w+ly|also|further|then|first|here|now|therefore|thus|hence|finally|additionally|"
          r"newly|have|has|(?:is|are) the first to|(?<=contribution )(?:is|are) to)\s+)*")
_TIERS = [re.compile(_VOICE + r"(?:(?:define|formali[sz]e|formulate|motivate|pose|introduce|propose)s? and\s+)?"
                     r"(?P<verb>" + verbs + r")(?:e|es|ed|ing|s|y|ies|ied|d|t)?\b\s+"
                     r"(?:and\s+\w+\s+)?", re.I) for verbs in (
    r"propos|introduc|present|develop|design|devis|construct|creat|formulat|put forward|releas|"
    r"curat|buil|(?<=contribution )(?:i)",
    r"stud|investigat|analy[sz]|examin|explor|revisit|characteri[sz]|focus(?:es)? on|approach|"
    r"consider|initiat|delv(?:es|e) into|advocat",
    r"provid|establish|deriv|offer|contribut|giv")]
# "we show that X and propose Y", "our method introduces Y": the authors' own contribution said second
_AND_MAKE = re.compile(r"\b(?:we|this (?:paper|work)) (?:\w+ly )?(?:show|find|argue|demonstrate|observe|"
                       r"reveal|prove)s? that\b[^.;]{5,200}?\band (?:then |further |also )?"
                       r"(?:propose|introduce)s?\s+(?!to\b)|\bwe (?:extend|generali[sz]e) [^.;]{3,120}?\band (?:then |further |also )?"
                       r"(?:propose|introduce|develop|design|present)\s+(?!to\b)", re.I)
# "we close this gap and present X", "we formulate the problem and propose X": the second verb makes
_AND_VERB = re.compile(r"\bwe (?:\w+ly )?(?!(?:propose|introduce|present|develop|design|devise)\b)[a-z]+\b"
                       r"(?:(?!(?<!fact )(?<!observation )\b(?:that|which|who)\b)[^.;:]){3,140}?,? and (?:then |further |also |thus |hence |"
                       r"therefore |finally )?(?:(?:utili[sz]e|use|leverage|apply|employ) (?:it|them) to )?"
                       r"(?:propose|introduce|present|develop|design|devise|construct|build)\s+(?!to\b)", re.I)
_DESCRIBE = re.compile(DESCRIBE, re.I)
_OUR_MAKES = re.compile(r"\bour (?:method|approach|framework|model|algorithm)\s+(?:\w+ly\s+)?"
                        r"(?:introduces|proposes|develops)\s+", re.I)
# "X is proposed", "... is introduced": the passive voice at the start of a sentence
_PASSIVE = re.compile(r"^(?P<obj>(?:a|an|the)\s.{5,160}?)\s+(?:is|are)\s+(?:proposed|introduced|"
                      r"presented|developed)\b", re.I)
_OPENING = re.compile(r"^(?:(?:in this (?:paper|work)|here|to this end|finally|specifically|(?:from|based on|building on|"
                      r"motivated by|inspired by) (?:this|these|the|our) [\w-]+(?: [\w-]+)?),?\s+)", re.I)
# an object that is no phrase to stand alone: a clause, an infinitive, a perspective
_NOT_OBJECT = re.compile(r"(?:(?:extensive |numerical |experimental |empirical |comprehensive |detailed |"
                         r"an? |several |some )*(?:[\w-]+ )?(?:results|experiments|evaluations?|simulations|overview|perspective|facts|"
                         r"insights?|discussions?|intriguing|analyses)\b|"
                         r"(?:compelling |new |strong |further |empirical |novel )*evidence|(?:the |a |an )?"
                         r"(?:recently proposed|well-known|existing|classical)|(?:the )?"
                         r"case (?:of|where|when|in which)|to|that|how|why|whether|what|when|if|an? "
                         r"(?:novel |new |different )?"
                         r"(?:perspective|view|look|lens)|(?:perspective|lens) (?:on|of|into)|(?:a |the )?(?:broad|wide|large|"
                         r"diverse|rich) (?:range|class|family|variety|set|spectrum) of|(?:several|some|many|various) (?:insights?|"
                         r"ways?|results?))\b", re.I)
_NAMING = ("intro", "called", "appositive", "markup")



class _Named(Exception):
    """The named contribution's sentence does not say what it is."""


# "by proposing X" inside a sentence, "our method can be seen as X", "two contributions: (1) X"
_BY = re.compile(r"\bby (?:proposing|introducing|developing|presenting|designing)\s+", re.I)
_OUR_IS = re.compile(r"\b(?:our|the proposed) (?:method|approach|framework|model|algorithm|technique)\s+"
                     r"(?:can be (?:seen|viewed|interpreted|understood) as|is)\s+(?=an?\s)", re.I)
_ENUMERATED = re.compile(r"\b(?:two|three|four|several) (?:main |key |major )?contributions?:\s*"
                         r"(?:\(?(?:1|i|a)\)\s*)?", re.I)
_MAIN = re.compile(MAIN_CONTRIBUTION + r"\s+", re.I)
# "we address this problem by learning X", "we unify these approaches by describing X": the means is the paper's
_BY_MEANS = re.compile(r"\bwe (?:\w+ly )?(?:address|tackle|overcome|solve|mitigate|alleviate|resolve|circumvent|"
                       r"bridge|close|fill|unify|achieve|accomplish|realize)s? (?:this|these|the|such|both|those|"
                       r"that)\b[^.;,]{0,50}? by (?P<verb>[a-z]{3,}ing) (?=\S)", re.I)
# "we use a linear program to decompose fitted networks into X": what the tool is used for
_USE_TO = re.compile(r"\bwe (?:\w+ly )?(?:use|employ|utili[sz]e|apply|adopt)s? (?P<det>(?:an?|the) )?[^.;,]{3,60}? to "
                     r"(?:\w+ly )?(?P<verb>[a-z]{3,}) (?=\S)", re.I)
# "we perform a systematic analysis of X": the study is the object
_CONDUCT = re.compile(_VOICE + r"(?:conduct|perform|carr(?:y|ies) out|undertake|present|provide)(?:s|ed)?\s+"
                      r"(?P<verb>)(?=(?:a|an|the (?:first|largest))\s+(?:[\w-]+\s+){0,3}?(?:study|analysis|"
                      r"investigation|evaluation|comparison|examination)\s+(?:of|on|into)\s)", re.I)
_AIMS = re.compile(r"\b(?:(?:this (?:paper|work|study)|we) aims? to|our (?:main )?(?:goal|aim|objective)(?: in this "
                   r"(?:paper|work))? is to) (?P<verb>[a-z]+)\s+", re.I)
_LIGHT_MEANS = frozenset("using making having being doing taking showing providing considering focusing "
                         "leveraging establishing exploiting employing adopting utilizing utilising following "
                         "relying studying analyzing noting observing assuming separating defining proposing "
                         "introducing developing presenting designing".split())  # the last five: _BY's
_COMMA_WITH = re.compile(r",\s+(?=(?:with|using|via|based on|for|through|by)\b)")
_HERE = re.compile(r"^(?:in this (?:article|paper|work|note)|here(?:in)?),?\s+(?=(?:a|an|the)\s)", re.I)


def _objects(s: str, tier: int, deferred: list[str] | None = None,
             second: list[tuple[str, str]] | None = None) -> list[str]:
    """The objects of the authors' verbs of `tier` in sentence `s`; weaker ones ("we propose to
    V X") go to `deferred`, and those said in passing go to `second` as (how, object): "and" (a
    second verb: "we close this gap and present X"), "describe", "means" ("by embedding X") or
    "study" ("we conduct a study of X"); both lists are read after every sentence."""
    deferred = [] if deferred is None else deferred
    out = []
    starts = list(_TIERS[tier].finditer(s))
    if tier == 0:
        starts += list(_BY.finditer(s)) + list(_ENUMERATED.finditer(s)) + list(_MAIN.finditer(s))
        if not starts:
            starts += list(_AND_MAKE.finditer(s)) + list(_OUR_MAKES.finditer(s))
        if second is not None:  # read after every sentence: the first verb's object may be the paper's
            second += [("and", prepared_object(s[m.end():])) for m in _AND_VERB.finditer(s)
                       if all(m.end() != n.end() for n in starts)]
            second += [("describe", o) for o in (prepared_object(s[m.end():]) for m in _DESCRIBE.finditer(s))
                       if not _NOT_OBJECT.match(o)]
    if tier == 2:
        starts += list(_OUR_IS.finditer(s))
    for m in starts:
        rest = s[m.end():]
        obj = prepared_object(_HERE.sub("", rest) if tier == 0 else rest)  # "we propose in this article X"
        infinitive = re.match(r"to (?:instead |also |further |(?P<adv>[a-z]+ly) )?(?P<v>[a-z]+) (?=\S)", obj)
        if tier == 0 and infinitive and "verb" in m.groupdict() and m.group("verb").lower().startswith("propos"):
            g = gerund(infinitive.group("v"))  # "we propose to use RL to search ..." -> "Using RL to ..."
            if g and infinitive.group("v") not in GENERIC_VERB:  # "to adaptively normalize X" -> "Adaptively normalizing X"
                adverb = f"{infinitive.group('adv')} " if infinitive.group("adv") else ""
                deferred.append(adverb + g + " " + obj[infinitive.end():])
            continue
        if not _NOT_OBJECT.match(obj):
            out.append(obj)
    if tier == 1:
        if second is not None:  # "we conduct a systematic study of X", "we address this by learning X"
            second += [("study", prepared_object(s[m.end("verb"):])) for m in _CONDUCT.finditer(s)]
            second += [("means", f"{m.group('verb')} {prepared_object(s[m.end():])}") for m in _BY_MEANS.finditer(s)
                       if m.group("verb").lower() not in _LIGHT_MEANS]
            second += [("means", f"{gerund(m.group('verb'))} {prepared_object(s[m.end():])}") for m in _USE_TO.finditer(s)
                       if gerund(m.group("verb")) and m.group("verb") not in GENERIC_VERB and
                       (m.group("det") or m.group("verb") in VERBS or re.search(r"(?:i[sz]e|ate|ify)$", m.group("verb")))]
        for m in _AIMS.finditer(s):  # "This paper aims to understand X" -> "Understanding X"
            g = gerund(m.group("verb"))
            if g and m.group("verb") not in GENERIC_VERB:
                rest = re.sub(r"\band to ([a-z]+)\b", lambda v: "and " + (gerund(v.group(1)) or v.group(1)),
                              prepared_object(s[m.end():]), count=1)  # "to analyze X and to give Y"
                deferred.append(f"{g} {rest}")
    if tier == 0 and not out:
        p = _PASSIVE.match(_OPENING.sub("", s))
        if p:
            out.append(p.group("obj"))
    return out


def headline(sentences: list[str], own_start: int, mentions: list[Mention], limit: int,
             forms: dict[str, str] | None = None, best: int | None = None) -> str | None:
    """The contribution sentence's object as a title, or None (see the module's text).
    `best`: the index of the sentence that states the contribution best (the TL;DR's), read
    first."""
    text = " ".join(sentences)  # "DOmain" is no name, "SAdam" (S + Adam) is
    names = [m for m in mentions if m.how != "variant" and
             (not re.fullmatch(r"[A-Z]{2}[a-z]{3,}", m.name) or re.search(rf"\b{m.name[1:]}\b", text))
             and not is_background(m, sentences)][:2]
    named = [m for m in names if m.how in _NAMING]
    own = sentences[own_start:]
    del best  # the TL;DR's sentence is often a detail; the first "we propose" states the paper
    try:
        return _first(sentences, own, names, named, limit, forms)
    except _Named:
        return None


def _first(sentences: list[str], own: list[str], names: list[Mention], named: list[Mention], limit: int,
           forms: dict[str, str] | None) -> str | None:
    order = [(i, tier) for i in range(len(own)) for tier in range(3)] if ORDER == "sentence" else \
        [(i, tier) for tier in range(3) for i in range(len(own))]
    deferred: list[str] = []
    second: list[tuple[str, str, list[Mention]]] = []
    problems: list[str] = []  # "we consider the X problem": the paper's answer to it, when one follows, says more
    for i, tier in order:
        s = own[i]
        at = sentences.index(s)
        later = [m for m in named if m.sentence > at]
        more: list[tuple[str, str]] = []
        for obj in _objects(s, tier, deferred, more):
            label = _from_object(obj, tier, names, later, limit, forms or {}, own)
            if label and tier == 1 and (_PROBLEM_OBJECT.match(obj) or (_STUDIED_PROBLEM.search(s) and later)):
                problems.append(label)
            elif label:
                return label
        second += [(how, obj, later) for how, obj in more]
    for how, obj, later in second:  # held to a study's standard, but "We name our method X" still names it
        means = how == "means"  # "we address this by learning X": only for a paper without a name
        label = None if means and names else _from_object(  # "we describe X": as much as "we propose X"
            obj, 1, names, later, limit, forms or {}, own, name_later=not means, need=3 if how == "describe" else 4)
        if label:
            return label
    for obj in deferred:
        label = _from_object(obj, 1, names, [], limit, forms or {}, own)
        if label:
            return label
    return problems[0] if problems else None


ORDER = "sentence"
# an object that only names a problem: "the challenge of estimating X", "the large-scale retrieval
# problem" (one that says more, "the X problem with unknown demand", stays: on the tuning half the
# wider rule changed 14 labels, about as many for the worse as for the better)
# "we study the important problem of X ... we introduce NAME": the problem, when a name follows
_STUDIED_PROBLEM = re.compile(r"\b(?:study|studies|consider|considers|address|addresses|investigate|investigates|tackle|"
                              r"tackles) the (?:[\w-]+ )?(?:problem|task|challenge|question) of\b", re.I)
_PROBLEM_OBJECT = re.compile(r"^(?:the |a |an )?(?:(?:challenge|problem|task|question|issue) of\b|"
                             r"(?:[\w-]+ ){0,5}(?:problem|challenge|task)s?\b(?! (?:of|for|with|in|on|under|where|that)\b))",
                             re.I)


def _checked(label: str | None) -> str | None:
    if not label or label_breaks(label) or re.search(r"\b(?:of|in|on|for|to|with|the|a|an) (?:of|in|on|"
                                                     r"for|to|with|by)\b", label):  # "of the in the"
        return None
    body = label.split(": ", 1)[-1]
    if is_modifier(body.rsplit(" ", 1)[-1]):
        return None  # "Adam-atan2: numerically stable": a modifier waiting for its noun
    return label if reads_as_title(body, "intro", VERBS_S, named=": " in label) else None


def _best(prefix: str, text: str, forms: dict[str, str], room: int, min_content: int,
          whole: bool = False) -> str | None:
    """The first way to say `text` after `prefix` ("Name: " or "") that reads as a title: with
    the abbreviations the abstract defines written out while that keeps most of it, else as
    written."""
    ways = []
    if forms:
        spelled = expand(text, forms)
        ways = [w for w in fits(spelled, room, min_content) if len(w) >= len(tidy(text)) * 0.8]
    for way in ways + fits(text, room, min_content):
        if whole and len(way.split()) < 0.6 * len(tidy(abbreviated(" " + text)).split()):
            continue
        label = _checked(prefix + (way if prefix else capital(way)))
        if label and content(way) >= min_content:
            return label
    return None


def _from_object(obj: str, tier: int, names: list[Mention], named: list[Mention], limit: int,
                 forms: dict[str, str], own: list[str] = (), name_later: bool = False,
                 need: int | None = None) -> str | None:
    several = _SEVERAL.match(obj)
    numbered = several and sum(m.name in obj for m in names) >= 2
    for m in names:
        if tier == 1 and m.how == "acronym":  # "we study learning a mixture of MultiNomial Logit (MNL) model"
            continue
        at = obj.find(m.name)
        if numbered and at >= 0:  # "two new methods ..., namely NI-FGSM and SIM": both names or none
            other = next((n.name for n in names if n is not m and n.name in obj), None)
            if other is None:
                continue
            for desc in (re.split(r",\s*(?:namely|i\.e\.|that is)\b|:|;", obj)[0], phrase_end(obj)):
                if m.name in desc or other in desc:
                    continue  # "FastRNN and FastGRNN algorithms" says no more than the names
                label = _best(f"{m.name} and {other}: ", LEAD.sub("", desc), forms,
                              limit - len(m.name) - len(other) - 7, 2)
                if label:
                    return label
            continue
        if at < 0 or len(obj[:at].split()) > 16 or ": " in obj[:at]:
            continue
        descs = _descriptions(obj, m, forms, own)
        head = LEAD.sub("", phrase_end(obj))
        if m.name not in head and content(head) >= 3 and not leans_back(head):
            descs.append(head)  # "a network architecture based on X, ..., dubbed Wukong"
        label = _described(m.name, descs, forms, limit)
        if label:
            return label
        if tier == 0:  # the paper's named contribution, not said here: the scored candidates know more
            raise _Named
        return None
    label = _said_name(obj, names, forms, limit)
    if label:
        return label
    head = LEAD.sub("", phrase_end(obj))
    need = need or (3 if tier == 0 else 4)
    if leans_back(head):  # "algorithm that leverages X by splitting them": end before the phrase that leans
        head = before_lean(head)
    if (content(head) < need or len(head.split()) <= 3) and (tier == 0 or not names):  # not before a name given later
        head = with_relative(head, obj, RESULT_VERBS)  # "a black-box attack which uses X"
    if leans_back(head) or content(head) < need:
        return None
    if len(head.split()) <= 3:  # a bare topic ("optimal partitioning tree")
        return None
    if (tier == 0 or name_later) and named and not (several and len({m.name for m in named}) > 1):  # "We name our model X"
        label = _best(f"{named[0].name}: ", head, forms, limit - len(named[0].name) - 2, 3)
        if label:
            return label
    label = _best("", head, forms, limit, need)
    if label and len(label.split()) <= SHORT_UNNAMED:  # a short unnamed phrase reads as a bare topic:
        longer = _COMMA_WITH.sub(" ", LEAD.sub("", loose_end(obj)), count=1)  # what it is for ("to V X", ", with Y")
        if len(longer.split()) > len(label.split()) and not leans_back(longer):
            label = _best("", longer, forms, limit, need, whole=True) or label
    return label


def _said_name(obj: str, names: list[Mention], forms: dict[str, str], limit: int) -> str | None:
    """"Name: what it is" for a name the object gives in words of its own: "called X", "---the
    X---", ", X, which", "X, a method to ..."."""
    called = CALLED_NAME.match(obj) or DASH_NAME.match(obj)  # "a simple modification to X called conditional
    if called and not names and not leans_back(called.group("np")) and \
            not is_modifier(called.group("name").split()[-1]):  # finetuning, which"; "which we call variationally coherent"
        np_ = LEAD.sub("", called.group("np"))
        if len(np_.split()) <= 4:  # "network pruning algorithm called DST that can jointly find X"
            np_ = with_relative(np_, np_ + re.sub(r"^\s*\([^()]*\)", "", obj[called.end("name"):]), RESULT_VERBS)
        label = _best(f"{capital(called.group('name'))}: ", np_, forms,
                      limit - len(called.group("name")) - 2, 2) if content(np_) >= 2 else None
        if label:
            return label
    late = NAME_AFTER.match(obj) or KIND_NAME.match(obj)  # "a unified model with one set of parameters, Spider, which"
    if late and late.group("name").lower() not in STOP_WORDS:
        np_ = LEAD.sub("", late.group("np"))
        rel = re.match(r"(?:which|that) (?P<verb>[a-z]+) (?P<rest>.+)", late.group("rest"))
        if rel and rel.group("verb") not in GENERIC_VERB | RESULT_VERBS and \
                len(np_.split()) <= 4:  # "meta-dropout, which learns to perturb ..."
            np_ = f"{np_} that {rel.group('verb')} {phrase_end(rel.group('rest'))}"
        label = _best(f"{capital(late.group('name'))}: ", np_, forms, limit - len(late.group("name")) - 2, 2)
        if label:
            return label
    ap = APPOSITION.match(obj)
    if ap and len(ap.group("np").split()) <= 6:  # "covert malicious finetuning, a method to ..."
        np_, desc = tidy(LEAD.sub("", ap.group("np"))), LEAD.sub("", phrase_end(ap.group("desc")))
        if len(desc.split()) <= 3:  # "network deconvolution, a procedure which optimally removes X"
            desc = with_relative(desc, LEAD.sub("", ap.group("desc")), RESULT_VERBS)
        if np_ and content(desc) >= 2 and not leans_back(desc + " " + np_):
            label = _best(f"{capital(np_)}: ", desc, forms, limit - len(np_) - 2, 2)
            if label:
                return label
    return None


def _descriptions(obj: str, m: Mention, forms: dict[str, str], own: list[str]) -> list[str]:
    """What the text says the named contribution is or does, each cut before any word that leans
    back ("... that V X up to 20x in our experiments"); a bare problem ("X generation problem") is
    no description."""
    descs = [before_lean(d) if leans_back(d) and " that " in d else d for d in
             named_descriptions(obj, m.name, m.long, forms) + subject_descriptions(own[:3], m.name)]
    return [d for d in descs if content(d) >= 2 and not leans_back(d) and
            not re.match(r"(?:(?!(?:for|of|in|on|to|with|by)\b)[\w-]+ ){0,5}(?:problem|challenge|task|question)s?$", d)]


def _described(name: str, descs: list[str], forms: dict[str, str], limit: int) -> str | None:
    """"Name: description": one said whole before one that had to be cut, but a bare kind
    ("curriculum learning paradigm") after what it goes on to say ("... that scales up X")."""
    for whole in (True, False):
        for desc in descs:
            if whole and any(d.startswith(desc + " that ") for d in descs) and len(desc.split()) <= 4:
                continue
            label = _best(f"{name}: ", desc, forms, limit - len(name) - 2, 2, whole)
            if label:
                return label
    return None


# "two new methods", "approximation algorithms for X": more than one contribution, not one name's
_SEVERAL = re.compile(r"(?:(?:two|three|four|several|both)\s|(?:[\w-]+\s){0,3}(?:algorithms|methods|approaches|"
                      r"frameworks|techniques|strategies|schemes|estimators)\b)", re.I)
SHORT_UNNAMED = 5  # blind readers accepted 1 in 30 unnamed labels of 5 words or fewer (development sheets)
