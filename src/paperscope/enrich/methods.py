"""Names a paper introduces: "we propose Maestro, a framework ...", "a method called OTMatch",
acronyms defined in the authors' own sentences ("we propose reflected flow matching (RFM)"),
bold or emphasised names, and the name before the colon of a known title.

Names the paper merely uses (DNN, RL, GPT-4, ImageNet) are kept out by a stoplist, by
ignoring definitions in background sentences and by refusing definitions that sit inside a
relative clause ("a framework that harnesses signal temporal logic (STL)").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import cues as cue
from . import describe
from .acronyms import definitions
from .artifacts import KNOWN_KEYS
from .name_shape import capital_run, name_at
from .text import (Doc, clean_token, emphasised_spans, is_capitalised, is_coined, name_key,
                   strip_markup)
from .vocab import COMMON_CAPITALISED, STOP_NAMES


MAX_STEMS = 24  # variants are looked for around the first names only (bounded work per token)


@dataclass
class Mention:
    """A name the paper introduces, where it was found and what the text says it is."""

    name: str
    sentence: int
    pos: int
    how: str  # title / intro / called / acronym / markup / appositive / variant / ...
    long: str | None = None  # expansion of an acronym
    desc: str | None = None  # "framework for trainable low-rank layers"
    rel: str | None = None  # "reduces the number of required Monte Carlo replications"


# "a well-known approach, regularized multi-label learning (MLL)", "the recently proposed EasyLLP
# rule": a name the abstract presents as someone else's
_CUE = (r"(?:(?:recently|previously)[- ](?:proposed|introduced|developed)|well-known|well known|widely[- ]used|"
        r"popular|classical|classic|existing|standard|conventional|prior|typical|de facto)")
_BACKGROUND = re.compile(r"(?:\b" + _CUE + r"(?:\s+[\w-]+){0,5}|\b(?:a|an|the)\s+(?:\w+\s+)?" + _CUE +
                         r"(?:\s+[\w-]+){0,4},(?:\s+(?!we\b|our\b)[\w-]+){0,2})\s+\(?$", re.I)
_PROBLEM_NAME = re.compile(r"\b(?:problems?|tasks?|settings?|games?)$", re.I)


# "a variant of the classical online gradient descent algorithm, called reweighted OGD (ROGD)"
_OWN_VARIANT = re.compile(r"\b(?:called|named|dubbed|termed|coined|variant|extension|version|generali[sz]ation)\b", re.I)


def is_background(m: Mention, sentences: list[str]) -> bool:
    """Is `m` a name the paper uses rather than its own: presented as existing or well known,
    or the name of a problem ("capacitated vehicle routing problems (CVRP)")?"""
    if m.long and _PROBLEM_NAME.search(m.long.strip()):
        return True
    s = sentences[m.sentence] if 0 <= m.sentence < len(sentences) else ""
    at = s.find(m.long) if m.long and m.long in s else s.find(m.name)
    window = s[max(0, at - 90):at]
    first = next((t for t in sentences if m.name in t), "")
    if _KNOWN_AFTER.match(first, first.find(m.name) + len(m.name)):
        return True  # "the use of TikZ, a well-known graphics language"
    return at > 0 and bool(_BACKGROUND.search(window) or _MEANS.search(window) or
                           (m.long and _FOR_PROBLEM.search(window) and not _NAMED_FOR.search(window))) and \
        not _OWN_VARIANT.search(window)


_KNOWN_AFTER = re.compile(r"\s*(?:\([^()]*\)\s*)?,\s*(?:a|an|the)\s+(?:well-known|popular|widely[- ]used|standard|"
                          r"classic(?:al)?|existing|commonly used|established)\b", re.I)
# "a hashing algorithm for approximate Maximum Inner Product Search (MIPS)": the problem, not the paper's name
_FOR_PROBLEM = re.compile(r"\b(?:for|to)\s+(?:(?:the|approximate|efficient|fast|scalable|large-scale|general)\s+)*$", re.I)
# "Dropping In Convolutions for Long Context Compression (LoCoCo)": "for" inside a longer name
_NAMED_FOR = re.compile(r"\b[A-Z][\w-]*\s+(?:for|to)\s+(?:\w+\s+)*$")
# "an algorithm through General Bayesian Inference (GBI)": the name of what the contribution uses
_MEANS = re.compile(r"\b(?:through|via|using|leveraging|based on|by means of|built on)\s+(?:the\s+)?$", re.I)


def _ok(name: str, known_ok: bool = False, run_ok: bool = False) -> bool:
    key = name_key(name)
    if len(key) < 2 or key in STOP_NAMES or (key in KNOWN_KEYS and not known_ok):
        return False
    if cue.MODEL_FAMILY.match(name) or cue.MATH_TOKEN.match(name):  # Llama-2-70b-chat, logT
        return False
    toks = name.split()
    if run_ok and len(toks) > 1 and sum(t.casefold() not in COMMON_CAPITALISED for t in toks) > 1:
        return True  # "we present Neural Spectral Methods, a technique"
    return is_coined(toks[0]) or toks[0].casefold() not in COMMON_CAPITALISED


_APPOSED = re.compile(r"(?<![\w-])([A-Za-z0-9][\w\-^+.]{0,60}[\w^+])(?=\s*(?:\([^()]*\)\s*)?,\s)")  # bounded name
_CONJUNCT = re.compile(r"\s*(?:\([^()]*\))?\s*(?:,\s*|,?\s+(?:and|or)\s+)(\S+)")


class _Collector:
    def __init__(self, doc: Doc):
        self.doc = doc
        self.found: dict[str, Mention] = {}
        self.aliases: set[str] = set()  # other spellings of a found name (C2S for Cell2Sentence)

    def add(self, name: str, sent: int, pos: int, how: str, long: str | None = None,
            desc: str | None = None, run: bool = False) -> bool:
        name = clean_token(strip_markup(name)).strip()
        if not name or not _ok(name, known_ok=how in ("intro", "called"), run_ok=run):
            return False
        key = name_key(name)
        if key in self.aliases:
            return False
        rel = None
        if 0 <= sent < len(self.doc.sentences):
            s = self.doc.sentences[sent]
            at = s.find(name, max(pos - 1, 0))
            rel = describe.relative(s[at + len(name):]) if at >= 0 else None
        if key in self.found:
            old = self.found[key]
            old.long = old.long or long
            old.desc = old.desc or desc
            old.rel = old.rel or rel
            return False
        self.found[key] = Mention(name, sent, pos, how, long, desc, rel)
        return True

    def add_with_conjuncts(self, name: str, rest: str, sent: int, pos: int, how: str,
                           long: str | None = None, desc: str | None = None) -> None:
        self.add(name, sent, pos, how, long, desc)
        # EvoRainbow and EvoRainbow-Exp / FedQ-Hoeffding and FedQ-Bernstein / (LeaP) and LeaPformers
        at = 0
        while (m := _CONJUNCT.match(rest, at)):
            tok = clean_token(m.group(1))
            if not is_coined(tok):
                break
            self.add(tok, sent, pos + m.start(1), how)
            at = m.end()


def _intro_objects(sentence: str) -> list[tuple[int, str]]:
    ends = [m.end() for m in cue.INTRO.finditer(sentence)]
    ends += [m.end() for m in cue.RESULT.finditer(sentence)]
    return [(e, sentence[e:]) for e in ends]


def _scan_sentence(c: _Collector, i: int, raw: str, s: str, own: bool) -> None:
    """The names one sentence introduces; only a sentence where the authors speak of their own
    work (`own`) can introduce one."""
    if not own:
        return
    defs = definitions(s)
    intros = _intro_objects(s)
    _intro_names(c, i, intros, defs)  # 1. "we propose Maestro, a ...", "we propose the X"
    _called_names(c, i, s)  # 2. "called X", "named X", "namely X", "our model, X,", "central to ... is X"
    _apposed_names(c, i, s)  # 2b. "through LoD, a low-rank ordered decomposition"
    _acronym_names(c, i, s, defs, [end for end, _ in intros])  # 3. acronyms the authors define
    _markup_names(c, i, raw, s)  # 4. bold / emphasised names


_SIDE = re.compile(r"(?:additionally|moreover|furthermore|in addition|besides|finally)\b|we also\b", re.I)


def _intro_names(c: _Collector, i: int, intros: list[tuple[int, str]], defs: list) -> None:
    """Names right after an intro verb, a kind word or in apposition to it."""
    side = bool(intros) and 0 <= i < len(c.doc.sentences) and \
        bool(_SIDE.match(c.doc.sentences[i]))  # a side contribution names no capitalised run
    for end, obj in intros:
        body = obj.lstrip()
        off = end + len(obj) - len(body)
        det = re.match(r"(?:also\s+|further\s+)?(?:the\s+|our\s+)?", body)
        hit = name_at(body[det.end():])
        run = capital_run(body[det.end():]) if hit is None and not side else None
        if hit or run:
            name, n_end = hit or run  # type: ignore[misc]
            after = body[det.end() + n_end:]
            d = next((d for d in defs if d.start == off + det.end() and d.short_first), None)
            acr = re.match(r"\s*\((\S+?)\)", after)
            if acr and is_coined(acr.group(1)) and not is_coined(name.split()[0]) \
                    or acr and len(name.split()) > 1:
                c.add_with_conjuncts(acr.group(1), after[acr.end():], i, off, "intro", long=name,
                                     desc=describe.description(after[acr.end():]))
                if name_key(acr.group(1)) in STOP_NAMES and len(name.split()) > 1 and \
                        all(w[:1].isupper() for w in name.split()):  # "Batch Calibration (BC)"
                    c.add(name, i, off, "intro", desc=describe.description(after[acr.end():]), run=True)
            elif run:
                c.add(name, i, off, "intro", desc=describe.description(after), run=True)
            else:
                c.add_with_conjuncts(name, after, i, off, "intro", long=d.long if d else None,
                                     desc=describe.description(after))
            continue
        # "we propose a simple but effective method AuG-KD" / "a new MoE strategy, DirMixE, which"
        head = re.match(r"(?:(?:a|an|the|our|two|three)\s+)?((?:[\w\-]+,?\s+){0,8}?)" + cue.OUR_KIND +
                        r"(?:,\s+|:\s+|\s+)(\S*[A-Z]\S*)", body)
        if head and not cue.BLOCKERS.search(head.group(1)):
            tok = clean_token(head.group(2))
            if is_coined(tok) and cue.FOLLOW_OK.match(body[head.end():] or " "):
                desc = describe.tidy_desc(body[:head.start(2)].rstrip(", "))
                c.add_with_conjuncts(tok, body[head.end():], i, off + head.start(2), "intro",
                                     desc=desc)
                continue
            run = capital_run(body[head.start(2):]) if body[head.start(2) - 2:head.start(2)] == ", " else None
            if run:  # "a lightweight framework, Prompt Risk Control, for selecting a prompt"
                c.add(run[0], i, off + head.start(2), "intro",
                      desc=describe.tidy_desc(body[:head.start(2)].rstrip(", ")), run=True)
                continue
        ap = re.match(r"([^.;]{3,140}?)[,:]\s+(\S+?)(?=[,.;(]|\s+which\b|\s*$)", body)
        if ap and not re.search(r"\b(?:which|that|where|while)\b", ap.group(1)):
            tok = clean_token(ap.group(2))
            if is_coined(tok):
                c.add_with_conjuncts(tok, body[ap.end():], i, off + ap.start(2), "appositive",
                                     desc=describe.tidy_desc(ap.group(1)))


def _called_names(c: _Collector, i: int, s: str) -> None:
    for rx in (cue.CALLED, cue.OUR_NAME, cue.OUR_NAME_BEFORE, cue.CENTRAL, cue.LIST, cue.ANSWERED_WITH, cue.NEW_KIND_NAME):
        for m in rx.finditer(s):
            rest = s[m.end():]
            if re.match(r"(?:a|an)\s", rest):
                continue
            long_acr = re.match(r"((?:[A-Z][\w\-]*\s+(?:(?:of|for|with|and|via|in|on|to)\s+)?){2,9}?[A-Z][\w\-]*)\s*"
                                r"\(([^()\s]{2,15})\)", rest)  # "Reset Free RL with Intelligently Switching Controller (RISC)"
            hit = (long_acr.group(1), long_acr.end(1)) if long_acr and is_coined(long_acr.group(2)) else name_at(rest)
            if not hit:
                continue
            name, n_end = hit
            after = rest[n_end:]
            acr = re.match(r"\s*\((\S+?)\)", after)
            before = s[:m.start()]
            desc = describe.np_before(before) if rx is cue.CALLED else None
            if re.search(r"\b(?:benchmarks|datasets|environments|baselines|suites|simulators)\s*,?\s*(?:namely|i\.e\.,?|"
                         r"such as|including|like)?\s*$", before):
                continue  # "on two MTRL benchmarks, namely MiniGrid and MetaWorld": what it is evaluated on
            if acr and is_coined(acr.group(1)) and len(name.split()) > 1:
                rest = after[acr.end():]
                c.add_with_conjuncts(acr.group(1), rest, i, m.end(), "called", long=name,
                                     desc=desc or describe.description(rest))
            else:  # "our approach, T-MARS (Text Masking and Re-Scoring), filters ..."
                d = next((d for d in definitions(s) if d.short_first and d.short == name and d.start >= m.end()), None)
                c.add_with_conjuncts(name, after, i, m.end(), "called", long=d.long if d else None,
                                     desc=desc or describe.description(after))


_USED_RESOURCE = re.compile(r"\s*,\s*(?:a|an|the)\s+(?:(?:standard|popular|widely[- ]used|well-known|common(?:ly used)?|"
                            r"public(?:ly available)?|existing|classic(?:al)?|established|large-scale public)\s+)", re.I)


def _apposed_names(c: _Collector, i: int, s: str) -> None:
    """A coined name in apposition to what it is."""
    for m in _APPOSED.finditer(s):
        tok = m.group(1)
        after = s[m.end():]
        if _USED_RESOURCE.match(after):
            continue  # "on Slakh2100, a standard dataset for X": a resource the paper uses
        if is_coined(tok) and cue.APPOS_KIND.match(re.sub(r"^\s*\([^()]*\)", "", after)) \
                and not cue.BUILT_ON.search(s[:m.start()]) \
                and not re.search(r"(?:^|\s)[A-Z][\w\-]*\s$", s[:m.start()]):  # Spectral DeTuning
            c.add(tok, i, m.start(), "appositive", desc=describe.description(after))


def _acronym_names(c: _Collector, i: int, s: str, defs: list, intro_ends: list[int]) -> None:
    """Acronyms defined in the authors' own sentences, kept when the sentence is about them."""
    component = False
    for m in cue.COMPONENT.finditer(s):
        subj = m.group(1)
        if subj.lower() == "it" or " " in subj or name_key(subj) in c.found:
            component = True
    for d in defs:
        if cue.PROBLEM_AFTER.match(s[d.end:]) or cue.PROBLEM_BEFORE.search(s[:d.start]):
            continue  # "denoising hand-object interactions (HOI)" after "the problem of" is the problem
        alias = None
        if d.short_first:  # CoLiDE (Concomitant Linear DAG Estimation)
            name, long = d.short, d.long
        elif name_key(d.short) in STOP_NAMES:  # Mixture-of-Experts (MoE): a field term
            continue
        elif d.long and " " not in d.long and "-" not in d.long and is_coined(d.long):
            # Cell2Sentence (C2S): the long form is itself the name
            name, long, alias = d.long, None, d.short
        else:
            name, long = d.short, d.long
        verb_end = max((e for e in intro_ends if e <= d.start), default=None)
        ok = False
        if verb_end is not None:
            between = s[verb_end:d.start]
            tail = between.rsplit(", ", 1)[-1] if ", " in between else between
            ok = not cue.BLOCKERS.search(tail)
        if not ok and component:
            ok = True
        if not ok and re.search(r"\b[Oo]ur\s+(?:\S+\s+){0,2}$", s[:d.start]):
            ok = True
        if not ok and not cue.PRIOR_CONTEXT.search(s):
            uses = c.doc.uses_after(d.short, i)
            mixed = bool(re.search(r"[a-z]", d.short)) and bool(re.search(r"[A-Z]", d.short))
            plural = bool(re.search(r"[A-Z]s$", d.short))  # FAMs, MFGs: a class of things
            ok = not plural and uses >= (1 if mixed else 3)
        if ok:
            c.add(name, i, d.start, "acronym", long=long, desc=describe.description(s[d.end:]))
            if alias:
                c.aliases.add(name_key(alias))


