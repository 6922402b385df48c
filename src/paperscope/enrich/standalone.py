"""A sentence made to stand alone as a TL;DR: an opening clause that leans on earlier text
("To address these challenges,", "However,") comes off, "We address this issue by measuring X"
becomes "We measure X", an aside or purpose clause that points back is dropped, and a sentence
that still refers back ends before the clause that does.
"""
from __future__ import annotations

import re

from ..words import STOP_WORDS
from .noun_phrase import BACK_HEADS
from .rules import DANGLING, unresolved_refs
from .vocab import VERBS, is_modifier


# "To address these challenges, we propose X" -> "We propose X". An opening clause is only taken
# off up to its comma; a connective word may stand without one ("Specifically we ...").
_LEAD_CLAUSE = re.compile(
    r"^(?:(?:(?:to|in order to) [^,]{2,120}|towards? (?:this|that) end|in (?:response|light of|"
    r"(?:stark |sharp )?contrast|(?:this|that) (?:context|setting|regard|direction|spirit|vein))[^,]{0,80}|regarding [^,]{2,80}|"
    r"(?:motivated|inspired|guided|driven) by [^,]{2,160}|(?:building|based) (?:on|upon) [^,]{2,120}|"
    r"on the basis of [^,]{2,80}|in doing so|as an? alternative(?: to [^,]{2,80})?|"
    r"from (?:this|these|that) [^,]{1,60}|given (?:this|these|that) [^,]{1,60}|with (?:this|these) "
    r"[^,]{1,60}|under (?:this|these|that|such)(?: [^,]{1,60})?|unlike [^,]{2,80}|(?:instead of|in addition to|apart from|rather than) [^,]{2,120}|in the (?:regime|case|setting) (?:where|when|of) .{1,80}?(?=,\s*we\b)|for \(?(?:\d|i+|[a-e])\)|(?:acknowledging|recogni[sz]ing|"
    r"considering|noting) [^,]{2,160}|in support of [^,]{2,40}|[a-z]+ing (?:(?:from|on|upon|with|beyond|over) )?(?:this|these|those|such|the "
    r"above|the aforementioned)(?: (?!we\b)[^\s,]+){1,14}|going (?:further|beyond)|beyond (?:this|that))\s*,|"
    r"(?:to (?:this|that) end|to do so|to achieve (?:this|that)|for this purpose|as an? (?:solution|remedy)|concurrently|"
    r"(?:so|thus|hence) (?:motivated|inspired)|"
    r"in (?:this|that|such a) way|in so doing|by doing so|"
    r"meanwhile|particularly|simultaneously|on the other hand|on the (?:positive|negative|flip) side|as a by-?product|"
    r"for the (?:first|second|third|former|latter)(?! time)(?: (?:one|issue|problem|challenge|limitation|point))?|in turn|for (?:example|instance)|"
    r"and|but|however|moreover|furthermore|further|additionally|in addition|thus|therefore|hence|"
    r"consequently|accordingly|instead|conversely|alternatively|nevertheless|nonetheless|by contrast|"
    r"on the contrary|then|finally|(?:more )?specifically|concretely|notably|after (?:that|this)|afterwards|more particularly|"
    r"put another way|in other words|stated differently|"
    r"importantly|also|here|second(?:ly)?|third(?:ly)?|first(?:ly)?|next|lastly|overall|"
    r"subsequently|in particular|as a result|as such|in this (?:paper|work|study)|"
    r"(?:\d|i+|[a-e])\)|\((?:\d|i+|[a-e])\))(?=[\s,])(?!\s+(?:of|to)\b)\s*,?)\s*(?=\w)", re.I)
_ADVERB = re.compile(r"^(we|this (?:paper|work)) (?:then|further|also|thus|therefore|hence|"
                     r"next|finally|additionally|instead|now) ", re.I)
_BACKREF_CUT = re.compile(r",\s|\s*(?:---|—)\s*|\s(?:which|that|to|on|for|in|by|using|with|from|across|under|"
                          r"and|where|while|via|through|of|during|at|over|after|within|when)\s")
