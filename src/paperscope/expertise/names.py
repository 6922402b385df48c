"""Author names as keys: one person written several ways becomes one key, two people with one
written name stay one key (nothing in a paper list can tell them apart).

The rule, in order:

1. Fold: Unicode compatibility decomposition, accents dropped (``José`` -> ``jose``), case
   folded, ``Family, Given`` turned around, every run of non-letters a space (so
   ``Hernández-Lobato`` and ``Hernandez Lobato`` agree).
2. Key: the first token, the multi-letter middle tokens and the last token; one-letter middle
   initials are dropped (``Michael I. Jordan`` = ``Michael Jordan``) and a trailing generational
   suffix (jr, sr, ii, iii, iv) is ignored.
3. Initials: a name whose first token is a single letter (``J. Smith``) is merged into the one
   full name in the library with that initial and the same rest (``John Smith``); when two or
   more full names fit (``John`` and ``Jane Smith``), or none does, it stays its own key.

Failure modes, stated rather than hidden: two people with the same written name are one key
(common names: ``Wei Wang``, ``Yang Liu``); dropping middle initials merges ``Michael I. Jordan``
with a ``Michael K. Jordan``; a transliteration that differs beyond accents (``Jurgen`` vs
``Juergen``), a changed family name or a swapped order without a comma (``Wang Wei``) stays two
keys; scripts other than Latin are kept as written (folded case only).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from typing import Iterable

_NON_LETTER = re.compile(r"[^\w]+|[\d_]+")
SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}


def fold(name: str) -> str:
    """Lower-case ASCII-ish form of a written name: accents dropped, punctuation a space,
    ``Family, Given`` turned to ``Given Family``."""
    name = " ".join(str(name or "").split())
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 3 and parts[1].lower().rstrip(".") in SUFFIXES:  # BibTeX "Family, Jr, Given"
        parts = [parts[0], parts[2]]
    if len(parts) == 2 and all(parts) and parts[1].lower().rstrip(".") not in SUFFIXES:
        name = f"{parts[1]} {parts[0]}"
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("ß", "ss").replace("ø", "o").replace("Ø", "O").replace("ł", "l").replace("Ł", "L")
    return " ".join(_NON_LETTER.sub(" ", plain.casefold()).split())


def name_key(name: str) -> str:
    """The merge key of a written name ('' for an empty one)."""
    tokens = fold(name).split()
    if len(tokens) > 2 and tokens[-1] in SUFFIXES:
        tokens = tokens[:-1]
    if len(tokens) <= 2:
        return " ".join(tokens)
    middle = [t for t in tokens[1:-1] if len(t) > 1]
    return " ".join([tokens[0], *middle, tokens[-1]])


def is_initialled(key: str) -> bool:
    """True for a key whose given name is one letter (``j smith``)."""
    parts = key.split()
    return len(parts) >= 2 and len(parts[0]) == 1


def resolve(keys: Iterable[str]) -> dict[str, str]:
    """{key: merged key}: an initialled key goes to the single full key with the same initial
    and rest; ambiguous or unmatched initialled keys map to themselves."""
    keys = set(keys)
    full_by_short: dict[str, set[str]] = defaultdict(set)
    for k in keys:
        if not is_initialled(k):
            first, rest = k.split(" ", 1) if " " in k else (k, "")
            if rest:
                full_by_short[f"{first[0]} {rest}"].add(k)
    out = {}
    for k in keys:
        fits = full_by_short.get(k, set()) if is_initialled(k) else set()
        out[k] = next(iter(fits)) if len(fits) == 1 else k
    return out


def display_names(spellings: dict[str, Counter]) -> dict[str, str]:
    """{key: the most frequent written spelling; ties: "Given Family" over "Family, Given",
    accents kept over dropped, full names over initials (longest), then alphabetical}."""
    def rank(kv: tuple[str, int]) -> tuple:
        name, count = kv
        return (-count, "," in name, -sum(ord(ch) > 127 for ch in name), -len(name), name)

    return {k: sorted(c.items(), key=rank)[0][0] for k, c in spellings.items() if c}
