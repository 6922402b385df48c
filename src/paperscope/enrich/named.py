"""What the sentence that introduces a named contribution says it is: "We present UltraFeedback,
a large-scale ... dataset" -> "large-scale ... dataset"; "a reasoning framework, called Thought
Rollback (TR), allowing ..." -> "reasoning framework allowing ..."; "REMEDI for efficient
estimation of X" -> "efficient estimation of X"; and what the sentences that start with the
name say it does ("CaM adaptively merges X" -> "merging X"). Used by headline.py.
"""
from __future__ import annotations

import re

from .acronyms import expand
from .noun_phrase import (GENERIC_VERB, KINDS, LEAD, content, leans_back, loose_end, phrase_end, purpose,
                          with_relative)
from .phrases import VERB_S, gerund
from .vocab import VERBS

VERBS_S = frozenset(v for v in VERBS if v.endswith(("s", "ed")))

_NAME_DESC = re.compile(r"^\s*(?:\([^()]*\)\s*)?(?:,|:|\s*(?:---|—|–)|\s-(?=\s)|\s(?=as an?\s))\s*(?:which is\s+|is\s+|as\s+)?(?P<desc>"
                        r"(?:a|an|the|our)\s.+)$", re.I)
_FOR_AIM = re.compile(r"^\s*(?:\([^()]*\)\s*)?for (?P<np>[^,;]{8,})")
_LEAN_REL = re.compile(r"^\s*(?:\([^()]*\)\s*)?,?\s*(?:that|which) (?:\w+ly )?(?:overcomes?|address(?:es)?|"
                       r"tackles?|solves?|mitigates?|alleviates?|resolves?|circumvents?|avoids?) (?:these|this|those|"
                       r"such|the above|both)\b[\w\s-]{0,40}? (?:with|via|through|using) (?P<np>[^,;]{8,})")
# a noun by its ending right after the name is what the name is: "(MIP) relaxations", "(S2N) translation"
_NOUN_AFTER = re.compile(r"\s*([a-z]+(?:tion|sion|ment|ance|ence|ity|ness|ure)s?)\b(?![ -](?:of|to)\b)")
_NAMING_WORDS = r"(?:called|named|termed|dubbed|coined|referred to as|designated as|denoted as|namely)"
_PAREN_OPEN = re.compile(r"\(\s*(" + _NAMING_WORDS + r"\s+)?$")
_CALLED = re.compile(r"\s*,?\s+" + _NAMING_WORDS + r"\s*$|\s*[,(]\s*$")
# "reasoning framework, called Thought Rollback (TR)": the kind before the spelled-out name
_KIND_CALLED = re.compile(r"^(?P<kind>[^,;]{3,80}?),?\s+" + _NAMING_WORDS + r"\s+(?P<long>[^,;]{3,80})$")

# the forms in which an object names what it is: "a new objective, unlikelihood training, which"
APPOSITION = re.compile(r"^(?P<np>[^,;:()]{3,70}),\s+(?P<desc>(?:a|an)\s.+)$")
NAME_AFTER = re.compile(r"^(?P<np>[^,;:]{5,90}), (?:the )?(?P<name>[A-Z][\w-]{2,20}|[a-z]+-[\w-]+), "
                         r"(?P<rest>(?:which|that|a|an|to|for)\b.*)$")
# "a new objective, unlikelihood training, which forces X": a kind, then its name in words
KIND_NAME = re.compile(r"^(?P<np>(?:[\w-]+ ){0,2}(?:objective|loss|method|approach|framework|algorithm|technique|model|"
                       r"architecture|regularizer|estimator|metric|measure|benchmark|dataset|procedure|strategy|"
                       r"criterion|principle|paradigm|mechanism)), (?P<name>[a-z][\w-]*(?: [a-z][\w-]*){1,2}), "
                       r"(?P<rest>(?:which|that)\b.*)$")
CALLED_NAME = re.compile(r"^(?P<np>[^,;:()]{5,90}?),? (?:called|named|termed|dubbed|(?:which|that) we (?:refer to as|"
                          r"call|term|dub|name)) (?:the )?(?P<name>[a-z][\w-]*(?: [a-z][\w-]*){0,2}|"
                          r"[A-Za-z][\w-]*(?: [A-Z][\w-]*){1,3})(?=(?:\s*\([^()]*\))?(?:,|\.|$| which| that| to [a-z]| for ))")