# a "that"-clause without its verb yet: "We demonstrate that a simple fusion" is no sentence
OPEN_CLAUSE = re.compile(r"\b(?:that|whether|how|why|what),?\s+(?!.*\b(?:is|are|was|were|can|could|"
                          r"may|might|will|would|has|have|had|do|does|\w+ed|\w+[^s]s)\b)[^,;]*$", re.I)


def strip_lead(s: str) -> str:
    """`s` without its opening clause, unless that clause holds the authors' own ("To this end
    we develop X, a ..." keeps it all)."""
    m = _LEAD_CLAUSE.match(s) or _BASED_WE.match(s) or _INSTEAD_WE.match(s)
    if m and (" we " in m.group().lower() or m.group().lower().startswith("we ")):
        m = _TO_THIS_END.match(s) or _BASED_WE.match(s)  # "To this end we develop X, ...": only the connective
    if m and _NO_START.match(s[m.end():]):  # the comma was inside the clause ("may not want to, or be ...")
        return s
    rest = re.match(r"[^,;]{1,60},\s+(?=we\b)", s[m.end():]) if m and not s[m.end():m.end() + 3].lower() == "we " else None
    if rest:  # "To learn X in complex, high-dimensional environments, we propose": the clause held a comma
        return s[m.end() + rest.end():]
    if m and m.group().count("—") % 2:  # "Inspired by X—the process ..., knowledge, and Y—we introduce Z"
        close = s.find("—", m.end())
        return s[close + 1:].lstrip() if close > 0 and re.match(r"\s*we\b", s[close + 1:], re.I) else s
    return s[m.end():] if m else s


# what a sentence cannot start with once its opening clause is off
_NO_START = re.compile(r"(?:or|and|but|nor|of|than|whose|which|who|where)\b", re.I)


# "Instead of bringing X closer ... we propose": the contrast without its comma
_INSTEAD_WE = re.compile(r"(?:instead of|rather than) (?:[^,.;]{2,200}?)\s+(?=we (?:propose|introduce|present|develop)\b)", re.I)
_BASED_WE = re.compile(r"(?:building|based) (?:on|upon) (?:this|that|these|those)(?: [\w-]+){1,3}\s+(?=we\b)", re.I)
_TO_THIS_END = re.compile(r"(?:to (?:this|that) end|to do so|to achieve (?:this|that)|for this purpose)"
                          r"\s*,?\s*(?=\w)", re.I)


def lead_off(sentence: str, keep_paper: bool = True) -> str:
    s = re.sub(r"\s*\(\s*\)", "", sentence.strip())
    for step in range(3):  # "In this paper, inspired by X, we propose ..."
        t = strip_lead(s)
        if t == s:
            if keep_paper and step == 1 and _IN_THIS.match(sentence):
                s = re.sub(r"\s*\(\s*\)", "", sentence.strip())  # "In this paper, we ..." reads well
            break
        s = t
    s = _ADVERB.sub(r"\1 ", s)
    s = _MOVES_US.sub("We ", s)
    return s[:1].upper() + s[1:]


# "These observations motivate us to propose X" -> "We propose X"
_MOVES_US = re.compile(r"^(?:these|this|that|such|those|the above|our)\b[^,;]{0,60}?\b(?:(?:motivate|inspire|lead|prompt|"
                       r"drive|encourage)[sd]?|led) us to (?=[a-z])", re.I)
_IN_THIS = re.compile(r"in this (?:paper|work|study)\s*,?\s*(?:we|this)\b", re.I)


def self_contained(sentence: str) -> str:
    """Rewrite a sentence that leans on earlier text: drop an opening "To address these
    challenges," or "However,", let "such conservation laws" be "conservation laws", and end the
    sentence before a clause that refers back ("... decoding to address this challenge")."""
    return rewrite(sentence)[0]


