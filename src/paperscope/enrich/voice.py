"""Where the authors say what the paper offers, and the objects of those sentences.

Three tiers of the authors' voice ("we propose / introduce X" makes, "we study X" studies, "we
provide X" gives), each read per sentence by `objects`; weaker ways of saying it ("we propose to
use X", "this paper aims to understand X", "we address this by learning X", "By extending X, we
...") are handed back separately, to be read only after every sentence had its turn.
headline.py turns the objects into labels.
"""
from __future__ import annotations

import re

from .cues import DESCRIBE, MAIN_CONTRIBUTION
from .noun_phrase import GENERIC_VERB, prepared_object
from .phrases import gerund
from .vocab import VERBS


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
_AND_VERB = re.compile(r"\b(?:we|this (?:paper|work)) (?:\w+ly )?(?!(?:propose|introduce|present|develop|design|devise)s?\b)[a-z]+\b"
                       r"(?:(?!(?<!fact )(?<!observation )\b(?:that|which|who)\b)[^.;:]){3,140}?,? and (?:then |further |also |thus |hence |"
                       r"therefore |finally )?(?:(?:utili[sz]e|use|leverage|apply|employ) (?:it|them) to )?"
                       r"(?:propose|introduce|present|develop|design|devise|construct|build)s?\s+(?!to\b)|"
                       r"\bwe (?:\w+ly )?(?:leverage|use|exploit|utili[sz]e|employ|combine|build on|draw on)\b[^.;,]{3,80}? to "
                       r"(?:propose|introduce|develop|design|present)\s+(?!to\b)", re.I)
_DESCRIBE = re.compile(DESCRIBE, re.I)
# "we take a first principles approach to constructing X": the approach is what the paper offers
_TAKE = re.compile(_VOICE + r"takes?\s+(?=(?:a|an)\s+(?:[\w-]+\s+){1,4}approach\s+(?:to|for)\s)", re.I)
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


# "by proposing X" inside a sentence, "our method can be seen as X", "two contributions: (1) X"
_BY = re.compile(r"\bby (?:proposing|introducing|developing|presenting|designing)\s+", re.I)
_OUR_IS = re.compile(r"\b(?:our|the proposed) (?:method|approach|framework|model|algorithm|technique)\s+"
                     r"(?:can be (?:seen|viewed|interpreted|understood) as|is)\s+(?=an?\s)", re.I)
_ENUMERATED = re.compile(r"\b(?:two|three|four|several) (?:main |key |major )?contributions?:\s*"
                         r"(?:\(?(?:1|i|a)\)\s*)?", re.I)
_PROPOSING = re.compile(r"^(?=.*\bwe\b)[^;]{10,200}?,\s+(?:thereby |thus )?(?:proposing|introducing|presenting|developing)\s+"
                        r"(?!(?:a|an|the)\s+(?:new |novel )?(?:perspective|view|insights?)\b)", re.I)
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
# an adverb, not "apply", "rely" ("we propose to apply trust region optimization")
_ADVERB = r"(?!(?:apply|supply|reply|rely|multiply|comply|imply|fly)\b)[a-z]+ly"
# "we extend the NTK framework to tree ensembles": the extension is what the paper does
_EXTEND = re.compile(_VOICE + r"(?P<verb>extend|generali[sz]e)s?\s+(?!(?:this|these|our|their|its|it|them)\b)", re.I)
_EXTENDED = re.compile(r"(?:(?:the|a|an)\s)?(?!(?:the|a|an|our|their|its|previous|prior|existing|recent)\b)(?!(?:[\w-]+ )?(?:investigation|analysis|study|idea|work|results?)\b)"
                       r"(?:(?!\band\b)[^,;]){3,80}?\s(?:to|into|beyond)\s(?!(?:this|these|that|those)\b)")
# "we unveil the importance of X", "we look critically at X": the authors' look at a topic, weaker than a study
_LOOK = re.compile(_VOICE + r"(?:re-?examin|unveil|quantif|(?:look|dive) (?:\w+ly )?(?:at|into))\w*\s+(?!(?:our|its|their|the proposed)\b)", re.I)
_AIMS = re.compile(r"\b(?:(?:this (?:paper|work|study)|we) (?:aim|attempt|seek|strive|set out|tr(?:y|ie))s? to|our (?:main )?"
                   r"(?:goal|aim|objective)(?: in this (?:paper|work))? is to|we (?:" + _ADVERB + r" )?(?:show|demonstrate|describe|"
                   r"explain|illustrate)s? how to) (?:" + _ADVERB + r" )?(?P<verb>[a-z]+)\s+", re.I)  # "we show how to learn X"
_BY_FRONT = re.compile(r"^(?:(?:in this (?:paper|work)|here),?\s+)?by (?P<verb>[a-z]{3,}ing) (?P<rest>[^,;]{8,160}),\s+we\b", re.I)
# "we model X by constructing Y", "we make progress on X by providing Y": what the paper makes is Y
_BY_MAKING = re.compile(r"\bwe\b[^.;]{3,120}?\bby (?:constructing|building|providing|deriving|establishing)\s+"
                        r"(?=(?:a|an|the)\s)(?!(?:a |an |the )?(?:new |novel )?(?:insights?|evidence|results)\b)", re.I)
_LIGHT_MEANS = frozenset("using making having being doing taking showing providing considering focusing "
                         "leveraging establishing exploiting employing adopting utilizing utilising following "
                         "relying studying analyzing noting observing assuming separating defining proposing "
                         "introducing developing presenting designing".split())  # the last five: _BY's
