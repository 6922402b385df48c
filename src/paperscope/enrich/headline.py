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
gives no headline; the caller falls back to the scored candidates of label.py. Which sentences
say what the paper offers, and their objects, are voice.py's; where a phrase
ends and how it is cut to fit is noun_phrase.py's; what a named contribution is said to be,
named.py's; the position paper's label is position.py's.
"""
from __future__ import annotations

import re

from ..words import STOP_WORDS
from .acronyms import expand
from .compose import reads_as_title
from .methods import Mention, is_background
from .named import (APPOSITION, CALLED_NAME, DASH_NAME, KIND_NAME, NAME_AFTER, RESULT_VERBS, named_descriptions,
                    subject_descriptions)
from .noun_phrase import (GENERIC_VERB, KINDS, LEAD, abbreviated, before_lean, capital, content, fits, leans_back,
                          loose_end, phrase_end, purpose, tidy, with_relative)
from .rules import label_breaks
from .vocab import VERBS, is_modifier
from .voice import objects

VERBS_S = frozenset(v for v in VERBS if v.endswith(("s", "ed")))

_NAMING = ("intro", "called", "appositive", "markup")


class _Named(Exception):
    """The named contribution's sentence does not say what it is."""


# what a bare kind is for, said with a verb that ends a phrase ("approach to solve the problem of X")
_KIND_AIM = re.compile(r"\s+to (?:\w+ly )?(?P<verb>solve|address|tackle|overcome|mitigate|alleviate|resolve|handle)\s+"
                       r"(?P<of>the (?:[\w-]+ )?(?:problem|challenge|issue|task) of\s+)?(?P<rest>(?!(?:this|these|that|those|such|it|them)\b)\S.+)")

_COMMA_WITH = re.compile(r",\s+(?=(?:with|using|via|based on|for|through|by)\b)")


def headline(sentences: list[str], own_start: int, mentions: list[Mention], limit: int,
             forms: dict[str, str] | None = None, best: int | None = None) -> str | None:
    """The contribution sentence's object as a title, or None (see the module's text).
    `best`: the index of the sentence that states the contribution best (the TL;DR's), read
    first."""
    text = " ".join(sentences)  # "DOmain" is no name, "SAdam" (S + Adam) is
    names = [m for m in mentions if m.how != "variant" and not _cut_short(m, sentences) and
             (not re.fullmatch(r"[A-Z]{2}[a-z]{3,}", m.name) or re.search(rf"\b{m.name[1:]}\b", text))
             and not is_background(m, sentences)][:2]
    named = [m for m in names if m.how in _NAMING]
    own = sentences[own_start:]
    del best  # the TL;DR's sentence is often a detail; the first "we propose" states the paper
    try:
        return _first(sentences, own, names, named, limit, forms)
    except _Named:
        return None


def plain_headline(sentences: list[str], own_start: int, mentions: list[Mention], limit: int,
                   forms: dict[str, str] | None = None) -> str | None:
    """A plainer contribution than `headline` takes ("a model-free stage-based algorithm"), for
    the caller to keep only when it can say what problem it is for."""
    names = [m for m in mentions if m.how != "variant" and not is_background(m, sentences)][:2]
    own = sentences[own_start:]
    for s in own:
        for obj in objects(s, 0, [], []):
            try:
                label = _from_object(obj, 0, names, [], limit, forms or {}, own, need=2, loose=True)
            except _Named:
                return None
            if label:
                return label
    return None


# "Switchable Sparse-Dense" in "Switchable Sparse-Dense Learning (SSD)", "Reward Reweighing" in "Reward
# Reweighing, Reselecting, and Retraining (R3)": an intro name that more capitalised words go on
_GOES_ON = re.compile(r"(?:\s+[A-Z][a-z][\w-]*(?!\w)|(?:,\s+(?:and\s+)?[A-Z][\w-]*)+,?\s*(?:\(|and\b))")


def _cut_short(m: Mention, sentences: list[str]) -> bool:
    s = sentences[m.sentence] if m.how == "intro" and 0 <= m.sentence < len(sentences) else ""
    at = s.find(m.name)
    return at >= 0 and bool(_GOES_ON.match(s, at + len(m.name)))