# "We address this issue by measuring X" -> "We measure X"
_BY_DOING = re.compile(r"^(we|this (?:paper|work)) (?:(?:\w+ (?:to )?)?(?:address|tackle|solve|overcome|mitigate|"
                       r"alleviate|resolve|remedy|rectify|fix|fill|bridge|handle|close|circumvent)(?:es|s)? (?:this|these|"
                       r"those|such|the above|the aforementioned|both|the(?= (?:\w+ )?(?:challenges?|issues?|problems?|"
                       r"limitations?|difficult(?:y|ies)|drawbacks?|shortcomings?|bottlenecks?|questions?) by\b))(?: [\w-]+){1,9}?|(?:give|provide|offer)s? an? "
                       r"(?:affirmative|positive|partial|definitive) answer(?: to (?:this|these|the|that)(?: [\w-]+){1,6}?)?)"
                       r" by ([a-z]+)ing\b", re.I)
# "We formalize this framework and utilize it to construct X" -> "We construct X"
_USE_IT = re.compile(r"^(we) (?:\w+ly )?\w+ (?:this|these|the above|the aforementioned)(?: [\w-]+){1,3}? and "
                     r"(?:\w+ly )?(?:utili[sz]e|use|leverage|apply|employ|exploit) (?:it|them) to (?=\w)", re.I)
# a stem that takes its "e" back: measur(e), combin(e), generat(e), introduc(e), us(e), solv(e)
_E_STEM = re.compile(r"(?:^|[^aeiouy])[aeiouy][cgsz]$|(?:[^aeiouy]|qu)[aiu]r$|[^aeiouy](?:at|ut|od|id|ud|in|un)$|"
                     r"(?:l|n)or$|(?:rc|nc|rg)$|[bpgkdtzf]l$|v$")


def _verb(stem: str) -> str:
    """The base form of an -ing verb's stem: measur -> measure, learn -> learn, runn -> run."""
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] in "bgmnprt":
        return stem[:-1]
    if _E_STEM.search(stem) and not stem.endswith("cus"):
        return stem + "e"
    return stem


_AND_DO = re.compile(r"^(we) (?:\w+ )?(?:(?:address|tackle|solve|overcome|mitigate|alleviate|resolve|"
                     r"remedy|fill|bridge|handle|close)(?:es|s)? (?:this|these|those|such|the above|the "
                     r"aforementioned|both)(?: [\w-]+){1,3}?|(?:close|fill|bridge) the gap) and (?=\w)", re.I)


def _by_doing(s: str) -> str:
    s = _USE_IT.sub(r"\1 ", _AND_DO.sub(r"\1 ", s, count=1), count=1)
    m = _BY_DOING.match(s)
    if not m or re.search(r"\band by \w+ing\b", s[m.end():]):  # "by X-ing ..., and by Y-ing": leave it
        return s
    subject = m.group(1)
    verb = _verb(m.group(2).lower())
    if subject.lower() != "we":
        verb += "es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s"
    return f"{subject} {verb}{s[m.end():]}"


# an aside that points back: "We find that, within this framework, deep networks ..."
_ASIDE = re.compile(r",\s*(?:in|within|under|for|with|on|at|from|given|using|like|by|after|during|"
                    r"despite|beyond|unlike) (?:this|these|those|the above|the same)\b[^,]{0,50},\s*", re.I)


# verbs that need what they report: "we demonstrate." is no sentence
_REPORTING = frozenset("""show shows demonstrate demonstrates find finds prove proves argue argues
observe observes reveal reveals establish establishes suggest suggests note notes conclude concludes
discover discovers verify verifies confirm confirms illustrate illustrates highlight highlights
believe hypothesize claim claims study studies investigate investigates""".split())


# a purpose clause that points back: "We propose X to tackle the above-mentioned setting, namely"
_PURPOSE_REF = re.compile(r"\s(?:in order )?to (?:address|tackle|solve|overcome|handle|mitigate|alleviate|"
                          r"remedy|resolve|fill|bridge|close) (?:this|these|those|the above(?:-mentioned)?|"
                          r"the aforementioned|such|both)\b[^,.;]{0,50}(?=[,;]\s)|\sin order to (?:address|tackle|"
                          r"solve|overcome|handle|mitigate|alleviate) (?:this|these|those|such|both)\b[^,.;]{0,50}(?=\.$)|"
                          r"\sto (?:address|tackle|solve|overcome|handle|mitigate|alleviate|resolve) (?:them|it)(?=\.$)", re.I)


