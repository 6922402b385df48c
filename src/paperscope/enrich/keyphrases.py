"""Keyphrases of one abstract, by a small statistical method of our own in the spirit of YAKE
(Campos et al., 2020) and RAKE: no corpus, no model, deterministic.

Candidates are runs of content words between stopwords and punctuation (1-4 words). A word
weighs more when it recurs, spreads over several sentences, appears early, is written as a
name, and is not academic filler ("method", "results", "propose"). A phrase scores the sum of
its words' weights, damped by length, times how often the phrase itself recurs. The top
phrases are kept unless they mostly repeat a better one.

Keyphrases are topics, never filler: evaluative words ("remarkable", "popular", "vast") and
narrating or reporting verbs ("showcases", "mastering", "derive") cut the runs of content
words, and a phrase is dropped when it ends on a background noun ("empirical success",
"recent years", "classification performance") or holds an -ing word naming an action
("deriving efficient solvers"). benchmarks/keyphrase_filler.py measures what remains.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from functools import lru_cache

from ..words import FILLER_WORDS, STOP_WORDS, prose_tokens, singular
from .phrases import third_person
from .text import ADJ_SUFFIX, Doc, name_key
from .vocab import ADJ_END, ADJ_NOUNS, STOP_NAMES, VERBS

# a whole whitespace-delimited token holding an address (tried only where a token starts)
_URL = re.compile(r"(?<!\S)(?=\S*?(?:https?://|www\.))\S+")
MAX_WORDS = 4
_LENGTH_FACTOR = {1: 0.55, 2: 1.0, 3: 1.05, 4: 0.9}


@lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    return singular(word.lower())


def _chunks(sentence: str) -> list[list[str]]:
    """Runs of content words (surface forms) between stopwords and punctuation."""
    out, cur = [], []
    for tok in prose_tokens(_URL.sub(" , ", sentence)):
        low = tok.lower()
        if not tok[0].isalpha() or low in STOP_WORDS or low in VERBS or len(tok) == 1 or \
                (low.endswith("ly") and len(low) > 4 and not tok[0].isupper()) or \
                low in _EVALUATIVE or low in _LINKERS or is_verb_form(low):
            if cur:
                out.append(cur)
            cur = []
        else:
            cur.append(tok)
    if cur:
        out.append(cur)
    return out


# last words of the names of fields, tasks and model families (folded: no plural s)
FIELD_HEADS = frozenset("""
learning network model inference optimization detection classification segmentation translation
generation adaptation regression estimation attack example search compression distillation
representation embedding process descent programming control planning reasoning retrieval
recognition clustering sampling quantization pruning robustness privacy fairness
interpretability explainability generalization alignment editing answering modeling modelling
forecasting tracking matching synthesis transfer exploration imitation bandit game graph
""".split())
FIELD_BONUS = 1.6

# verbs whose -ing form opens a verb phrase, not a noun phrase ("answering questions")
_VERB_ING = frozenset("""
answer synthesiz predict involv propagat consider us apply mak tak show giv find allow provid
achiev improv reduc enabl leverag obtain requir perform captur handl exploit address tackl
solv mitigat alleviat ensur preserv comput adopt introduc propos present develop demonstrat
outperform surpass exhibit yield evaluat assess compar identify reveal observ suggest argu
design suffer rely aim seek fail emerg help support aris hold match guarante establish gain
build combin integrat explor investigat analyz analys studi examin learn generat produc
infer incorporat construct extend enhanc increas decreas maintain remov replac select
detect retain operat span stem build spann stemm open creat collect curat releas stat
""".split())
# verbs that turn up inside runs of content words ("strategies operate", "network produces")
_VERB_WORDS = frozenset("""
operate operates produce produces build builds span spans spanning stem stems stemming retain
retains retaining detecting indicate indicates propagate propagates disentangle disentangles
infer infers predict predicts outperform achieve enable enables allows attain attains exhibit
leveraging satisfy satisfies combine combines absorb absorbs instead unseen enjoy enjoys still
unclear
""".split())


# Filler: what grades a paper or tells its field's story instead of naming a topic ("gained
# considerable popularity", "invaluable tool", "remarkable success", "showcases rapid progress").
# Evaluative adjectives (praise, size of an effect, novelty, fashion) break a run of content
# words like a stopword: "remarkable generalization" leaves "generalization" to stand alone.
# Words with topical compounds stay out: "critical points", "strong convexity", "wide networks",
# "complex networks", "lower bounds", "rapid mixing", "unique equilibrium".
_EVALUATIVE = frozenset("""
remarkable impressive promising considerable tremendous unprecedented invaluable excellent
outstanding exceptional notable noteworthy striking compelling powerful huge vast immense
enormous widespread popular prominent prevalent ubiquitous vital essential pivotal paramount
crucial important significant substantial extensive comprehensive great superior fundamental
major growing increasing ever-increasing ever-growing emerging cutting-edge successful
surprising interesting intriguing inherent intricate elegant innovative sophisticated
seminal dramatic profound appealing attractive desirable favorable favourable tantalizing
overwhelming little sudden daunting formidable unparalleled astonishing amazing exciting superb
numerous countless myriad abundant poor good nice satisfactory unsatisfactory high-quality
broad booming flourishing thriving burgeoning renewed tighter extraordinary intense
proficient well-known foundational greater non-trivial long-lasting broader reasonable
""".split())
# Background nouns: a phrase ending on one (or one alone) tells how a field fares, not what a
# paper is about: "empirical success", "recent years", "classification performance". Heads
# with topical compounds stay out: "information gain", "feature importance", "policy
# improvement", "quantum advantage", "partial observations".
_BACKGROUND = frozenset("""
popularity success successes interest progress advance advances advancement advancements
breakthrough breakthroughs surge year years decade decades era tool tools toolbox endeavor
endeavour endeavors findings benefit benefits gains advantages merit merits drawback drawbacks
shortcoming shortcomings community researchers practitioners literature plethora adoption
prevalence emergence contribution contributions effort efforts attempt attempts concern
concerns hope promise capability capabilities ability abilities performance performances
results improvements insight insights perspective perspectives scenario scenarios interplay
usefulness effectiveness efficacy superiority versatility applicability feasibility viability
suitability impact impacts potential growth realm wave ground light consequences
desiderata examination dilemma
""".split())
# Verbs of narration, evaluation and reporting: their bare, -s and -ing forms (and the -ed
# forms listed below) break a run of content words ("virtual rodent facilitates", "SCO enjoying",
# "mastering Atari games"). Lemmas whose -s form is a common plural noun are left out
# ("estimates", "limits", "poses", "claims", "draws"; "making" is kept for "decision making").
_VERB_LEMMAS = """
showcase facilitate enjoy impede weaken hinder hamper garner attract prevail dominate
revolutionize revolutionise necessitate entail underscore emphasize emphasise envision examine
derive verify validate confirm utilize utilise employ harness overcome alleviate tackle devise
conduct incorporate extend encode calculate generalize generalise converge depend consist occur
happen tend refer contribute obstruct undermine degrade relate correspond extrapolate collect
induce constrain adapt appear grow serve focus reflect master prove study explore investigate
demonstrate achieve exhibit display deliver exceed surpass outperform struggle remain become
emerge boost highlight reveal uncover indicate imply suggest ensure enable allow permit help
yield obtain attain reach accomplish excel lack leverage exploit address resolve solve propose
present introduce develop design construct establish analyze analyse assess evaluate compare
quantify identify observe find show perform provide bring lead pave open motivate inspire spark
fuel spur receive gain raise take keep hold see give create describe discover define discuss
argue assume require involve offer handle maximize maximise minimize minimise optimize optimise
approximate isolate impose govern mitigate unlock realize realise recognize recognise
characterize characterise capture sacrifice neglect violate avoid exclude eliminate diagnose
deploy implement automate unify refine accelerate seem restrict demand include apply acquire
extract express prevent discern embrace prioritize prioritise specify contain encompass come
shed break favor favour explain add promote
""".split()
# past forms that mostly narrate ("showcased rapid adaptation", "raised concerns"); past forms
# that name kinds of things stay out: "constrained", "generalized", "integrated", "extended"
_VERB_PAST = frozenset("""
showcased garnered attracted gained received witnessed enjoyed sparked fueled fuelled spurred
raised attained displayed facilitated hindered hampered necessitated emphasized emphasised
highlighted underscored envisioned examined validated confirmed utilized utilised employed
harnessed tackled devised conducted exploited calculated uncovered delivered exceeded surpassed
struggled excelled paved motivated revolutionized revolutionised dominated prevailed proved
proven discovered discussed argued claimed mastered drawn
""".split())


def _verb_forms(lemma: str) -> set[str]:
    """The -s and -ing forms of a verb: "focus" -> focuses, focusing; "study" -> studies,
    studying; "derive" -> derives, deriving; "see" -> sees, seeing."""
    third = third_person(lemma)
    ing = lemma[:-1] + "ing" if lemma.endswith("e") and not lemma.endswith(("ee", "ye")) \
        else lemma + "ing"
    return {third, ing}


# words that link clauses and are missing from the stopwords
_LINKERS = frozenset("according regarding wherein hence amongst besides unlike alongside throughout "
                     "still".split())
_VERB_DOUBLED = frozenset("referring occurring spurring permitting excelling fuelling".split())
# -ing words that name a thing, a process or a property rather than an action; any other -ing
# word opening or inside a phrase makes it a verb phrase ("deriving efficient solvers",
# "proving tight generalization", "bridges keeping flow")
_ING_NOUNS = frozenset("""
learning training pretraining finetuning sampling subsampling oversampling undersampling
upsampling downsampling scaling clustering embedding matching pooling boosting bagging encoding
decoding planning reasoning modeling modelling programming computing processing forecasting
tracking mapping pruning ranking reranking labeling labelling hashing parsing tagging filtering
smoothing coding tuning editing captioning inpainting outpainting denoising rendering masking
routing scheduling gating padding testing engineering mining imaging sensing networking
spanning streaming averaging mixing binding docking folding grasping teaching prompting shaping
poisoning splitting stopping sketching thresholding bootstrapping bounding branching covering
packing scattering switching backtracking weighting reweighting rounding coloring colouring
annealing tempering indexing forgetting unlearning counting sorting scoring voting
pricing bidding lensing signaling signalling clipping whitening caching probing watermarking
jailbreaking steering merging coupling rewiring preconditioning conditioning reading writing
driving walking trading logging meaning building underlying varying
missing evolving floating running interacting alternating normalizing normalising spiking
dueling duelling competing vanishing exploding rolling moving sliding overlapping decaying
cascading conflicting generating governing damping recurring crowdsourcing string strings ring
rings thing things spring offspring ceiling sibling siblings king wing wings passing inducing
balancing gambling betting cutting traveling travelling partitioning queuing queueing forcing
communicating interleaving benchmarking flooding seeding auditing stitching grokking solving
hiring lending housing staking rising guessing shattering sandwiching fingerprinting
autobidding
""".split())
# lemmas whose bare form is also a noun or an adjective ("an exhibit", "approximate inference")
_NOUN_LEMMAS = frozenset("""
exhibit struggle boost highlight permit yield reach leverage construct lead open fuel
approximate capture study master handle focus help spark show demand gain
""".split())
_VERB_FORMS = (frozenset(f for v in _VERB_LEMMAS for f in _verb_forms(v)) | _VERB_PAST |
               _VERB_DOUBLED | (frozenset(_VERB_LEMMAS) - _NOUN_LEMMAS)) - _ING_NOUNS
# third persons that only verbs have: "generalizes", "simplifies", "analyzes", "optimises"
_VERB_SUFFIX = re.compile(r"(?:[a-z]{3}(?:izes|yzes|ifies)|"
                          r"[a-z]{2}(?:alises|imises|ilises|erises|ognises))$")


@lru_cache(maxsize=1 << 16)
def is_verb_form(low: str) -> bool:
    return low in _VERB_FORMS or (bool(_VERB_SUFFIX.search(low)) and low not in ("sizes", "prizes"))


@lru_cache(maxsize=1 << 16)
def _gerund(word: str) -> bool:
    """An -ing word naming an action ("deriving", "mastering"), not a thing ("sampling")."""
    low = word.lower()
    return low.endswith("ing") and len(low) > 5 and "-" not in low and low not in _ING_NOUNS \
        and word[1:].islower()


@lru_cache(maxsize=1 << 17)  # the same phrases recur across a venue's abstracts
def _bad_edge(words: tuple) -> bool:
    """A candidate that is a verb fragment, background, or ends on a modifier: "answering
    questions", "graph conditioned", "thorough theoretical", "empirical success"."""
    first, last = words[0].lower(), words[-1].lower()
    head = next((w.lower() for w in reversed(words) if not _is_generic(w)), last)
    if last in _BACKGROUND or head in _BACKGROUND:
        return True  # "empirical success", "classification performance", "findings include"
    if len(words) > 1 and any(_gerund(w) for w in words[:-1]):
        return True  # "deriving efficient solvers", "bridges keeping flow"
    if last.endswith("ed") and len(last) > 4 or any(w.lower() in _VERB_WORDS for w in words):
        return True
    if len(words) == 1:
        return bool(ADJ_END.search(last) and last not in ADJ_NOUNS and not
                    any(c.isupper() for c in words[0][1:]) or ADJ_SUFFIX.search(last))
    if last.endswith("ing") and words[-2].lower().endswith("s"):
        return True  # "decision-makers spanning"
    if ADJ_SUFFIX.search(last):
        return True  # "self-contained data-driven": a modifier without its noun
    if len(words) > 1 and ADJ_END.search(last) and last not in ADJ_NOUNS and \
            not any(c.isupper() for c in words[-1][1:]):
        return True
    if first.endswith("ing") and len(words) > 1:
        base = first[:-3]
        return base in _VERB_ING or base + "e" in _VERB_ING or base[:-1] in _VERB_ING
    return False