def _markup_names(c: _Collector, i: int, raw: str, s: str) -> None:
    for span in emphasised_spans(raw):
        if "(" in span or len(span) < 2:
            continue
        at = s.find(span)
        if at >= 0 and re.match(r"\s*\(", s[at + len(span):]):
            continue  # `*Logit-scaling GFlowNets* (Logit-GFN)`: the acronym is the name
        toks = span.split()
        if len(toks) > 5 or not (is_coined(toks[0]) or is_capitalised(toks[0])):
            continue
        if len(toks) == 1 and not is_coined(toks[0]) and \
                toks[0].casefold() in COMMON_CAPITALISED:
            continue
        if not all(is_coined(t) or is_capitalised(t) or t in cue.CONNECT for t in toks):
            continue
        desc = describe.description(s[at + len(span):]) if at >= 0 else None
        c.add(span, i, max(at, 0), "markup", desc=desc)


def _title_name(title: str | None, doc: Doc) -> str | None:
    """`Maestro: Uncovering Low-Rank ...` -> `Maestro` (a short head that names something)."""
    if not title or ":" not in title:
        return None
    head = strip_markup(title.split(":", 1)[0]).strip()
    toks = head.split()
    if not toks or len(toks) > 3 or toks[0].casefold() in COMMON_CAPITALISED:
        return None
    if len(toks) == 1 and is_coined(head) or \
            re.search(r"(?<![\w-])" + re.escape(head) + r"(?![\w-])", doc.text, re.I):
        return head
    return None


