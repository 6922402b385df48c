"""Shallow phrase structure for labels: the object of "we propose ...", the clause after "we
show that ...", cut points where a noun phrase may end, and verb-to-gerund ("reduces" ->
"reducing"). Word shapes and function-word lists stand in for a tagger: the English models of
the usual parsers are not published as packages by their maintainers, and this pass only looks
at a handful of sentences per paper.
"""
from __future__ import annotations

import re

from ..words import STOP_WORDS
from .vocab import VERBS

# the authors' own voice followed by what they do; group "verb" is the verb
OWN_VERB = re.compile(
    r"\b(?:we|this (?:paper|work|study|article|note|position paper)|our (?:paper|work|study))\s+"
    r"(?:(?:\w+ly|also|further|then|first|here|now|instead|therefore|thus|hence|formally|"
    r"newly|additionally|finally|can|will|could|(?:in )?turn)\s+)*"
    r"(?P<verb>propos|introduc|present|develop|design|devis|build|construct|creat|formulat|"
    r"offer|provid|put forward|establish|deriv|stud|investigat|consider|analy[sz]|explor|"
    r"examin|address|tackl|revisit|characteri[sz]|focus(?:es)? on|show|prov|demonstrat|find|"
    r"argu|observ|reveal|unveil|uncover|discover|confirm|identif|advocat|contend|posit|conjectur|"
    r"hypothesi[sz]|suggest|"
    r"call for|releas|curat|collect|leverag|bridg|fill|theoreticall?y? (?:stud|analy[sz]))"
    r"(?:e|es|ed|ing|s|y|ies|ied|e[sd])?\b\s*", re.I)
CLAIM_VERBS = re.compile(r"^(?:show|prov|demonstrat|find|argu|observ|reveal|unveil|uncover|discover|confirm|"
                         r"identif|advocat|contend|posit|conjectur|hypothesi|suggest|establish|deriv)", re.I)
BY_SHOWING = re.compile(r"^[^.;]{0,80}?\bby (?:showing|proving|demonstrating|establishing) that\s+", re.I)
STUDY_VERBS = re.compile(r"^(?:stud|investigat|consider|analy|explor|examin|address|tackl|"
                         r"revisit|characteri|focus|theoretic)", re.I)
# hard ends of a noun phrase or clause
HARD_END = re.compile(
    r"\s*(?:,(?!\d{3}\b)|[;:]|\s[-–—]+\s|---|\s\(|\.\s|\.$)|\s(?:which|where|whereby|wherein|while|whose|"
    r"who|whereas|although|though|because|since|thereby|thus|hence|so that|such that|in order to|"
    r"(?:which|that) (?:we|is|are) (?:call|name|term|dub)\w*|called|named|dubbed|termed|coined|"
    r"allowing|enabling|making|yielding|resulting in|leading to|leveraging|exploiting|"
    r"and (?:then |also |further )?"
    r"(?:show|prove|demonstrate|find|derive|analy[sz]e|establish|provide|achieve|evaluate|apply|"
    r"conduct|perform|propose|present|introduce|use|employ|develop|study|investigate|explore|"
    r"discuss|identify|design|obtain|give|offer|release|train|test|compare|validate|verify|"
    r"empirically|experimentally|theoretically)\w*)\b", re.I)
# a noun phrase may stop before these (the rest qualifies it)
SOFT_END = re.compile(r"\s(?:for|of|in|on|with|to|under|via|from|using|through|across|without|"
                      r"over|between|by|based on|at|as|and|or|that|into|against|beyond|within|"
                      r"when|if|given|than|whose|depending on|according to|ranging from)\s|\s(?=(?:[a-z]+ly )?(?:[a-z]{3,}ed|used)\s)", re.I)
