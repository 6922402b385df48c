"""Terms of abstracts, shared by topic labels (c-TF-IDF) and venue comparison (log-odds).

Tokens are lower-cased words (hyphenated words kept whole; `words.prose_tokens`, so clause
punctuation separates them), stop words and rhetoric dropped, plurals folded into one key
(`words.singular`: "networks" -> "network") and shown in their most common surface form. Terms
are unigrams plus bigrams of neighbouring kept tokens.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
from scipy import sparse

from ..words import RHETORIC_WORDS, STOP_WORDS, prose_tokens, singular

# Topic and compare terms leave out stop words and rhetoric, but not the rest of the filler words
# (words.GENERIC_WORDS): across many papers "generative models", "clustering algorithm",
# "large batch" name a topic, where for one paper's label they say nothing.
STOP = STOP_WORDS | RHETORIC_WORDS


class Terms:
    """Document-term counts over a list of texts, with display forms for each term."""

    def __init__(self, texts: list[str], *, min_df: int = 2, bigrams: bool = True):
        keymap: dict[str, str | None] = {}  # token -> folded key, None for stop words/punctuation
        seen: Counter = Counter()
        vocab: dict[str, int] = {}
        indptr, cols = [0], []
        for text in texts:
            toks = prose_tokens((text or "").lower())
            seen.update(toks)
            keys = []
            for w in toks:
                k = keymap.get(w, "")
                if k == "":
                    k = keymap[w] = _key(w)
                keys.append(k)
            grams = [k for k in keys if k]
            if bigrams:
                grams += [f"{a} {b}" for a, b in zip(keys, keys[1:]) if a and b and a != b]
            cols.extend(vocab.setdefault(g, len(vocab)) for g in grams)
            indptr.append(len(cols))
        counts = sparse.csr_matrix((np.ones(len(cols), dtype=np.float32), np.array(cols, dtype=np.int64),
                                    np.array(indptr, dtype=np.int64)), shape=(len(texts), len(vocab)))
        counts.sum_duplicates()
        df = np.asarray((counts > 0).sum(axis=0)).ravel()
        names = np.array(list(vocab), dtype=object)
        keep = np.flatnonzero(df >= min_df)
        keep = keep[np.argsort(names[keep].astype(str), kind="stable")]  # alphabetical columns
        self.vocab = [str(g) for g in names[keep]]
        self.counts = counts[:, keep].tocsr()
        surface: dict[str, tuple[int, str]] = {}
        for w, c in sorted(seen.items()):
            k = keymap.get(w)
            if k and (k not in surface or c > surface[k][0]):
                surface[k] = (c, w.strip("-'"))
        self.display = [" ".join(surface.get(p, (0, p))[1] for p in g.split(" ")) for g in self.vocab]


def _key(token: str) -> str | None:
    w = token.strip("-'")
    if len(w) < 2 or not w[0].isalpha() or w in STOP:
        return None
    k = singular(w)
    return None if k in STOP else k


def class_tfidf(terms: Terms, assign: np.ndarray, k: int) -> np.ndarray:
    """c-TF-IDF (k, vocab): share of a topic's papers that use a term, times
    log(1 + mean papers per topic / papers using the term anywhere). Presence, not raw counts,
    so one paper repeating its method name cannot take over its topic's label."""
    present = (terms.counts > 0).astype(np.float32)
    onehot = sparse.csr_matrix((np.ones(len(assign), dtype=np.float32),
                                (assign, np.arange(len(assign)))), shape=(k, len(assign)))
    per_class = np.asarray((onehot @ present).todense())
    sizes = np.maximum(np.bincount(assign, minlength=k), 1)[:, None]
    tf = per_class / sizes
    total = per_class.sum(axis=0)
    idf = np.log1p((len(assign) / max(k, 1)) / np.maximum(total, 1.0))
    scores = tf * idf
    # A label term must be shared: used by 2+ papers of the topic (10 % of a large one), unless
    # no term of that topic qualifies.
    support = np.maximum(2, np.ceil(0.1 * sizes))
    shared = np.where(per_class >= support, scores, 0.0)
    usable = shared.max(axis=1, initial=0.0) > 0
    scores[usable] = shared[usable]
    return scores


def top_terms(scores: np.ndarray, terms: Terms, n: int = 8) -> list[list[str]]:
    out = []
    for row in scores:
        order = sorted(np.flatnonzero(row > 0), key=lambda j: (-row[j], terms.vocab[j]))[:n * 3]
        out.append([terms.display[j] for j in order])
    return out


def label_from_terms(candidates: list[str], n: int = 3) -> str:
    """Up to n readable phrases from ranked terms: a bigram absorbs the unigrams it contains,
    overlapping bigrams chain ("deep neural" + "neural network" -> "deep neural network"), and
    nothing is said twice."""
    chosen: list[list[str]] = []
    for term in candidates:
        words = term.split()
        if any(set(words) <= set(c) for c in chosen):
            continue  # already said
        merged = False
        if len(words) > 1:
            for i, c in enumerate(chosen):
                if len(c) == 2 and c[-1] == words[0]:
                    chosen[i], merged = c + words[1:], True
                elif len(c) == 2 and c[0] == words[-1]:
                    chosen[i], merged = words[:-1] + c, True
                if merged:
                    words = chosen[i]
                    break
            if not merged and any(len(c) > 1 and set(c) & set(words) for c in chosen):
                continue  # overlaps a phrase already said without extending it
        if not merged:
            absorbed = [j for j, c in enumerate(chosen) if set(c) <= set(words)]
            if absorbed:
                chosen[absorbed[0]] = words
            elif len(chosen) < n:
                chosen.append(words)
            elif not absorbed:
                break
        keep = []  # drop terms now contained in a longer one
        for c in chosen:
            if not any(c is not d and set(c) < set(d) for d in chosen) and c not in keep:
                keep.append(c)
        chosen = keep
    return ", ".join(" ".join(c) for c in chosen[:n])