def _stops_on_modifier(head: str) -> bool:
    """Does `head` end on a modifier without its noun ("the sets of functions expressible")? A
    predicate ("WAEs are highly flexible") is a complete sentence."""
    words = head.split()
    if not is_modifier(words[-1]):
        return False
    return not any(w.lower() in ("is", "are", "be", "was", "were", "remain", "remains", "become", "becomes")
                   for w in words[-3:-1])


def _open_infinitive(head: str) -> bool:
    """Does `head` end on "to <verb>" still waiting for its object ("an algorithm to identify")?"""
    words = head.rsplit(" ", 2)
    return len(words) == 3 and words[1].lower() == "to" and words[2].lower() in VERBS


def rewrite(sentence: str) -> tuple[str, float]:
    """`self_contained` and the share of the sentence's words it kept; a sentence that would be cut
    to its first few words at "such X" keeps them all as "X" ("construct such benchmarks by V-ing Y")."""
    text, kept = _rewrite(sentence)
    such = re.search(r"\bsuch ([a-z][\w-]*s)\b", sentence)
    if kept < 0.6 and such and such.group(1).lower() not in BACK_HEADS and \
            not re.search(r"\b(?:any|no|all|without|of|in|do|does|are|is)\s+$", sentence[:such.start()]):
        alt, alt_kept = _rewrite(sentence[:such.start()] + sentence[such.start(1):])
        if alt_kept == 1.0 and not unresolved_refs(alt):
            return alt, alt_kept
    return text, kept


def _rewrite(sentence: str) -> tuple[str, float]:
    s = lead_off(sentence, keep_paper=False)
    t = _by_doing(s)
    s = t if t != s else lead_off(sentence)
    s = re.split(r"(?<=[.:])\s+[-–•*]\s+", s, maxsplit=1)[0]  # a list run into the sentence
    s = re.sub(r"\bsuch (?=an? )", "", s)  # "for such a characterization"
    s = _ASIDE.sub(" ", s)
    s = _PURPOSE_REF.sub("", s)
    total = max(len(s.split()), 1)
    refs = unresolved_refs(s)
    if refs:
        m = refs[0]
        cuts = [c.start() for c in _BACKREF_CUT.finditer(s[:m.start()])]
        verb = re.search(r"\b(?:we|this (?:paper|work))\s+\w+", s, re.I)  # the cut keeps the authors' verb
        cuts = [c for c in cuts if len(s[:c].split()) >= 5 and (not verb or c >= verb.end()) and
                s[:c].rsplit(" ", 1)[-1].lower() not in DANGLING | _REPORTING | _WAITING_PARTICIPLE | _WAITING_ADJECTIVE and
                not _waits_for_object(s[:c]) and
                not _stops_on_modifier(s[:c]) and not s[c:].startswith(" of ") and not _waits_for_from(s, c) and not OPEN_CLAUSE.search(s[:c]) and
                not re.search(r"\b(?:that|whether|how),\s[^,]*$|\bus$|\b(?:aim|seek|try|want|need|wish|hope|attempt|strive)s?(?: to \w+)?$", s[:c]) and
                not _open_infinitive(s[:c])]
        # "We show that, even for X," waits for its clause; "we aim (to summarize)" for its object
        if cuts:
            s = s[:cuts[-1]].rstrip(" ,;:.") + "."
    return s, len(s.split()) / total


def _waits_for_object(head: str) -> bool:
    """Does `head` end on a verb still waiting for its object ("In this paper, we leverage",
    "a framework for analyzing")?"""
    words = head.rstrip(" ,;:").lower().split()
    if len(words) < 2:
        return False
    before, last = words[-2], words[-1]
    return (before in ("we", "and", "to", "paper", "work") and last in VERBS) or \
        (before in ("for", "of", "by", "in") and last.endswith("ing") and last not in _ING_NOUNS)