LEAD = re.compile(r"^(?:(?:a|an|the|two|three|several|novel|new|simple|simple yet effective|"
                  r"effective|efficient|first|yet|highly|very|general|generic|principled|unified|"
                  r"powerful|flexible|lightweight|versatile|straightforward|carefully|specifically|specially|particularly|newly|explicitly|"
                  r"so-called|called|named|termed|dubbed|our|its|their|both|also|further|"
                  r"and|but|on|for the first time,?|(?:broad|wide|large|diverse|rich) (?:range|class|family|variety|"
                  r"spectrum) of|(?:the )?(?:growing |increasing |pressing )?(?:need|demand) for|"
                  r"(?:the )?(?:problem|task|challenge|question|issue) of)\s+)+", re.I)
KIND_TO = re.compile(r"^(?:method|approach|framework|technique|"
                     r"strategy|scheme|algorithm|procedure|pipeline|recipe|way|mechanism|"
                     r"paradigm|solution|system|model|tool)s?\s+(?:\w+\s+)?(?:to|that|which)\s+"
                     r"(?:(?:can|could|is able to|helps?|aims? to|allows? (?:us )?to|"
                     r"enables? (?:us )?to|effectively|efficiently|directly|automatically|"
                     r"further|significantly|simultaneously)\s+)*(?P<verb>[a-z]+)\b", re.I)
ENDING_BAD = re.compile(r"(?:ed|ly)$")


# nouns that end like "-ise" verbs: "approach to premise selection" is no "premising selection"
_ISE_NOUNS = frozenset("premise promise compromise expertise noise enterprise exercise franchise".split())


def names_a_thing(word: str, after: str) -> bool:
    """"to object completion", "to domain adaptation": `word` before a nominalisation is a noun, not
    a verb to make a gerund of (known verbs and "-ize / -ate / -ify" stay verbs: "to improve generalization")."""
    low = word.lower()
    verb_like = low in VERBS or (re.search(r"(?:i[sz]e|ate|ify)$", word) and low not in _ISE_NOUNS)
    return not verb_like and bool(re.match(r"\s*[a-z]+(?:tion|ment|sis|ance|ence)\b|\s*(?:[\w-]+\s+){0,2}(?:modell?ing|"
                                           r"learning|design|reasoning|understanding|editing|planning|retrieval)\b", after))
THAT = re.compile(r"^(?:that|how|why|when|whether|what)\s+", re.I)
_VOWEL = set("aeiou")