def _first(sentences: list[str], own: list[str], names: list[Mention], named: list[Mention], limit: int,
           forms: dict[str, str] | None) -> str | None:
    order = [(i, tier) for i in range(len(own)) for tier in range(3)] if ORDER == "sentence" else \
        [(i, tier) for tier in range(3) for i in range(len(own))]
    deferred: list[str] = []
    second: list[tuple[str, str, list[Mention]]] = []
    problems: list[str] = []  # "we consider the X problem": the paper's answer to it, when one follows, says more
    aside = None  # "We also introduce extensions of the idea to X": what an earlier sentence says, if anything, comes first
    for i, tier in order:
        s = own[i]
        at = sentences.index(s)
        later = [m for m in named if m.sentence > at]
        more: list[tuple[str, str]] = []
        for obj in objects(s, tier, deferred, more):
            label = _from_object(obj, tier, names, later, limit, forms or {}, own)
            if label and tier == 1 and (_PROBLEM_OBJECT.match(obj) or (_STUDIED_PROBLEM.search(s) and later) or
                                        (": " not in label and any(map(_a_thing, later)))):
                problems.append(label)
            elif label and i and ": " not in label and _ASIDE.match(s):
                aside = label
                break
            elif label:
                return label
        second += [(how, obj, later) for how, obj in more]
        if aside:
            break
    if aside:  # an earlier sentence's means or study ("We extend conformal prediction to control X")
        earlier = [(how, obj, later) for how, obj, later in second if how == "extend"]
        found = next(filter(None, (_from_object(obj, 1, names, later, limit, forms or {}, own, need=4)
                                   for how, obj, later in earlier)), None)
        return found or aside
    for how, obj, later in second:  # held to a study's standard, but "We name our method X" still names it
        means = how in ("means", "extend")  # "we address this by learning X": only for a paper without a name
        label = None if means and names else _from_object(  # "we describe X": as much as "we propose X"
            obj, 1, names, later, limit, forms or {}, own, name_later=not means, need=3 if how == "describe" else 4)
        if label:
            return label
    for obj in deferred:
        label = _from_object(obj, 1, names, [], limit, forms or {}, own)
        if label:
            return label
    return problems[0] if problems else None


def _a_thing(m: Mention) -> bool:
    """Is the named mention a thing the paper makes ("a knowledge distillation framework, LEVER"),
    not a notion its analysis uses ("P-MED, a notion of complexity")? A study's own label gives way
    to a thing named after it."""
    head = re.split(r"\s+(?:of|for|that|which|to|with|in|on|based)\b", m.desc or "", maxsplit=1)[0].split()
    return not head or head[-1].lower() not in _NOTIONS


_NOTIONS = frozenset("""notion notions measure quantity dimension complexity condition conditions property
properties assumption definition concept quantities parameter""".split())


