"""Text helpers shared by the enrich modules: emphasis markup, sentences, name-like tokens.

Abstracts arrive as plain-text renderings, but authors' markdown survives that rendering
(`**S**ymmetry-**I**nvariant **T**ransformer (**SiT**)`, `*DiffFPR*`, `_corrector network_`),
so the markup is both a signal (methods.py) and something to strip before display.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from ..words import STOP_WORDS

# --------------------------------------------------------------------------- markup

# **bold** / __bold__ first, then *em* / _em_; an underscore only counts as markup when it is
# not inside a word (`W_2`, `kNN-ECS_m` are not emphasis).
# These run on list text: an opening marker looks for its closing one at most 300 characters on
# (a link's address at most 500), so the work stays linear whatever the text.
_BOLD = re.compile(r"\*\*(?=\S)(.{1,300}?)(?<=\S)\*\*|(?<![\w])__(?=\S)(.{1,300}?)(?<=\S)__(?![\w])")
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])"
                 r"|(?<![\w])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![\w])")
_LEFTOVER_LATEX = re.compile(r"\\(?:textbf|textit|emph|texttt|mathrm|mathbf|text)\{([^{}]*)\}")
_MD_LINK = re.compile(r"\[([^\]\n]{1,200})\]\((\S{1,500}?)\)")
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def emphasised_spans(text: str) -> list[str]:
    """Contents of bold/emphasis markup, in order (nested markup removed)."""
    out = []
    for rx in (_BOLD, _EM):
        for m in rx.finditer(text):
            # `**Sym**bolic`, `**S**ymmetry`: letters highlighted inside a word, not a name
            if m.end() < len(text) and (text[m.end()].isalnum() or text[m.end()] == "*"):
                continue
            if m.start() > 0 and text[m.start() - 1].isalnum():
                continue
            inner = m.group(1) or m.group(2) or ""
            out.append(strip_markup(inner))
    return out


def strip_markup(text: str) -> str:
    """Plain display text: no `**`/`*`/`_` emphasis, LaTeX styling commands or markdown link
    syntax (the link text and the URL are both kept)."""
    if not text:
        return ""
    text = _LEFTOVER_LATEX.sub(r"\1", text)
    if "](" in text:
        text = _MD_LINK.sub(lambda m: m.group(1) if m.group(1) == m.group(2) else
                            f"{m.group(1)} ({m.group(2)})", text)
    if "*" in text or "_" in text:
        text = _BOLD.sub(lambda m: m.group(1) or m.group(2) or "", text)
        text = _EM.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = text.replace("``", '"').replace("''", '"')
    if "{" in text:  # LaTeX grouping around words: "we propose {Scaling Laws of RoPE-based Extrapolation}"
        text = re.sub(r"(?<![\\^_\w])\{([A-Za-z][\w-]*[a-z][^{}$\\]*\s[^{}$\\]*)\}", r"\1", text)
    if "][" in text:  # a markdown reference link: "[Blum & Lykouris][1]"
        text = re.sub(r"\[([^\[\]]{2,80})\]\[\d{1,3}\]", r"\1", text)
    text = re.sub(r"\\([%&#])", r"\1", text)  # "3\%" -> "3%"
    if "*" in text:  # emphasis that spans sentences: "**In this position paper, ... observer." ... "**"
        text = re.sub(r"^\*{1,3}(?=[A-Z(\"'])|(?<=[.!?])\*{1,3}$", "", text.strip())
    return re.sub(r"\s+", " ", text).strip()


def normalise_quotes(text: str) -> str:
    return text.replace("``", '"').replace("''", '"').translate(_QUOTES)


# --------------------------------------------------------------------------- sentences

_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|Fig|Figs|Eq|Eqs|Sec|resp|approx|a\.k\.a|w\.r\.t|"
    r"viz|Dr|Prof|No|Vol|St|U\.S|Ph\.D|i\.i\.d)\.|\b(?:Yahoo|Jeopardy)!|:\s\d\.)$")  # "desiderata: 1. *Intrinsic ...*"  # "on the Yahoo! front page"
# a capital letter and a period after "and", "by", a comma or another initial: a name's initial
_INITIAL = re.compile(r"(?:(?:\band|\bby|\bof|\bwith|&|,|\()\s+|\b[A-Z]\.\s?)[A-Z]\.$")
# a sentence may open on emphasis: "... simulations. **We believe** ..."
_BOUNDARY = re.compile(r"(?<=[.!?])([\"')\]*_]*)\s+(?=[*_]{0,3}[\"'(\[]?[*_]{0,3}(?:[A-Z0-9]|[❶-❿①-⑳➀-➓]\s))")
_CIRCLED = re.compile(r"^[❶-❿①-⑳➀-➓]\s*")  # "❷ Guided by the theoretical guidelines, we ...": an enumerator


MAX_SENTENCE = 1200  # longer "sentences" (lists, run-on text) are split at commas or spaces


def _pieces(sentence: str, limit: int = MAX_SENTENCE) -> list[str]:
    """A run-on sentence in pieces of at most about `limit` characters, so that work per
    sentence stays bounded and the whole pass linear in the text."""
    out = []
    while len(sentence) > limit:
        cut = sentence.rfind(", ", limit // 2, limit)
        cut = cut + 1 if cut > 0 else sentence.rfind(" ", limit // 2, limit)
        cut = cut if cut > 0 else limit
        out.append(sentence[:cut].strip())
        sentence = sentence[cut:].strip()
    out.append(sentence)
    return [s for s in out if s]


def split_sentences(text: str) -> list[str]:
    """Sentence split that survives `e.g.`, `et al.`, initials, decimals and URLs."""
    text = text.strip()
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.start(1) + len(m.group(1))
        before = text[max(start, m.start() - 12):m.start()].rstrip()
        if _ABBREV.search(before) or (text[m.end()] in "*_" and re.search(r"(?:^|\s)\d{1,2}\.$", before)):
            continue  # "2. *Efficient planning.*": an enumerator, not a sentence
        if _INITIAL.search(before) and text[m.end():m.end() + 20].split(" ", 1)[0].lower() not in STOP_WORDS:
            continue  # "inspired by J. von Oswald et al. and K. Ahn et al.": an author's initial
        out.extend(_pieces(text[start:end].strip()))
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.extend(_pieces(tail))
    return [_CIRCLED.sub("", s) for s in out if s]


# --------------------------------------------------------------------------- tokens

_ADJ_SUFFIX = re.compile(
    r"-(?:based|like|driven|guided|aware|free|style|specific|level|wise|agnostic|conditioned|"
    r"inspired|enhanced|augmented|powered|only|scale|time|type|friendly|efficient|tuned|"
    r"trained|centric|oriented|dependent|independent|invariant|equivariant|shot)$", re.I)


ADJ_SUFFIX = _ADJ_SUFFIX  # "LLM-based", "task-specific": adjective compounds


_POSSESSIVE = re.compile(r"(?:'s|’s|')$")


def clean_token(tok: str) -> str:
    """A token without possessive or trailing punctuation: `SiT's` -> `SiT`."""
    tok = tok.strip(".,;:!?\"“”()[]{}")
    return _POSSESSIVE.sub("", tok) if tok.endswith(("s", "'")) else tok


@lru_cache(maxsize=1 << 16)  # a pure function of the token, asked for every token of every abstract
def is_coined(tok: str) -> bool:
    """Does a token look like a coined name (SDT, AttNS, tBMM, PPBench2024, g-BH, FQI-LOG)
    rather than an English word? Adjective compounds (`LLM-based`) do not count."""
    tok = clean_token(tok)
    if len(tok) < 2 or len(tok) > 30 or _ADJ_SUFFIX.search(tok):
        return False
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9\-_^+.]*", tok) or tok.isdigit() or re.fullmatch(r"\d+[DBMK]", tok):
        return False  # "3D", "7B": a dimension or a size, not a name
    if not any(c.isalpha() for c in tok):
        return False
    upper = sum(c.isupper() for c in tok)
    if upper >= 2:
        return not re.fullmatch(r"[IVX]+", tok)  # roman numerals
    if upper == 1 and any(c.isdigit() for c in tok):
        return True
    # lower-then-upper inside the token: tBMM-like handled above; `eCeLLM`, `kNN` have 2+
    return bool(re.search(r"[a-z][A-Z]", tok))


def _word_char(c: str) -> bool:
    return c.isalnum() or c in "_-"


def token_starts(text: str, token: str) -> list[int]:
    """Where `token` stands in `text` as a whole token (no letter, digit, "_" or "-" on either
    side): a name found without compiling a pattern per name."""
    out, at = [], text.find(token) if token else -1
    while at >= 0:
        end = at + len(token)
        if not (at and _word_char(text[at - 1])) and not (end < len(text) and _word_char(text[end])):
            out.append(at)
        at = text.find(token, at + 1)
    return out


def replace_token(text: str, token: str, by: str) -> str:
    """`text` with every whole-token `token` (see `token_starts`) replaced by `by`."""
    starts = token_starts(text, token)
    if not starts:
        return text
    parts, last = [], 0
    for at in starts:
        if at < last:  # overlapping occurrences: the earlier one was replaced
            continue
        parts += [text[last:at], by]
        last = at + len(token)
    return "".join(parts) + text[last:]


def is_capitalised(tok: str) -> bool:
    tok = clean_token(tok)
    return len(tok) >= 2 and tok[0].isupper() and (tok[1:].islower() or is_coined(tok))


def name_key(name: str) -> str:
    """Identity of a name for de-duplication: case-folded letters and digits, plural `s`
    dropped (`LeaPformers` = `LeaPformer`, `REGAL` = `ReGAL`)."""
    key = "".join(c for c in name.casefold() if c.isalnum())
    if len(key) > 3 and key.endswith("s") and not key.endswith("ss"):
        key = key[:-1]
    return key


# --------------------------------------------------------------------------- document


# "super-resolution.Different from vanilla RNN, ...": a sentence glued to the one before
_GLUED = re.compile(r"(?:(?<=[a-z]{3})|(?<=[A-Z]{2})|(?<=[A-Za-z]\)))[.?!](?=[A-Z][a-z]+[\s,])")


def _unglue(m: re.Match) -> str:
    start = m.string.rfind(" ", 0, m.start()) + 1
    word = m.string[start:m.start()]
    return m.group() if re.search(r"[/@.:]", word) else m.group() + " "  # a URL or a dotted name stays


# a parenthesis padded with spaces inside, around a short name or phrase
_PADDED = re.compile(r"\(\s+([^()\s][^()]{0,60}?)\s*\)")


# a word a PDF line break left hyphenated ("net- works", "In- context"); "high- to low-level" is
# a suspended hyphen and stays
_BROKEN_WORD = re.compile(r"\b([A-Za-z]+)- ([a-z][a-z-]*)\b")
_SUSPENDED = frozenset("and or to nor than versus vs through via as".split())


def _rejoined(m: re.Match) -> str:
    left, right = m.groups()
    first = right.split("-", 1)[0]
    if first in _SUSPENDED:
        return f"{left}-{right}" if "-" in right else m.group()  # "neural text- to-speech"
    for word in (f"{left}-{right}", left + right):  # a spelling the abstract uses elsewhere
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", m.string, re.I):
            return word
    return m.group()


@dataclass
class Doc:
    """An abstract prepared once for every extractor: raw sentences (markup kept) and their
    display versions, plus the index of the first sentence where the authors speak of their
    own work (sentences before it are background)."""

    raw: str
    sentences_raw: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, abstract: str) -> "Doc":
        raw = normalise_quotes(re.sub(r"\s+", " ", abstract or "").strip())
        raw = _GLUED.sub(_unglue, raw) if "." in raw else raw
        raw = _PADDED.sub(r"(\1)", raw) if "( " in raw else raw  # "Clustered HeadAttention ( CHAI )"
        raw = _BROKEN_WORD.sub(_rejoined, raw) if "- " in raw else raw  # "net- works" from a PDF line break
        if "—" in raw:  # "we present BatteryML—a platform": an unspaced dash still ends the name
            raw = re.sub(r"(?<=\w)—(?=\w)", " — ", raw)
        if "--" in raw:  # LaTeX dashes: "Least Volume---a regularization", "Weisfeiler--Leman"
            raw = re.sub(r"(?<=\w)--(?=\w)", "\u2013", re.sub(r"\s*---\s*|\s--\s", " \u2014 ", raw))
        return cls(raw=raw, sentences_raw=split_sentences(raw))

    @cached_property
    def sentences(self) -> list[str]:
        return [strip_markup(s) for s in self.sentences_raw]

    @cached_property
    def text(self) -> str:
        return " ".join(self.sentences)

    @cached_property
    def tokens(self) -> list[list[str]]:
        """Whitespace tokens of each display sentence, punctuation and possessives removed."""
        return [[t for t in (clean_token(w) for w in s.split()) if t] for s in self.sentences]

    @cached_property
    def token_sentences(self) -> dict[str, list[int]]:
        """Token -> indices of the sentences holding it (ascending, one per occurrence)."""
        out: dict[str, list[int]] = {}
        for i, toks in enumerate(self.tokens):
            for t in toks:
                out.setdefault(t, []).append(i)
        return out

    def uses_after(self, token: str, i: int) -> int:
        """How often `token` occurs in the sentences after sentence `i`."""
        at = self.token_sentences.get(token, [])
        return len(at) - bisect.bisect_right(at, i)

    @cached_property
    def own_start(self) -> int:
        """First sentence that speaks about this paper's own work."""
        for i, s in enumerate(self.sentences):
            if OWN_WORK.search(s):
                return i
        return 0


OWN_WORK = re.compile(
    r"\b(?:we|our|us|this (?:paper|work|study|article|note|submission)|the present (?:paper|work)|"
    r"here,? we|in this (?:paper|work))\b", re.I)
