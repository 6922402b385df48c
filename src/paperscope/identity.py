"""Fuzzy identity: a paper met again with an abstract that differs in small ways.

Exact identity (`ingest`: the normalised abstract, or title + year) misses abstracts that an
aggregator list copied with a typo, a dropped sentence or a mangled formula. This second step
runs only when the exact keys find nothing, only within one venue and year, and only when at
least one side has no title: two titled papers never merge by fuzz.

Candidates come from an inverted index of word 3-shingles per venue/year (shingles shared by
many papers are skipped), so one lookup touches a few posting lists, not every paper. The score
is the containment of the shorter abstract's shingles in the longer one's: a dropped sentence
costs two shingles, a typo three, while two different papers on one topic share almost none.
A match needs the score at or above `THRESHOLD` (chosen on development data by
benchmarks/resolve_eval.py), comparable lengths, enough words to identify a paper, and a clear
lead over the second candidate; anything ambiguous stays unmerged (a wrong merge is worse than
none). Two records of one file never merge by fuzz: a list names each paper once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Container

from .store.protocol import Store
from .words import WORD_PART, fold

THRESHOLD = 0.55  # halfway across the gap resolve_eval measures on dev corpora (wrong <= 0.16, right >= 0.89)
MIN_WORDS = 20  # shorter texts are too generic to identify a paper
MIN_RATIO = 0.4  # the shorter abstract holds at least this share of the longer one's words
MARGIN = 0.25  # the best candidate leads the second by at least this much
COMMON = 40  # a shingle in more papers of one venue than this is no evidence
SHINGLE = 3

def words(text: str) -> list[str]:
    """Lower-cased word tokens, accents folded (the same text in two renderings, same words):
    the letter and digit runs of paperscope.words."""
    return WORD_PART.findall(fold(text or ""))


def shingles(tokens: list[str]) -> frozenset[int]:
    """Hashes of the word 3-grams of a text (its single words when shorter)."""
    if len(tokens) < SHINGLE:
        return frozenset(hash(t) for t in tokens)
    return frozenset(hash(tuple(tokens[i:i + SHINGLE])) for i in range(len(tokens) - SHINGLE + 1))


def containment(a: frozenset[int], b: frozenset[int]) -> float:
    """Share of the smaller set found in the larger one (0 for an empty set)."""
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return len(small & large) / len(small) if small else 0.0


def score(a: str, b: str) -> float:
    """Fuzzy identity score of two abstracts, 0..1 (1: one holds the other word for word)."""
    return containment(shingles(words(a)), shingles(words(b)))


def acceptable(top: float, second: float, size: int, other: int, threshold: float = THRESHOLD) -> bool:
    """Whether a best candidate (score `top`, `other` words) is beyond doubt for an abstract of
    `size` words whose second-best candidate scored `second`."""
    shorter = min(size, other)
    return (top >= threshold and top - second >= MARGIN and shorter >= MIN_WORDS
            and shorter / max(size, other) >= MIN_RATIO)


@dataclass
class Match:
    paper_id: str
    score: float
    runner_up: float = 0.0  # score of the second-best candidate


@dataclass
class _Entry:
    paper_id: str
    titled: bool
    size: int  # words
    grams: frozenset[int]


@dataclass
class VenueIndex:
    """The papers of one venue/year, indexed by their abstracts' shingles. Titled papers wait
    in `pending` (ids only) until an untitled abstract asks: a titled query only ever needs the
    untitled papers, so ingesting proceedings into a library without title-less lists indexes
    nothing."""

    entries: list[_Entry] = field(default_factory=list)
    postings: dict[int, list[int]] = field(default_factory=dict)
    by_id: dict[str, int] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)  # titled papers not indexed yet
    untitled: int = 0

    def add(self, paper_id: str, abstract: str, titled: bool) -> None:
        if paper_id in self.by_id:
            return
        tokens = words(abstract)
        entry = _Entry(paper_id, titled, len(tokens), shingles(tokens))
        self.by_id[paper_id] = len(self.entries)
        for g in entry.grams:
            self.postings.setdefault(g, []).append(len(self.entries))
        self.entries.append(entry)
        self.untitled += not titled

    def set_titled(self, paper_id: str) -> None:
        i = self.by_id.get(paper_id)
        if i is not None and not self.entries[i].titled:
            self.entries[i].titled = True
            self.untitled -= 1

    def ranked(self, abstract: str, n: int = 5) -> tuple[int, list[tuple[float, str, int]]]:
        """(words in `abstract`, its best `n` candidates as (score, paper id, words))."""
        tokens = words(abstract)
        grams = shingles(tokens)
        votes: dict[int, int] = {}
        for g in grams:
            hits = self.postings.get(g)
            if hits and len(hits) <= COMMON:
                for i in hits:
                    votes[i] = votes.get(i, 0) + 1
        best = sorted(votes, key=votes.__getitem__, reverse=True)[:n]
        found = sorted(((containment(grams, self.entries[i].grams), self.entries[i].paper_id, self.entries[i].size)
                        for i in best), reverse=True)
        return len(tokens), found

    def best(self, abstract: str, titled: bool, threshold: float, exclude: Container[str] = ()) -> Match | None:
        """The one paper this abstract is, or None (nothing close enough, or ambiguous, or
        a paper in `exclude`)."""
        size, ranked = self.ranked(abstract)
        if not ranked:
            return None
        top, pid, other = ranked[0]
        second = ranked[1][0] if len(ranked) > 1 else 0.0
        if (not acceptable(top, second, size, other, threshold) or pid in exclude
                or (titled and self.entries[self.by_id[pid]].titled)):
            return None
        return Match(pid, round(top, 4), round(second, 4))


class FuzzyIdentity:
    """Per-venue/year indexes for one ingest run, loaded from the store on first use and kept
    up to date as the run adds papers and fills titles."""

    def __init__(self, store: Store, threshold: float = THRESHOLD):
        self.store = store
        self.threshold = threshold
        self._indexes: dict[tuple[str, int | None], VenueIndex] = {}

    def _index(self, venue: str, year: int | None) -> VenueIndex:
        key = (venue.casefold(), year)
        if key not in self._indexes:
            from .filters import Filter

            name = f"{venue} {year}" if year else venue
            index = self._indexes[key] = VenueIndex()
            every = self.store.ordered_ids(Filter.of(collection=name), "rowid")
            index.pending = self.store.ordered_ids(Filter.of(collection=name, has=["title"]), "rowid")
            titled = set(index.pending)
            self._index_papers(index, [pid for pid in every if pid not in titled])
        return self._indexes[key]

    def _index_papers(self, index: VenueIndex, ids: list[str], chunk: int = 500) -> None:
        for at in range(0, len(ids), chunk):
            found = self.store.papers_by_id(ids[at:at + chunk])
            for pid in ids[at:at + chunk]:
                if pid in found:
                    index.add(pid, found[pid].abstract, bool(found[pid].title))

    def find(self, venue: str, year: int | None, abstract: str, titled: bool,
             exclude: Container[str] = ()) -> Match | None:
        """The paper of this venue/year that `abstract` is, when the match is beyond doubt;
        never one in `exclude` (the papers of the same file: a list names each paper once)."""
        index = self._index(venue, year)
        if titled and not index.untitled:
            return None
        if not titled and index.pending:
            pending, index.pending = index.pending, []
            self._index_papers(index, pending)
        return index.best(abstract, titled, self.threshold, exclude)

    def added(self, venue: str, year: int | None, paper_id: str, abstract: str, titled: bool) -> None:
        index = self._index(venue, year)
        if titled:
            index.pending.append(paper_id)
        else:
            index.add(paper_id, abstract, titled)

    def titled(self, venue: str, year: int | None, paper_id: str) -> None:
        self._index(venue, year).set_titled(paper_id)
