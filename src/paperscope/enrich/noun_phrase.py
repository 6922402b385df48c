"""Noun phrases as labels: where a phrase ends (a clause, a result, a second verb), how it is
tidied and cut to fit a room at a phrase boundary, and whether it leans on earlier text ("this
problem", "their scaling"), and what follows a name says it is for ("to train X" -> "for
training X"). Shared by the headline (headline.py) and the position paper's label
(position.py).
"""
from __future__ import annotations

import re

from ..words import FILLER_WORDS, STOP_WORDS
from .phrases import OF_HEADS, as_gerund_phrase, coordinated, gerund, names_a_thing, soft_cuts, third_person
from .problem import PAREN
from .rules import BACKREF, DANGLING, SELF_REF
from .vocab import is_modifier

# an aside inside a clause: "that, in turn, ..."
ASIDE = re.compile(r"\b(that|which), [^,]{3,60}, ")

# where a noun phrase ends: a clause, a result, a second verb
_END = re.compile(
    r";|\s[-–—]+\s|—|---|\.\s|\.$|:\s|,\s|\s(?:which|where|whereby|wherein|while|whereas|although|"
    r"though|because|since|thereby|thus|hence|so that|so as to|even (?:if|when|though)|in order to|and not (?:just|only|merely)|"
    r"that (?:we|is|are) (?:call|"
    r"name|term|dub)\w*|and (?:then |also |further |\w+ly )?"
    r"(?:show|prove|demonstrate|find|derive|establish|achieve|evaluate|apply|conduct|perform|"
    r"propose|present|introduce|use|employ|develop|study|investigate|explore|discuss|identify|"
    r"design|obtain|give|offer|release|compare|validate|verify|provide|analy[sz]e|discover|uncover|reveal|link|"
    r"observe|highlight|argue|suggest)\w*|(?:which|"
    r"that) (?:achieves?|outperforms?|significantly|substantially|consistently)|(?:under|with|"
    r"given|on) (?:the|an?) (?:\w+ )?(?:assumption|premise|hypothesis|observation|condition|"
    r"insight|idea)s? that|in the sense|and (?!\w+ing\b)\w+ (?:the|a|an|its|their|how|that|whether|why)|"
    r"to (?:\w+ly )?(?:investigat|stud|show|understand|explor|examin|analy|demonstrat|verif|answer|"
    r"address|shed light|gain|elucidat|highlight|tackl|alleviat|mitigat|overcom|"
    r"solv|resolv|handl|remed|fix|bridg|fill|circumvent|avoid)\w*|with the (?:aim|goal|"
    r"purpose|intention|objective)|(?:that|which) we|(?:with|achieving|attaining) (?:an? )?(?:[\w-]+ ){0,2}"
    r"(?:complexity|rate|regret|bound|error|guarantee)s?\s(?:of\s)?[OΘΩ]\()\b", re.I)
# "large-scale, high-quality, and diversified": commas inside a list of modifiers
LIST = re.compile(r"\b[\w-]+(?: [\w-]+)?(?:, [\w-]+(?: [\w-]+)?)+,? (?:and|or) [\w-]+")
# (single words, or an adverb and its word: "graph compression, spatial parallelization, and X" lists nouns)
_FIRST_OF_LIST = re.compile(r"\b([\w-]+)(?:, (?!(?:including|such|like|especially|namely|e\.g|i\.e)\b)(?:[\w-]+ly )?[\w-]+)+,? (?:and|or) [\w-]+(?= (?!(?:through|with|"
                            r"for|in|on|of|to|and|via|by|from|using|as|at|into)\b)[\w-])")
