"""The problem a paper works on, named by the subject of its opening sentence ("Graph neural
networks are widely used ..." -> "graph neural networks"), and a label extended with it
("Maestro: trainable low-rank layers for conformal prediction") when the label does not yet say
what it is about."""
from __future__ import annotations

import re
from functools import lru_cache

from ..words import STOP_WORDS, WORD_PART, singular
from . import phrases as ph
from .acronyms import expand
from .label_words import content_words, weights_of
from .rules import DANGLING, OPENERS, VERB_OPENERS, label_breaks
from .vocab import VERBS

# an aside in parentheses or brackets, and a connective or framing clause opening a sentence:
# both are cut before a sentence's words become a label or a problem
PAREN = re.compile(r"\s*(?<![√∛^_/=+*−])(?:(?<!\b[A-Z])(?<!\b[A-Z]{2})(?<!\b[A-Z]{3})\([^()]{0,80}\)|\((?!\w{1,2}\))[^()]{0,80}\))|"
                   r"\s*\[[^\[\]]{0,80}\]")  # "E(3)", "SE(3)", "O(n)" are names, "1/√(depth)" mathematics, not asides
OPENER = re.compile(
    r"^(?:(?:in|with) this (?:paper|work|study|note)|here|to (?:this|that) end|"
    r"(?:to|in order to) (?:address|tackle|overcome|fill|bridge|solve|mitigate|remedy|"
    r"alleviate|close|resolve|handle|answer|achieve|do|study|investigate|understand|improve|"
    r"enable)[^,]{0,80}|in (?:contrast|response|addition|particular|practice|this context)"
    r"[^,]{0,40}|(?:specifically|concretely|first(?:ly)?|second(?:ly)?|finally|moreover|"
    r"furthermore|additionally|thus|therefore|consequently|instead|accordingly|however|"
    r"notably|importantly|motivated by[^,]{0,60}|inspired by[^,]{0,60}|building (?:on|upon)"
    r"[^,]{0,60}|based on[^,]{0,60}|as a result|overall|altogether|ultimately|recently|"
    r"to that end|hence|in summary|to summari[sz]e))(?:\s*,\s*|\s+)", re.I)


# the opening sentence names the problem the paper works on: its subject noun phrase
# ("Graph neural networks are widely used ...", "Recent advances in X have ...")
_SETTING = re.compile(
    r"^(?:(?:recent(?:ly)?|nowadays|today|currently|in recent years|over the (?:past|last) "
    r"[\w ]{1,20}?|despite [^,]{1,80}|while [^,]{1,80}|although [^,]{1,80}|as [^,]{1,80}|"
    r"in (?:many|most|various|real-world) [^,]{1,60}|in the (?:realm|field|context|era|domain|age) of [^,]{1,80}|"
    r"traditionally|historically)\s*,\s*)+", re.I)
_ADVANCES = re.compile(
    r"^(?:the\s+)?(?:recent\s+|rapid\s+|remarkable\s+|significant\s+|great\s+|tremendous\s+|"
    r"impressive\s+)*(?:advances?|advancements?|progress|developments?|success(?:es)?|"
    r"breakthroughs?|improvements?|popularity|rise|emergence|adoption|use|study|field|area|"
    r"proliferation|applications?)\s+(?:in|of)\s+|"
    r"^(?:(?:prior|previous|existing|recent|much)\s+)?research\s+(?:into|on)\s+|"
    r"^(?:existing\s+|current\s+|most\s+)?(?:approaches|methods|techniques|"
    r"algorithms)\s+(?:to|for)\s+", re.I)
_FINITE = re.compile(
    r"\s(?:is|are|was|were|has|have|had|can|could|may|might|will|would|should|must|remains?|"
    r"plays?|becomes?|became|offers?|provides?|enables?|allows?|aims?|seeks?|suffers?|relies|rely|"
    r"requires?|involves?|faces?|lacks?|achieves?|shows?|demonstrates?|focus(?:es)?|attempts?|"
    r"tends?|typically|often|usually|commonly|generally|increasingly|widely|recently|still|also|"
    r"do|does|struggles?|depends?|emerged?|gained?|refers?|serves?|promises?|represents?|extends|"
    r"presents|employs?|arises?|consists?|describes|attracts?|attracted|receives?|received|continues?|"
    r"constitutes?|underl(?:ie|ies)|underpins?)\b")
