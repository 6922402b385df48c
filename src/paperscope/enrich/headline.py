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
gives no headline; the caller falls back to the scored candidates of label.py.
"""
from __future__ import annotations

import re

from ..words import FILLER_WORDS, STOP_WORDS
from .acronyms import expand
from .methods import Mention
from .phrases import OF_HEADS, VERB_S, as_gerund_phrase, gerund, soft_cuts
from .problem import PAREN
from .compose import reads_as_title
from .rules import BACKREF, DANGLING, SELF_REF, label_breaks
from .vocab import VERBS

VERBS_S = frozenset(v for v in VERBS if v.endswith(("s", "ed")))

# the authors say what they offer: tier 0 what they make, 1 what they study, 2 what they give
_VOICE = (r"\b(?:we|this (?:paper|work|study|article)|our (?:paper|work|study|(?:main |key |primary )?"
          r"contribution))\s+"
          r"(?:(?:\w+ly|also|further|then|first|here|now|therefore|thus|hence|finally|additionally|"
          r"newly)\s+)*")
_TIERS = [re.compile(_VOICE + r"(?P<verb>" + verbs + r")(?:e|es|ed|ing|s|y|ies|ied|d|t)?\b\s+"
                     r"(?:and\s+\w+\s+)?", re.I) for verbs in (
    r"propos|introduc|present|develop|design|devis|construct|creat|formulat|put forward|releas|"
    r"curat|buil|(?<=contribution )(?:i)",
    r"stud|investigat|analy[sz]|examin|explor|revisit|characteri[sz]|focus(?:es)? on|approach|"
    r"consider|initiat",
    r"provid|establish|deriv|offer|contribut|giv")]
# "X is proposed", "... is introduced": the passive voice at the start of a sentence
_PASSIVE = re.compile(r"^(?P<obj>(?:a|an|the)\s.{5,160}?)\s+(?:is|are)\s+(?:proposed|introduced|"
                      r"presented|developed)\b", re.I)
_OPENING = re.compile(r"^(?:(?:in this (?:paper|work)|here|to this end|finally|specifically),?\s+)", re.I)
# an object that is no phrase to stand alone: a clause, an infinitive, a perspective
_NOT_OBJECT = re.compile(r"(?:(?:extensive |numerical |experimental |empirical |comprehensive |detailed |"
                         r"an? |several |some )*(?:results|experiments|evaluations?|overview|perspective|"
                         r"insights?|discussions?|intriguing|analyses)\b|"
                         r"(?:compelling |new |strong |further |empirical |novel )*evidence|(?:the )?"
                         r"case (?:of|where|when|in which)|to|that|how|why|whether|what|when|if|an? "
                         r"(?:novel |new |different )?"
                         r"(?:perspective|view|look|lens)|(?:several|some|many|various) (?:insights?|"
                         r"ways?|results?))\b", re.I)
# where a noun phrase ends: a clause, a result, a second verb
_END = re.compile(
    r";|\s[-–—]+\s|—|---|\.\s|\.$|:\s|,\s|\s(?:which|where|whereby|wherein|while|whereas|although|"
    r"though|because|since|thereby|thus|hence|so that|in order to|that (?:we|is|are) (?:call|"
    r"name|term|dub)\w*|and (?:then |also |further |empirically |theoretically |experimentally )?"
    r"(?:show|prove|demonstrate|find|derive|establish|achieve|evaluate|apply|conduct|perform|"
    r"propose|present|introduce|use|employ|develop|study|investigate|explore|discuss|identify|"
    r"design|obtain|give|offer|release|compare|validate|verify|provide|analy[sz]e)\w*|(?:which|"
    r"that) (?:achieves?|outperforms?|significantly|substantially|consistently)|(?:under|with|"
    r"given|on) (?:the|an?) (?:\w+ )?(?:assumption|premise|hypothesis|observation|condition|"
    r"insight|idea)s? that|in the sense|and \w+ (?:the|a|an|its|their|how|that|whether|why)|"
    r"to (?:\w+ly )?(?:investigat|stud|show|understand|explor|examin|analy|demonstrat|verif|answer|"
    r"address|shed light|gain|elucidat|highlight|tackl|alleviat|mitigat|overcom|"
    r"solv|resolv|handl|remed|fix|bridg|fill|circumvent|avoid)\w*|with the (?:aim|goal|"
    r"purpose|intention|objective)|(?:that|which) we|(?:with|achieving|attaining) (?:an? )?(?:[\w-]+ ){0,2}"
    r"(?:complexity|rate|regret|bound|error|guarantee)s?\s(?:of\s)?[OΘΩ]\()\b", re.I)
# "large-scale, high-quality, and diversified": commas inside a list of modifiers
_LIST = re.compile(r"\b[\w-]+(?: [\w-]+)?(?:, [\w-]+(?: [\w-]+)?)+,? (?:and|or) [\w-]+")
_FIRST_OF_LIST = re.compile(r"\b([\w-]+)(?:, [\w-]+(?: [\w-]+)?)+,? (?:and|or) [\w-]+(?= (?!(?:through|with|"
                            r"for|in|on|of|to|and|via|by|from|using|as|at|into)\b)[\w-])")
_LEAD = re.compile(r"^(?:(?:a|an|the|two|three|several|novel|new|simple|effective|efficient|"
                   r"classic(?:al)?|fundamental|important|challenging|well-known|long-standing|"
                   r"yet|highly|very|general|generic|principled|unified|powerful|flexible|"
                   r"lightweight|versatile|straightforward|our|first|so-called|carefully|"
                   r"innovative|elegant|designed|crafted|simple yet effective|both|kind of|"
                   r"different|alternative|another|idea to|and|"
                   r"type of|class of|family of|problem of|task of|question of|notion of|"
                   r"(?:the )?(?:systematic |formal |theoretical )?study of)"
                   r"\s*,?\s+|,\s*)+", re.I)
_NAME_DESC = re.compile(r"^\s*(?:\([^()]*\)\s*)?(?:,|:)\s*(?:which is\s+|is\s+)?(?P<desc>"
                        r"(?:a|an|the|our)\s.+)$", re.I)
_NAME_REL = re.compile(r"^\s*(?:\([^()]*\)\s*)?,?\s*(?:which|that)\s+(?:can\s+|is able to\s+)?"
                       r"(?P<verb>[a-z]+)\s+(?P<rest>.+)$")
_NAME_PURPOSE = re.compile(r"^\s*(?:\([^()]*\)\s*)?,?\s*(?P<rest>(?:to|for|that|which) \S.+)$")
_CALLED = re.compile(r"\s*,?\s+(?:called|named|termed|dubbed|coined|referred to as|namely)\s*$|\s*[,(]\s*$")
_APPOSITION = re.compile(r"^(?P<np>[^,;:()]{3,70}),\s+(?P<desc>(?:a|an)\s.+)$")
_KINDS = frozenset("""method methods approach approaches framework frameworks technique techniques
strategy strategies scheme schemes algorithm algorithms procedure model models system systems
paradigm pipeline solution architecture module mechanism tool toolkit library benchmark dataset
family class variant extension version way objective loss metric measure estimator suite
""".split())
_WEAK = STOP_WORDS | FILLER_WORDS | _KINDS | frozenset("""novel new simple effective efficient
general unified principled first powerful flexible lightweight practical robust scalable
theoretical empirical based called named termed dubbed innovative expansive comprehensive
problem task question issue""".split())
_GENERIC_VERB = frozenset("improve improves address addresses tackle tackles solve solves "
                          "mitigate mitigates overcome overcomes alleviate alleviates focus focuses "
                          "aim aims seek seeks try tries is are has have can may".split())
_TRAIL = re.compile(r"\s+(?:in|on|for|with|to|by|via|from|at|as|of|and|or|that|which|the|a|an|"
                    r"its|their|this|these|both|using|across|over|under|between|among)$", re.I)
# modifiers a cut phrase must not end on ("solving convex", "in the continuous")
_MODIFIERS = frozenset("""convex nonconvex non-convex strongly linear nonlinear non-linear stochastic
deterministic discrete continuous smooth non-smooth large small high low deep shallow general
generic specific multiple various different single efficient robust adaptive fixed dynamic static
online offline sparse dense finite infinite local global first second infinite-horizon
finite-horizon high-dimensional low-dimensional terms form context presence spirit light basis
means""".split())
_NAMING = ("intro", "called", "appositive", "markup")


def _content(text: str) -> int:
    return sum(1 for w in re.findall(r"[\w-]+", text.lower()) if w not in _WEAK and len(w) > 2)


def _end(text: str) -> str:
    """`text` up to where its noun phrase ends; the commas of a list of modifiers ("large-scale,
    high-quality, and diversified") do not end it."""
    masked = _LIST.sub(lambda m: m.group().replace(",", "\x00"), text)
    m = _END.search(masked)
    return text[:m.start()] if m else text


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", PAREN.sub("", text)).strip(" ,;:.-")
    text = re.sub(r"\b(?:that|which) (?:is|are) (?=\w+ed\b)", "", text)  # "layer that is based on" -> "layer based on"
    text = re.sub(r"\s+([,;:])", r"\1", text).replace("“", "").replace("”", "")
    while True:
        shorter = _TRAIL.sub("", text).strip(" ,;:")
        if shorter == text:
            return text
        text = shorter


def _abbreviated(text: str) -> str:
    """"Partially Observable Markov Decision Process (POMDP)" -> "POMDP"."""
    def short(m: re.Match) -> str:
        words, acr = m.group(1).split(), m.group(2)
        n = sum(1 for c in acr if c.isupper())
        initials = "".join(w[0] for w in words[-n:] if w[:1].isalpha()).upper() if n else ""
        if n >= 2 and len(words) >= n and initials == "".join(c for c in acr if c.isupper()):
            return " " + " ".join(words[:-n] + [acr])
        return m.group(0)
    return re.sub(r"\s((?:[\w-]+\s){1,7}?[\w-]+)\s\(([A-Za-z][\w-]{1,10})\)", short, text)


def _fits(text: str, room: int, min_content: int) -> list[str]:
    """Ways to say `text` in `room` characters, best first: whole; with defined abbreviations
    used; with "method that Vs" as "Ving"; with a list of modifiers cut to its first; then
    prefixes ending at a phrase boundary, longest first, that still say something specific."""
    out = []
    whole = _tidy(text)
    if len(whole) <= room:
        out.append(whole)
    text = _tidy(_abbreviated(" " + text))
    if len(text) <= room:
        out.append(text)
    verb = as_gerund_phrase(text)
    if verb != text and len(verb) <= room and _content(verb) >= min_content:
        out.append(verb)
    short = _tidy(_FIRST_OF_LIST.sub(lambda m: m.group(1), text))
    if len(short) <= room:
        out.append(short)
    cuts = []
    for cut in soft_cuts(short):
        cut = _tidy(cut)
        words = cut.split()
        if len(words) > 2 and words[-1].endswith("ing") and words[-2].lower() in ("through", "by", "for",
                                                                                   "of", "via", "in", "on"):
            continue  # "through constructing": a gerund without its object
        clause = re.split(r"\s(?:that|which)\s", cut)
        if len(clause) > 1 and len(clause[-1].split()) < 5:  # cut inside its relative clause
            continue
        if len(cut) <= room and _content(cut) >= min_content and \
                cut.rsplit(" ", 1)[-1].lower() not in OF_HEADS | DANGLING | _MODIFIERS:
            cuts.append(cut)
    return list(dict.fromkeys(out + cuts[::-1]))


def _capital(text: str) -> str:
    first = text.split(" ", 1)[0]
    if text[:1].islower() and not re.search(r"[A-Z0-9]", first[1:]):
        return text[:1].upper() + text[1:]
    return text


_BACK_HEADS = frozenset("""problem problems issue issues challenge challenges limitation limitations gap
gaps question questions task tasks setting settings shortcoming shortcomings drawback drawbacks
difficulty difficulties obstacle obstacles approach approaches method methods framework model
models case cases end way scenario scenarios regime line direction work paper observation
finding findings phenomenon goal aim need""".split())


def _unlean(text: str) -> str:
    """"such molecules" -> "molecules", "these mathematical problems" -> "mathematical
    problems": a determiner before a specific phrase; "this problem" stays (and leans back)."""
    def drop(m: re.Match) -> str:
        return m.group(0) if m.group(2).lower() in _BACK_HEADS or m.group(2).lower() in STOP_WORDS \
            else m.group(2)
    return re.sub(r"\b(such|these|those)\s+([\w-]+)", drop, text)


def _before_lean(text: str) -> str:
    """`text` up to the phrase boundary before its first word that leans on earlier text."""
    words = text.split()
    for i in range(1, len(words) + 1):
        if _leans_back(" ".join(words[:i])):
            break
    else:
        return text
    head = " ".join(words[:i - 1])
    cuts = [m.start() for m in re.finditer(r"\s(?:by|to|for|with|and|that|which|using|via|in|on|"
                                            r"from|through|while|without)\s", head + " ")]
    return head[:cuts[-1]] if cuts else ""


def _leans_back(text: str) -> bool:
    text = re.sub(r"\band its\b", "and", text)  # "SAA and its regularized variation" stands alone
    words = text.split()
    if len(words) > 3:  # "the model itself to explain its internal representations": its has a noun before
        text = " ".join(words[:3] + [w for w in words[3:] if w.lower() not in ("its", "their")])
    return bool(BACKREF.search(SELF_REF.sub("", text)) or
                re.search(r"\b(?:it|its|their|they|them|we|our|us|above|aforementioned)\b", text, re.I))


def _purpose(after: str) -> str | None:
    """What follows a name and says what it is for or does: "to train X" -> "for training X",
    ", aimed at learning X" -> "for learning X", ", equipping X with Y" -> "equipping X with Y",
    ", which extends X" -> "extending X"."""
    after = re.sub(r"^\s*,?\s*", "", after)
    m = re.match(r"(?:(?:which|that) (?:is )?)?(?:aimed|designed|tailored|intended) (?:at|to|for) "
                 r"(?P<rest>.+)", after)
    if m:
        after = m.group("rest") if m.group("rest").split()[0].endswith("ing") else "to " + m.group("rest")
        if after.split()[0].endswith("ing"):
            return "for " + _end(after)
    m = re.match(r"to (?:(?:\w+ly|further|better) )?(?P<verb>[a-z]+) (?P<rest>.+)", after)
    if m:
        g = gerund(m.group("verb"))
        if g and m.group("verb") not in _GENERIC_VERB:
            return f"for {g} {_end(m.group('rest'))}"
        return None
    m = re.match(r"for (?P<rest>.+)", after)
    if m:
        return "for " + _end(m.group("rest"))
    m = re.match(r"(?P<prep>of|in|on|with|under|over) (?P<rest>.+)", after)
    if m:  # "exact optimization (EXO) of the alignment objective"
        return f"{m.group('prep')} {_end(m.group('rest'))}"
    m = re.match(r"by (?:introducing|proposing|presenting|developing|building|designing|using) (?P<rest>.+)", after)
    if m:  # "3D-VLA by introducing a new family of embodied foundation models"
        return "= " + _LEAD.sub("", _end(m.group("rest")))
    m = re.match(r"(?:(?:which|that) (?:can |is able to )?)?(?:\w+ly )?(?P<verb>[a-z]+) (?P<rest>.+)", after)
    if m and m.group("verb") not in _GENERIC_VERB:
        verb = m.group("verb")
        g = verb if verb.endswith("ing") else gerund(verb) if verb.endswith("s") else None
        if g and g not in ("being", "having", "using", "including", "resulting", "leading", "featuring",
                           "comprising", "containing", "consisting"):
            return f"{g} {_end(m.group('rest'))}"
    return None


def _named(obj: str, name: str, long: str | None, forms: dict[str, str] | None = None) -> list[str]:
    """What `obj` (the object of "we propose ...") says the named contribution is, best first."""
    at = obj.find(name)
    if at < 0 or len(obj[:at].split()) > 16:
        return []
    out = []
    before, after = obj[:at], obj[at + len(name):]
    core, spelled = "", False
    if before.rstrip().endswith("(") and after.lstrip().startswith(")"):  # "Long Form (NAME) ..."
        core, spelled = before.rstrip()[:-1].strip(), True
        after = after.lstrip()[1:]
    else:
        paren = re.match(r"\s*\(([^()]{3,90})\)", after)  # "NAME (Long Form) ..."
        if paren:
            core, after, spelled = paren.group(1), after[paren.end():], True
        else:
            core = _CALLED.sub("", before)
    core = _LEAD.sub("", _CALLED.sub("", core.strip()).strip(" '\""))
    if forms:  # "novel FRL algorithm" says what it is once FRL is written out
        core = expand(core, forms)
    if re.search(r"[,;]", core):
        core = ""
    kind = re.match(r"\s*(" + "|".join(sorted(_KINDS)) + r")\b", after)
    if kind:  # "Federated Calibration (FedCal) approach, emphasizing ..."
        core, after = f"{core} {kind.group(1).strip()}".strip(), after[kind.end():]
    m = _NAME_DESC.match(after)
    if m:  # "X, a framework for ...", "X: a minimalist alternative to ..."
        desc = _LEAD.sub("", _end(m.group("desc")))
        if _content(desc) >= 2:
            out.append(desc)
        desc = _LEAD.sub("", re.split(r"\s(?:that|which)\s", _end(m.group("desc")))[0])
        if _content(desc) >= 2:  # the apposition without a clause that leans back
            out.append(desc)
    purpose = _purpose(after)
    if purpose and purpose.startswith("= "):
        out.append(purpose[2:])
    elif purpose:
        out.append(f"{core} {purpose}".strip() if _content(core) >= 1 else purpose)
    long_form = core if spelled else (long or "")
    if len(long_form.split()) >= 3 and _content(long_form) >= 2 and \
            long_form.casefold() != name.casefold():  # a name written out is what titles say
        out.append(long_form)
    if _content(core) >= 2 and (not long or core.casefold() != long.casefold()) and \
            core.casefold() != name.casefold():
        out.append(core)
    return list(dict.fromkeys(out))


_RESULT_VERBS = frozenset("""is has was does demonstrates shows achieves outperforms yields obtains
attains exhibits reaches surpasses improves beats performs sets establishes""".split())
_SUBJECT_LIGHT = re.compile(r"^(?:performs|uses|employs|leverages|utili[sz]es|adopts|introduces|"
                            r"applies|relies on|consists of|comprises|incorporates|features)\s+", re.I)


def _subject(sentences: list[str], name: str) -> list[str]:  # noqa: C901
    """"CaM adaptively merges to-be-evicted caches into ..." -> "merging to-be-evicted caches
    into ..."; "SafeCoder performs security-centric fine-tuning" -> "security-centric fine-tuning"."""
    out = []
    for s in sentences:
        s = re.sub(r"^(?:at its core|specifically|in particular|concretely|technically|essentially|"
                   r"in (?:a )?nutshell|first|then|in addition|moreover|furthermore),\s+", "", s, flags=re.I)
        if not s.startswith(name + " "):
            continue
        rest = re.sub(r"^(?:\w+ly|further|also|first)\s+", "", s[len(name) + 1:])
        light = _SUBJECT_LIGHT.match(rest)
        if light:
            if light.group().strip().lower() in ("performs", "consists of", "comprises"):
                out.append(_LEAD.sub("", _end(rest[light.end():])))
            continue
        verb = rest.split(" ", 1)[0]
        g = gerund(verb) if verb in VERB_S or verb in VERBS_S else None
        if g and verb not in _GENERIC_VERB and verb not in _RESULT_VERBS:
            out.append(f"{g} {_end(rest[len(verb) + 1:])}")
    return out


_ASIDE = re.compile(r"\b(that|which), [^,]{3,60}, ")
_NAME_AFTER = re.compile(r"^(?P<np>[^,;:]{5,90}), (?P<name>[A-Z][\w-]{2,20}|[a-z]+-[\w-]+), "
                         r"(?P<rest>(?:which|that|a|an|to|for)\b.*)$")
_CALLED_NAME = re.compile(r"^(?P<np>[^,;:()]{5,90}?),? (?:called|named|termed|dubbed) (?P<name>[a-z][\w-]*"
                          r"(?: [a-z][\w-]*){0,2})(?=,|\.|$| which| that)")
_CITATION = re.compile(r"\s*\([^()]*\b(?:19|20)\d\d[a-z]?\)")


class _Named(Exception):
    """The named contribution's sentence does not say what it is."""


# "by proposing X" inside a sentence, "our method can be seen as X", "two contributions: (1) X"
_BY = re.compile(r"\bby (?:proposing|introducing|developing|presenting|designing)\s+", re.I)
_OUR_IS = re.compile(r"\b(?:our|the proposed) (?:method|approach|framework|model|algorithm|technique)\s+"
                     r"(?:can be (?:seen|viewed|interpreted|understood) as|is)\s+(?=an?\s)", re.I)
_ENUMERATED = re.compile(r"\b(?:two|three|four|several) (?:main |key |major )?contributions?:\s*"
                         r"(?:\(?(?:1|i|a)\)\s*)?", re.I)
_AIMS = re.compile(r"\b(?:this (?:paper|work|study)|we) aims? to (?P<verb>[a-z]+)\s+", re.I)
_KIND_TO_VERB = re.compile(r"^(?:(?:simple|novel|new|general|principled|efficient) )*(?:method|approach|"
                           r"framework|technique|way|algorithm|strategy|scheme|procedure) to "
                           r"(?P<v1>[a-z]+)(?: and (?P<v2>[a-z]+))? ")


def _prepared(text: str) -> str:
    """An object as it can stand alone: no citation, no aside, no determiner before a specific
    phrase, no leading article or praise; "the use of X" is X; "a method to V X" is "Ving X"."""
    obj = _LEAD.sub("", _unlean(_ASIDE.sub(r"\1 ", _CITATION.sub("", text))))
    obj = re.sub(r"^(?:the )?use of ", "", obj)
    m = _KIND_TO_VERB.match(obj)
    if m and gerund(m.group("v1")) and m.group("v1") not in _GENERIC_VERB:
        verbs = gerund(m.group("v1")) + (f" and {gerund(m.group('v2')) or m.group('v2')}" if m.group("v2") else "")
        obj = f"{verbs} {obj[m.end():]}"
    return obj


def _objects(s: str, tier: int, deferred: list[str] | None = None) -> list[str]:
    """The objects of the authors' verbs of `tier` in sentence `s`; weaker ones ("we propose to
    V X") go to `deferred`, read after every sentence."""
    deferred = [] if deferred is None else deferred
    out = []
    starts = list(_TIERS[tier].finditer(s))
    if tier == 0:
        starts += list(_BY.finditer(s)) + list(_ENUMERATED.finditer(s))
    if tier == 2:
        starts += list(_OUR_IS.finditer(s))
    for m in starts:
        obj = _prepared(s[m.end():])
        infinitive = re.match(r"to ([a-z]+) (?=\S)", obj)
        if tier == 0 and infinitive and "verb" in m.groupdict() and m.group("verb").lower().startswith("propos"):
            g = gerund(infinitive.group(1))  # "we propose to use RL to search ..." -> "Using RL to ..."
            if g and infinitive.group(1) not in _GENERIC_VERB:
                deferred.append(g + " " + obj[infinitive.end():])
            continue
        if not _NOT_OBJECT.match(obj):
            out.append(obj)
    if tier == 1:
        for m in _AIMS.finditer(s):  # "This paper aims to understand X" -> "Understanding X"
            g = gerund(m.group("verb"))
            if g and m.group("verb") not in _GENERIC_VERB:
                deferred.append(f"{g} {_prepared(s[m.end():])}")
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
    names = [m for m in mentions if m.how != "variant" and not re.fullmatch(r"[A-Z]{2}[a-z]{3,}", m.name)][:2]
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
    for i, tier in order:
        s = own[i]
        at = sentences.index(s)
        later = [m for m in named if m.sentence > at]
        for obj in _objects(s, tier, deferred):
            label = _from_object(obj, tier, names, later, limit, forms or {}, own)
            if label:
                return label
    for obj in deferred:
        label = _from_object(obj, 1, names, [], limit, forms or {}, own)
        if label:
            return label
    return None


ORDER = "sentence"


def _checked(label: str | None) -> str | None:
    last = (label or "").rsplit(" ", 1)[-1].lower()
    if last in ("capable", "able", "hundreds", "thousands", "dozens", "millions") or last.endswith("-wise"):
        return None  # a cut that left a word waiting for its "of" ("... capable", "... class-wise")
    if not label or label_breaks(label) or re.search(r"\b(?:of|in|on|for|to|with|the|a|an) (?:of|in|on|"
                                                     r"for|to|with|by)\b", label):  # "of the in the"
        return None
    body = label.split(": ", 1)[-1]
    return label if reads_as_title(body, "intro", VERBS_S, named=": " in label) else None


def _best(prefix: str, text: str, forms: dict[str, str], room: int, min_content: int,
          whole: bool = False) -> str | None:
    """The first way to say `text` after `prefix` ("Name: " or "") that reads as a title: with
    the abbreviations the abstract defines written out while that keeps most of it, else as
    written."""
    ways = []
    if forms:
        spelled = expand(text, forms)
        ways = [w for w in _fits(spelled, room, min_content) if len(w) >= len(_tidy(text)) * 0.8]
    for way in ways + _fits(text, room, min_content):
        if whole and len(way.split()) < 0.6 * len(_tidy(_abbreviated(" " + text)).split()):
            continue
        label = _checked(prefix + (way if prefix else _capital(way)))
        if label and _content(way) >= min_content:
            return label
    return None


def _from_object(obj: str, tier: int, names: list[Mention], named: list[Mention], limit: int,
                 forms: dict[str, str], own: list[str] = ()) -> str | None:
    for m in names:
        at = obj.find(m.name)
        if at < 0 or len(obj[:at].split()) > 16 or ": " in obj[:at]:
            continue
        descs = [d for d in _named(obj, m.name, m.long, forms) + _subject(own[:3], m.name)
                 if _content(d) >= 2 and not _leans_back(d)]
        head = _LEAD.sub("", _end(obj))
        if m.name not in head and _content(head) >= 3 and not _leans_back(head):
            descs.append(head)  # "a network architecture based on X, ..., dubbed Wukong"
        for whole in (True, False):  # a description said whole before one that had to be cut
            for desc in descs:
                label = _best(f"{m.name}: ", desc, forms, limit - len(m.name) - 2, 2, whole)
                if label:
                    return label
        if tier == 0:  # the paper's named contribution, not said here: the scored candidates know more
            raise _Named
        return None
    called = _CALLED_NAME.match(obj)  # "a simple modification to X called conditional finetuning, which"
    if called and not names and _content(called.group("np")) >= 2 and not _leans_back(called.group("np")):
        label = _best(f"{_capital(called.group('name'))}: ", _LEAD.sub("", called.group("np")), forms,
                      limit - len(called.group("name")) - 2, 2)
        if label:
            return label
    if True:
        late = _NAME_AFTER.match(obj)  # "a unified model with one set of parameters, Spider, which"
        if late and late.group("name").lower() not in STOP_WORDS:
            np_ = _LEAD.sub("", late.group("np"))
            rel = re.match(r"(?:which|that) (?P<verb>[a-z]+) (?P<rest>.+)", late.group("rest"))
            if rel and rel.group("verb") not in _GENERIC_VERB | _RESULT_VERBS and \
                    len(np_.split()) <= 4:  # "meta-dropout, which learns to perturb ..."
                np_ = f"{np_} that {rel.group('verb')} {_end(rel.group('rest'))}"
            label = _best(f"{_capital(late.group('name'))}: ", np_, forms, limit - len(late.group("name")) - 2, 2)
            if label:
                return label
        ap = _APPOSITION.match(obj)
        if ap and len(ap.group("np").split()) <= 6:  # "covert malicious finetuning, a method to ..."
            np_, desc = _tidy(_LEAD.sub("", ap.group("np"))), _LEAD.sub("", _end(ap.group("desc")))
            if np_ and _content(desc) >= 2 and not _leans_back(desc + " " + np_):
                label = _best(f"{_capital(np_)}: ", desc, forms, limit - len(np_) - 2, 2)
                if label:
                    return label
    head = _LEAD.sub("", _end(obj))
    need = 3 if tier == 0 else 4
    if _leans_back(head):  # "algorithm that leverages X by splitting them": end before the phrase that leans
        head = _before_lean(head)
    if _leans_back(head) or _content(head) < need:
        return None
    if len(head.split()) <= 3:  # a bare topic ("optimal partitioning tree")
        return None
    if tier == 0 and named:  # the name comes in a later sentence ("We name our model X")
        label = _best(f"{named[0].name}: ", head, forms, limit - len(named[0].name) - 2, 3)
        if label:
            return label
    label = _best("", head, forms, limit, need)
    if label and len(label.split()) <= SHORT_UNNAMED:  # a short unnamed phrase reads as a bare topic:
        longer = _LEAD.sub("", _loose_end(obj))  # keep what it is for ("... to V X", "... with Y")
        if len(longer.split()) > len(label.split()) and not _leans_back(longer):
            label = _best("", longer, forms, limit, need, whole=True) or label
    return label


SHORT_UNNAMED = 5  # blind readers accepted 1 in 30 unnamed labels of 5 words or fewer (development sheets)
# the looser end of an object: only a clause, a new sentence or a result ends it
_LOOSE_END = re.compile(r";|\s[-–—]+\s|—|\.\s|\.$|:\s|,\s(?=\w+ing\b)|,\s(?=(?:which|where|while|whose|who|and|but|thus|"
                        r"thereby|hence|so|allowing|enabling|making|yielding|resulting|leading|showing|"
                        r"achieving|outperforming|demonstrating)\b)|\s(?:which|whereby|wherein|while|"
                        r"whereas|thereby|(?:which|that) (?:achieves?|outperforms?|significantly))\b", re.I)


def _loose_end(text: str) -> str:
    masked = _LIST.sub(lambda m: m.group().replace(",", "\x00"), text)
    m = _LOOSE_END.search(masked)
    return text[:m.start()] if m else text


_ARGUE = re.compile(r"\b(?:we|this (?:position )?(?:paper|piece|work)|our position is)\s+(?:\w+ly\s+)?"
                    r"(?:argue|contend|posit|advocate|urge|call)s?\s+"
                    r"(?:that\s+|for\s+)?", re.I)


def position_headline(sentences: list[str], limit: int) -> str | None:
    """"Position: <what the paper argues>" for a position paper, from "we argue that S",
    "we advocate for X" or "we propose X"; None when no such sentence reads as a title."""
    room = limit - len("Position: ")
    for s in sentences:
        for m in _ARGUE.finditer(s):
            rest = _ASIDE.sub(r"\1 ", s[m.end():])
            if re.match(r"(?:to|how|why|whether|what|a (?:new |novel )?(?:perspective|view))\b", rest, re.I):
                continue
            clause = re.split(r";|:\s|\s[-–—]+\s|---|,\s(?:and|but|which|while|as|since|because|"
                              r"thereby|so)\b|\.(?:\s|$)", rest)[0]
            text = _tidy(_LEAD.sub("", clause) if not m.group().rstrip().endswith("that") else clause)
            if m.group().rstrip().endswith("for"):
                text = "The case for " + text
            if not text or len(text) > room or len(text.split()) < 4 or _leans_back(text) or \
                    _content(text) < 3:
                continue
            label = f"Position: {_capital(text)}"
            if not label_breaks(label, position=True):
                return label
    return None