LEAD = re.compile(r"^(?:(?:a|an|the|two|three|several|novel|new|simple(?:,? (?:but|and|yet) (?:effective|efficient|powerful))?|effective|efficient|"
                   r"classic(?:al)?|fundamental|important|challenging|well-known|long-standing|"
                   r"yet|highly|very|general|generic|principled|unified|powerful|flexible|"
                   r"lightweight|versatile|straightforward|our|first(?: known| ever)?|for the first time,?|so-called|carefully|"
                   r"innovative|elegant|designed|crafted|simple yet effective|both|kind of|"
                   r"different|alternative|another|idea to|and|(?:first |important |significant |major )?step (?:forward )?(?:for|towards?|in)|"
                   r"type of|class of|family of|problem of|task of|question of|notion of|idea of|concept of|"
                   r"(?:the )?(?:systematic |formal |theoretical )?study of)"
                   r"\s*,?\s+|,\s*)+", re.I)

KINDS = frozenset("""method methods approach approaches framework frameworks technique techniques
strategy strategies scheme schemes algorithm algorithms procedure model models system systems
paradigm pipeline solution architecture module mechanism tool toolkit library benchmark dataset
family class variant extension version way objective loss metric measure estimator suite
""".split())
_WEAK = STOP_WORDS | FILLER_WORDS | KINDS | frozenset("""novel new simple effective efficient
general unified principled first powerful flexible lightweight practical robust scalable
theoretical empirical based called named termed dubbed innovative expansive comprehensive
problem task question issue""".split())
GENERIC_VERB = frozenset("improve improves address addresses tackle tackles solve solves "
                          "mitigate mitigates overcome overcomes alleviate alleviates focus focuses "
                          "aim aims seek seeks try tries is are has have can may do does did".split())
_TRAIL = re.compile(r",?\s*\b(?:i\.e|e\.g)\.?$|\s+(?:in|on|for|with|to|by|via|from|at|as|of|and|or|that|which|the|a|an|"
                    r"its|their|this|these|both|using|across|over|under|between|among)$", re.I)
# modifiers a cut phrase must not end on ("solving convex", "in the continuous")
_MODIFIERS = frozenset("""convex nonconvex non-convex strongly linear nonlinear non-linear stochastic
deterministic discrete continuous smooth non-smooth large small high low deep shallow general
generic specific multiple various different single efficient robust adaptive fixed dynamic static
online offline sparse dense finite infinite local global first second infinite-horizon
finite-horizon high-dimensional low-dimensional terms form context presence spirit light basis
means""".split())

def content(text: str) -> int:
    return sum(1 for w in re.findall(r"[\w-]+", text.lower()) if w not in _WEAK and len(w) > 2)


def phrase_end(text: str) -> str:
    """`text` up to where its noun phrase ends; the commas of a list of modifiers ("large-scale,
    high-quality, and diversified") do not end it."""
    masked = LIST.sub(lambda m: m.group().replace(",", "\x00"), text)
    masked = _PRAISE_COMMA.sub(lambda m: m.group().replace(",", "\x00"), masked)
    masked = _ADJ_COMMA.sub(lambda m: m.group().replace(",", "\x00") if is_modifier(m.group(1)) else m.group(), masked)
    m = _END.search(masked)
    return text[:m.start()] if m else text


# words that praise what follows them ("a simple, scalable, and fast X"; "a novel, brain-inspired X")
PRAISE = (r"(?:simple|scalable|fast|efficient|effective|novel|new|general|flexible|robust|practical|principled|"
          r"lightweight|accurate|powerful|versatile|elegant|generic|unified|modular)")
# "a novel, brain-inspired architecture": a praise word and the modifier after it
_PRAISE_COMMA = re.compile(r"^(?:(?:a|an|the)\s+)?" + PRAISE + r",(?=\s+[\w-]+\s+[\w-])", re.I)
# "a deterministic, model-independent episode switching schedule": a comma between two modifiers of one noun
_ADJ_COMMA = re.compile(r"\b([a-z][\w-]*), (?=(?![a-z]+ing\b)(?!(?:and|or|but|which|that|where|while|with|without|for|in|on|of|to|by|"
                        r"via|as|such|including|e\.g|i\.e|namely|respectively|thereby|thus)\b)[a-z][\w-]* [a-z(])")
