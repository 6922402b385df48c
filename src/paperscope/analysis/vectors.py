"""Paper vectors for analysis: the library's semantic embeddings, else (no paper embedded yet) a
TF-IDF + SVD (LSA) stand-in fitted on the papers at hand."""
from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from .clustering import normalise


def paper_text(paper: dict[str, Any]) -> str:
    title = paper.get("title") or ""
    abstract = paper.get("abstract") or ""
    return f"{title}. {abstract}" if title else abstract


def row_hashes(matrix: np.ndarray) -> list[str]:
    m = np.ascontiguousarray(matrix, dtype=np.float32)
    return [hashlib.sha1(row.tobytes()).hexdigest()[:16] for row in m]


def lsa_vectors(texts: list[str], dims: int = 128, seed: int = 0) -> np.ndarray:
    """Deterministic LSA vectors (used only when no embedding model is available)."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2 if len(texts) >= 20 else 1)
    try:
        x = tfidf.fit_transform(texts)
    except ValueError:  # empty vocabulary
        return np.zeros((len(texts), 1), dtype=np.float32)
    k = max(1, min(dims, x.shape[1] - 1, len(texts) - 1))
    if k < 2:
        return normalise(x.toarray().astype(np.float32))
    svd = TruncatedSVD(n_components=k, algorithm="randomized", random_state=seed)
    return normalise(svd.fit_transform(x).astype(np.float32))


def vectors_for(index: Any, papers: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], np.ndarray, str, list[dict[str, Any]]]:
    """(papers with a vector, their matrix, vector source, papers without one), given the
    library's vector index (`ids`, `matrix`). The matrix rows follow the returned papers'
    order. Papers not embedded yet are returned as missing (they count as unassigned); when
    none of the papers has an embedding, LSA vectors stand in."""
    row = {pid: i for i, pid in enumerate(index.ids)}
    have = [p for p in papers if p["id"] in row]
    if have or not papers:
        missing = [p for p in papers if p["id"] not in row]
        m = np.asarray(index.matrix, dtype=np.float32)
        sub = m[[row[p["id"]] for p in have]] if have else np.zeros((0, m.shape[1] if m.ndim == 2 else 384), np.float32)
        return have, sub, "semantic", missing
    ordered = sorted(papers, key=lambda p: p["id"])
    return ordered, lsa_vectors([paper_text(p) for p in ordered]), "lsa", []
