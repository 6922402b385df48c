"""The words of paperscope's text, in one place: what a word is, how words fold and stem, and
which words say nothing about a paper's subject. Search (index, query, snippets), enrich (labels,
keyphrases, descriptions), analysis (topic terms, compare), export (citation keys), the fuzzy
identity of ingest and resolve's arXiv phrases import these; where a part needs a different
rule, it names the difference where it applies it (tests/test_words.py holds this).

- `WORD`: a word of any script: runs of letters/digits, chained by joiners (hyphens, slashes,
  and the ^ and _ that rendered LaTeX leaves in names: "pre-training", "E^2GAN", "GPT-4").
- `PROSE_TOKEN`: English prose for phrase statistics: the words of `PROSE_WORD` (starting with
  a letter, hyphens and apostrophes inside: "state-of-the-art", "model's") and, as tokens of their
  own, the clause punctuation no phrase may span.
- `fold`: case, diacritics and compatibility forms; `stem`: Snowball English (search terms);
  `singular`: plural folding for words shown to a reader (labels, keyphrases, topic terms).
- `STOP_WORDS`: English function words; `FILLER_WORDS`: `RHETORIC_WORDS`, what every abstract
  says about itself ("propose", "novel", "results"), and `GENERIC_WORDS`, generic academic nouns
  and adjectives ("method", "performance", "large").
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

JOINERS = "-‐‑/^_"
_LETTERS = r"[^\W_]+"
WORD = re.compile(_LETTERS + r"(?:[" + JOINERS + r"]" + _LETTERS + r")*")
WORD_PART = re.compile(_LETTERS)
JOINER = re.compile(r"[" + JOINERS + r"]")

PROSE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*")
PROSE_TOKEN = re.compile(PROSE_WORD.pattern + r"|[,.;:!?()\[\]{}\"]")

STOP_WORDS = frozenset("""
a about above across after again against al all almost along also although always am among an and
another any are around as at be because been before behind being below between beyond both but by
called can cannot could despite did do does doing done down dubbed due during e.g each either else
enough especially et etc even ever every few for from further given had has have having he her here
hers him his how however i i.e if in into is it its itself just least less let like made make makes
many may me might more most much must my named namely neither no nor not now of off often on once
one only onto or other others otherwise our ours out over own per perhaps quite rather re same
several shall she should since so some such termed than that the their theirs them themselves then
there thereby therefore these they this those though through thus to too toward towards under
unless until up upon us using versus very via vs was we were what whatever when whenever where
whereas whereby whether which while who whom whose why will with within without would yet you your
""".split())

# What every abstract says about itself: useless to tell papers, topics or venues apart.
RHETORIC_WORDS = frozenset("""
able achieve achieved achieves achieving additionally address addresses aim aimed aims allow
allowing allows approach approaches argue argues art available based baseline baselines certain
challenging code com commonly consider considered considers crucial datasets demonstrate
demonstrated demonstrates demonstrating effective effectively enable enables enabling evaluate
evaluation evaluations existing experiment experimental experiments extensive finally framework
frameworks furthermore github http https important improve improved improvement improvements
improves improving include includes including introduce introduced introduces key lack lacks
leverage leverages leveraging main making method methods moreover new novel outperform
outperforming outperforms paper papers paradigm particular particularly potential potentially
present presented presents previous prior problem problems propose proposed proposes proposing
provide provided provides range recent recently remain remains result results show showing shown
shows significant significantly specifically state-of-the-art studies study superior task tasks
technique techniques terms typically use used uses utilize utilizes various way ways wide widely
work works www
""".split()) - STOP_WORDS

# Generic academic nouns and adjectives: they say nothing about one paper's subject ("model",
# "performance", "large"), though next to another word they may name a field ("generative models").
GENERIC_WORDS = frozenset("""
abilities ability addressing algorithm algorithms analyse analysis analyze application applications
aspect aspects benchmark benchmarks best better capabilities capability case cases challenge
challenges common comprehensive current currently data dataset design designed develop developed
different diverse domain domains effectiveness efficiency efficient empirical empirically evaluated
fail fails fewer field fields first five form forms four gap gaps general generally goal goals
great greatly hence high highly insight insights issue issues large lead leading leads level levels
limitation limitations lot low major methodology model models need needs number order overall
performance practical practice providing publicly real real-world related remaining require
required requires respect respectively robust robustness scenario scenarios second set sets setting
settings simple simply six small sota specific standard state strong stronger substantial
substantially term third three two type types understanding usually variety well world
""".split()) - STOP_WORDS - RHETORIC_WORDS

FILLER_WORDS = RHETORIC_WORDS | GENERIC_WORDS


@lru_cache(maxsize=1)
def _drop_combining() -> dict[int, None]:
    return {cp: None for cp in range(0x300, 0x10000) if unicodedata.combining(chr(cp))}


def fold(text: str) -> str:
    """Case, diacritics and compatibility folding (NFKD, casefold, combining marks dropped);
    offsets are not preserved."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKD", text).casefold().translate(_drop_combining())


def fold_char(ch: str) -> str:
    """`fold` of one character (possibly several characters, possibly none)."""
    if ch.isascii():
        return ch.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", ch).casefold() if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


STEM_CACHE: dict[str, str] = {}  # word -> stem; hot loops may read it before calling stem()


def stem(word: str) -> str:
    """Snowball (Porter2) stem of one folded word; words with digits stay as they are
    (cached: the vocabulary of a library is small)."""
    out = STEM_CACHE.get(word)
    if out is None:
        out = _stemmer().stemWord(word) if word.isalpha() else word
        if len(STEM_CACHE) < 500_000:
            STEM_CACHE[word] = out
    return out


# Words ending in s that are not plurals (those ending in ss, us, is or ics are kept anyway).
_NOT_PLURAL = frozenset("alias atlas bias canvas chaos lens news series species".split())


def singular(word: str) -> str:
    """A lower-case word without its plural s: networks -> network, studies -> study,
    llms -> llm; keeps bias, loss, focus, analysis, dynamics, series."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")) \
            and word not in _NOT_PLURAL:
        return word[:-3] + "y" if len(word) > 4 and word.endswith("ies") else word[:-1]
    return word


def prose_tokens(text: str) -> list[str]:
    """The `PROSE_TOKEN`s of a text, a possessive 's dropped ("model's" -> "model")."""
    return [t[:-2] if t.endswith("'s") else t for t in PROSE_TOKEN.findall(text)]


def prose_words(text: str) -> list[str]:
    """The `PROSE_WORD`s of a text, a possessive 's dropped."""
    return [t[:-2] if t.endswith("'s") else t for t in PROSE_WORD.findall(text)]
