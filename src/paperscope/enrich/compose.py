"""A label that names more than a bare topic. A two- or three-word topic ("Dynamical systems",
"Image restoration") or a name with a two-word gloss ("ULR: likelihood ratio") does not tell a
reader which paper this is; such a label is replaced by a descriptive one built from the
paper's own phrases: what the authors introduce or study, for the problem the keyphrases name
("Post-processing approaches for image restoration"), or, with nothing better, the second
keyphrase for the first ("Policy learning for long-term outcomes").

`trim_front` and `reads_as_title` keep candidates title-shaped: no light verb or "problem of"
in front, a gerund for a verb in front, no clause, cut pair or dangling modifier. `spelled_name`
writes an abbreviated name out in front of its description ("Deep Probabilistic Subsampling (DPS):
...") when the letters are its initials. `named_lead` puts the paper's own name in front of a plain
headline that describes it ("BADGE: algorithm for batch active learning ..."); `unframed` takes a
frame off a problem ("Algorithmic problem of X" -> "X")."""
from __future__ import annotations

import re

from ..words import FILLER_WORDS, STOP_WORDS, WORD_PART
from .keyphrases import is_verb_form
from .label_words import content_words
from .methods import Mention, is_background
from .noun_phrase import KINDS
from .phrases import VERB_S as VERB_S_WORDS, coordinated, gerund
from .problem import lower_first, stems, topic_ok
from .rules import MAX_LABEL_CHARS, label_breaks
from .text import Doc
from .vocab import VERBS, is_modifier

BARE_WORDS = 3  # a label body of this many words or fewer, without a name, is a bare topic
# kinds of candidate that say what the paper does (not just its topic)
_DOING = ("intro", "study", "long", "name", "claim")


def body(label: str) -> str:
    return label.split(": ", 1)[1] if ": " in label else label


def is_bare(label: str, kind: str = "") -> bool:
    """A topic phrase without the paper's method, object or claim (a keyphrase in context,
    "Two-layer convolutional neural network", is one up to a word longer)."""
    named = ": " in label and not label.startswith("Position: ")
    n = len(body(label).split())
    return n <= (2 if named else BARE_WORDS + (kind == "topic"))


def _join(head: str, topic: str, limit: int, text: str) -> str | None:
    """`<head> for <topic>`, when the head does not already say what it is for."""
    if content_words(topic) & content_words(head) or _TIED.search(head):
        return None
    out = f"{head} for {lower_first(topic, text)}"
    return out if len(out) <= limit and not label_breaks(out) else None


_TIED = re.compile(r"\b(?:for|in|on|under|to|with|that|which|using|via|by)\b", re.I)
# a clause or a verb in front: not a noun phrase to stand alone as a label
_CLAUSE = re.compile(r"\b(?:that|which|under|about|uses?|whose)\b|^(?:considering|employing|using|"
                     r"leveraging|utili[sz]ing|exploring|investigating|studying|examining|"
                     r"analy[sz]ing|underexplored|offering|providing|achieving|enabling|making|obtaining|"
                     r"(?:overwhelming|extensive|compelling|strong|empirical)\s+evidence)\b", re.I)
# "adjusts stale cached target embeddings": a verb in front, not a topic
_VERB_FRONT = re.compile(r"^[a-z]+(?<![su])s\s\w+\s\w+")


def descriptive(label: str, kind: str, candidates: list[tuple[float, str, str]],
                topics: list[str], text: str, limit: int) -> str:
    """A better label than a bare one, or the label itself. `candidates`: (score, kind, label)
    best first; `topics`: the top keyphrases in context, best first."""
    if not is_bare(label, kind) or label.startswith("Position: "):
        return label
    topics = [lower_first(t, text) for t in topics if topic_ok(t) and not _VERB_FRONT.match(t)
              and not _CLAUSE.search(t)]
    if ": " in label:  # a name with a short gloss: say what it is for
        head = body(label)
        for topic in topics:
            longer = _join(head, topic, limit - (len(label) - len(head)), text)
            if longer:
                return label[:len(label) - len(head)] + longer
        named = [c for _, k, c in candidates if k in _DOING and c.startswith(label.split(": ")[0] + ": ")
                 and 3 <= len(body(c).split()) <= 8 and not _CLAUSE.search(body(c))
                 and not re.search(r"\bto\b", c)]
        return named[0] if named else label
    heads = [c for _, kind, c in candidates if kind in _DOING and ": " not in c and c != label
             and 2 <= len(c.split()) <= 8 and not _CLAUSE.search(c)]
    for head in heads:  # what the authors introduce or study, for the topic
        longer = _join(head, label, limit, text)
        if longer:
            return longer
    for head in heads:
        if len(head.split()) >= 4 and content_words(head) - content_words(label):
            return head
    for topic in topics:
        if topic.casefold() != label.casefold():
            longer = _join(topic[:1].upper() + topic[1:], label, limit, text)
            if longer:
                return longer
    return label