# "We study the problem of X, where ...": the authors name their problem first
_OWN_PROBLEM = re.compile(r"^(?:in this (?:paper|work),?\s+)?we (?:study|address|consider|tackle|investigate|examine|"
                          r"revisit) the (?:problem|task|question) of (?P<np>[^,;:()]{6,80}?)"
                          r"(?=[,;:(.]|\s(?:where|which|that|when|in which|under|given|whose|with the|using)\b|$)", re.I)
# "We study the sparse phase retrieval problem, which ..."
_OWN_PROBLEM_BEFORE = re.compile(r"^(?:in this (?:paper|work),?\s+)?we (?:study|address|consider|tackle|investigate|"
                                 r"examine|revisit) the (?P<np>(?:[\w-]+ ){1,5}?)(?:problem|task)\b(?!\s+of\b)", re.I)
_VAGUE = re.compile(r"^(?:(?:recent|current|existing|modern|many|most|some|traditional|"
                    r"conventional|standard|popular|state-of-the-art|typical|numerous|various|"
                    r"prior|previous|classical|classic|common|remarkable|impressive|strong|great|"
                    r"significant|superior|powerful|emerging|contemporary|today's|increasing|"
                    r"growing)\s+)+", re.I)


# words that name the whole field rather than a problem in it
_FIELD = frozenset("learning deep neural network networks machine artificial intelligence data "
                   "system systems ai ml nlp automation".split())


def _recurs(np_: str, weights: dict[str, float]) -> bool:
    """Does the abstract keep returning to a word of `np_` that is not the field's name?"""
    return any(weights.get(w, 0.0) > 0 and w not in _FIELD for w in content_words(np_))


def problem(sentences: list[str], forms: dict[str, str], weights: dict[str, float] | None,
            text: str | None = None) -> str | None:
    """The subject noun phrase of the opening sentence, when it is a short one that the
    abstract keeps returning to: the problem or object the paper is about (`conformal
    prediction`, `robust Markov decision processes`)."""
    if not sentences:
        return None
    own = _OWN_PROBLEM.match(sentences[0]) or _OWN_PROBLEM_BEFORE.match(sentences[0])
    if own and len(own.group("np").split()) <= 8:
        found = expand(own.group("np").strip(), forms) if forms else own.group("np").strip()
        return lower_first(found, " ".join(sentences[:3]) if text is None else text)
    s = _SETTING.sub("", OPENER.sub("", sentences[0]))
    s = _ADVANCES.sub("", s)
    m = _FINITE.search(s)
    if not m:
        return None
    named = bool(re.search(r"\([A-Z][\w-]*[A-Z][\w-]*\)$", s[:m.start()].strip()))  # "Learning to Rank (LTR) aims"
    np_ = PAREN.sub("", s[:m.start()]).strip()
    if re.search(r"[,;:()\[\]\"]|\s[-–—]|---|\b(?:a|an|the|this|these|its|their|such)\s",
                 np_, re.I):
        return None
    np_ = _VAGUE.sub("", ph.drop_leading(np_)).strip()
    words = np_.split()
    if _NOT_EXTENDED.search(np_) or (re.search(r"\b(?:in|on|to|with|by|from|at)\b", np_) and not named):
        return None
    if not 1 <= len(words) <= 6 or words[0].lower() in OPENERS or words[-1].lower() in DANGLING \
            or words[-1].lower() in STOP_WORDS or ph.ENDING_BAD.search(words[-1]):
        return None
    np_ = expand(np_, forms) if forms else np_
    if (weights is not None and not _recurs(np_, weights)) or _PEOPLE.search(np_) or _CLASS_OF.search(np_) or \
            _NOT_A_PROBLEM.search(np_) or \
            re.search(r"-based (?:\w+ )?models$", np_):  # "graph neural network methods have been developed":
        return None  # the methods the paper answers, not its problem
    return lower_first(np_, " ".join(sentences[:3]) if text is None else text)