@lru_cache(maxsize=1 << 16)
def _is_generic(word: str) -> bool:
    low = word.lower()
    return low in FILLER_WORDS or _fold(low) in FILLER_WORDS


def _word_weights(chunks_by_sentence: list[list[list[str]]]):
    """Per distinct surface word: (folded form, filler flag) and its weight (recurrence, spread
    over sentences, early position, written as a name, filler damped); with the folded words'
    counts and how often each is written as a name."""
    info: dict[str, tuple[str, bool]] = {}
    tf: Counter = Counter()
    first: dict[str, int] = {}
    sent_seen: dict[str, set[int]] = defaultdict(set)
    named: Counter = Counter()
    pos = 0
    for si, chunks in enumerate(chunks_by_sentence):
        for chunk in chunks:
            for j, w in enumerate(chunk):
                if w not in info:
                    info[w] = (_fold(w), _is_generic(w))
                f = info[w][0]
                tf[f] += 1
                if f not in first:
                    first[f] = pos
                sent_seen[f].add(si)
                if w[0].isupper() and (j or not w[1:].islower()):
                    named[f] += 1
                pos += 1
    total = pos or 1
    n_sent = len(chunks_by_sentence)
    weights: dict[str, float] = {}
    for w, (f, generic) in info.items():
        base = (1.0 + math.log(tf[f])) * (1.0 + len(sent_seen[f]) / n_sent)
        base *= 1.25 - 0.5 * (first[f] / total)
        base *= 1.0 + 0.4 * min(named[f] / tf[f], 1.0)
        if generic:
            base *= 0.15
        if len(f) <= 3 and not w.isupper():
            base *= 0.5
        weights[w] = base
    return info, weights, tf, named