_SPACES = re.compile(r"\s+")
_THAT_IS = re.compile(r"\b(?:that|which) (?:is|are) (?=\w+ed\b)")  # "layer that is based on" -> "layer based on"
_THAT_CAPABLE = re.compile(r"\b(?:that|which) (?:is|are) (?=capable of \w+ing\b)")
_THAT_ABLE = re.compile(r"\b(that|which) (is|are) able to (?:[a-z]{3,}ly )?([a-z]{3,}(?<!ing))\b")  # adverb dropped
_SPACE_PUNCT = re.compile(r"\s+([,;:])")


def tidy(text: str) -> str:
    text = _SPACES.sub(" ", PAREN.sub("", text)).strip(" ,;:.-")
    text = re.sub(r",\s(?:for (?:instance|example)|e\.g\.),?(?=\s)|\s(?:for (?:instance|example)|e\.g\.),(?=\s)", "",
                  text)  # "to model, for instance, Euclidean costs"; "for instance retrieval" is a task
    text = _THAT_IS.sub("", text)
    text = _THAT_CAPABLE.sub("", text)  # "approach that is capable of attacking X" -> "approach capable of ..."
    text = _THAT_ABLE.sub(lambda m: f"{m.group(1)} {third_person(m.group(3)) if m.group(2) == 'is' else m.group(3)}",
                          text)  # "that is able to learn" -> "that learns"
    text = _SPACE_PUNCT.sub(r"\1", text).replace("“", "").replace("”", "")
    while True:
        shorter = _TRAIL.sub("", text).strip(" ,;:")
        if shorter == text:
            return text
        text = shorter


def abbreviated(text: str) -> str:
    """"Partially Observable Markov Decision Process (POMDP)" -> "POMDP"."""
    def short(m: re.Match) -> str:
        words, acr = m.group(1).split(), m.group(2)
        n = sum(1 for c in acr if c.isupper())
        initials = "".join(w[0] for w in words[-n:] if w[:1].isalpha()).upper() if n else ""
        if n >= 2 and len(words) >= n and initials == "".join(c for c in acr if c.isupper()):
            return " " + " ".join(words[:-n] + [acr])
        return m.group(0)
    return re.sub(r"\s((?:[\w-]+\s){1,7}?[\w-]+)\s\(([A-Za-z][\w-]{1,10})\)", short, text)


def fits(text: str, room: int, min_content: int) -> list[str]:
    """Ways to say `text` in `room` characters, best first: whole; with defined abbreviations
    used; with "method that Vs" as "Ving"; with a list of modifiers cut to its first; then
    prefixes ending at a phrase boundary, longest first, that still say something specific."""
    out = []
    whole = tidy(text)
    if len(whole) <= room:
        out.append(whole)
    text = tidy(abbreviated(" " + text))
    if len(text) <= room:
        out.append(text)
    plain = _CLAUSE_ADVERB.sub(r"\1 ", text)  # "method that efficiently explores X" -> "method that explores X"
    if plain != text and len(text) > room >= len(plain):
        out.append(plain)
    verb = as_gerund_phrase(text)
    if verb != text and len(verb) <= room and content(verb) >= min_content:
        out.append(verb)
    short = tidy(_FIRST_OF_LIST.sub(lambda m: m.group(1), text))
    if len(short) <= room:
        out.append(short)
    cuts = []
    for cut in soft_cuts(short):
        if short.startswith(cut) and re.match(r"\s*of\b", short[len(cut):]):
            continue  # "automatic satisfaction" without "of conservation laws": the head needs its "of"
        cut = tidy(cut)
        words = cut.split()
        if len(words) > 2 and words[-1].endswith("ing") and words[-2].lower() in ("through", "by", "for",
                                                                                   "of", "via", "in", "on"):
            continue  # "through constructing": a gerund without its object
        if short[len(cut):].startswith(" and ") and _NEEDS_TWO.search(cut):
            continue  # "balances the effect of X" without "and Y"
        if short[len(cut):].startswith((",", " and ", " or ")) and re.search(r",\s(?:[\w-]+\s){0,2}[\w-]+$", cut):
            continue  # "with biases, skip connections[, and ...]": a list cut before its last item
        clause = re.split(r"\s(?:that|which)\s", cut)
        if len(clause) > 1 and len(clause[-1].split()) < (3 if short[len(cut):].startswith((" and ", ",")) else 5):
            continue
        last = cut.rsplit(" ", 1)[-1]
        if len(cut) <= room and content(cut) >= min_content and \
                last.lower() not in OF_HEADS | DANGLING | _MODIFIERS and not is_modifier(last):
            cuts.append(cut)
    return list(dict.fromkeys(out + cuts[::-1]))