# people are not a problem a method is for ("Human mathematicians are often good at ...")
_PEOPLE = re.compile(r"(?<!of )(?<!-)\b(?:humans?|people|persons|users|researchers|practitioners|scientists|clinicians|"
                     r"mathematicians|experts|annotators|physicians|doctors|patients|students|engineers|"
                     r"developers|workers|children|infants|animals)$", re.I)


# verbs a keyphrase may open on, which then names no topic ("contain overlapping neurons")
_BASE_VERBS = frozenset("contain suggest make take give find construct consider represent describe produce "
                        "predict explain encode enforce ensure exhibit".split())


_MEASURES = frozenset("""quality performance accuracy noise efficiency cost costs speed results gains error errors
rate rates score scores""".split())


def topic_ok(phrase: str) -> bool:
    """A keyphrase in context that can say what a named method is for: two to five words, no
    clause, no broken compound, no connective in front."""
    words = phrase.split()
    if any(w.lower() in VERBS for w in words) or words[0].lower() in ph.VERB_S | VERB_OPENERS | _BASE_VERBS or \
            not content_words(phrase) - _FIELD or any(w.isdigit() for w in words):  # "construct multiple models"
        return False
    if words[-1].lower() in _MEASURES:  # "for texture quality", "for random noise": what is measured, not a use
        return False
    return 2 <= len(words) <= 5 and not _NOT_EXTENDED.search(phrase) and \
        not re.search(r"\w-\s|\s-\w", phrase) and words[0].lower() not in OPENERS and \
        not (words[0][:1].isupper() and words[0].endswith("ing"))


# a keyphrase says what a named method is for when its head names a task ("dense matching",
# "malware detection", "continual learning of representations"), not a thing it handles ("historical
# embeddings", "loss function") or a qualified amount ("limited training", "raw images")
_TASK_END = re.compile(r"(?:tion|sion|ing|ment|sis|ance|ence|ics)$|^(?:regression|inference|control|search|retrieval|"
                       r"rl|qa|vqa|nas|slam|ocr|asr|nlp|nlu|mt)$", re.I)
_THING = frozenset("""function information distribution representation population condition position solution question
notion attention emotion motion section collection instruction relation operation equation dimension version setting
string thing meaning ring wing spring""".split())
_QUALIFIER = frozenset("""raw limited specified initial historical synthetic target direct output predicted relative unseen
longer short hard biological arbitrary given existing original real specific
unparalleled well-structured well-bound large small high low""".split())


def names_task(phrase: str) -> bool:
    words = re.split(r"\s+(?:of|for|in|on|with|under|from|to|by)\s+", phrase, maxsplit=1)[0].split()
    head = words[-1].lower() if words else ""
    if len(words) >= 3 and re.match(r"[a-z]{3,}ing$", words[0]) and words[0] not in _THING:
        return True  # "recovering sparse graphs from data": what it is for
    return bool(_TASK_END.search(head)) and head not in _THING and words[0].lower() not in _QUALIFIER


def lower_first(np_: str, text: str) -> str:
    """`Conformal prediction` -> `conformal prediction` when the first word is capitalised only
    because it opens a sentence (not `Bayesian ...`, not `Large Language Models`)."""
    words = np_.split()
    first = words[0] if words else ""
    title_case = sum(w[:1].isupper() for w in words) > 1
    if first[:1].isupper() and first[1:].islower() and not title_case and \
            not re.search(r"[a-z,] " + re.escape(first) + r"\b", text):
        return first.lower() + np_[len(first):]
    return np_


PROBLEM_KINDS = ("name", "long", "intro", "study", "topic")


# a label that already holds a clause, a list or a verb is not extended
_NOT_EXTENDED = re.compile(r"\b(?:that|which|who|for(?! (?:each|every|all|both|any)\b)|is|are|was|were|its|their)\b|,|" +
                           _FINITE.pattern)


# what a method runs on or is part of, not what it is for: "NAME: X for transformers", "for mesh generator"
_PARTS = frozenset("""network networks model models transformer transformers llm llms gnn gnns cnn cnns architecture
architectures layer layers block blocks module modules encoder encoders decoder decoders generator generators
operator operators size sizes""".split())