# "a new amortized inference method---the Simformer---which", "algorithms -- TreeHist and Bitstogram."
DASH_NAME = re.compile(r"^(?P<np>[^,;:()]{5,120}?)\s*(?:---|--|—|–)\s*(?:the )?(?P<name>[A-Z][\w-]{1,19}\w"
                        r"(?: and [A-Z][\w-]{1,19}\w)?)\s*(?:---|--|—|–|,|\.|$)(?P<rest>.*)$")


# ", Latent Language Image Pretraining, which models X": a name's spelled-out form in apposition
_LONG_APPOS = re.compile(r"^\s*,\s+(?P<long>[A-Z][\w-]*(?:\s+(?:[A-Z][\w-]*|for|of|and|in|on|with|via|to|from|as|by|at)){1,8}),\s+"
                         r"(?P<rest>(?:which|that|a|an|the|our)\s.+)$")  # "ARGS, Alignment as Reward-Guided Search, a novel X"


def _bare_kind(desc: str) -> bool:
    """"deep learning framework": only the kind of thing the name is."""
    words = desc.split()
    return len(words) <= 4 and words[-1].lower() in KINDS


def named_descriptions(obj: str, name: str, long: str | None, forms: dict[str, str] | None = None) -> list[str]:
    """What `obj` (the object of "we propose ...") says the named contribution is, best first."""
    at = obj.find(name)
    if at < 0 or len(obj[:at].split()) > 16:
        return []
    out = []
    before, after = obj[:at], re.sub(r"^\s*,\s*to date,?\s+(?=the\b)", ", ", obj[at + len(name):])  # "X, to date the largest Y"
    core, spelled = "", False
    opened = _PAREN_OPEN.search(before)
    if opened and after.lstrip().startswith(")"):  # "Long Form (NAME) ...", "a variant of Adam (called SAdam)"
        core, spelled = before[:opened.start()].strip(), not opened.group(1)
        after = after.lstrip()[1:]
        kind = _KIND_CALLED.match(core)
        if kind:  # the purpose goes with the kind: "reasoning framework allowing LLMs to ..."
            core = kind.group("kind")
    else:
        paren = re.match(r"\s*\(([^()]{3,90})\)", after)  # "NAME (Long Form) ..."
        if paren:
            core, after, spelled = paren.group(1), after[paren.end():], True
        else:
            core = _CALLED.sub("", before)
    core = LEAD.sub("", _CALLED.sub("", core.strip()).strip(" '\""))
    if not re.search(r"[,;]", core) and phrase_end(core) != core:
        return []  # "specific changes within layers and discover that during CO": a clause, not CO's description
    if forms:  # "novel FRL algorithm" says what it is once FRL is written out
        core = expand(core, forms)
    if re.search(r"[,;]", core):
        core = ""
    kind = re.match(r"\s*((?:" + "|".join(sorted(KINDS)) + r")s?)\b", after) or _NOUN_AFTER.match(after)
    if kind:  # "Federated Calibration (FedCal) approach, emphasizing ..."
        word = kind.group(1).strip()
        core = core if core.lower().endswith(word.lower()) else f"{core} {word}".strip()
        after = after[kind.end():]
    if (appos := _LONG_APPOS.match(after) if not core else None):  # "ERP, Entropy-Reinforced Planning, which X"
        core, spelled, after = appos.group("long"), True, ", " + appos.group("rest")  # the name written out
    m = _NAME_DESC.match(after)
    if m and before.strip() and re.match(r"\s+as\s", after):
        m = None  # "as a Y" says what the name is only right after "we propose X"
    if m:  # "X, a framework for ...", "X: a minimalist alternative to ..."
        desc = LEAD.sub("", phrase_end(m.group("desc")))
        if content(desc) < 2 or _bare_kind(desc):  # "a novel approach that trains models to avoid X",
            longer = LEAD.sub("", with_relative(phrase_end(m.group("desc")), m.group("desc")))  # "a framework which can infer X"
            if content(desc) < 2:  # the kind says it with its clause ("that trains models to avoid X")
                whole = LEAD.sub("", loose_end(m.group("desc")))
                desc = longer if content(longer) >= 2 or "," in whole else whole
            elif longer != desc:
                out.append(longer)
        if content(desc) >= 2:
            out.append(desc)
        desc = LEAD.sub("", re.split(r"\s(?:that|which)\s", phrase_end(m.group("desc")))[0])
        if content(desc) >= 2:  # the apposition without a clause that leans back
            out.append(desc)
    said = purpose(after)
    if said and said.startswith("= "):
        out.append(said[2:])
    elif said:
        designed = re.match(r"\s*,?\s*(?:\w+ly )?(?:designed|tailored|intended) for\s", after)  # "architecture, designed for X"
        if core and content(core) == 0 and said.startswith("for ") and not designed:
            out += [said[4:], f"{core} {said}".strip()]  # "approach called Q-probing to adapt X"
        elif core and content(core) == 0 and said.startswith("for "):
            out.append(f"{core} {said}")
        else:
            out.append(f"{core} {said}".strip() if content(core) >= 1 else said)
    long_form = core if spelled else (long or "")
    out += _with_clause(long_form, after) if long_form and not m else []
    out += _kind_clause(core, after) if not long_form and not out else []
    if len(long_form.split()) >= 3 and content(long_form) >= 2 and \
            long_form.casefold() != name.casefold():  # a name written out is what titles say
        out.append(long_form)
    if content(core) >= 2 and (not long or core.casefold() != long.casefold()) and \
            core.casefold() != name.casefold():
        out.append(core)
    if said and not core and said.startswith("for "):  # "SelfExtend to extend X": "extending X", when nothing better
        out.append(said[4:])
    aim = (None if kind else _FOR_AIM.match(after)) or _LEAN_REL.match(after)  # not the kind's "for X"
    if aim:  # "REMEDI for efficient estimation of X", "BOOT, that overcomes these limitations with Y"
        desc = LEAD.sub("", phrase_end(aim.group("np")))
        if content(desc) >= 2 and not leans_back(desc):
            out.append(desc)
    return list(dict.fromkeys(out))