# a light verb or a "problem of" in front says nothing: "Conducting X" -> "X",
# "Classic problem of correlation clustering" -> "correlation clustering"
_LIGHT_FRONT = re.compile(r"^(?:(?:conducting|employing|considering|using|utili[sz]ing|leveraging|"
                          r"performing|adopting|applying)\s+|(?:the\s+)?(?:(?:classic(?:al)?|complex|"
                          r"algorithmic|fundamental|important|challenging|open|well-known|"
                          r"long-standing)\s+)+(?:problem|issue|task|question|challenge)s?\s+of\s+)", re.I)
# a verb where a title has its head noun: "significantly improves X", "transforms X", "caters to"
_VERB_HEAD = re.compile(r"^(?:\w+ly\s+)?(?P<verb>[a-z]+(?:s|ed))\b(?!\s*(?:[,:;)]|$))")
# "automatically designed semantic segmentation network": an adverb and a participle before a noun
_ADJ_PARTICIPLE = re.compile(r"^\w+ly\s+[a-z]+ed\s+(?!(?:a|an|the|to|by|in|on|for|with|from|that|this|these|"
                             r"our|its|their|as|at|into|over|and|or)\b)[\w-]+\s+[\w-]+")
# "network that is equivariant to rigid body motions": what it is, not a clause of the field
_HOLDS_FOR = re.compile(r"\s(?:that|which) (?:is|are) (?=(?:\w+ly )?[a-z-]{4,}(?<!ed)(?<!wn)(?<!en) (?:to|under|with|against|"
                        r"for|across) (?!(?:be|this|these|that|its|their)\b)\w+ \w)")
_FINITE_INSIDE = re.compile(r"\s(?:is|are|was|were|often|usually|typically)\s+(?:\w+\s+)?"
                            r"(?:suffers?|is|are|has|have|\w+ed)?\b", re.I)


def trim_front(text: str, verbs: frozenset[str]) -> str:
    """Drop a light verb or a "problem of" in front; a present verb in front becomes a gerund
    ("significantly improves X" -> "improving X"), a past one is left for `reads_as_title`."""
    text = _LIGHT_FRONT.sub("", text.strip(), count=1)
    m = _VERB_HEAD.match(text)
    if m and m.group("verb") in verbs and m.group("verb").endswith("s"):
        g = gerund(m.group("verb"))
        return g + text[m.end():] if g else text
    first, _, rest = text.partition(" ")
    if first in _BASE_VERBS and rest and not rest.startswith("and "):  # "recover the weights"
        g = gerund(first)
        return f"{g} {rest}" if g else text
    return text


def reads_as_title(body: str, kind: str, verbs: frozenset[str], named: bool = False) -> bool:
    """False for a label body that is a clause, not a title: it opens on a verb ("described
    ...", "caters to ...") or holds one after its subject ("the merged model often suffers
    from ...")."""
    m = _VERB_HEAD.match(body)
    if m and m.group("verb") in verbs and not _ADJ_PARTICIPLE.match(body) or _HALF_PAIR.search(body) or \
            _BROKEN.search(_FIRST_MODIFIER.sub(_mark_modifier, body, count=1)):
        return False
    words = body.lower().split()
    if words and (words[-1] in _VERB_END or named and words[0] in _BASE_VERBS and
                  not (len(words) > 1 and words[1] in ("that", "which", "of", "for", "to", "based", "with"))):
        return False
    if kind == "claim":  # a finding, not the state of the field ("X often suffers from Y")
        return not named and not re.search(r"\b(?:often|usually|typically|commonly|frequently|generally)\b", body)
    return not _FINITE_INSIDE.search(_HOLDS_FOR.sub(" ", body.split(" whether ", 1)[0]))  # "to determine whether X is in Y"


