"""The library's authors: every written name folded to a key (`names.py`), initialled names
merged where unambiguous, and flat (author, paper row) pairs, so an author's papers across
venues and years are one profile."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from .names import display_names, name_key, resolve


@dataclass
class AuthorIndex:
    keys: list[str]  # author number -> merged key
    names: list[str]  # author number -> displayed spelling
    pair_author: np.ndarray  # int64, one entry per (author, paper)
    pair_rowid: np.ndarray  # int64 papers.rowid of the pair
    by_key: dict[str, int] = field(default_factory=dict)
    merged: dict[str, str] = field(default_factory=dict)  # any key -> merged key
    by_rowid: dict[int, list[int]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.keys)

    def find(self, name: str) -> int | None:
        """Author number of a written name (after folding and merging), None if unknown."""
        key = name_key(name)
        return self.by_key.get(self.merged.get(key, key))

    def of_paper(self, rowid: int) -> list[int]:
        return self.by_rowid.get(int(rowid), [])

    def paper_counts(self) -> np.ndarray:
        return np.bincount(self.pair_author, minlength=self.size)

    def papers_of(self, author: int) -> np.ndarray:
        return self.pair_rowid[self.pair_author == author]

    def coauthors(self, authors: Iterable[int]) -> set[int]:
        """Everyone who shares a paper of the library with one of `authors` (them excluded)."""
        authors = set(authors)
        mine = np.isin(self.pair_author, list(authors))
        shared = np.isin(self.pair_rowid, self.pair_rowid[mine])
        return set(self.pair_author[shared].tolist()) - authors


def build(rows: Iterable[tuple[int, str, list[str]]]) -> AuthorIndex:
    """From (row number, paper id, written names) rows (`store.author_lists()`)."""
    written: list[tuple[int, str, str]] = []
    for rowid, _pid, names in rows:
        for name in names:
            key = name_key(name)
            if key:
                written.append((int(rowid), key, " ".join(name.split())))
    merged = resolve(k for _, k, _ in written)
    spellings: dict[str, Counter] = defaultdict(Counter)
    for _, key, name in written:
        spellings[merged[key]][name] += 1
    keys = sorted(spellings)
    by_key = {k: i for i, k in enumerate(keys)}
    pairs = sorted({(by_key[merged[key]], rowid) for rowid, key, _ in written})
    shown = display_names(spellings)
    by_rowid: dict[int, list[int]] = defaultdict(list)
    for a, r in pairs:
        by_rowid[r].append(a)
    return AuthorIndex(keys, [shown[k] for k in keys],
                       np.array([a for a, _ in pairs], dtype=np.int64),
                       np.array([r for _, r in pairs], dtype=np.int64),
                       by_key, merged, dict(by_rowid))