ORDER = "sentence"
# a sentence that adds to what the paper said before: "Additionally, we ...", "We also introduce ..."
_ASIDE = re.compile(r"(?:additionally|furthermore|moreover|finally|lastly|in addition|besides|subsequently|"
                    r"as a by-?product|second(?:ly)?|third(?:ly)?)\b|(?:[^,.;]{0,60},\s*)?we (?:also|further|additionally)\b", re.I)
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
    if is_modifier(body.rsplit(" ", 1)[-1]) and not re.search(r"\b(?:be|is|are|become|remain)s? (?:\w+ly )?\S+$", body):
        return None  # "Adam-atan2: numerically stable": a modifier waiting for its noun ("to be idempotent" is said)
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
                 need: int | None = None, loose: bool = False) -> str | None:
    several = _SEVERAL.match(obj)
    numbered = several and sum(m.name in obj for m in names) >= 2
    tried = False
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
        label = _described(m.name, descs, forms, limit) or _described(m.name, _kind_around(obj, m), forms, limit)
        if label:
            return label
        tried = True
        continue
    if tried:
        if tier == 0:  # the paper's named contribution, not said here: the scored candidates know more
            raise _Named
        return None
    label = _said_name(obj, names, forms, limit)
    if label:
        return label
    head = LEAD.sub("", phrase_end(obj))
    need = need or (3 if tier == 0 else 4)
    aim = _KIND_AIM.match(obj[len(phrase_end(obj)):]) if content(head) == 0 else None
    if aim:  # "a method to solve the localization problem by learning X": the kind with what it is for
        said = phrase_end(aim.group("rest"))
        head = f"{head} for {said}" if aim.group("of") else f"{head} to {aim.group('verb')} {said}"
    if leans_back(head):  # "algorithm that leverages X by splitting them": end before the phrase that leans
        head = before_lean(head)
    if (content(head) < need or len(head.split()) <= 3) and (tier == 0 or not names):  # not before a name given later
        head = with_relative(head, obj, RESULT_VERBS)  # "a black-box attack which uses X"
    if leans_back(head) or content(head) < need:
        return None
    if len(head.split()) <= (1 if loose else 3):  # a bare topic ("optimal partitioning tree")
        return None
    if (tier == 0 or name_later) and named and not (several and len({m.name for m in named}) > 1):  # "We name our model X"
        label = _best(f"{named[0].name}: ", head, forms, limit - len(named[0].name) - 2, 3)
        if label:
            return label
    label = _best("", head, forms, limit, need)
    if loose:
        return label
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
        after = re.sub(r"^\s*\([^()]*\)", "", obj[called.end("name"):])
        if len(np_.split()) <= 4 and re.match(r"\s+(?:to|for)\s", after):  # "method called X to safeguard Y"
            np_ = f"{np_} {purpose(after) or ''}".strip()
        elif len(np_.split()) <= 4:  # "network pruning algorithm called DST that can jointly find X"
            np_ = with_relative(np_, np_ + after, RESULT_VERBS)
        label = _best(f"{capital(called.group('name'))}: ", np_, forms,
                      limit - len(called.group("name")) - 2, 2) if content(np_) >= 2 else None
        if label:
            return label
    late = NAME_AFTER.match(obj) or KIND_NAME.match(obj)  # "a unified model with one set of parameters, Spider, which"
    if late and late.group("name").lower() not in STOP_WORDS:
        np_ = LEAD.sub("", late.group("np"))
        rel = re.match(r"(?:which|that) (?:\w+ly )?(?P<verb>[a-z]+) (?P<rest>.+)", late.group("rest"))
        if rel and rel.group("verb") not in GENERIC_VERB | RESULT_VERBS and not leans_back(phrase_end(rel.group("rest"))) \
                and len(np_.split()) <= 4:  # "meta-dropout, which learns to perturb ..."
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


# what joins a name to the kind before it: "method called X", "method (i.e., X)", "method, the X"
_TO_NAME = re.compile(r"(?:,?\s*(?:\(\s*)?(?:i\.e\.,?|called|named|dubbed|termed|coined|namely|the|,))*\s*$")


_MORE_KINDS = frozenset("design agent network representation process".split())


def _kind_around(obj: str, m: Mention) -> list[str]:
    """The kind said before a name, with what follows the name: "a deep multi-agent RL method, the
    Simplified Action Decoder (SAD), which ..." -> "deep multi-agent RL method"; "a training method
    called X (LEC) that prevents Y" -> "training method that prevents Y"."""
    at = obj.find(m.name)
    start, end = at, at + len(m.name)
    if m.long and (lat := obj.rfind(m.long, 0, at)) >= 0 and re.fullmatch(r"\s*\(\s*", obj[lat + len(m.long):at]):
        start = lat  # "Long Form (ACR)"
    before = _TO_NAME.sub("", obj[:start])
    after = re.sub(r"^\s*\)", "", obj[end:])
    if not 2 <= len(before.split()) <= 8 or before.rsplit(" ", 1)[-1].lower() not in KINDS | _MORE_KINDS:
        return []
    bare = f"{before}{after if after.startswith(',') else ' ' + after.lstrip()}"
    head = LEAD.sub("", phrase_end(bare))
    if leans_back(head):
        head = before_lean(head)
    longer = with_relative(head, bare, RESULT_VERBS) if len(head.split()) <= 4 else head
    head = head if leans_back(longer) else longer
    return [head] if len(head.split()) >= 4 and m.name not in head and not leans_back(head) else []


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
