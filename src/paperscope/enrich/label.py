"""A short display line for a paper: its title when known; otherwise a label built from the
abstract, in title style: "Maestro: trainable low-rank layers", "Training-free algorithms to
accelerate samplers of diffusion models", "Position: ...".

Candidates come from the name the paper introduces with what the text says it is, the object
of the authors' "we propose / introduce / study ...", and the clause after "we show / argue
that ...". Each is cut at a clause boundary and, when too long, shortened to a shorter noun
phrase (never truncated). Candidates that break a rule of enrich/rules.py (back-reference,
circular, dangling, claim, ...) are dropped; the rest are scored by where they come from, how
many of the abstract's recurring content words they hold, and how likely their words are to be
named by a title (a small logistic word model fitted on development data,
benchmarks/label_scorer_fit.py). Abbreviations the abstract defines are written out. A paper
that argues rather than reports (cue score, `position_score`) gets "Position: ...".
A chosen noun-phrase label that does not say what it is about gets the problem named by the
subject of the opening sentence ("... for conformal prediction"; "in" after a topic), or, for a
named method, the first keyphrase in context ("MMTS: ... Thompson Sampling for two-sided online
matching"), when the result still follows the rules and fits.
Extractive and deterministic.
"""
from __future__ import annotations

import math
import re

from . import describe
from .acronyms import expand, long_forms
from . import phrases as ph
from .methods import Mention
from .rules import DANGLING, MAX_LABEL_CHARS, OPENERS, label_breaks
from .text import Doc, is_coined, strip_markup
from .vocab import GENERIC_WORDS, STOPWORDS, VERBS