# a purpose left without its object ("framework to mitigate"), an infinitive for a head ("to
# simultaneously identify"), a cut claim ("to show that the ..."), a big-O left without its
# argument ("the first O stochastic bound"), a modifier left without its noun ("for
# fine-grained"), a lone word before a comma ("Approach, ...")
_BROKEN = re.compile(r"\bto\s+(?:\w+ly\s+)?\w+(?:ate|i[sz]e|ify|ve|ct|rm|ss)$|^to\s|"
                     r"\bto (?:show|demonstrate|prove|verify|find) that\b|(?<![\w-])O(?![\w(-])|"
                     r"\b\w+-(?:grained|based|aware|specific|agnostic|dependent|driven|oriented)$|^\w+,(?!\x00)")
# "Causal, real-time decoder": a comma between two modifiers of one noun is no lone word
_FIRST_MODIFIER = re.compile(r"^([A-Z][a-z-]+),(?=\s[a-z][\w-]*\s[a-z])")


def _mark_modifier(m: re.Match) -> str:
    return m.group(1) + (",\x00" if is_modifier(m.group(1).lower()) else ",")


# a verb that ends a clause, not a title ("... methods for fluid dynamics indicate"), and a
# base-form verb that opens a named label's gloss ("DeRa: explore and evaluate ...")
_VERB_END = frozenset("""indicate indicates show shows suggest suggests demonstrate demonstrates
reveal reveals remain remains yield yields achieve achieves allow allows enable enables require
requires perform performs outperform outperforms exist exists hold holds""".split())
_BASE_VERBS = frozenset("""explore evaluate determine learn recover improve enable reduce generate
achieve allow enhance obtain provide require solve address tackle investigate analyze analyse
examine identify estimate predict compute construct combine leverage exploit extend integrate
capture encode extract create build design detect train align adapt transform select measure
quantify reconstruct synthesize synthesise""".split())
# "provides both attack robustness" with the second half cut off
_HALF_PAIR = re.compile(r"\bboth\b(?!.*\band\b)|\beither\b(?!.*\bor\b)|^either\b", re.I)


# a frame around what the paper works on: "Algorithmic problem of X", "Concept of X", "Key challenge of X"
_FRAMED = re.compile(r"^(?:(?:studying|the|a|an|more|general|basic|canonical|related|realistic|practical|key|"
                     r"additional|broad|important|fundamental|classical|classic|well-known|open|challenging|"
                     r"natural|main|central|core|difficult|algorithmic|decades-old|long-standing|number of) )*(?:problem|setting|concept|notion|task|challenge|question)s? of "
                     r"(?P<rest>(?!(?:the|a|an|this|these|such|which|how|whether)\b)\S+(?: \S+){2,})$", re.I)


_WAY_THAT = re.compile(r"^(?:new |novel )?(?:direction|avenue|way|perspective|line of work) that (?P<verb>[a-z]+s) ", re.I)


def unframed(label: str) -> str:
    """"Sparse mean estimation in the presence of adversarial outliers" for "Algorithmic problem of
    sparse mean estimation in ...": the frame says nothing a title needs."""
    way = _WAY_THAT.match(label)
    if way and ": " not in label and way.group("verb") in VERB_S_WORDS and gerund(way.group("verb")):
        out = coordinated(f"{gerund(way.group('verb'))} {label[way.end():]}")  # "Direction that leverages X"
        out = out[:1].upper() + out[1:]
        return out if not label_breaks(out) else label
    m = _FRAMED.match(label)
    if not m or ": " in label:
        return label
    rest = m.group("rest")
    out = rest[:1].upper() + rest[1:]
    return out if not label_breaks(out) else label


