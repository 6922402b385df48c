"""The expensive, embarrassingly parallel part of a build: facts and embeddings for a list of
paper texts. Pure: texts in, rows out; no store, no files. The same function runs in the
driver (`--engine local`) and in Ray workers, where the model is loaded once per worker
process and kept for every later task it runs."""
from __future__ import annotations

import json
import os
from typing import Any

_worker_embedder: Any = None  # one model per process, loaded on the first task


def _embedder(threads: int | None) -> Any:
    global _worker_embedder
    if _worker_embedder is None:
        if threads is None:
            from ..search.embedder import get_embedder

            _worker_embedder = get_embedder()
        else:
            from ..search.embedder import Embedder

            _worker_embedder = Embedder(threads=threads)
    return _worker_embedder


def compute_texts(texts: list[dict[str, Any]], *, threads: int | None = None,
                  embedder: Any = None) -> dict[str, Any]:
    """Facts and a float16 vector for each {text_hash, title, abstract}. `threads`: model
    threads (None: the process-wide model with its default). Returns {rows: [{text_hash,
    facts, label, vector}], pid, stages: {facts, embed} CPU seconds}."""
    import time

    from ..enrich import derive_facts
    from ..search.semantic import paper_text

    rows: list[dict[str, Any]] = []
    t0 = time.process_time()
    for t in texts:
        facts = derive_facts(t["title"], t["abstract"])
        rows.append({"text_hash": t["text_hash"], "facts": json.dumps(facts, ensure_ascii=False),
                     "label": t["title"] or facts.get("label") or None})
    t1 = time.process_time()
    model = embedder or _embedder(threads)
    vectors = model.embed([paper_text(t["title"], t["abstract"]) for t in texts])
    for row, vec in zip(rows, vectors):
        row["vector"] = vec.astype("<f2").tobytes()
    t2 = time.process_time()
    return {"rows": rows, "pid": os.getpid(), "stages": {"facts": t1 - t0, "embed": t2 - t1}}