_CLAUSE_ADVERB = re.compile(r"\b(that|which|to) (?!only\b|early\b|apply\b|supply\b|rely\b|reply\b)[a-z]+ly (?!and\b|or\b)")
# words that take two things joined by "and": "between X and Y", "balances X and Y"
_NEEDS_TWO = re.compile(r"\b(?:between|both|balanc(?:e|es|ing)|combin(?:e|es|ing|ation of)|unif(?:y|ies|ying)|bridg(?:e|es|ing)|"
                        r"connect(?:s|ing)?|trade-?offs?)\b"
                        r"(?!.*\band\b)", re.I)


def capital(text: str) -> str:
    first = text.split(" ", 1)[0]
    if text[:1].islower() and not re.search(r"[A-Z0-9]", first[1:]):
        return text[:1].upper() + text[1:]
    return text

BACK_HEADS = frozenset("""problem problems issue issues challenge challenges limitation limitations gap
gaps question questions task tasks setting settings shortcoming shortcomings drawback drawbacks
difficulty difficulties obstacle obstacles approach approaches method methods framework model
models case cases end way scenario scenarios regime line direction work paper observation
finding findings phenomenon goal aim need""".split())


def unlean(text: str) -> str:
    """"such molecules" -> "molecules", "these mathematical problems" -> "mathematical
    problems": a determiner before a specific phrase; "this problem" stays (and leans back)."""
    def drop(m: re.Match) -> str:
        return m.group(0) if m.group(2).lower() in BACK_HEADS or m.group(2).lower() in STOP_WORDS \
            else m.group(2)
    return re.sub(r"\b(such|these|those)\s+([\w-]+)", drop, text)


def before_lean(text: str) -> str:
    """`text` up to the phrase boundary before its first word that leans on earlier text."""
    words = text.split()
    for i in range(1, len(words) + 1):
        if leans_back(" ".join(words[:i])):
            break
    else:
        return text
    head = " ".join(words[:i - 1])
    cuts = [m.start() for m in re.finditer(r"\s(?:by|to|for|with|and|that|which|using|via|in|on|"
                                            r"from|through|while|without|when|whenever|where|if|once|unless|until)\s", head + " ")]
    return head[:cuts[-1]] if cuts else ""


def leans_back(text: str) -> bool:
    text = re.sub(r"\band its\b", "and", text)  # "SAA and its regularized variation" stands alone
    words = text.split()
    if len(words) > 3:  # "the model itself to explain its internal representations": its has a noun before
        text = " ".join(words[:3] + [w for w in words[3:] if w.lower() not in ("its", "their")])
    return bool(BACKREF.search(SELF_REF.sub("", text)) or
                re.search(r"\b(?:it|its|their|they|them|we|our|us|above|aforementioned)\b|\b(?:neither|none|both|"
                          r"either) of (?!the\b|these\b|those\b)|^(?:an? |the )?(?:(?:simple|effective|novel|new) )*"
                          r"(?:remedy|cure|fix|workaround|answer)\b", text, re.I))

