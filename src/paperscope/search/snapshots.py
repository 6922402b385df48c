"""Row lookups shared by the search indexes: every index keeps its papers as a sorted array of
row numbers (`papers.rowid`), and positions are found by binary search."""
from __future__ import annotations

import numpy as np


def positions_in(sorted_rowids: np.ndarray, rowids) -> np.ndarray:
    """Position of each papers.rowid in a sorted rowid array (-1 where absent)."""
    rowids = np.asarray(rowids, dtype=np.int64)
    if not len(sorted_rowids):
        return np.full(len(rowids), -1, dtype=np.int64)
    pos = np.clip(np.searchsorted(sorted_rowids, rowids), 0, len(sorted_rowids) - 1)
    return np.where(sorted_rowids[pos] == rowids, pos, -1)