def whole_long_form(label: str, mentions: list[Mention]) -> str:
    """"EMU: episodic Memory Utilization ..." with the word a lead-in rule took off the name's long
    form ("Efficient episodic Memory Utilization")."""
    name, sep, body = label.partition(": ")
    for m in mentions:
        first, _, rest = (m.long or "").partition(" ")
        if sep and m.name == name and rest and body.startswith(rest) and not body.startswith(m.long):
            longer = f"{name}: {first} {body}"
            return longer if len(longer) <= MAX_LABEL_CHARS else label
    return label


def spelled_name(label: str, forms: dict[str, str]) -> str:
    """"Simplified Action Decoder (SAD): deep multi-agent RL method" over "SAD: ...": the letters
    say nothing to a reader, the name written out does, unless the description holds every word of it
    ("Tree Cross Attention (TCA): module based on Cross Attention" says "tree")."""
    name, sep, body = label.partition(": ")
    long = forms.get(name) if sep and name != "Position" else None
    if not long or not 2 <= len(long.split()) <= 7 or re.search(r"-based$|[^\w)]$|\b[A-Z]{2,}\b", long) or \
            (stems(long) and stems(long) <= stems(body)) or not _initials_fit(name, long):
        return label  # "Global RL (GRL)" spells nothing out; "Stochastic gradient (SCSG)" is not its name
    longer = f"{long[:1].upper()}{long[1:]} ({name}): {body}"
    return longer if len(longer) <= MAX_LABEL_CHARS and not label_breaks(longer) else label


def _initials_fit(name: str, long: str) -> bool:
    """Are the capitals of `name` the initials (or capitals) of `long`, in order?"""
    letters = iter("".join(w[0].upper() + "".join(c for c in w[1:] if c.isupper())
                           for w in WORD_PART.findall(long)))
    return all(c in letters for c in (c for c in name if c.isupper()))


# a headline that reports an analysis or names a problem: a name it holds is a tool, a model or a problem of the
# analysis, or the method would be called a problem
_ANALYSIS = re.compile(r"^(?:[\w-]+ ){0,3}?(?:analys[ie]s|complexity|characteri[sz]\w*|guarantees?|bounds?|formulas?|"
                       r"theory|understanding|study|convergence|stability|expressive power|expressivity|limits?|"
                       r"properties|behaviou?r|impact|effects?|role)\b|"
                       r"^(?:\S+ ){0,5}?(?:problems?|tasks?|settings?|exploration|investigation)\b", re.I)  # "Name: X problem" calls a method a problem


def named_lead(lead: str, doc: Doc, mentions: list[Mention], room: int) -> str:
    """A plain headline that describes the paper's own named method gets the name in front:
    "BADGE: algorithm for batch active learning with deep neural network models"."""
    if ": " in lead:
        return lead
    primary = next((m for m in mentions if m.sentence >= doc.own_start and m.how != "variant"
                    and not is_background(m, doc.sentences)), None)
    if primary is None or primary.name.casefold() in lead.casefold():
        return lead
    said = " ".join(t for t in (primary.desc, primary.long, primary.rel) if t)
    shared = stems(said) & stems(lead)
    kind = any(w.lower() in KINDS for w in lead.split()[:6])  # "algorithm for X", not "sample complexity of X"
    only = kind and all(m is primary or m.how == "variant" for m in mentions) and " and " not in primary.name and \
        (primary.how != "acronym" or not primary.name.isupper() or bool(re.search(r"[\d\-]", primary.name)))
    if len(primary.name) < 3 or not (shared or only) or not (kind or len(shared) >= 2) or _ANALYSIS.match(lead) or \
            (primary.long and stems(primary.long) <= stems(lead)):  # "Learning a mixture of MultiNomial Logit (MNL)"
        return lead  # an analysis names its tools, not itself; a name the lead spells out is what it studies
    first = lead.split(" ", 1)[0]
    proper = not first[1:].islower() or re.search(r"[a-z,] " + re.escape(first) + r"\b", doc.text)
    longer = f"{primary.name}: {lead if proper else lead[:1].lower() + lead[1:]}"  # "Shepard", "PCA-based" stay
    return longer if len(longer) <= room and not label_breaks(longer) else lead


