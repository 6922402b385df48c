"""Corpora and embeddings for the topic/map/compare benchmarks.

Loads ICML 2024 posters and ICLR 2020 papers from ../shared/corpora and embeds them with the
library's embedder (paperscope.search.embedder: all-MiniLM-L6-v2, int8 ONNX, from
installed packages), the same text (title. abstract) the library embeds. Vectors are cached
under ~/.cache/paperscope-bench so reruns are fast.
"""
from __future__ import annotations

import csv
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", ROOT.parent / "shared" / "corpora"))
RESULTS = ROOT / "benchmarks" / "results"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "paperscope-bench"
csv.field_size_limit(sys.maxsize)


def require_corpora() -> None:
    """Exit quietly (status 0) when the shared corpora are not on this machine."""
    if not CORPORA.is_dir():
        print(f"skipped: no corpora at {CORPORA}")
        sys.exit(0)


def _paper(pid: str, title: str, abstract: str, venue: str, year: int, keywords=()) -> dict:
    return {"id": pid, "title": title, "label": title, "abstract": abstract, "venue": venue,
            "year": year, "keywords": list(keywords)}


def icml2024() -> list[dict]:
    path = CORPORA / "icml2024_events" / "icml2024_events.json"
    events = json.loads(path.read_text("utf-8"))
    out = []
    for e in events:
        if e.get("type") != "Poster" or not (e.get("abstract") or "").strip():
            continue
        pid = "icml24-" + e["virtualsite_url"].rstrip("/").rsplit("/", 1)[-1]
        out.append(_paper(pid, e["name"], e["abstract"], "ICML", 2024))
    return out


def iclr2020() -> list[dict]:
    path = CORPORA / "iclr2020_miniconf" / "papers.csv"
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return [_paper("iclr20-" + r["UID"], r["title"], r["abstract"], "ICLR", 2020,
                   [k.strip() for k in (r.get("keywords") or "").split("|") if k.strip()])
            for r in rows if (r.get("abstract") or "").strip()]


def paper_text(p: dict) -> str:
    title = p.get("title") or ""
    return f"{title}. {p['abstract']}" if title else p["abstract"]


def embed(texts: list[str]) -> np.ndarray:
    """L2-normalised float32 (n, 384), cached on disk by the texts' hash."""
    key = hashlib.sha1("\x1e".join(texts).encode("utf-8")).hexdigest()[:16]
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"emb_{key}.npy"
    if path.exists():
        return np.load(path)
    from paperscope.search.embedder import get_embedder

    matrix = get_embedder().embed(texts).astype(np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    np.save(path, matrix)
    return matrix


def embedded(papers: list[dict]) -> tuple[list[dict], np.ndarray]:
    return papers, embed([paper_text(p) for p in papers])


if __name__ == "__main__":
    import time

    for name, load in (("icml2024", icml2024), ("iclr2020", iclr2020)):
        t = time.perf_counter()
        ps, m = embedded(load())
        print(name, len(ps), m.shape, f"{time.perf_counter() - t:.1f}s")