# the looser end of an object: only a clause, a new sentence or a result ends it
_LOOSE_END = re.compile(r";|\s[-–—]+\s|—|\.\s|\.$|:\s|,\s(?=\w+ing\b)|,\s(?=(?:which|where|while|whose|who|and|but|thus|"
                        r"thereby|hence|so|allowing|enabling|making|yielding|resulting|leading|showing|"
                        r"achieving|outperforming|demonstrating)\b)|\s(?:which|whereby|wherein|while|"
                        r"whereas|thereby|(?:which|that) (?:achieves?|outperforms?|significantly))\b", re.I)


def loose_end(text: str) -> str:
    masked = LIST.sub(lambda m: m.group().replace(",", "\x00"), text)
    m = _LOOSE_END.search(masked)
    return text[:m.start()] if m else text


def purpose(after: str) -> str | None:
    """What follows a name and says what it is for or does: "to train X" -> "for training X",
    ", aimed at learning X" -> "for learning X", ", equipping X with Y" -> "equipping X with Y",
    ", which extends X" -> "extending X"."""
    after = re.sub(r"^\s*,?\s*", "", after)
    m = re.match(r"(?:(?:which|that) (?:is )?)?(?:\w+ly )?(?P<how>aimed|designed|tailored|intended|curated|customi[sz]ed|"
                 r"speciali[sz]ed) (?P<prep>at|to|for) (?P<rest>.+)", after)
    if m:
        ing = m.group("rest").split()[0].endswith("ing")
        if (m.group("prep") == "for" or m.group("how") != "designed" and m.group("prep") == "to" and
                m.group("how") != "intended") and not ing:  # "designed for X data", "tailored to node classification"
            return "for " + phrase_end(m.group("rest"))
        after = m.group("rest") if ing else "to " + m.group("rest")
        if after.split()[0].endswith("ing"):
            return "for " + phrase_end(after)
    m = re.match(r"to (?:(?:\w+ly|further|better) )?(?!date\b)(?P<verb>[a-z]+) (?P<rest>.+)", after)  # "to date" is no purpose
    if m:
        g = gerund(m.group("verb"))
        if g and m.group("verb") not in GENERIC_VERB:
            return f"for {g} {phrase_end(m.group('rest'))}"
        return None
    m = re.match(r"for (?!the first time\b)(?P<rest>.+)", after)
    if m:
        return "for " + phrase_end(m.group("rest"))
    m = re.match(r"(?P<prep>of|in|on|with|under|over) (?P<rest>.+)", after)
    if m:  # "exact optimization (EXO) of the alignment objective"
        return f"{m.group('prep')} {phrase_end(m.group('rest'))}"
    m = re.match(r"by (?:introducing|proposing|presenting|developing|building|designing|using) (?P<rest>.+)", after)
    if m:  # "3D-VLA by introducing a new family of embodied foundation models"
        return "= " + LEAD.sub("", phrase_end(m.group("rest")))
    m = re.match(r"(?:(?:which|that) (?P<modal>can |could |is able to |are able to )?)?(?:\w+ly )?(?P<verb>[a-z]+) (?P<rest>.+)", after)
    if m and m.group("verb") not in GENERIC_VERB and not (m.group("verb")[:-1] in KINDS and not m.group("modal") and
                                                          re.match(r"(?:for|of|in|on|with|to)\s", m.group("rest"))):
        verb = m.group("verb")  # "which can discover X": a modal's verb is in its base form; "(TiC) benchmarks for X" names
        g = verb if verb.endswith("ing") else gerund(verb) if verb.endswith("s") or m.group("modal") else None
        if g and g not in ("being", "having", "using", "including", "resulting", "leading", "featuring",
                           "comprising", "containing", "consisting"):
            said = coordinated(f"{g} {phrase_end(m.group('rest'))}")  # "that estimates and maximizes X"
            means = _BY_MEANS.match(m.group("rest"))
            if leans_back(said) and means:  # "which avoids this domain shift by asking the model to ..."
                return f"{means.group('verb')} {phrase_end(means.group('rest'))}"
            return said
    return None