def gerund(verb: str) -> str | None:
    """`reduces` / `reduce` -> `reducing`, `maps` -> `mapping`, `applies` -> `applying`.
    None for forms that are not a plain present verb."""
    v = verb.lower()
    base = v[:-1] if v.endswith("s") else v
    if base in _DOUBLED:
        return base + base[-1] + "ing"
    if v.endswith(("ed", "ing", "ly", "ty", "tion", "sion", "ness", "ism", "ogy", "ship", "hood", "tions", "sions",
                   "nesses", "isms", "ogies", "ships", "hoods", "ties", "um", "ums", "ics", "ia", "able", "ible",
                   "ous", "ful", "less")) or \
            len(v) < 3 or v in STOP_WORDS:  # "to uncertainty quantification" holds no verb
        return None
    if v.endswith("ies") and len(v) > 4:
        return v[:-3] + "ying"
    if v.endswith(("ches", "shes", "sses", "xes", "zes")):
        v = v[:-2]
    elif v.endswith("s") and not v.endswith("ss"):
        v = v[:-1]
    if v.endswith("ie"):
        return v[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")):
        return v[:-1] + "ing"
    if len(v) <= 4 and len(v) >= 3 and v[-1] not in _VOWEL | set("wxy") and v[-2] in _VOWEL \
            and v[-3] not in _VOWEL and v not in ("edit", "exit", "open"):
        return v + v[-1] + "ing"
    return v + "ing"


# verbs stressed on a last syllable that ends consonant-vowel-consonant: "equipping", "controlling"
_DOUBLED = frozenset("""equip refer prefer occur transfer omit admit submit permit commit control compel propel
expel excel patrol regret forget begin embed infer confer deter incur recur concur emit transmit remit dispel repel
overlap overfit underfit refit""".split())


def third_person(lemma: str) -> str:
    """"focus" -> focuses, "study" -> studies, "derive" -> derives."""
    if lemma.endswith(("s", "sh", "ch", "x", "z")):
        return lemma + "es"
    return lemma[:-1] + "ies" if lemma.endswith("y") and lemma[-2:-1] not in ("a", "e", "i", "o", "u") else lemma + "s"


def hard_cut(text: str, min_words: int = 2) -> str:
    """`text` up to its first hard boundary that leaves `min_words` words."""
    for m in HARD_END.finditer(text):
        head = text[:m.start()]
        if len(head.split()) >= min_words:
            return head
    return text


def soft_cuts(text: str) -> list[str]:
    """Prefixes of `text` ending where a noun phrase can end (before a preposition or a
    conjunction), shortest first, then `text` itself."""
    out = []
    for m in SOFT_END.finditer(text):
        if m.start() == 0:
            continue
        head = text[:m.start()].rstrip(" ,")
        last = head.rsplit(" ", 1)[-1].lower()
        if head and last not in STOP_WORDS and not ENDING_BAD.search(last) and \
                last not in ("based", "due", "able", "used", "applied") and \
                not (m.group().strip().lower() == "of" and last in OF_HEADS):
            out.append(head)
    out.append(text)
    return out


def drop_leading(text: str) -> str:
    return LEAD.sub("", text.strip())


def coordinated(text: str) -> str:
    """A gerund phrase whose later verbs agree: "transforming X and replaces Y" -> "transforming X
    and replacing Y"."""
    if not re.match(r"[A-Za-z]+ing\b", text):
        return text
    clause = re.search(r"\b(?:that|which|who)\b", text)  # "handling X that targets and resolves Y" stays
    end = clause.start() if clause else len(text)
    pair = re.match(r"([A-Za-z]+ing) (and|or) ((?:\w+ly )?)([a-z]{3,}[^s]s)(?= (?!of\b|and\b|or\b)[\w(])", text)  # "estimating and maximizes X"
    if pair and gerund(pair.group(4)):
        text = f"{pair.group(1)} {pair.group(2)} {pair.group(3)}{gerund(pair.group(4))}{text[pair.end():]}"
    return re.sub(r"\b(and|or|then)( \w+ly)? ([a-z]+s)(?= (?!and\b|or\b)[\w(])",
                  lambda m: f"{m.group(1)}{m.group(2) or ''} {gerund(m.group(3))}"
                  if m.start() < end and m.group(3) in VERB_S and gerund(m.group(3)) else m.group(), text)


def as_gerund_phrase(text: str) -> str:
    """`method to improve X` -> `improving X`; `reduces X` -> `reducing X`; else unchanged."""
    m = KIND_TO.match(text)
    if m and not names_a_thing(m.group("verb"), text[m.end():]):
        g = gerund(m.group("verb"))
        if g:
            return g + text[m.end():]
    first = text.split(" ", 1)
    if len(first) == 2 and first[0].lower().endswith("s") and first[0].islower() and \
            first[0].lower() in VERB_S:
        g = gerund(first[0])
        if g:
            return g + " " + first[1]
    return text


# nouns that mean little without their "of ..." ("the number of", "a range of")
OF_HEADS = frozenset("""
number range variety set series family class kind type form part use lot amount degree
presence absence existence problem question issue notion idea concept study analysis effect
impact role case cost size quality performance ability capability choice sequence collection
""".split())

# third-person verbs that open a description ("reduces the number of ...")
VERB_S = frozenset("""
reduces combines enables learns uses provides allows leverages makes applies executes integrates
exploits improves extends generalizes generalises unifies adapts aligns bridges builds captures
computes constructs converts decomposes defines encodes estimates explains extracts finds fuses
generates guides identifies incorporates infers injects jointly maps merges models optimizes
optimises predicts preserves produces projects prunes quantifies recovers refines removes
replaces represents retrieves reweights samples scales selects simulates solves teaches trains
transfers transforms translates updates utilizes utilises distills distils accelerates augments
calibrates compresses detects enhances mitigates alleviates addresses tackles handles supports
automates discovers evaluates measures mimics operates performs learns regularizes regularises
decreases increases lowers raises resolves eliminates avoids prevents corrects overcomes
""".split())
