"""Fusing the lexical (BM25F) and semantic (cosine) rankings.

Both scores are known for every candidate (the union of each side's top `POOL`): BM25F comes
from the dense score vector, the cosine from the paper's vector. So instead of fusing ranks
only (reciprocal-rank fusion, kept as the baseline), each score is standardised against its own
list's top `POOL` (z = (x - mean) / std) and the two are added with tuned weights. A z-score
keeps what ranks throw away: how far the best match stands out from the rest, i.e. how sure each
side is. Weights tuned on ICLR 2020 + NIPS 2013-18 (benchmarks/search_tune.py), never on the
ICML 2024 data the quality benchmark reports: the optimum is flat for a lexical weight of
0.8-1.2 (MRR@10 within 0.1 pt), and 1.0 is shipped; z-score fusion beat the best plain RRF
by 0.4 pt (ICLR 2020) and 1.1 pt (NIPS).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

POOL = 100  # candidates taken from each side
RRF_K = 60


@dataclass(frozen=True)
class FusionParams:
    method: str = "zscore"  # zscore | rrf
    lexical_weight: float = 1.0
    semantic_weight: float = 1.0
    rrf_k: float = RRF_K
    rerank: bool = True  # second stage after the fusion
    second: str = "shipped"  # shipped (data/ranker.json says) | hand (rerank.py) | learned (ranker.py)


DEFAULT = FusionParams()


@dataclass
class Stats:
    """Location and spread of one side's top scores (what its z-scores are relative to)."""

    mean: float
    std: float

    @classmethod
    def of(cls, top_scores: np.ndarray) -> "Stats":
        if len(top_scores) == 0:
            return cls(0.0, 1.0)
        std = float(np.std(top_scores))
        return cls(float(np.mean(top_scores)), std if std > 1e-6 else 1.0)

    def z(self, scores: np.ndarray) -> np.ndarray:
        return (np.asarray(scores, dtype=np.float64) - self.mean) / self.std


def ranks_in(candidates: np.ndarray, ranked: np.ndarray) -> np.ndarray:
    """1-based rank of each candidate in `ranked` (0 when absent)."""
    where = {int(p): i + 1 for i, p in enumerate(ranked)}
    return np.array([where.get(int(c), 0) for c in candidates], dtype=np.int64)


def fuse(bm25: np.ndarray, cosine: np.ndarray, lex_rank: np.ndarray, sem_rank: np.ndarray,
         lex_stats: Stats, sem_stats: Stats, params: FusionParams = DEFAULT) -> np.ndarray:
    """Fused score of each candidate (higher is better). `bm25`/`cosine` hold each candidate's
    scores (NaN for a side that is off, e.g. a paper without a vector); ranks are 1-based,
    0 when the candidate is not in that side's pool."""
    if params.method == "rrf":
        lex = np.where(lex_rank > 0, 1.0 / (params.rrf_k + lex_rank), 0.0)
        sem = np.where(sem_rank > 0, 1.0 / (params.rrf_k + sem_rank), 0.0)
        return params.lexical_weight * lex + params.semantic_weight * sem
    lex = np.nan_to_num(lex_stats.z(bm25), nan=-3.0)
    sem = np.nan_to_num(sem_stats.z(cosine), nan=-3.0)
    return params.lexical_weight * lex + params.semantic_weight * sem