# verbs whose gerund opens no label ("Using X", "Providing X"): their object is what the paper offers
_LIGHT_TO = frozenset("use provide make give".split())  # gerunds in rules.OPENERS
_HERE = re.compile(r"^(?:in this (?:article|paper|work|note)|here(?:in)?),?\s+(?=(?:a|an|the)\s)", re.I)


def objects(s: str, tier: int, deferred: list[str] | None = None,
             second: list[tuple[str, str]] | None = None) -> list[str]:
    """The objects of the authors' verbs of `tier` in sentence `s`; weaker ones ("we propose to
    V X") go to `deferred`, and those said in passing go to `second` as (how, object): "and" (a
    second verb: "we close this gap and present X"), "describe", "means" ("by embedding X") or
    "study" ("we conduct a study of X"); both lists are read after every sentence."""
    deferred = [] if deferred is None else deferred
    out = []
    starts = list(_TIERS[tier].finditer(s))
    if tier == 0:
        starts += list(_BY.finditer(s)) + list(_ENUMERATED.finditer(s)) + list(_MAIN.finditer(s)) + \
            list(_PROPOSING.finditer(s))
        if not starts:
            starts += list(_AND_MAKE.finditer(s)) + list(_OUR_MAKES.finditer(s))
        if second is not None:  # read after every sentence: the first verb's object may be the paper's
            second += [("and", prepared_object(s[m.end():])) for m in _AND_VERB.finditer(s)
                       if all(m.end() != n.end() for n in starts)]
            second += [("describe", o) for o in (prepared_object(s[m.end():]) for m in
                                                 list(_DESCRIBE.finditer(s)) + list(_TAKE.finditer(s)))
                       if not _NOT_OBJECT.match(o)]
    if tier == 2:
        starts += list(_OUR_IS.finditer(s))
    for m in starts:
        rest = s[m.end():]
        obj = prepared_object(_HERE.sub("", rest) if tier == 0 else rest)  # "we propose in this article X"
        infinitive = re.match(r"to (?:instead |also |further |(?P<adv>" + _ADVERB + r") )?"
                              r"(?P<v>[a-z]+) (?=\S)", obj)  # "to apply X": no adverb
        if tier == 0 and infinitive and "verb" in m.groupdict() and m.group("verb").lower().startswith("propos"):
            g = gerund(infinitive.group("v"))  # "we propose to use RL to search ..." -> "RL to search ..."
            if infinitive.group("v") in _LIGHT_TO:  # "Using" opens no label: the tool is the object
                deferred.append(obj[infinitive.end():])
            elif g and infinitive.group("v") not in GENERIC_VERB:  # "to adaptively normalize X" -> "Adaptively normalizing X"
                adverb = f"{infinitive.group('adv')} " if infinitive.group("adv") else ""
                deferred.append(adverb + g + " " + obj[infinitive.end():])
            continue
        if not _NOT_OBJECT.match(obj):
            out.append(obj)
    if tier == 1:
        if second is not None:  # "we conduct a systematic study of X", "we address this by learning X"
            second += [("study", prepared_object(s[m.end("verb"):])) for m in _CONDUCT.finditer(s)]
            second += [("study", prepared_object(s[m.end():])) for m in _LOOK.finditer(s)]  # read after every sentence
            second += [("means", f"{m.group('verb')} {prepared_object(m.group('rest'))}") for m in _BY_FRONT.finditer(s)
                       if m.group("verb").lower() not in _LIGHT_MEANS]  # "By extending X to Y, we address these challenges"
            second += [("means", prepared_object(s[m.end():])) for m in _BY_MAKING.finditer(s)]  # "by constructing X"
            second += [("extend", f"{gerund(m.group('verb'))} {prepared_object(s[m.end():])}") for m in _EXTEND.finditer(s)
                       if _EXTENDED.match(s[m.end():]) and not re.search(r"\b(?:also|further)\b", m.group())]  # "Extending X to Y"
            second += [("means", f"{m.group('verb')} {prepared_object(s[m.end():])}") for m in _BY_MEANS.finditer(s)
                       if m.group("verb").lower() not in _LIGHT_MEANS]
            second += [("means", f"{gerund(m.group('verb'))} {prepared_object(s[m.end():])}") for m in _USE_TO.finditer(s)
                       if gerund(m.group("verb")) and m.group("verb") not in GENERIC_VERB and
                       (m.group("det") or m.group("verb") in VERBS or re.search(r"(?:i[sz]e|ate|ify)$", m.group("verb")))]
        for m in _AIMS.finditer(s):  # "This paper aims to understand X" -> "Understanding X"
            g = gerund(m.group("verb"))
            if m.group("verb") in _LIGHT_TO:  # "aims to provide theoretical understanding of X"
                deferred.append(prepared_object(s[m.end():]))
            elif g and m.group("verb") not in GENERIC_VERB:
                after = s[m.end():]
                pair = re.match(r"(and|or) ([a-z]{3,}) ", after)  # "aim to examine and characterise X"
                if pair and gerund(pair.group(2)) and pair.group(2) not in GENERIC_VERB:
                    g, after = f"{g} {pair.group(1)} {gerund(pair.group(2))}", after[pair.end():]
                rest = re.sub(r"\band to ([a-z]+)\b", lambda v: "and " + (gerund(v.group(1)) or v.group(1)),
                              prepared_object(after), count=1)  # "to analyze X and to give Y"
                deferred.append(f"{g} {rest}")
    if tier == 0 and not out:
        p = _PASSIVE.match(_OPENING.sub("", s))
        if p:
            out.append(p.group("obj"))
    return out