_RIGHT = re.compile(r"^\s+(?:for|of|in|on|with|via|under|from|through|against|to)\s+"
                    r"(?:(?:a|an|the)\s+)?(?:[\w\-/]+\s+){0,4}?[\w\-/]+(?=\s*(?:[,.;:()]|$|"
                    r"\s(?:and|that|which|where|while|by|using|to|is|are|can|we|with|for|in|on)\b))")


def around(sentence: str, phrase: str) -> str | None:
    """The noun phrase around a keyphrase in a sentence: a few modifiers in front and one
    prepositional phrase after (`learning-augmented algorithms for non-clairvoyant scheduling`)."""
    at = sentence.lower().find(phrase.lower())
    if at < 0 or (at and sentence[at - 1].isalnum()):
        return None
    end = at + len(phrase)
    words = sentence[:at].split()
    left = []
    for w in reversed(words[-3:]):
        lw = w.lower()
        if not re.fullmatch(r"[A-Za-z][\w\-]*", w) or lw in STOP_WORDS or lw in VERBS or lw in VERB_S_WORDS or \
                lw in FILLER_WORDS or lw.endswith("ly") or is_verb_form(lw) and not lw.endswith("ing"):
            break
        left.insert(0, w)
    right = _RIGHT.match(sentence[end:])
    tail = right.group(0) if right else ""
    return " ".join(left + [sentence[at:end] + tail]).strip()


_KIND_WORDS = "method|approach|framework|algorithm|model|technique|architecture|benchmark|dataset|system|pipeline|paradigm"  # the kinds of noun_phrase.KINDS a thing is called by; "class", "family", "way" are not


def kind_of(name: str, sentences: list[str]) -> str | None:
    """What the text calls the named contribution where it introduces it: "a principled framework, named
    GraphPulse" or "GraphPulse, a framework for X" -> "framework"."""
    s = next((t for t in sentences if name in t), "")
    n = re.escape(name)
    m = re.search(r"\b(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(" + _KIND_WORDS + r")\s*,?\s*(?:(?:named|called|dubbed|termed|"
                  r"coined)\s+)?" + n + r"\b", s) or \
        re.search(r"\b" + n + r"\s*(?:\([^()]*\)\s*)?(?:,\s*(?:a|an)\s+(?:[\w-]+\s+){0,3}?|\s+)(" + _KIND_WORDS + r")\b", s)
    return m.group(1) if m else None


# the sentence gives the thing a name or presents it as the authors' own
_NAMING = re.compile(r"\b(?:call(?:ed|s)?|named?|dubbed|termed?|coined|propos\w*|introduc\w*|present\w*|develop\w*|"
                     r"design\w*|devis\w*|build|construct\w*)\b", re.I)


def named_here(label: str, doc: Doc, mentions: list[Mention], room: int) -> str:
    """An unnamed label taken from the very sentence that names the authors' method gets that name
    in front: "An iterative regularization path with structural sparsity is proposed ..., hence
    called Split LBI" -> "Split LBI: iterative regularization path with structural sparsity"; not
    when the label reports an analysis or the name is a side remark of another sentence."""
    if ": " in label or not label:
        return label
    own = [m for m in mentions if m.sentence >= doc.own_start and m.how in ("intro", "called", "acronym", "appositive")
           and not is_background(m, doc.sentences) and len(m.name) >= 3]
    if not own or own[0].name.casefold() in label.casefold() or _ANALYSIS.match(label):
        return label
    m = own[0]
    sentence, words = doc.sentences[m.sentence], content_words(label)
    if len(words) < 3 or len(words & content_words(sentence)) < 0.8 * len(words) or not _NAMING.search(sentence):
        return label
    if m.long and stems(m.long) <= stems(label) and not label.casefold().startswith(m.long.casefold()):
        return label  # "Learning a mixture of MultiNomial Logit (MNL)": the name of what it studies
    first = label.split(" ", 1)[0]
    proper = not first[1:].islower() or re.search(r"[a-z,] " + re.escape(first) + r"\b", doc.text)
    longer = f"{m.name}: {label if proper else label[:1].lower() + label[1:]}"
    return longer if len(longer) <= room and not label_breaks(longer) else label