_ING_NOUNS = frozenset("""learning training modeling modelling reasoning understanding processing planning
sampling matching ranking pruning tuning finetuning fine-tuning clustering computing engineering
reading writing setting thing things beginning meaning""".split())


def _waits_for_from(s: str, c: int) -> bool:
    """Does the cut at `c` take "from ..." off a word that needs it ("does not suffer", "we deviate",
    "each topic is drawn")?"""
    if not s.startswith(" from ", c):
        return False
    last = s[:c].rsplit(" ", 1)[-1].lower()
    return last in VERBS or last in _FROM_WORDS or last.endswith(("ed", "ing", "wn"))


_FROM_WORDS = frozenset("deviate deviates differ differs benefit benefits away apart distinct different free".split())


# "a framework designed (to ...)": a participle that waits for its complement ends no sentence
_WAITING_PARTICIPLE = frozenset("designed tailored intended aimed meant dedicated devoted".split())
# "an algorithm that is agnostic (to X)": an adjective that waits for what it holds of
_WAITING_ADJECTIVE = frozenset("""agnostic invariant equivalent sensitive prone immune resistant amenable applicable
complementary orthogonal analogous akin similar comparable susceptible vulnerable identical proportional
equivariant insensitive able unable backing""".split())  # "techniques are able (to X)"
# a sentence that defines a problem by its name: "X (XY) is a learning problem where ..."
_DEFINED_AS = re.compile(r"(?!(?:This|These|That|Those|It|Such|There|Here|The|A|An|One|Our|Its|Their)\b)(?P<x>[A-Z][\w-]*(?: [\w-]+){0,6}(?: \([A-Z][\w-]*\))?) (?:is|refers to) (?:a|an|the) "
                         r"(?:[\w-]+ ){0,3}(?P<head>problem|task|setting|game)\b")
# "this problem", "these tasks": the noun of an earlier sentence, said with its modifiers
_REF_NP = re.compile(r"\b(?:these|this|such)\s+(?P<head>problems?|tasks?|settings?|questions?|games?)\b", re.I)
_NOT_MODIFIER = STOP_WORDS | frozenset("""many several some various new novel important open challenging general
same such different following above hard difficult fundamental key central core major critical crucial
interesting natural practical common classical classic standard basic simple similar related whole complex
qualitative main real-world unlike existing prior previous current resulting underlying""".split())


def resolved(sentence: str, earlier: list[str]) -> str:
    """`sentence` with "these problems" said as the earlier sentence named them ("causal domain
    adaptation problems"), when one of the three sentences before names them with modifiers."""
    m = _REF_NP.search(sentence)
    if not m:
        return sentence
    head = m.group("head")
    for prev in reversed(earlier[-3:]):
        named = _DEFINED_AS.match(prev)  # "Learning from Label Proportions (LLP) is a learning problem where ..."
        if named and not head.endswith("s") and named.group("head").lower() == head.lower():
            x = re.sub(r"\s*\([^()]*\)$", "", named.group("x"))
            x = x[:1].lower() + x[1:] if x.split()[0][1:].islower() and sum(w[:1].isupper() for w in x.split()) == 1 \
                else named.group("x")  # "counterfactual image editing", "Learning from Label Proportions (LLP)"
            return sentence[:m.start()] + x + sentence[m.end():]
        for found in reversed(list(re.finditer(r"((?:[\w-]+ ){1,4})" + head.lower().rstrip("s") + r"s?\b", prev))):
            mods = []
            words = found.group(1).split()
            for k in range(len(words) - 1, -1, -1):  # "a class of such causal domain adaptation" -> the last three
                w = words[k].lower()
                if w in _NOT_MODIFIER or w.endswith(("ed", "ly")) or (w in VERBS and not w.endswith("ing")) or \
                        (k and words[k - 1].lower() == "to"):
                    break  # "to solve complex ...", "we study online ...": a verb is no modifier
                mods.insert(0, words[k])
            if mods:
                said = " ".join(mods) + " " + head
                said = said if head.endswith("s") else "the " + said
                return sentence[:m.start()] + said + sentence[m.end():]
    return sentence