def _phrase_counts(chunks_by_sentence: list[list[list[str]]], info: dict[str, tuple[str, bool]]):
    """Candidate phrases (1..MAX_WORDS words of a chunk, filler neither alone nor in front):
    count per folded phrase, and the surface forms each was written in."""
    phrase_tf: Counter = Counter()
    surface: dict[tuple, Counter] = defaultdict(Counter)
    for chunks in chunks_by_sentence:
        for chunk in chunks:
            # filler at the front goes: "proposed method" -> nothing
            a0 = 0
            while a0 < len(chunk) and info[chunk[a0]][1]:
                a0 += 1
            folded = [info[w][0] for w in chunk]
            for a in range(a0, len(chunk)):
                if info[chunk[a]][1]:
                    continue
                for n in range(1, min(MAX_WORDS, len(chunk) - a) + 1):
                    key = tuple(folded[a:a + n])
                    phrase_tf[key] += 1
                    surface[key][tuple(chunk[a:a + n])] += 1
    return phrase_tf, surface


def keyphrases(doc: Doc, exclude: list[str] | None = None, k: int | None = None) -> list[str]:
    sentences = doc.sentences
    if not sentences:
        return []
    excluded = {e.lower() for e in (exclude or [])}
    excluded_phrases = [e for e in excluded if " " in e]
    chunks_by_sentence = [_chunks(s) for s in sentences]
    info, weights, tf, named = _word_weights(chunks_by_sentence)
    phrase_tf, surface = _phrase_counts(chunks_by_sentence, info)
    scored = []
    for key, count in phrase_tf.items():
        forms = surface[key]  # the most frequent surface form, the first written on a tie
        words = next(iter(forms)) if len(forms) == 1 else max(forms.items(), key=lambda kv: kv[1])[0]
        if any(w.lower() in excluded for w in words) or _bad_edge(words):
            continue
        if excluded_phrases and any(e in " ".join(words).lower() for e in excluded_phrases):
            continue
        if len(key) == 1:
            w = words[0]
            if count < 2 or len(w) < 4 or name_key(w) in STOP_NAMES or \
                    w.lower().endswith(("ed", "ing")) and count < 3:
                continue
        elif len(key) > 2 and all(info[w][1] for w in words[1:]):
            continue
        score = sum(weights[w] for w in words) / (len(words) ** 0.6) * math.sqrt(count)
        if len(key) > 1 and key[-1] in FIELD_HEADS:
            score *= FIELD_BONUS  # "reinforcement learning", "domain adaptation": what keywords name
        scored.append((score * _LENGTH_FACTOR[len(words)], key, words))
    scored.sort(key=lambda t: (-t[0], t[1]))
    if k is None:
        k = max(3, min(8, 3 + len(doc.text.split()) // 45))
    chosen: list[tuple[set, str]] = []
    for _, key, words in scored:
        ks = set(key)
        if any(len(ks & c) >= max(1, min(len(ks), len(c)) * 0.5) for c, _ in chosen):
            continue
        text = " ".join(w if (any(c.isupper() for c in w[1:]) or
                              w[:1].isupper() and named[info[w][0]] >= 0.8 * tf[info[w][0]])
                        else w.lower() for w in words)
        chosen.append((ks, text))
        if len(chosen) >= k:
            break
    return [t for _, t in chosen]
