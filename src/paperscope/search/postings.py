"""Per-paper postings: the term counts of each indexed field, stored in `paper_terms` so
that only new or changed papers are ever tokenised again."""
from __future__ import annotations

import json
from typing import Callable, Sequence

import numpy as np

from . import tokens
from ..store.protocol import Store

FIELDS = tokens.FIELDS  # title, label, abstract, authors, keywords (field ids 0..4)
BATCH = 1000


def paper_fields(title: str | None, label: str | None, abstract: str | None,
                 authors_json: str | None, keywords_json: str | None) -> list[str]:
    """The five indexed texts of a paper (label only when it adds something to the title)."""
    label_text = label if label and label != title else ""
    return [title or "", label_text, abstract or "", "; ".join(_json_list(authors_json)),
            "; ".join(_json_list(keywords_json))]


def _json_list(raw: str | None) -> list[str]:
    try:
        value = json.loads(raw or "[]")
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def postings(fields: Sequence[str], surface: dict[str, str] | None = None
             ) -> tuple[np.ndarray, dict[tuple[str, int], int]]:
    """(field lengths, {(term, field): count}) of one paper; `surface` collects the words
    behind the terms (for prefix search)."""
    lengths = np.zeros(len(FIELDS), dtype=np.uint16)
    counts: dict[tuple[str, int], int] = {}
    for f, text in enumerate(fields):
        words = tokens.terms(text, surface)
        lengths[f] = min(len(words), 65535)
        for w in words:
            counts[(w, f)] = counts.get((w, f), 0) + 1
    return lengths, counts


def pack(counts: dict[tuple[str, int], int], vocab: dict[str, int]) -> bytes:
    """uint32 (term id << 3 | field) sorted, then their uint16 counts."""
    keys = np.fromiter(((vocab[t] << 3) | f for (t, f) in counts), dtype=np.uint32, count=len(counts))
    vals = np.fromiter((min(c, 65535) for c in counts.values()), dtype=np.uint16, count=len(counts))
    order = np.argsort(keys)
    return keys[order].tobytes() + vals[order].tobytes()


def unpack(blob: bytes) -> tuple[np.ndarray, np.ndarray]:
    k = len(blob) // 6
    return (np.frombuffer(blob, dtype=np.uint32, count=k),
            np.frombuffer(blob, dtype=np.uint16, count=k, offset=4 * k))


def row_postings(row: dict, surface: dict[str, str] | None = None
                 ) -> tuple[np.ndarray, dict[tuple[str, int], int]]:
    """Postings of a paper given as the store's `index_fields` row."""
    return postings(paper_fields(row["title"], row["label"], row["abstract"], row["authors"],
                                 row["keywords"]), surface)


def index_missing(store: Store, progress: Callable[[str, int, int], None] | None = None) -> int:
    """Compute and store postings for papers that have none; one transaction per batch.
    Returns how many papers were indexed."""
    stale = store.stale_posting_rowids(tokens.VERSION)  # ids only: texts are read per batch
    total = len(stale)
    if not total:
        return 0
    vocab = store.term_vocabulary()
    for start in range(0, total, BATCH):
        chunk = store.index_fields(stale[start:start + BATCH])
        surface: dict[str, str] = {}
        made = [(r["rowid"], *row_postings(r, surface)) for r in chunk]
        with store.transaction():
            new_terms = sorted({t for _, _, c in made for (t, _) in c if t not in vocab})
            if new_terms:
                vocab.update(store.add_terms(new_terms))
            store.save_postings(
                [(rowid, tokens.VERSION, lengths.tobytes(), pack(c, vocab)) for rowid, lengths, c in made],
                [(w, vocab[t]) for w, t in surface.items() if t in vocab])
        if progress:
            progress("index", min(start + BATCH, total), total)
    return total
