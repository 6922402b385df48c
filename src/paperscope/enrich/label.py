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
A noun-phrase label that does not say what it is about gets the problem the opening sentence names
("... for conformal prediction"), or, for a named method, the first keyphrase in context that names a
task ("MMTS: ... for two-sided online matching"), when the result still follows the rules and fits.
"""
from __future__ import annotations

import re

from . import describe
from .headline import headline, plain_headline
from .compose import (around, descriptive, is_bare, kind_of, named_here, named_lead, reads_as_title, spelled_name,
                      trim_front, unframed, whole_long_form)
from . import phrases as ph
from .acronyms import expand, long_forms
from .label_words import content_words, title_odds, weights_of, word_features
from .methods import Mention, is_background
from .noun_phrase import fits
from .position import is_position, position_headline
from .problem import OPENER, extended, lower_first, names_task, opening_problem, problem, runs_on, stems, topic_ok
from .question import question
from .rules import MAX_LABEL_CHARS, label_breaks
from .specific import VERBS_S, capitalise, clean_object, specific, tidy
from .text import Doc, is_coined, strip_markup, token_starts

MAX_LABEL = 100  # the scored candidates, below the rule's limit (blind A/B, 86 -> 100: 58 -> 84 of 214 verdicts)
SHORT_HEADLINE = 5  # a headline body this short may not say what problem it is about
HEADLINE_EXTRA = 26  # the contribution sentence's own phrase may use the rule's whole limit

KEY_PHRASES = 2
COVER_CAP = 8
W = {"hit": 0.1, "named": 0.1, "rank": 0.17, "cover": 0.3, "key": 0.5, "lead": 0.25, "short": 0.5, "long": 0.55,
     "prior": {"topic": -0.6, "name": 1.0, "long": 2.0, "intro": 0.25, "study": 0.5, "claim": 0.4,
               "subject": -0.3, "keyphrases": -0.5}}


def fit(text: str, room: int, whole: bool = False) -> str | None:
    """The longest noun-phrase prefix of `text` (up to its first clause boundary) that fits in
    `room` characters, or None: shortened by choosing a shorter phrase, never cut mid-phrase.
    `whole`: a clause (a claim) is taken whole or not at all."""
    text = tidy(ph.hard_cut(text, 4 if whole else 2))
    if not text or whole:
        return text if text and len(text) <= room else None
    best = None
    for cut in ph.soft_cuts(text):
        if text.startswith(cut) and re.match(r"\s*of\b", text[len(cut):]) and \
                re.search(r"\b(?:the|existing|its|their) (?:[\w-]+ )?[\w-]+$|\b(?:" + "|".join(ph.OF_HEADS) + r")$",
                          cut.rstrip(), re.I):
            continue  # "adversarial attack based on the modeling" without "of X"; "samplers" may end
        cut = tidy(cut)
        if len(cut) <= room and len(cut.split()) >= 2:
            best = cut
    return best


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
            claim = ph.THAT.sub("", rest)
            out.append((claim, "claim"))
            core = _claim_core(claim)  # "even with natural initialization, GD can be slowed down by saddle points, ..."
            out += [(core, "claim")] if core != claim else []
        elif ph.CLAIM_VERBS.match(verb) and not re.match(r"(?:a|an|the|new|novel)\b", rest, re.I) or \
                re.match(r"(?:on|upon)\b", rest):  # "we build on the insight that X" introduces nothing
            continue
        else:
            rest = _GAP_BY.sub("", rest)  # "address the existing gap by exploring X" -> "exploring X"
            out.append((clean_object(rest), "study" if ph.STUDY_VERBS.match(verb) else "intro"))
            by = ph.BY_SHOWING.search(rest)  # "This paper addresses this gap by showing that X"
            out += [(rest[by.end():], "claim")] if by else []
    return out


_GAP_BY = re.compile(r"^(?:(?:the|this|these|an?)\s+)?(?:(?:existing|current|aforementioned|above|key|main|research)\s+)?(?:gap|problem|issue|challenge|limitation|shortcoming|question)s?\s+(?:\w+\s+){0,4}?by\s+(?=\w+ing\b)")
# the setting in front of a finding's subject, and the clause that goes on after it
_CLAIM_SETTING = re.compile(r"^(?:even |only |also )?(?:with|under|for|in|when|if|given|after|without|despite|"
                            r"at|on|unlike|as long as)\b[^,;]{3,120},\s+(?=(?:the|a|an|[A-Z])\w*\s)", re.I)
_CLAIM_TAIL = re.compile(r"(?:,\s+(?:which|while|thus|thereby|hence|taking|leading|making|yielding|resulting|"
                         r"and (?:thus|hence|therefore)|so that|whereas)\b|;|\s[-–—]+\s).*$", re.S)


def _claim_core(claim: str) -> str:
    """A finding without its setting in front or the clause after it."""
    return _CLAIM_TAIL.sub("", _CLAIM_SETTING.sub("", claim, count=1)).strip()


def _descriptions(m: Mention) -> list[tuple[str, str]]:
    out = []
    for text, kind in ((m.desc, "name"), (m.long, "long"), (m.rel, "name")):
        if text:
            out.append((clean_object(strip_markup(text)), kind))
    return out


class _Pool:
    """Candidate labels that pass the rules, each with the features it is scored on."""

    def __init__(self, weights: dict[str, float], limit: int, position: bool,
                 forms: dict[str, str] | None = None):
        self.weights, self.limit, self.position = weights, limit, position
        self.forms = forms or {}
        self.text = ""
        self.more_topics: list[str] = []  # further keyphrases: what a bare topic is paired with
        self.candidates: list[tuple[dict, str]] = []
        self.key_words: set[str] = set()
        self.lead_words: set[str] = set()
        self.word_features: dict[str, list[float]] = {}
        self.problems: list[str] = []
        self.topics: list[str] = []  # keyphrases in context: what a named method is for

    def add(self, text: str | None, kind: str, rank: int = 0, name: str | None = None, room: int = 0) -> None:
        if not text:
            return
        prefix = "Position: " if self.position else (f"{name}: " if name else "")
        cut = body = fit(trim_front(text, VERBS_S), room or self.limit - len(prefix), whole=kind in ("claim", "subject"))
        if not body or not reads_as_title(body, kind, VERBS_S, named=bool(name)):
            if body and name and not room and label_breaks(prefix + body) == ["dangling"]:
                self.add(text, kind, rank, name, len(cut) - 1)
            return
        if self.forms:  # an abbreviation the reader has not seen defined is written out
            longer = expand(body, self.forms)
            body = longer if len(prefix) + len(longer) <= self.limit else body
        body = body if name and not self.position else capitalise(body)
        label = prefix + body
        broken = label_breaks(label, position=self.position)
        if name and not room and (broken if body == cut and not self.position else label_breaks(prefix + cut)) == ["dangling"]:
            return self.add(text, kind, rank, name, len(cut) - 1)  # cut where it waits for more: a shorter cut
        if broken or (name and body.casefold().startswith(name.casefold())):
            return
        words = content_words(body)
        cover = sorted((self.weights.get(w, 0.0) for w in words), reverse=True)[:COVER_CAP]
        self.candidates.append(({"kind": kind, "rank": rank, "cover": sum(cover),
                                 "key": any(w in self.key_words for w in words),
                                 "lead": len(words & self.lead_words), "words": len(words),
                                 "hit": title_odds(words, self.word_features),
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
        topics = [t for t in self.topics if topic_ok(t) and names_task(t)] if named else []
        longer = extended(label, f["kind"], self.problems + topics, self.limit, self.position)
        if longer != label:
            return longer
        if not is_bare(label, f["kind"]):
            return label
        ranked = sorted(((score(g), g["kind"], text) for g, text in self.candidates), reverse=True)
        return descriptive(label, f["kind"], ranked, self.topics + self.more_topics, self.text, self.limit)


def score(f: dict) -> float:
    """How good a candidate label is likely to be (weights chosen on the tuning half of
    ICML 2024, benchmarks/label_eval.py; `hit`: log-odds from the word model WORD_W that the
    candidate shares a word with the real title)."""
    s = W["prior"][f["kind"]] - W["rank"] * f["rank"] + W["cover"] * f["cover"]
    s += W["key"] * f["key"] + W["lead"] * min(f["lead"], 3) + W["hit"] * f.get("hit", 0.0)
    s += W["named"] if f["name"] else 0.0
    s -= W["short"] if f["n"] < (6 if f["kind"] == "study" else 4) and not f["name"] else 0.0
    s -= W["long"] * max(0, f["n"] - 11)
    return s - (1.0 if not f["words"] else 0.0)


def _primary(mentions: list[Mention]) -> Mention | None:
    return next((m for m in mentions if m.how != "variant"), mentions[0] if mentions else None)


def make_label(title: str | None, doc: Doc, mentions: list[Mention], tldr: str,
               limit: int = MAX_LABEL, paper_type: str | None = None,
               keyphrases: list[str] | None = None) -> str:
    if title and title.strip():
        return re.sub(r"\s+", " ", strip_markup(title)).strip()
    label = spelled_name(whole_long_form(unframed(_derived(doc, mentions, tldr, limit, paper_type, keyphrases)),
                                          mentions), long_forms(doc.sentences))
    label = named_here(label, doc, mentions, MAX_LABEL_CHARS) if not label.startswith("Position: ") else label
    main = _dominant(doc, mentions)
    if main and main.name not in label:  # "MiniGrid: ..." for a paper that says MOORE three times
        first = [main] + [m for m in mentions if m is not main]
        alt = spelled_name(unframed(_derived(doc, first, tldr, limit, paper_type, keyphrases)), long_forms(doc.sentences))
        label = alt if alt.startswith(main.name + ": ") else label
    head, sep, body = label.rpartition(": ")
    body = ph.coordinated(body)  # "transforming X and replacing Y"
    return specific(head + sep + (_unhedged(body) if sep else body), tldr)


# what a named method's description only hopes or borrows: "benchmark for X that would represent a milestone", "dataset inspired
# by works containing ...", "method for techniques like contrastive learning"
_HOPE = re.compile(r"\s+(?:that|which) (?:would|could|might|may) .*$")
_INSPIRED = re.compile(r"\s+(?:inspired|motivated) by (?:(?:these|such|those|prior|previous|existing|recent) )?"
                       r"(?:works?|methods?|studies|approaches|observations?|findings?)\b")
_LIKE = re.compile(r"\bfor (?:techniques|methods|approaches|tasks|models|settings) (?:like|such as) ")


def _unhedged(body: str) -> str:
    cut = _LIKE.sub("for ", _INSPIRED.sub("", _HOPE.sub("", body)))
    cut = cut.rstrip("?") if not re.match(r"(?:how|what|why|when|which|can|do|does|is|are)\b", cut, re.I) else cut
    return cut if len(cut.split()) >= 3 and not label_breaks(cut[:1].upper() + cut[1:]) else body


def _dominant(doc: Doc, mentions: list[Mention]) -> Mention | None:
    """The paper's own name when the text says it far more often than any other name: a coined
    name (not a field's abbreviation such as "SSL") used at least three times, two more than the
    next."""
    names = [m.name for m in mentions if m.how != "variant"]
    counts = sorted(((len(token_starts(doc.text, m.name)), i, m) for i, m in enumerate(mentions)
                     if m.how != "variant" and not is_background(m, doc.sentences) and  # "PIB" inside "PIBD"
                     not any(n != m.name and n.startswith(m.name) for n in names)), key=lambda c: (-c[0], c[1]))
    if not counts or counts[0][0] < 3 or (len(counts) > 1 and counts[1][0] > counts[0][0] - 2):
        return None
    top = counts[0][2]
    coined = top.how != "acronym" or not top.name.isupper() or bool(re.search(r"[\d\-^]", top.name))
    return top if coined else None


def _derived(doc: Doc, mentions: list[Mention], tldr: str, limit: int, paper_type: str | None,
             keyphrases: list[str] | None) -> str:
    if not doc.sentences:
        return ""
    room = min(limit + HEADLINE_EXTRA, MAX_LABEL_CHARS)  # the contribution said whole may run longer
    limit = min(limit, MAX_LABEL_CHARS)
    if is_position(doc.text, paper_type):
        lead = position_headline(doc.sentences, room)
    else:
        best = doc.sentences.index(tldr) if tldr in doc.sentences else None
        lead = headline(doc.sentences, doc.own_start, mentions, room, long_forms(doc.sentences), best)
    if lead and len(lead.split(": ", 1)[-1].split()) <= SHORT_HEADLINE and not lead.startswith("Position: "):
        pool = candidates(doc, mentions, tldr, limit, paper_type, keyphrases)  # what is it about?
        topics = [t for t in pool.topics if topic_ok(t) and names_task(t)] if ": " in lead else []
        longer = extended(lead, "name" if ": " in lead else "intro", pool.problems + topics, room)
        if longer != lead:
            return longer
    if lead and not lead.startswith("Position: "):
        return named_lead(unframed(_about(lead, doc, room)), doc, mentions, room)
    if lead:
        return lead
    pool = candidates(doc, mentions, tldr, limit, paper_type, keyphrases)
    asked = question(doc.sentences, doc.own_start, tldr)
    if asked and not (pool.top and (pool.top[0]["kind"] in ("name", "long") or pool.top[0]["name"])):
        return asked  # a paper that names no method of its own: the question it asks
    plain = plain_headline(doc.sentences, doc.own_start, mentions, room, long_forms(doc.sentences))
    longer = extended(plain, "intro", pool.problems, room) if plain and not pool.position else plain
    if longer != plain:  # "Double averaging scheme for X"
        return longer
    best = pool.best
    if best is None:
        words = tidy(ph.hard_cut(OPENER.sub("", doc.sentences[0]))).split()[:10]
        while len(words) > 1 and len(" ".join(words)) > limit:
            words.pop()
        return capitalise(" ".join(words)[:limit])  # a single giant token: nothing to choose
    return best


_PARTICIPLE_END = re.compile(r"\b(?:[a-z]{3,}ed|drawn|taken|given|shown|known|built|made|written|grown)$")


def _about(lead: str, doc: Doc, room: int) -> str:
    """A contribution headline that names neither the problem of the opening sentence nor any of
    its words gets it: "Training stabilizer based on consistency regularization for generative
    adversarial networks"; a headline too long to take it gives up its tail at a phrase boundary
    ("Partially collapsed Gibbs sampling algorithm [that approaches X] for logistic-normal topic
    models"), never half of a pair or list."""
    if re.search(r"\bfor\b(?! (?:each|every|all|both|any|a given)\b)", lead):  # it says what it is for ("for each class" does not) ("in <problem>" often named the background)
        return lead
    forms = long_forms(doc.sentences)
    found = opening_problem(doc, forms)
    if not found or stems(found) & stems(expand(lead, forms)) or (": " in lead and runs_on(found)):
        return lead
    tail = f" for {found}"
    name, sep, body = lead.rpartition(": ")
    prefix = name + sep
    cuts = [c for c in fits(body, room - len(prefix) - len(tail), 3) if len(c.split()) >= 4 and body.startswith(c)
            and not re.match(r"\s*(?:,|and\b|or\b)", body[len(c):])  # not half of a pair or list
            and not _PARTICIPLE_END.search(c)]  # "problems drawn [from GitHub issues]" is not "problems drawn for X"
    for cut in [body] + cuts:
        longer = f"{prefix}{cut}{tail}"  # "... based on the double-momentum method for bilevel optimization"
        if len(longer) <= room and not label_breaks(longer):
            return longer
    return lead


def candidates(doc: Doc, mentions: list[Mention], tldr: str, limit: int = MAX_LABEL,
               paper_type: str | None = None, keyphrases: list[str] | None = None) -> _Pool:
    """The scored candidate labels of a title-less paper (`make_label` takes the best)."""
    forms = long_forms(doc.sentences)
    spelled = [expand(s, forms) for s in doc.sentences] if forms else doc.sentences
    weights = weights_of(spelled)
    for rank, phrase in enumerate((keyphrases or [])[:3]):
        for w in content_words(expand(phrase, forms)):  # the paper's keyphrases are what a title names
            weights[w] = weights.get(w, 0.0) + (0.6 if rank == 0 else 0.4)
    position = is_position(doc.text, paper_type)
    pool = _Pool(weights, limit, position, forms)
    pool.text = doc.text
    pool.problems = [p for p in (problem(doc.sentences, forms, weights, doc.text),) if p]
    if not pool.problems and doc.own_start >= 2:  # the opening sentence named none
        pool.problems = [p for p in (problem(doc.sentences[1:], forms, weights, doc.text),) if p]
    pool.key_words = content_words(expand(" ".join((keyphrases or [])[:KEY_PHRASES]), forms))
    pool.lead_words = content_words(" ".join(spelled[:2]))
    # an abbreviation the background defines ("dynamical systems reconstruction (DSR)") is the
    # field's term, not the paper's name
    primary = _primary([m for m in mentions if not (m.how == "acronym" and m.sentence < doc.own_start)
                        and not is_background(m, doc.sentences)])
    named = " ".join(t for t in ((primary.desc, primary.long, primary.rel) if primary else ()) if t)
    pool.word_features = word_features(spelled, doc.own_start, tldr, keyphrases or [], named, forms)
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
                    pool.add(clean_object(named[1]), "name", rank, name=named[0])
                continue
            if primary and not pool.position:
                pool.add(text, kind, rank, name=primary.name)
            pool.add(text, kind, rank)
        if rank < 2 and not objects:
            pool.add(OPENER.sub("", s), "subject", rank + 1)
    for phrase in (keyphrases or [])[:2]:
        for i in order[:6]:
            found = around(doc.sentences[i], phrase)
            if found:
                pool.topics.append(lower_first(expand(tidy(found), forms), doc.text))
                pool.add(found, "topic", 1)
                if primary and not pool.position:  # "AuG-KD: OOD knowledge distillation"
                    pool.add(found, "topic", 1, name=primary.name)
                    kind = kind_of(primary.name, doc.sentences)  # "GraphPulse: framework for temporal graphs"
                    pool.add(f"{kind} for {lower_first(tidy(found), doc.text)}" if kind else None, "topic", 0, name=primary.name)
                break
    pool.more_topics = [expand(p, forms) for p in (keyphrases or [])[:5] if not re.search(r"\W\w{1,3}\b.", p[:4])]
    if pool.top is None:
        for s in doc.sentences[doc.own_start:doc.own_start + 3]:
            pool.add(OPENER.sub("", s), "subject", 3)
    if pool.top is None and keyphrases:  # a last resort: topic words, not a statement
        pool.add(" and ".join(keyphrases[:2]), "keyphrases")
    return pool
