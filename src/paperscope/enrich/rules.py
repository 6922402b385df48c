"""What a reader accepts as a label or a TL;DR, written down as checks. `label_breaks` and
`tldr_breaks` return the names of the rules a text breaks (empty: acceptable). The label maker
uses them to reject candidates; benchmarks/label_eval.py and the tests count them.

Label rules: complete (no ellipsis), at most 112 characters, self-contained (no opening
back-reference, pronoun or connective, no "this/these ..." anywhere), not circular ("X: method
X"), not ending on a function word, not a benchmark claim ("attains 2.7% ..."), starting with a
capital or a coined name, balanced brackets. TL;DR rules: one or two complete sentences that do
not lean on text the reader cannot see (a "this bound" whose bound the TL;DR itself names is fine;
a "their" before anything it could point at is not) and say more than "we propose a simple
method" ("thin").
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..words import FILLER_WORDS, STOP_WORDS, prose_words
from .vocab import is_modifier, kind_named

MAX_LABEL_CHARS = 112  # a descriptive label may run longer than a usual title (issue: blind-judged labels)

# words that make a phrase lean on earlier text when they open it
OPENERS = frozenset("""
that this these those such it its they them their there here we our us you i he she his her
to response regarding however moreover furthermore additionally also thus therefore hence
consequently instead then finally first firstly second secondly third lastly next specifically
particularly notably importantly interestingly surprisingly meanwhile nevertheless nonetheless
still yet and but or nor so because since although though while whereas whereby which who whom
whose where as if unlike despite besides further accordingly otherwise likewise similarly
conversely overall altogether ultimately indeed namely e.g i.e building based motivated inspired
given under in with by at from for as after before during among across via using through
within without upon how why what when whether if is are was were be has have had can could
will would may might must should does do did allowing enabling leading making resulting
yielding showing providing contrary each even not proposed experiments results
rather of due starting
""".split())
# "Experimental results show ...", not "Experimental technique for searching policy spaces"
_RESULTS_OPEN = re.compile(r"experimental (?:results?|evaluations?|studies|study|analys[ie]s|findings|evidence|"
                           r"validation|comparisons?|data|setups?|settings?)\b|compared (?:to|with)\b|more (?:specifically|"
                           r"precisely|generally|importantly|concretely)\b|the (?:first|second|former|latter) (?:can|could|"
                           r"is|are|was|were|has|have|shows?|yields?)\b", re.I)  # a sentence's connective, not a title
# "Convergence of on non-iid data", "hurdle of of processing": a phrase lost between two prepositions
_TWO_PREPOSITIONS = re.compile(r"\b(of|in|for|to|on|with|by|from) (?:of|in|for|to|on|with|by|from)(?![\w-])", re.I)
# back-references anywhere in the phrase ("method for this problem", "the aforementioned gap")
BACKREF = re.compile(r"\b(?:this|these|those|aforementioned|above-mentioned|former|latter|"
                      r"said|such)\b(?!\s+(?:as|that)\b)|\bthe (?:above|same)\s+(?:[\w-]+\s+){0,2}?(?:issues?|problems?|"
                      r"challenges?|limitations?|questions?|tasks?|settings?|gaps?)\b|\b(?:of|on|to|with|for|from|in|by) "
                      r"that (?:approach|method|model|work|paper|idea|framework|algorithm|line|result|problem|setting)s?\b", re.I)
# a label pointing at what the abstract says next or said before ("with the following properties",
# "Above problem from the perspective of ...", "Following three conditions for ...")
_POINTS_AWAY = re.compile(r"\bthe following\b(?!-)|^(?:the )?above [a-z]|^following (?:two|three|four|five|\d+)\b", re.I)
SELF_REF = re.compile(r"\b(?:this|the present) (?:paper|work|study|article|note|position paper|"
                   r"survey|submission)\b", re.I)
# a phrase must not end on these
DANGLING = frozenset("""
a an the of to in on for with by via from at as and or but nor than that which who whom whose where when while
is are was were be been being can could may might will would should must has have had its their our his her
this these those such into onto over under between among within without through across toward towards against
upon about after before during per using based leveraging including like versus vs not also both either each
every some any more most less very how what why whether if so then thus yet new novel one respect lies lie
resides reside hinges hinge relies rely depends depend stems consists boils pertains holds due designed tailored intended specifically especially particularly
""".split())
_CLAIM = re.compile(r"\d\s?%|(?<!-)\b(?:attains?|achieves?|outperform(?:s|ing)?|surpass(?:es|ing)?|"
                    r"beats?|state-of-the-art results|(?:superior|better|improved|stronger) performance|improves? (?:the |upon )?(?:state-of-the-art|sota)|sota results|improves? (?:the )?(?:accuracy|"
                    r"performance)|accuracy boosts?|speed-?ups? of)\b", re.I)
_FIRST_WORD = re.compile(r"[^\W_][\w'’\-]*", re.U)


def _words(text: str) -> list[str]:
    return _FIRST_WORD.findall(text)


def _balanced(text: str) -> bool:
    for a, b in ("()", "[]", "{}"):
        if text.count(a) != text.count(b):
            return False
    return text.count('"') % 2 == 0 and text.count("$") % 2 == 0


def _coined(tok: str) -> bool:
    return any(c.isupper() for c in tok[1:]) or any(c.isdigit() for c in tok)


# last words that wait for their complement: "... scenes capable", "... of class-wise", "hundreds"
# "algorithm that quickly identifies": a clause's verb still waiting for its object
_CLAUSE_VERB_END = re.compile(r"\b(?:that|which) (?:\w+ly )?[a-z]+(?<!s)s$")
# what is still to be said: a manner ("scales to large datasets in a manner"), a setting ("in the
# setting"), what a participle after its noun goes on with ("from observed graphs generated"), a
# potential ("framework that has the potential"), parts not named ("agent featuring three key components")
_UNSAID_END = re.compile(
    r"\b(?:in|with) an? (?:manner|way|fashion)$|\b(?:can|could|may|might|will) be [a-z]+(?:ed|en|wn)$|\bthe (?:potential|ability|capacity|corresponding|respective|following|same)$|"
    r"\b(?:a|an|the) (?:simple|novel|new|general|unified|principled|efficient|effective)$|\b(?:two|three|four|five|several|multiple) (?:key |main |major |core |novel )?(?:components|"
    r"contributions|innovations|ingredients|steps|stages|aspects|parts|modules|techniques)$|\bfor (?:cases|instances|situations)$|\b(?:in|for|by|when|while|without) (?:affecting|specifying|translating|doing|optimizing|identifying|improving|enhancing|reducing|addressing|making|overlapping)$|\b(?:in|under) the (?:setting|case|regime|context|"
    r"scenario|constraint|assumption|condition)$|\b(?!(?:be|is|are|was|were|been|being)\b)[a-z]+s? (?:generated|obtained|induced|considered|defined|required|needed|mentioned|described|studied|trained|learned|used)$|\bw\.r\.t\.?$|"
    r"\b(?:varying|different|various|increasing) (?:levels|degrees|amounts|kinds|types)$|(?:\b(?:well|highly|fully|tightly)-[a-z]+|\b(?:high|low)-(?:fidelity|quality)|"
    r"-(?:based|aware|driven|specific|free|agnostic|oriented|integrated))$|,\s+[a-z]+$|\b(?:enabl|allow|permit|help|empower)(?:es|s|ing)? (?:(?:the|a|an) )?(?:[\w-]+ ){0,3}?(?:llms?|(?:language )?models|agents|users|robots|learners|detectors|policies|us)(?: (?!to\b)[\w-]+){0,8}$", re.I)
_WAITING = frozenset("capable able unable hundreds thousands dozens millions billions relying depending "
                     "based focusing showing allowing enabling achieving requiring ensuring providing "
                     "yielding giving containing involving exhibiting demonstrating revealing indicating "
                     "suggesting producing outperforming surpassing utilizing employing comprising consisting "
                     "including".split())
# "dataset to train", "framework to exploit": a purpose cut before its object
_KIND_TO_VERB_END = re.compile(r"\b(?:method|approach|framework|model|algorithm|technique|strategy|scheme|"
                               r"dataset|benchmark|tool|system|architecture|objective|loss)s? to [a-z]+$|"
                               r"\bto (?:account|cope|deal|safeguard|capture|support|address|handle|tackle|achieve|"
                               r"ensure|enable|mitigate|alleviate|overcome|exploit|leverage|provide|allow|facilitate|"
                               r"model)$")  # "a pessimistic policy to safeguard": against what?


# "under the assumption that the encoding map": a that-clause still waiting for its verb
_OPEN_THAT = re.compile(r"\b(?:(?:under|with|on|from|of) the (?:assumption|hypothesis|fact|observation|premise)|"
                        r"the (?:fact|observation|premise|insight|intuition)|"
                        r"(?:assumption|hypothesis|fact|idea|observation|condition|insight|notion|premise) that "
                        r"(?:the |a |an )?[\w-]+(?: [\w-]+)?)$", re.I)


# "trade-off between the error", "the relationship", "a bidirectional link": one side of a pair;
# "... enables neural networks to learn": an infinitive without its object; "permits the firing
# rate" without what it permits it to do
_HALF_PAIR = re.compile(r"\bbetween (?:the|a|an) (?:(?!\band\b)[^,;])*[^s\W]$|\bbetween (?!two\b)(?:(?!and\b)[\w-]+(?<!s) ){0,2}(?!and\b)[\w-]*[^s\W]$|\bgaps? between (?:(?!\band\b)[^,;])*$|\bfor short$|"
                        r"\b(?:with|and|of|from) (?:notions|ideas|concepts|insights|tools|elements|aspects|principles)$|"
                        r"\bboth\b(?!.*\band\b)|"  # "in both online" (and what)
                        r"[=<>≤≥+*/^−-]$|"  # "... with notions" (from what), "... ||p-q||_1 ≥" (what)
                        r"\bby (?:re)?(?:formulating|casting|treating|viewing|framing|posing|regarding|interpreting) "
                        r"(?:(?!\bas\b)[^,;])*$|"  # "by formulating reasoning" (as what)
                        r"\b(?:in|of|for|to|into) the (?:pursuit|context|presence|absence|face|light|lack|realm|wake|"
                        r"spirit|form|case)$|"  # "in the pursuit" (of what)
                        r"\b(?:allow(?:s|ing)?|permit(?:s|ting)?|let(?:s|ting)?) (?:the|each|every|all) (?:[\w-]+ ){0,2}"
                        r"[\w-]+(?: of (?:each|every|the|all) [\w-]+)?$|\bnot only\b(?!.*\bbut\b)|"  # "by allowing the opponent" (to V)
                        r"\b(?:that|which) (?:\w+ly )?(?:learns|uses|takes|makes|performs|achieves|explains|predicts|"
                        r"captures|exploits|leverages|combines|allows|enables|chooses|decides|determines)$|"
                        r"\band (?:\w+ly )?(?:prove|show|demonstrate|find|derive|establish)s? that\b|"
                        r"\bas (?:many|much|few|little|large|small|well) (?:(?!\bas\b)[^,;])*$|"
                        r"\bseparates (?:(?!\bfrom\b)[^,;])+$|\b(?:on|of|in|from|to|for|with|by) that [\w-]+$|"
                        r"\b(?:on|of|in|for|with|from|to) (?:large|small|high|low|different|various|multiple|"
                        r"complex|real|synthetic|new|noisy|sparse|cross-[\w]+)$|\b(?:relationship|link|connection|trade-?off|interpolation)$|"
                        r"\bto (?:\w+ly |best |better )?(?:learn|explain|take|make|perform|achieve|do|get|use|obtain)$",
                        re.I)


# "Benefits of its algorithmic components": whose? ("Adam and its variants" says)
_EARLY_ITS = re.compile(r"^(?:[\w-]+\s+){1,2}of (?:its|their)\b", re.I)
_COPULA = frozenset("is are be being been become becomes remain remains make makes render renders".split())


def _modifier_end(words: list[str]) -> bool:
    """A modifier waiting for its noun ("... with several desirable", "for piecewise stationary"); in a clause with a
    copula it is a predicate ("X is not optimal", "constraints that make X scalable"), which the claim rule judges."""
    if words[-1].lower() in _PREDICATES and words[-2].lower() in ("for", "of", "in", "on", "with", "a", "an", "the") or \
            is_modifier(words[-1]) and words[-2].lower() in ("a", "an", "the"):  # "method for robust", "be a valuable"
        return True
    return is_modifier(words[-1]) and not any(w.lower() in _COPULA for w in words) and \
        words[-2].lower() not in ("when", "if", "as", "where", "wherever")  # "when unnecessary"


# adjectives a label may end on as a predicate ("to be adversarially robust"), never after a preposition
_PREDICATES = frozenset("robust accurate efficient effective optimal scalable stable".split())


def label_breaks(label: str, *, position: bool = False) -> list[str]:
    """Rules of a good title-less label that `label` breaks. `position`: whether the paper is
    a position paper (then, and only then, the label starts with "Position:")."""
    text = (label or "").strip()
    words = _words(text)
    out: list[str] = []
    if len(words) < 2:
        return ["empty"]
    if "…" in text or "..." in text:
        out.append("cut")
    if len(text) > MAX_LABEL_CHARS:
        out.append("long")
    head, sep, desc = text.partition(": ")
    first = words[0].lower()
    if (first in OPENERS or _RESULTS_OPEN.match(text)) and not (sep and head == words[0] and
                                                               sum(c.isupper() for c in head) >= 2 and not head.isupper()):
        out.append("opener")  # "NExT: ..." is a name, "Next, ..." a connective ("IS", "HAVE" may be either)
    elif sep and (dw := _words(desc)) and (dw[0].lower() in OPENERS - {"to"} or _RESULTS_OPEN.match(desc)):
        out.append("opener")
    if BACKREF.search(SELF_REF.sub("", text)) or re.search(r"\b(?:our|we|us)\b", text, re.I) or _POINTS_AWAY.search(text) or \
            _EARLY_ITS.search(text) or \
            _MORE_REFS.search(text) or re.search(r"\bthe proposed\b", text, re.I):  # "the difference between the two tasks"
        out.append("back-reference")
    if text[:1].islower() and not _coined(words[0]) and not (sep and _coined(head)):  # "t^3VAE: ..." is a name
        out.append("lower-case")
    last = words[-1].lower()
    if last in DANGLING or last in _WAITING or last.endswith(("-wise", "'s", "’s")) or text.rstrip()[-1:] in ",;:-–(" or \
            _OPEN_THAT.search(text) or _UNSAID_END.search(text) or _CLAUSE_VERB_END.search(text) or (_HALF_PAIR.search(text) and len(words) >= 5) or \
            _KIND_TO_VERB_END.search(text.lower()) or _modifier_end(words):
        out.append("dangling")
    if not _balanced(text):
        out.append("unbalanced")
    if _CLAIM.search(text):
        out.append("claim")
    if _NOT_A_PHRASE.search(text) or _verb_first(desc if sep else text) or _TWO_PREPOSITIONS.search(text):
        out.append("fragment")
    if sep and head.strip().lower() != "position":
        dw = [w.lower() for w in _words(desc)]
        name = head.strip().lower()
        if not dw or name in dw or re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)",
                                             desc.lower()) or \
                (len(dw) <= 3 and all(w in _KIND for w in dw[:1]) and name in " ".join(dw)):
            out.append("circular")
        elif len(dw) < 2:
            out.append("empty")
    if position != text.lower().startswith("position:"):
        out.append("position")
    return out


# "Showing that ...", a link, "(see ...", an unfinished "A recent theory shows", a kind for a name
# ("Method: X"), a gloss that only compares ("PEC: differing from ..."), "... by proving"
_NOT_A_PHRASE = re.compile(r"^\w+ing (?:that|how|why|whether)\b|https?\b|www\.|\bgithub\b|^having\b|"
                           r"\b(?:shows?|finds?|argues?|suggests?|proves?|demonstrates?)$|"
                           r",\s*(?:if|when|while|although|unless|as|with)\b|"
                           r"^(?:the )?(?:fact|idea|notion|observation|question) that\b|"
                           r"\b(?:in terms|with respect|in front|as well|in order|such as|rather than|"
                           r"a focus|the number|a number|a (?:wide )?(?:range|variety|set|series|"
                           r"family|class)|the (?:use|case|form|problem))$|\s[A-Za-z]$|"
                           r"\b(?:called|named|dubbed|termed)\b|^(?:method|approach|framework|algorithm|model|system): |\b(?:for|of|in|to|with) (?:wherein|whereby)\b|\b(?:with|of|for) (?:simple|novel|new|efficient|effective|general) (?:for|of|to|in|on)\b|"
                           r": (?:differing|unlike|compared|different)\b|\s—(?:\s|$)|^(?!Position: )[^:]+: (?:(?!\b(?:that|which|who|to|how|whether|if|when|why|what|where)\b)[^:])*\b(?:can|could|may|might|will|should|must) [a-z]+\b|\b(?:by|via|through|while|without) (?:proving|"
                           r"showing|using|leveraging|exploiting|introducing|developing|combining|incorporating|"
                           r"utili[sz]ing|employing|applying|exploring|designing|adding|making|taking|considering)$", re.I)
def _verb_first(text: str) -> bool:
    """Does the phrase open with a finite verb ("Adjusts stale embeddings", "Augments X")?
    A plural noun also ends in -s, so only words the verb list knows count."""
    words = _words(text) + [""]
    first = words[0].lower()
    if first == "automatically" and words[1].endswith("ed"):  # "automatically designed network"
        return False
    return first in VERB_OPENERS or (first.endswith("s") and first[:-1] in VERB_OPENERS)


VERB_OPENERS = frozenset("""
adjust adjusts assign assigns augment augments harness harnesses compute computes learn learns
reduce reduces combine combines enable enables use uses provide provides allow allows leverage
leverages make makes apply applies execute executes integrate integrates exploit exploits improve
improves extend extends unify unifies adapt adapts align aligns bridge bridges build builds
capture captures construct constructs generate generates estimate estimates achieve achieves
outperform outperforms automatically introduce introduces propose proposes present presents
modify modifies accelerate accelerates want wants demonstrate demonstrates identify identifies
investigate investigates show shows prove proves obtain obtains derive derives mitigate mitigates
alleviate alleviates overcome overcomes tackle tackles solve solves facilitate facilitates enhance
enhances correspond corresponds relate relates belong belongs depend depends rely relies consist consists
group groups cluster clusters call calls track tracks incorporate incorporates define defines
""".split())
_KIND = frozenset("method approach framework model algorithm technique system".split())

_TLDR_OPENER = re.compile(
    r"^(?:to (?:address|tackle|overcome|solve|mitigate|alleviate|remedy|fill|bridge|this end|that "
    r"end|do so|achieve this)|regarding|in response|in light of (?:this|these)|as such|"
    r"(?:this|these|those|such|it|its|they|their|them|thus|therefore|hence|however|moreover|"
    r"furthermore|additionally|consequently|instead|then|finally|also|specifically|accordingly|"
    r"likewise|similarly|here|there|unlike|besides|nevertheless|nonetheless)\b)(?!\s+(?:paper|work|"
    r"study|article|note|position paper|survey)\b)", re.I)
# "their", "its" with nothing before it to point at: "We study their training dynamics."
_EARLY_PRONOUN = re.compile(r"^(?:we|our \w+)\s+(?:(?!and\b|or\b|with\b|of\b|that\b|when\b|if\b)\w+\s+){0,5}?(?:their|its|they|them)\b|^our (?:proposed )?"
                            r"(?:approach|method|framework|model|algorithm) (?:also )?(?:employs|uses|relies|consists|builds|combines|leverages|utili[sz]es|exploits|is based|outperforms)\b", re.I)


def _stem(word: str) -> str:
    return word.lower()[:5]


# TL;DR only: "both problems", "the problems above" point back just as well
_MORE_REFS = re.compile(r"\bboth (?:problems|issues|challenges|questions|limitations|tasks|"
                        r"settings|gaps|frameworks|methods|models|cases|approaches|regimes|algorithms|"
                        r"scenarios|aspects)\b(?! and\b)|\bthe (?:two|three) (?:[\w-]+ )?(?:tasks|problems|issues|"
                        r"challenges|objectives|goals|components|stages|methods|approaches|models|aspects|datasets|"
                        r"distributions|networks|agents|players|domains|modalities|views|branches|modules|phases)\b"
                        r"(?! (?:of|:)|:)|\bin (?:two|three|several) respects\b|\bas an? (?:suitable|natural|"
                        r"better) (?:choice|candidate|alternative)\b|\bthe (?:theorem|conjecture|hypothesis|"
                        r"lemma)\b(?! (?:of|that|by|on|for|returned|learned|learnt|output|produced|selected|chosen|class(?:es)?|"
                        r"spaces?|sets?|testing|tests?|features?)\b)|\bthe (?:problems?|issues?|challenges?|questions?|"
                        r"limitations?|gaps?) (?:above|mentioned)\b|\b(?:described|mentioned|discussed|"
                        r"listed|outlined|defined) (?:above|earlier|before)\b|"
                        r"\b(?:an? )?(?:affirmative|positive|negative) answer\b|"  # to a question not said
                        r"\bthe answer is\b|\banswer(?: \w+)? in the (?:affirmative|negative)\b|\b(?:address|tackle|"
                        r"overcome|circumvent|mitigate|alleviate|resolve|solve)(?:es|s|ed|ing)? (?:the|all) (?:(?:above|aforementioned|identified|key|main|two|three)\s)?(?:challenges|issues|problems|"
                        r"limitations|difficulties|drawbacks|shortcomings|bottlenecks)\b(?! (?:of|in|for|that|posed|associated|arising|caused|faced|related|with|when|inherent|we|mentioned|above)\b)|"
                        r"\b(?:provide|propose|present|give|introduce|offer|develop|build)s? one\b(?! of\b)|"
                        r"\bthe (?:first|second|third|former|latter|previous) (?:challenge|problem|issue|question|limitation|"
                        r"goal|aim|difficulty|gap)s?\b(?! (?:of|in|for|to|that)\b)|"
                        r"\bboth the (?:[\w-]+ )+?(?:issues|problems|challenges|limitations|questions)\b|\b(?:these two|both these|both of these) (?:properties|aspects|factors|components)\b|\bthat both (?:properties|aspects|factors)\b|"
                        r"\banother (?:[\w-]+ )?(?:algorithm|method|approach|model|variant|estimator|"
                        r"framework)\b|\btheir (?:conjecture|question|claim|hypothesis|open problem)\b|"
                        r"(?<=\S )as a (?:solution|remedy|fix)\b(?! (?:to|for)\b)|"
                        r"\bthe (?:[\w-]+ ){1,2}above\b(?! (?:the|a|an|\d|\w+ly)\b)|"
                        r"^we (?:call|term|name|dub) (?:the|this|our) (?:result|resulting|combination|combined|new|proposed|scheme|method|approach|model|framework|algorithm|technique)\b|\bthe (?:research|central|main|key) question\b(?! (?:of|whether|how|what|why|that|is|:|\")|:)|\b(?:address|answer|tackle)(?:es|s|ed|ing)? the question\b(?! (?:of|whether|how|what|why|that|:|\")|:)|"
                        r"\bwe (?:do|did) so\b|\ba (?:second|third) (?:option|alternative|way)\b|\btakes? (?:the|a) first step\.|\b(?:propose|take|open)s? a new direction\.|\b(?:take|adopt)s? a different (?:approach|route|path|perspective)\b(?! (?:by|of|that|to|based|which)\b)|\bour (?:conjecture|hypothesis|claim|intuition)\b(?!,? that\b| class)|"
                        r"^for (?:each|every|both|all) (?:of (?:the|these) )?(?:problems?|tasks?|settings?|cases?)\b|"
                        r"^(?!our\b)[^.]*?\bour (?:theoretical |main |empirical )?(?:results|problem|findings|observations|claims|conclusions)\b(?! (?:of|in|for|to|that)\b)",
                        re.I)  # "In this paper, we do so by ...", "we put our conjecture to test", "For each problem, ..."  # "... as a solution." (an opening one comes off)


_DEFINED_HERE = re.compile(r"[\w\s-]{0,40}?(?:,\s*)?(?:i\.e\.|namely\b|:(?!\s*we\b))")
_POST_MODIFIER = frozenset("of which who whose that in with from for on at under without".split())
_REF_HINTS = ("this", "these", "those", "such", "above", "former", "latter", "said", "same",
              "both", "earlier", "before", "answer", "another", "their", "as a", "the t", "respects",
              "the hyp", "the con", "the lem", "the fir", "the sec", "the thi", "the lat", "the for", " one",
              "do so", "did so", "our con", "our hyp", "our cl", "our int", "for ", "our res", "our pro",
              "our fin", "our obs", "we call", "we term", "we name", "we dub", "overcom", "circumv", "addres", "tackl",
              "mitigat", "alleviat", "resolv", "solv", "questi", "a second", "a third", "first step", "direction", "differen", "our the", "our mai", "our emp")


@lru_cache(maxsize=256)
def unresolved_refs(text: str) -> tuple[re.Match, ...]:
    """The back-references of `text` ("this problem", "such guarantees", "the above issue") whose
    noun the text itself has not named before: "a lower bound ... attains this bound" refers
    inside the text, "to address this challenge" to something the reader cannot see."""
    low = text.lower()
    pronoun = _ITS.search(text) if "its" in low or "their" in low else None
    if pronoun and [w for w in _words(text[:pronoun.start()]) if w.lower() not in STOP_WORDS | _REPORTED]:
        pronoun = None  # "We show that when its weights ...": whose? "X and its variants" says
    if not any(h in low for h in _REF_HINTS):
        return (pronoun,) if pronoun else ()
    masked = SELF_REF.sub(lambda m: "x" * len(m.group()), text)
    out = []
    for m in BACKREF.finditer(masked):
        after = _words(masked[m.end():m.end() + 40])
        before = {_stem(w) for w in _words(masked[:m.start()]) if len(w) > 2}
        noun = [w for w in after[:2] if w.lower() not in STOP_WORDS]
        if _DEFINED_HERE.match(masked, m.end()):  # "this question, i.e., how to ..."
            continue
        if m.group().lower() == "those" and after and (after[0].lower().endswith("ed") or after[0].lower() in _POST_MODIFIER):
            continue  # "comparable to those achieved by ...", "those of the teacher"
        if m.group().lower().startswith("the "):  # "the same problem": its own last word
            noun = [m.group().split()[-1]]
        if not noun or not any(_stem(w) in before for w in noun[:1 if m.group().lower().startswith("the ") else 2]) \
                and not kind_named(noun[0], before):  # "a technique called X. This approach ..."
            out.append(m)
    out += [m for m in _MORE_REFS.finditer(masked)  # "... topology-aware? We show the answer is yes." says it
            if not ("answer" in m.group().lower() and "?" in masked[:m.start()])]
    out += [pronoun] if pronoun else []
    return tuple(sorted(out, key=lambda m: m.start()))


_ITS = re.compile(r"\b(?:its|their)\b", re.I)
_REPORTED = frozenset("""show shows showed prove proves proved find finds found demonstrate demonstrates
observe observes argue argues establish establishes note notes reveal reveals analyze analyse analyzes analyses
study studies investigate investigates examine examines consider considers explore explores revisit revisits
characterize characterizes discuss discusses paper work article here""".split())


def tldr_breaks(tldr: str) -> list[str]:
    """Rules of a self-contained TL;DR (one or two sentences) that `tldr` breaks."""
    text = (tldr or "").strip()
    if len(_words(text)) < 4:
        return ["empty"]
    out = []
    if "…" in text or "..." in text or _ONE_OF_A_LIST.search(text) or _TRAINED_ON.search(text):
        out.append("cut")
    if _TLDR_OPENER.match(text):
        out.append("opener")
    if unresolved_refs(text) or _EARLY_PRONOUN.match(text) or _NAME_LOST.search(text):
        out.append("back-reference")
    if text[:1].islower() and not _coined(_words(text)[0]):
        out.append("lower-case")
    if len([w for w in _words(text) if w.lower() not in _EMPTY_WORDS and len(w) > 2]) < 2:
        out.append("thin")
    return out


_ONE_OF_A_LIST = re.compile(r"\b(?:two|three|four|five|six|several) [^:;.]{0,60}:\s*\(?(?:1|i|a)\)(?![^()]*\(?(?:2|ii|b)\))[^()]*$|\b(?:that|which|whether|and|but)\s—\s[^—]*$")  # "three factors: (1) X, ..." and no (2), an aside never closed
_TRAINED_ON = re.compile(r"\b(?:model|models|network|networks) (?:trained|learned)\.$")  # "We present a GNN model trained."
# a name the markup took with it: "We introduce , which ...", "..., i.e., , which", "the algorithm, , is"
_NAME_LOST = re.compile(r"\b(?:introduce|propose|present|develop|design|call|name|dub|term)(?:s|d|ed)?\s+[,.;:)]|\b(?:i\.e\.|e\.g\.|namely),\s+[,.;)]|\w,\s+,", re.I)
# words that carry no content in a TL;DR: "We propose a simple but effective method X."
_EMPTY_WORDS = STOP_WORDS | FILLER_WORDS | frozenset("""
paper work study propose proposes proposed introduce introduces present presents develop
develops design designs new novel simple effective efficient yet method methods approach
approaches algorithm algorithms framework model models solution technique called named termed
general generic first developed provide provides offer offers direction perspective step steps take takes
""".split())


_TLDR_KINDS = (r"method|approach|framework|model|algorithm|technique|system|scheme|strategy|"
               r"architecture|paradigm|procedure|pipeline|tool|toolkit|loss|network|solver|metric|"
               r"benchmark|dataset|library|family|suite|variant|mechanism|module|objective")
# what the authors propose, up to where the sentence goes on about it
_TLDR_OBJECT = re.compile(r"\b(?:propose|introduce|present|develop|design|devise|build|construct|"
                          r"create|release|formulate|offer)(?:s|d|ed)?\s+(.*)$", re.I)


def names_only(text: str) -> bool:
    """Does the sentence introduce something without saying what it is or does: "We propose
    M2FedSA.", "We propose an Iterative Search Attribution (ISA) method."?"""
    m = _TLDR_OBJECT.search(text)
    if not m:
        return False
    obj = re.sub(r"\([^()]*\)", " ", m.group(1)).rstrip(" .")
    words = prose_words(obj)
    if len(words) > 10 or re.search(r"(?<![\w-])(?:for|to|that|which|who|of|on|in|with|by|via|based|using|"
                                   r"where|whose|as|from|through|over|into)(?![\w-])", obj, re.I):
        return False
    content = [w for w in words if w.lower() not in STOP_WORDS and
               not re.fullmatch(_TLDR_KINDS + r"|novel|new|simple|effective|efficient|general|generic|"
                                r"unified|principled|first|called|named|dubbed|termed",
                                w.lower().rstrip("s") if w.lower().endswith("s") and w.lower()[:-1] in _TLDR_KINDS else w.lower())]
    return len(content) <= 4
