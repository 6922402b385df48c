"""Shared checks for the build tests: two libraries give the same answer."""
from __future__ import annotations

import numpy as np

QUERIES = ["reinforcement learning policy", "diffusion models image generation", "graph neural networks",
           "large language model fine-tuning", "convex optimization regret bounds", "privacy",
           "\"neural networks\" -graph", "bandits", "causal inference", "robustness adversarial"]


def snapshot(lib) -> dict:
    """What a user sees of a library: papers (in row order) with facts and memberships,
    vectors by id, and the top-10 of fixed queries."""
    papers = lib.store.papers_by_id([p["id"] for p in lib.papers()])
    vectors = lib.engine.vectors()
    rows = {pid: vectors.matrix[i] for i, pid in enumerate(vectors.ids)}
    return {
        "ids": list(vectors.ids),
        "papers": {pid: {"title": p.title, "abstract": p.abstract, "authors": p.authors, "urls": p.urls,
                         "status": p.status, "facts": p.facts,
                         "collections": [(c["name"], c["source"], c["position"], c["status"])
                                         for c in p.collections]}
                   for pid, p in papers.items()},
        "vectors": rows,
        "top10": {q: [h.id for h in lib.search(q, limit=10)] for q in QUERIES},
        "collections": [(c["name"], c["papers"]) for c in lib.collections()],
    }


def assert_same(a: dict, b: dict) -> None:
    assert a["ids"] == b["ids"]  # same papers in the same row order
    assert a["collections"] == b["collections"]
    for pid, paper in a["papers"].items():
        assert b["papers"][pid] == paper, pid
    cos = [float(np.dot(a["vectors"][pid], b["vectors"][pid])) for pid in a["ids"]]
    assert min(cos) >= 0.9999
    assert a["top10"] == b["top10"]
    assert all(a["top10"][q] for q in a["top10"])


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])  # the parent's pid
        except (OSError, ValueError, IndexError):
            return False
        if pid == ancestor:
            return True
    return False


def worker_pids(title: str = "ray::compute_texts") -> list[int]:
    """Processes under this one whose title names the running build task (Ray sets it while a
    task runs; the local Ray instance started by this process is its descendant)."""
    import os

    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if cmd.startswith(title) and _descends_from(int(entry), me):
            found.append(int(entry))
    return found