def _is_variant(tok: str, stem: str) -> bool:
    """EvoRainbow-Exp, MobileLLM-LS, f-VI-IGL, LeaPformers are variants of their stem."""
    if tok.startswith(stem):
        rest = tok[len(stem):]
        ok = bool(re.fullmatch(r"-[A-Za-z0-9]+|[a-z]+", rest))
    elif tok.endswith(stem):
        ok = bool(re.fullmatch(r"[A-Za-z0-9]+-", tok[:-len(stem)]))
    else:
        return False
    return ok and is_coined(tok)


def find_mentions(doc: Doc, title: str | None = None) -> list[Mention]:
    """Every name the paper introduces, in order of first mention (title head first)."""
    c = _Collector(doc)
    start = doc.own_start
    for i, (raw, s) in enumerate(zip(doc.sentences_raw, doc.sentences)):
        _scan_sentence(c, i, raw, s, own=i >= start)
    # a coined name as the subject of a claim: "SAMformer surpasses", "MindEye2 demonstrates"
    background = {t for toks in doc.tokens[:start] for t in toks}
    for i, s in enumerate(doc.sentences[start:], start):
        for m in cue.SUBJECT_TOKEN.finditer(s):
            tok = m.group(1)
            if tok not in background and is_coined(tok) and cue.CLAIM.match(s[m.end():]):
                c.add(tok, i, m.start(1), "claim")
    # variants of an introduced name: EvoRainbow-Exp, MobileLLM-LS, f-VI-IGL, LeaPformers
    stems = [m.name for m in c.found.values() if len(name_key(m.name)) >= 4 and " " not in m.name]
    stems = stems[:MAX_STEMS]
    for i, toks in enumerate(doc.tokens[start:], start) if stems else ():
        for tok in toks:
            for stem in stems:
                if tok != stem and stem in tok and _is_variant(tok, stem):
                    c.add(tok, i, doc.sentences[i].find(tok), "variant")
    # "dubbed REliable fusion and robust ADaptation (READ)": "REliable" only opens READ's long form
    opens = {(m.sentence, m.long.split()[0]) for m in c.found.values() if m.long and " " in m.long}
    mentions = sorted((m for m in c.found.values() if m.long or (m.sentence, m.name) not in opens),
                      key=lambda m: (m.sentence, m.pos))
    head = _title_name(title, doc)
    if head:
        key = name_key(head)
        same = next((m for m in mentions if name_key(m.name) == key), None)
        if same:
            mentions.remove(same)
            mentions.insert(0, same)
        elif _ok(head):
            mentions.insert(0, Mention(head, -1, 0, "title"))
    return mentions


def find_methods(doc: Doc, title: str | None = None) -> list[str]:
    return [m.name for m in find_mentions(doc, title)]