def _kind_clause(core: str, after: str) -> list[str]:
    """"technique that can learn from any feedback" for "technique, Chain of Hindsight, that can learn ..."."""
    if not re.fullmatch(r"(?:[\w-]+ )?(?:" + "|".join(KINDS) + r")", core):
        return []
    said = with_relative(core, core + after, RESULT_VERBS | _LIGHT_VERBS)
    return [said] if said != core and not leans_back(said) and len(said) <= 90 else []


# a clause that says how it is built, not what it is ("which uses X", "that consists of Y")
_LIGHT_VERBS = frozenset("uses employs leverages utilizes utilises includes consists comprises provides introduces "
                         "incorporates adopts".split())
def _with_clause(long_form: str, after: str) -> list[str]:
    """"Diffusion Rejection Sampling that aligns X" for "Diffusion Rejection Sampling (DiffRS),
    which aligns X", when the clause says what it does in a few words."""
    said = with_relative(long_form, long_form + after, RESULT_VERBS | _LIGHT_VERBS)
    ok = len(long_form.split()) >= 2 and said != long_form and not leans_back(said) and len(said) <= 90
    return [said] if ok else []


RESULT_VERBS = frozenset("""is has was does demonstrates shows achieves outperforms yields obtains
attains exhibits reaches surpasses improves beats performs sets establishes""".split())
_SUBJECT_LIGHT = re.compile(r"^(?:performs|uses|employs|leverages|utili[sz]es|adopts|introduces|"
                            r"applies|relies on|consists of|comprises|incorporates|features)\s+", re.I)


def subject_descriptions(sentences: list[str], name: str) -> list[str]:  # noqa: C901
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
                out.append(LEAD.sub("", phrase_end(rest[light.end():])))
            continue
        verb = rest.split(" ", 1)[0]
        g = gerund(verb) if verb in VERB_S or verb in VERBS_S else None
        if g and verb not in GENERIC_VERB and verb not in RESULT_VERBS:
            out.append(f"{g} {phrase_end(rest[len(verb) + 1:])}")
    return out