MAX_LABEL = 86  # a little below the rule's limit, so the label reads as a short title
_PAREN = re.compile(r"\s*\([^()]{0,80}\)|\s*\[[^\[\]]{0,80}\]")
_OPENER = re.compile(
    r"^(?:(?:in|with) this (?:paper|work|study|note)|here|to (?:this|that) end|"
    r"(?:to|in order to) (?:address|tackle|overcome|fill|bridge|solve|mitigate|remedy|"
    r"alleviate|close|resolve|handle|answer|achieve|do|study|investigate|understand|improve|"
    r"enable)[^,]{0,80}|in (?:contrast|response|addition|particular|practice|this context)"
    r"[^,]{0,40}|(?:specifically|concretely|first(?:ly)?|second(?:ly)?|finally|moreover|"
    r"furthermore|additionally|thus|therefore|consequently|instead|accordingly|however|"
    r"notably|importantly|motivated by[^,]{0,60}|inspired by[^,]{0,60}|building (?:on|upon)"
    r"[^,]{0,60}|based on[^,]{0,60}|as a result|overall|altogether|ultimately|recently|"
    r"to that end|hence|in summary|to summari[sz]e))(?:\s*,\s*|\s+)", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
_POSITION = re.compile(r"position paper|this position|our position|we take the position|"
                       r"in this (?:piece|essay)", re.I)
_ADVOCATE = re.compile(r"\bwe (?:\w+ )?(?:advocate|urge|call on)\b|this paper (?:argues|advocates|"
                       r"calls)", re.I)
# cues of a position paper when the abstract does not say "position paper" (weights of a
# logistic fit on the tuning half of ICML 2024 against ICLR 2020 / PMLR / NIPS abstracts,
# rounded; a match counts at most twice); POSITION_AT: the score that makes it one
_POSITION_CUES = [(w, re.compile(rx, re.I)) for w, rx in (
    (2.2, r"\bwe (?:\w+ )?(?:argue|contend|posit|believe|caution)\b|"
          r"\b(?:paper|work|piece|essay) (?:argues|contends)\b"),
    (2.1, r"\badvocat\w+|\burg(?:e|es)\b|\bcalls? (?:for|on|to action)\b"),
    (2.1, r"\bposition\b|\bperspective\b|\bessay\b|\bpiece\b"),
    (0.5, r"\bshould\b"),
    (1.5, r"\b(?:research|ml|ai|machine learning|scientific) communit\w+"),
    (2.0, r"\bfuture (?:research|directions?)\b|\bresearch (?:agenda|directions?)\b|"
          r"\bopen (?:problems|challenges|questions)\b|\bopportunit\w+"),
    (-0.4, r"\bexperiment\w*|\boutperform\w*|\bstate-of-the-art\b|\bbenchmarks?\b|\bdatasets?\b"),
    (-0.25, r"\bwe (?:propose|introduce)\b"),
    (1.9, r"(?-i:\bAI\b|\bAGI\b)"),
    (1.5, r"\bwe (?:discuss|outline|highlight|identify|reflect)\b"))]
POSITION_AT = 5.5


def position_score(text: str) -> float:
    """How much an abstract reads like a position paper (argues, calls for, speaks to the
    community, little about experiments)."""
    return sum(w * min(len(rx.findall(text)), 2) for w, rx in _POSITION_CUES)


def is_position(text: str, paper_type: str | None = None) -> bool:
    return paper_type == "position" or bool(_POSITION.search(text)) or \
        (paper_type not in (None, "method") and bool(_ADVOCATE.search(text))) or \
        position_score(text) >= POSITION_AT


KEY_PHRASES = 2
COVER_CAP = 8
W = {"hit": 0.1, "named": 0.1, "rank": 0.17, "cover": 0.3, "key": 0.5, "lead": 0.25, "short": 0.5, "long": 0.55,
     "prior": {"topic": -0.6, "name": 1.0, "long": 2.0, "intro": 0.25, "study": 0.5, "claim": 0.4,
               "subject": -0.3, "keyphrases": -0.5}}


def _stem(word: str) -> str:
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def _content(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in STOPWORDS
            and w.lower() not in GENERIC_WORDS}


def _weights(sentences: list[str]) -> dict[str, float]:
    """How topical each content word is: the share of sentences that use it, the abstract's
    most spread word scoring 1."""
    df: dict[str, int] = {}
    for s in sentences:
        for w in _content(s):
            df[w] = df.get(w, 0) + 1
    top = max(df.values(), default=1)
    return {w: n / top for w, n in df.items() if n >= 2}


WORD_FEATURES = ("spread", "sentences", "count", "first_at", "opening", "own", "tldr",
                 "key_first", "key_next", "named", "hyphen", "length")


def _word_features(spelled: list[str], own_start: int, tldr: str, keyphrases: list[str],
                   named: str, forms: dict[str, str]) -> dict[str, list[float]]:
    """Per content word of the abstract, what hints that a title would name it: how widely
    the sentences use it, where it first appears, whether the TL;DR sentence, the first
    keyphrases or the description of the introduced name hold it, its shape."""
    where: dict[str, list[int]] = {}
    count: dict[str, int] = {}
    hyphen: set[str] = set()
    for i, s in enumerate(spelled):
        for w in _WORD.findall(s):
            if len(w) <= 2 or w.lower() in STOPWORDS or w.lower() in GENERIC_WORDS:
                continue
            k = _stem(w)
            count[k] = count.get(k, 0) + 1
            seen = where.setdefault(k, [])
            if not seen or seen[-1] != i:
                seen.append(i)
            if "-" in w:
                hyphen.add(k)
    n = max(1, len(spelled) - 1)
    top = max((len(v) for v in where.values()), default=1)
    tl = _content(expand(tldr, forms)) if tldr else set()
    k0 = _content(expand(keyphrases[0], forms)) if keyphrases else set()
    k12 = _content(expand(" ".join(keyphrases[1:3]), forms)) if keyphrases else set()
    nm = _content(expand(named, forms)) if named else set()
    return {w: [len(v) / top, min(len(v), 5) / 5, min(count[w], 8) / 8, v[0] / n,
                float(v[0] == 0), float(v[-1] >= own_start), float(w in tl), float(w in k0),
                float(w in k12), float(w in nm), float(w in hyphen), min(len(w), 15) / 10]
            for w, v in where.items()}


# logistic model of "a title names this word" over WORD_FEATURES, fitted on development data
# by benchmarks/label_scorer_fit.py (rerun it after changing the features)
WORD_W = {'intercept': -4.72, 'spread': 0.98, 'sentences': 0.39, 'count': 1.91, 'first_at': -0.83,
          'opening': 0.43, 'own': 0.73, 'tldr': 0.65, 'key_first': 1.13, 'key_next': 0.84,
          'named': 0.95, 'hyphen': 0.19, 'length': 0.54}


def _title_odds(words: set[str], features: dict[str, list[float]]) -> float:
    """Log-odds that a label with these content words shares one with the paper's title."""
    miss = 1.0
    for w in words:
        x = features.get(w)
        z = WORD_W.get("intercept", 0.0) + (sum(WORD_W.get(k, 0.0) * v for k, v in
                                                 zip(WORD_FEATURES, x)) if x else -1.0)
        miss *= 1.0 - 1.0 / (1.0 + math.exp(-z))
    hit = min(max(1.0 - miss, 1e-4), 1.0 - 1e-4)
    return math.log(hit / (1.0 - hit))


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", _PAREN.sub("", text)).strip(" ,;:.-")
    words = text.split(" ")
    while words and (words[-1].lower().strip(",;:") in DANGLING or not words[-1].strip(",;:")):
        words.pop()
    return " ".join(words).strip(" ,;:")


def _capitalise(text: str) -> str:
    first = text.split(" ", 1)[0]
    if text[:1].islower() and not re.search(r"[A-Z0-9]", first[1:]):
        return text[:1].upper() + text[1:]
    return text


def fit(text: str, room: int, whole: bool = False) -> str | None:
    """The longest noun-phrase prefix of `text` (up to its first clause boundary) that fits in
    `room` characters, or None: shortened by choosing a shorter phrase, never cut mid-phrase.
    `whole`: a clause (a claim) is taken whole or not at all."""
    text = _tidy(ph.hard_cut(text, 4 if whole else 2))
    if not text or whole:
        return text if text and len(text) <= room else None
    best = None
    for cut in ph.soft_cuts(text):
        cut = _tidy(cut)
        if len(cut) <= room and len(cut.split()) >= 2:
            best = cut
    return best


def _clean_object(text: str) -> str:
    text = _PAREN.sub("", text)
    text = ph.drop_leading(text)
    if re.match(r"to\s+[a-z]+\b", text):
        verb = text.split()[1]
        g = ph.gerund(verb)
        text = g + text[3 + len(verb):] if g else text
    return ph.drop_leading(ph.as_gerund_phrase(text))


_NAMED_OBJECT = re.compile(r"^(?:(?:a|an|the|our)\s+)?(?P<kind>(?:[\w-]+\s+){0,4}?)"
                           r"(?P<name>[A-Za-z][\w\-+^.]*[\w+^])(?=\s*(?:[,(.;:]|$))")


_KIND_COMMA_NAME = re.compile(r"^(?:[\w-]+\s+){0,3}?[\w-]+,\s+(?=[A-Za-z][\w\-+^.]*[\w+^],)")


def _named(obj: str) -> tuple[str, str | None] | None:
    """`xT, a simple framework for vision transformers` -> (xT, simple framework ...);
    `novel FRL algorithm FLUTE, and ...` -> (FLUTE, FRL algorithm); `approach, kNN-ECD,
    which combines X` -> (kNN-ECD, combines X)."""
    lead = _KIND_COMMA_NAME.match(obj)
    if lead:
        obj = obj[lead.end():]
    m = _NAMED_OBJECT.match(obj)
    if not m or not is_coined(m.group("name")):
        return None
    name, kind = m.group("name"), m.group("kind").strip()
    if kind:
        return name, kind if len(kind.split()) >= 2 else None
    after = obj[m.end():]
    return name, describe.description(after) or describe.relative(after)


def _objects(sentence: str) -> list[tuple[str, str]]:
    """(phrase, kind) for every "we <verb> <object>" in a sentence."""
    out = []
    for m in ph.OWN_VERB.finditer(sentence):
        verb, rest = m.group("verb"), sentence[m.end():]
        rest = re.sub(r"^and\s+[a-z]+\s+", "", rest)  # "introduce and formulate X"
        if ph.CLAIM_VERBS.match(verb) and ph.THAT.match(rest):
            out.append((ph.THAT.sub("", rest), "claim"))
        elif ph.CLAIM_VERBS.match(verb) and not re.match(r"(?:a|an|the|new|novel)\b", rest, re.I):
            continue
        else:
            out.append((_clean_object(rest), "study" if ph.STUDY_VERBS.match(verb) else "intro"))
    return out


_RIGHT = re.compile(r"^\s+(?:for|of|in|on|with|via|under|from|through|against|to)\s+"
                    r"(?:(?:a|an|the)\s+)?(?:[\w\-/]+\s+){0,4}?[\w\-/]+(?=\s*(?:[,.;:()]|$|"
                    r"\s(?:and|that|which|where|while|by|using|to|is|are|can|we|with|for|in|on)\b))")


def _around(sentence: str, phrase: str) -> str | None:
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
        if not re.fullmatch(r"[A-Za-z][\w\-]*", w) or lw in STOPWORDS or lw in VERBS or \
                lw in GENERIC_WORDS or lw.endswith("ly"):
            break
        left.insert(0, w)
    right = _RIGHT.match(sentence[end:])
    tail = right.group(0) if right else ""
    return " ".join(left + [sentence[at:end] + tail]).strip()


def _descriptions(m: Mention) -> list[tuple[str, str]]:
    out = []
    for text, kind in ((m.desc, "name"), (m.long, "long"), (m.rel, "name")):
        if text:
            out.append((_clean_object(strip_markup(text)), kind))
    return out


class _Pool:
    """Candidate labels that pass the rules, each with the features it is scored on."""

    def __init__(self, weights: dict[str, float], limit: int, position: bool,
                 forms: dict[str, str] | None = None):
        self.weights, self.limit, self.position = weights, limit, position
        self.forms = forms or {}
        self.candidates: list[tuple[dict, str]] = []
        self.key_words: set[str] = set()
        self.lead_words: set[str] = set()
        self.word_features: dict[str, list[float]] = {}
        self.problems: list[str] = []
        self.topics: list[str] = []  # keyphrases in context: what a named method is for

    def add(self, text: str | None, kind: str, rank: int = 0, name: str | None = None) -> None:
        if not text:
            return
        prefix = "Position: " if self.position else (f"{name}: " if name else "")
        body = fit(text, self.limit - len(prefix), whole=kind in ("claim", "subject"))
        if not body:
            return
        if self.forms:  # an abbreviation the reader has not seen defined is written out
            longer = expand(body, self.forms)
            body = longer if len(prefix) + len(longer) <= self.limit else body
        body = body if name and not self.position else _capitalise(body)
        label = prefix + body
        if label_breaks(label, position=self.position) or \
                (name and body.casefold().startswith(name.casefold())):
            return
        words = _content(body)
        cover = sorted((self.weights.get(w, 0.0) for w in words), reverse=True)[:COVER_CAP]
        self.candidates.append(({"kind": kind, "rank": rank, "cover": sum(cover),
                                 "key": any(w in self.key_words for w in words),
                                 "lead": len(words & self.lead_words), "words": len(words),
                                 "hit": _title_odds(words, self.word_features),
                                 "n": len(body.split()), "name": bool(name)}, label))

    @property
    def top(self) -> tuple[dict, str] | None:
        """The best-scored candidate as it was added (features, label)."""
        return max(self.candidates, key=lambda c: score(c[0])) if self.candidates else None

    @property
    def best(self) -> str | None:
        """The best candidate, extended by the problem it is about when it does not say."""
        top = self.top
        if top is None:
            return None
        f, label = top
        named = ": " in label and not self.position
        topics = [t for t in self.topics if _topic_ok(t)] if named else []
        for problem_np in self.problems + topics:
            longer = with_problem(label, f["kind"], problem_np, self.limit, self.position)
            if longer != label:
                return longer
        return label


def score(f: dict) -> float:
    """How good a candidate label is likely to be (weights chosen on the tuning half of
    ICML 2024, benchmarks/label_eval.py; `hit`: log-odds from the word model WORD_W that the
    candidate shares a word with the real title)."""
    s = W["prior"][f["kind"]] - W["rank"] * f["rank"] + W["cover"] * f["cover"]
    s += W["key"] * f["key"] + W["lead"] * min(f["lead"], 3) + W["hit"] * f.get("hit", 0.0)
    s += W["named"] if f["name"] else 0.0
    s -= W["short"] if f["n"] < 4 and not f["name"] else 0.0
    s -= W["long"] * max(0, f["n"] - 11)
    return s - (1.0 if not f["words"] else 0.0)


# the opening sentence names the problem the paper works on: its subject noun phrase
# ("Graph neural networks are widely used ...", "Recent advances in X have ...")
_SETTING = re.compile(
    r"^(?:(?:recent(?:ly)?|nowadays|today|currently|in recent years|over the (?:past|last) "
    r"[\w ]{1,20}?|despite [^,]{1,80}|while [^,]{1,80}|although [^,]{1,80}|as [^,]{1,80}|"
    r"in (?:many|most|various|real-world) [^,]{1,60}|traditionally|historically)\s*,\s*)+", re.I)
_ADVANCES = re.compile(
    r"^(?:the\s+)?(?:recent\s+|rapid\s+|remarkable\s+|significant\s+|great\s+|tremendous\s+|"
    r"impressive\s+)*(?:advances?|advancements?|progress|developments?|success(?:es)?|"
    r"breakthroughs?|improvements?|popularity|rise|emergence|adoption|use|study|field|area|"
    r"proliferation|applications?)\s+(?:in|of)\s+", re.I)
_FINITE = re.compile(
    r"\s(?:is|are|was|were|has|have|had|can|could|may|might|will|would|should|must|remains?|"
    r"plays?|becomes?|became|offers?|provides?|enables?|allows?|aims?|seeks?|suffers?|relies|rely|"
    r"requires?|involves?|faces?|lacks?|achieves?|shows?|demonstrates?|focus(?:es)?|attempts?|"
    r"tends?|typically|often|usually|commonly|generally|increasingly|widely|recently|still|also|"
    r"do|does|struggles?|depends?|emerged?|gained?|refers?|serves?|promises?|represents?)\b")
_VAGUE = re.compile(r"^(?:(?:recent|current|existing|modern|many|most|some|traditional|"
                    r"conventional|standard|popular|state-of-the-art|typical|numerous|various|"
                    r"prior|previous|classical|classic|common|remarkable|impressive|strong|great|"
                    r"significant|superior|powerful|emerging|contemporary|today's|increasing|"
                    r"growing)\s+)+", re.I)


# words that name the whole field rather than a problem in it
_FIELD = frozenset("learning deep neural network networks machine artificial intelligence data "
                   "system systems ai ml nlp automation".split())


def problem(sentences: list[str], forms: dict[str, str], weights: dict[str, float],
            text: str | None = None) -> str | None:
    """The subject noun phrase of the opening sentence, when it is a short one that the
    abstract keeps returning to: the problem or object the paper is about (`conformal
    prediction`, `robust Markov decision processes`)."""
    if not sentences:
        return None
    s = _SETTING.sub("", _OPENER.sub("", sentences[0]))
    s = _ADVANCES.sub("", s)
    m = _FINITE.search(s)
    if not m:
        return None
    np_ = _PAREN.sub("", s[:m.start()]).strip()
    if re.search(r"[,;:()\[\]\"]|\s[-–—]|---|\b(?:a|an|the|this|these|its|their|such)\s",
                 np_, re.I):
        return None
    np_ = _VAGUE.sub("", ph.drop_leading(np_)).strip()
    words = np_.split()
    if _NOT_EXTENDED.search(np_) or re.search(r"\b(?:in|on|to|with|by|from|at)\b", np_):
        return None
    if not 1 <= len(words) <= 6 or words[0].lower() in OPENERS or words[-1].lower() in DANGLING \
            or words[-1].lower() in STOPWORDS or ph.ENDING_BAD.search(words[-1]):
        return None
    np_ = expand(np_, forms) if forms else np_
    if not any(weights.get(w, 0.0) > 0 and w not in _FIELD for w in _content(np_)):
        return None
    return _lower_first(np_, " ".join(sentences[:3]) if text is None else text)


def _topic_ok(phrase: str) -> bool:
    """A keyphrase in context that can say what a named method is for: two to five words, no
    clause, no broken compound, no connective in front."""
    words = phrase.split()
    if any(w.lower() in VERBS for w in words) or words[0].lower() in ph.VERB_S or \
            not _content(phrase) - _FIELD:
        return False
    return 2 <= len(words) <= 5 and not _NOT_EXTENDED.search(phrase) and \
        not re.search(r"\w-\s|\s-\w", phrase) and words[0].lower() not in OPENERS and \
        not (words[0][:1].isupper() and words[0].endswith("ing"))


def _lower_first(np_: str, text: str) -> str:
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
_NOT_EXTENDED = re.compile(r"\b(?:that|which|who|for|is|are|was|were|its|their)\b|,|" +
                           _FINITE.pattern)


def with_problem(label: str, kind: str, problem_np: str | None, limit: int, position: bool) -> str:
    """`label for <problem>` when the label does not yet say what problem it is about."""
    if not problem_np or position or kind not in PROBLEM_KINDS:
        return label
    if _content(problem_np) & _content(label) or _NOT_EXTENDED.search(label):
        return label
    link = "in" if kind in ("topic", "study") and ": " not in label else "for"
    longer = f"{label} {link} {problem_np}"
    if len(longer) > limit or label_breaks(longer):
        return label
    return longer


def _primary(mentions: list[Mention]) -> Mention | None:
    return next((m for m in mentions if m.how != "variant"), mentions[0] if mentions else None)


def make_label(title: str | None, doc: Doc, mentions: list[Mention], tldr: str,
               limit: int = MAX_LABEL, paper_type: str | None = None,
               keyphrases: list[str] | None = None) -> str:
    if title and title.strip():
        return re.sub(r"\s+", " ", strip_markup(title)).strip()
    if not doc.sentences:
        return ""
    limit = min(limit, MAX_LABEL_CHARS)
    best = candidates(doc, mentions, tldr, limit, paper_type, keyphrases).best
    if best is None:
        words = _tidy(ph.hard_cut(_OPENER.sub("", doc.sentences[0]))).split()[:10]
        while len(words) > 1 and len(" ".join(words)) > limit:
            words.pop()
        return _capitalise(" ".join(words)[:limit])  # a single giant token: nothing to choose
    return best


def candidates(doc: Doc, mentions: list[Mention], tldr: str, limit: int = MAX_LABEL,
               paper_type: str | None = None, keyphrases: list[str] | None = None) -> _Pool:
    """The scored candidate labels of a title-less paper (`make_label` takes the best)."""
    forms = long_forms(doc.sentences)
    spelled = [expand(s, forms) for s in doc.sentences] if forms else doc.sentences
    weights = _weights(spelled)
    for rank, phrase in enumerate((keyphrases or [])[:3]):
        for w in _content(expand(phrase, forms)):  # the paper's keyphrases are what a title names
            weights[w] = weights.get(w, 0.0) + (0.6 if rank == 0 else 0.4)
    position = is_position(doc.text, paper_type)
    pool = _Pool(weights, limit, position, forms)
    pool.problems = [p for p in (problem(doc.sentences, forms, weights, doc.text),) if p]
    if not pool.problems and doc.own_start >= 2:  # the opening sentence named none
        pool.problems = [p for p in (problem(doc.sentences[1:], forms, weights, doc.text),) if p]
    pool.key_words = _content(expand(" ".join((keyphrases or [])[:KEY_PHRASES]), forms))
    pool.lead_words = _content(" ".join(spelled[:2]))
    primary = _primary(mentions)
    named = " ".join(t for t in ((primary.desc, primary.long, primary.rel) if primary else ()) if t)
    pool.word_features = _word_features(spelled, doc.own_start, tldr, keyphrases or [], named, forms)
    if primary and not pool.position:
        for text, kind in _descriptions(primary):
            pool.add(text, kind, name=primary.name)
    own = [i for i in range(doc.own_start, len(doc.sentences))]
    best = doc.sentences.index(tldr) if tldr in doc.sentences else None
    order = ([best] if best is not None else []) + [i for i in own if i != best]
    for rank, i in enumerate(order[:6]):
        s = doc.sentences[i]
        objects = _objects(s)
        for text, kind in objects:
            named = _named(text) if kind == "intro" else None
            if named:
                if not pool.position and named[1]:
                    pool.add(_clean_object(named[1]), "name", rank, name=named[0])
                continue
            if primary and not pool.position:
                pool.add(text, kind, rank, name=primary.name)
            pool.add(text, kind, rank)
        if rank < 2 and not objects:
            pool.add(_OPENER.sub("", s), "subject", rank + 1)
    for phrase in (keyphrases or [])[:2]:
        for i in order[:6]:
            found = _around(doc.sentences[i], phrase)
            if found:
                pool.topics.append(_lower_first(expand(_tidy(found), forms), doc.text))
                pool.add(found, "topic", 1)
                if primary and not pool.position:  # "AuG-KD: OOD knowledge distillation"
                    pool.add(found, "topic", 1, name=primary.name)
                break
    if pool.top is None:
        for s in doc.sentences[doc.own_start:doc.own_start + 3]:
            pool.add(_OPENER.sub("", s), "subject", 3)
    if pool.top is None and keyphrases:  # a last resort: topic words, not a statement
        pool.add(" and ".join(keyphrases[:2]), "keyphrases")
    return pool