# the means a relative clause names: "... this shift by simply asking the model to repeat ..."
_BY_MEANS = re.compile(r"[^,;]{3,80}?\bby (?:\w+ly )?(?P<verb>[a-z]+ing) (?P<rest>.+)")


def with_relative(head: str, obj: str, result_verbs: frozenset[str] = frozenset()) -> str:
    """`head` with the relative clause that follows it in `obj`, when that says what it is:
    "un-normalized EBMs which operate not at the token but at the sequence level"."""
    rel = RELATIVE.match(_PARTICIPLE_ASIDE.sub("", obj[len(phrase_end(obj)):], count=1))
    last = head.rsplit(" ", 1)[-1]
    verb, rest = (rel.group("verb"), rel.group("rest")) if rel else ("", "")
    able = _ABLE.match(rest) if verb in ("is", "are") else None
    if able:  # "a model that is able to learn X" -> "model that learns X"
        verb, rest = third_person(able.group("verb")) if verb == "is" else able.group("verb"), rest[able.end():]
    elif verb in ("is", "are") and rest.startswith("capable of "):  # "a framework which is capable of Ving X"
        return f"{head} {phrase_end(rest)}"
    elif verb in ("is", "are") and _PREDICATE.match(rest):  # "a network that is equivariant to rigid motions"
        return f"{head} that {verb} {phrase_end(rest)}"
    modal = _MODAL_VERB.match(rest) if verb in _MODALS else None
    if modal:  # "a framework which can infer X" -> "framework that infers X"
        verb, rest = third_person(modal.group("verb")), modal.group("rest")
    if not rel or verb in GENERIC_VERB | result_verbs | _MODALS | STOP_WORDS or is_modifier(last) or \
            re.search(r"(?:ed|tion|ment|ity|ness|al)$", verb) or last.lower() in STOP_WORDS:
        return head  # "the extent to which pretrained models ...": no verb, or a head still waiting
    adverb = f"{rel.group('adv')} " if rel.group("adv") and not modal else ""  # "that directly targets X"
    said = _WHEN.split(phrase_end(rest), maxsplit=1)[0]  # "... correlations before the data is fed into X"
    return f"{head} that {adverb}{verb} {said}"


_MODALS = frozenset("can could may might will would".split())
_WHEN = re.compile(r"\s(?:before|after|when|once|until|whenever)\s(?=(?:the|a|an|it|they|each)\b)")
# ", modeled as a continuous-time dynamical system," before the clause
_PARTICIPLE_ASIDE = re.compile(r"^,\s+[a-z]+ed\b[^,;]{3,60}(?=,\s*(?:which|that)\b)")
_ABLE = re.compile(r"able to (?:[a-z]{3,}ly\s+)?(?P<verb>[a-z]{3,}(?<!ing))\s+(?=\S)")
# "equivariant to rigid body motions": an adjective with what it holds for
_PREDICATE = re.compile(r"(?!(?:also|not|then|now|often|usually|only|very|more|less|the|a|an)\b)[a-z-]{4,}(?<!ed) "
                        r"(?:to|under|with|against|across|in) (?!(?:this|these|that|those|such|its|their|our)\b)\w")
_MODAL_VERB = re.compile(r"(?:\w+ly\s+)?(?!(?:be|not|also|only|then|now|even|already|still|often|always|never|further|both|easily)\b)(?P<verb>[a-z]{3,})\s+(?P<rest>\S.*)")


RELATIVE = re.compile(r"\s*(?:\([^()]*\)\s*)?,?\s*(?:which|that) (?:(?P<adv>[a-z]+ly) )?(?P<verb>[a-z]{2,}) "
                      r"(?P<rest>.+)")