def runs_on(np_: str) -> bool:
    return np_.split()[-1].lower() in _PARTS if np_.split() else False


def extended(label: str, kind: str, nps: list[str], limit: int, position: bool = False) -> str:
    """`label` with the first problem in `nps` that extends it (`with_problem`), else `label`."""
    for np_ in nps:
        longer = with_problem(label, kind, np_, limit, position)
        if longer != label:
            return longer
    return label


def with_problem(label: str, kind: str, problem_np: str | None, limit: int, position: bool) -> str:
    """`label for <problem>` when the label does not yet say what problem it is about; a named
    label never gets what its method runs on ("NAME: X for transformers"), only what it is for."""
    if not problem_np or position or kind not in PROBLEM_KINDS or (": " in label and runs_on(problem_np)):
        return label
    based = re.sub(r"-(?=(?:based|driven|guided|aware|powered|conditioned|inspired)\b)", " ", label)
    if content_words(problem_np) & content_words(based) or \
            _NOT_EXTENDED.search(label):  # "diffusion-based framework" is not extended "for diffusion process"
        return label
    link = "in" if kind in ("topic", "study") and ": " not in label else "for"
    first = problem_np.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower() and first.endswith("ing") and \
            first.lower() not in ("learning", "training"):
        link, problem_np = "for", problem_np[:1].lower() + problem_np[1:]  # not "X in Designing Y"
    longer = f"{label} {link} {problem_np}"
    if len(longer) > limit or label_breaks(longer) or label_breaks(label):  # "X that identifies" + "for Y"
        return label
    return longer


# who or what a problem is not: "one important tool", "works studying X", "groups of humans"
_VAGUE_HEAD = re.compile(r"(?:one|ones|works?|groups?|people|humans?|researchers?|practitioners?|users?|"
                         r"lines?|areas?|fields?|kinds?|types?|forms?)\b", re.I)
_CLASS_OF = re.compile(r"\b(?:methods|techniques|approaches|algorithms|frameworks|tools)$", re.I)


def opening_problem(doc, forms: dict[str, str]) -> str | None:
    """The problem the abstract opens on (`problem`, or the second sentence's when the authors
    start later), when it says more than one word ("safety", "touch") and is no class of
    methods ("sampling techniques"): what a label or TL;DR that never names it is for. `forms`:
    the abbreviations the abstract defines (acronyms.long_forms of its sentences)."""
    return _opening(tuple(doc.sentences), doc.own_start, doc.text, tuple(forms.items()))


@lru_cache(maxsize=32)  # the label and the TL;DR of one paper ask for it in turn
def _opening(sentences: tuple[str, ...], own_start: int, text: str,
             form_items: tuple[tuple[str, str], ...]) -> str | None:
    forms = dict(form_items)
    weights: dict[str, float] | None = None  # what the abstract repeats: counted only for a phrase found
    for start in ((0, 1) if own_start >= 2 else (0,)):
        found = problem(list(sentences[start:]), forms, None, text)
        if not found:
            continue
        if weights is None:
            weights = weights_of([expand(s, forms) for s in sentences] if forms else list(sentences))
        if _recurs(found, weights):
            return found if len(found.split()) >= 2 and not _CLASS_OF.search(found) and \
                not _VAGUE_HEAD.match(found) and not _NOT_A_PROBLEM.search(found) else None
    return None


# a phrase that names people or an enabling technology, or runs into a clause ("medical
# researchers", "recording technology", "self-explaining models where interpretability"):
# not the problem a paper works on
_NOT_A_PROBLEM = re.compile(r"\b(?:researchers|practitioners|scientists|clinicians|technology|"
                            r"technologies|interesting)\b|\bresearch (?:problems|questions|directions|topics)\b|"
                            r"\s(?:where|when|whose|while)\b", re.I)


def stems(text: str) -> set[str]:
    """Content words, lower-cased, plural-free: "class-imbalance bias" shares "class" with "class imbalance"."""
    return {singular(w) for w in WORD_PART.findall(text.lower()) if len(w) > 2 and w not in STOP_WORDS}