_CITATION = re.compile(r"\s*\([^()]*\b(?:19|20)\d\d[a-z]?\)")
# "a method to V X" is "Ving X"
_KIND_TO_VERB = re.compile(r"^(?:(?:simple|novel|new|general|principled|efficient) )*(?:method|approach|"
                           r"framework|technique|way|algorithm|strategy|scheme|procedure) to "
                           r"(?P<v1>[a-z]+)(?: and (?P<v2>[a-z]+))? ")


# "a simple, scalable, and fast gradient descent algorithm": the praise before the thing
_PRAISED = r"(?:(?:\w+ly\s+)?" + PRAISE + r"|[\w-]+[- ]friendly)"  # "computationally efficient", "memory friendly"
_PRAISE_LIST = re.compile(r"^(?:(?:a|an|the)\s+)?(?:" + _PRAISED + r",\s+)+(?:and\s+|or\s+)?" + _PRAISED +
                          r"\s+(?=[\w-]+\s)", re.I)
_HOW_MANY = re.compile(r"^(?:a|an) (?:(?:large|small|wide|broad|whole) )?(?:number|series|variety|handful|couple|range|"
                       r"host|plethora|multitude) of (?=\w)", re.I)
# ", such as recurrent neural networks,": an example inside the phrase
_EXAMPLE_ASIDE = re.compile(r",\s+(?:such as|e\.g\.,?) [^,;]{3,60},\s+(?=(?:on|in|for|to|with|by|from|using|via|that|"
                            r"which|into|under)\s)")
# "the impact of label variance - a previously unexamined factor - on the tail performance": an aside between dashes
_DASH_ASIDE = re.compile(r"\s+(?:--|[-–—])\s+(?=[a-z])[^-–—;:.()A-Z]{3,60}?\s+(?:--|[-–—])\s+|(?<=\w)—(?=[a-z])[^-–—;:.()A-Z]{3,60}?—(?=\w)")
_FRAME_OF = re.compile(r"\b(for|in|on|to) (?:the|a) (?:(?:general|broad|wide|large|generic|common) )?"
                       r"(?:scenario|setting|class|family|problem) of (?!(?:the|a|an|this|these|which|all)\b)", re.I)


def prepared_object(text: str) -> str:
    """An object as it can stand alone: no citation, no aside, no determiner before a specific
    phrase, no leading article or praise; "the use of X" is X; "a method to V X" is "Ving X"."""
    text = _DASH_ASIDE.sub(" ", _EXAMPLE_ASIDE.sub(" ", _CITATION.sub("", text))).replace('"', "")  # 'the "doubly stochastic gradients"'
    text = _HOW_MANY.sub("", text.lstrip())  # "a number of challenges of X" -> "challenges of X"
    obj = LEAD.sub("", _PRAISE_LIST.sub("", unlean(ASIDE.sub(r"\1 ", text))))
    obj = re.sub(r"^(?:the )?use of |^(?:solution|approach|way) by (?=\w+ing )", "", obj)  # "a solution by constructing X"
    obj = _FRAME_OF.sub(r"\1 ", re.sub(r"\b(\w+ly), (and|or) (\w+ly),", r"\1 \2 \3", obj))  # "faithfully, and minimally,"  # "bounds for the general scenario of X processes" -> "bounds for X processes"
    m = _KIND_TO_VERB.match(obj)
    if m and re.search(r"(?:ent|ant|ous|ic|tive|sive|[^e]al)$", m.group("v1")):  # "method to automatic X" is no verb:
        at = m.start("v1") - 4  # "method for automatic X"; "approach to" stays
        return obj if obj[:at].endswith("approach") else f"{obj[:at]} for {obj[at + 4:]}"
    if m and not m.group("v2") and names_a_thing(m.group("v1"), obj[m.end():]):
        return obj  # "approach to object completion": a thing, not a verb
    if m and gerund(m.group("v1")) and m.group("v1") not in GENERIC_VERB:
        verbs = gerund(m.group("v1")) + (f" and {gerund(m.group('v2')) or m.group('v2')}" if m.group("v2") else "")
        obj = f"{verbs} {obj[m.end():]}"
    return obj
