"""Keep derived facts current: recompute them for papers whose text changed since."""
from __future__ import annotations

import json
from typing import Callable

from . import derive_facts

BATCH = 500


def refresh_facts(store, progress: Callable[[str, int, int], None] | None = None) -> int:
    """Derive facts for every paper whose `text_hash` differs from its `facts_hash`.
    Each batch is one transaction. Returns how many papers were (re)derived."""
    rows = store.conn.execute(
        "SELECT id, title, abstract, text_hash FROM papers "
        "WHERE facts_hash IS NULL OR facts_hash != text_hash ORDER BY rowid").fetchall()
    total = len(rows)
    for start in range(0, total, BATCH):
        chunk = rows[start:start + BATCH]
        updates = []
        for r in chunk:
            facts = derive_facts(r["title"], r["abstract"])
            label = r["title"] or facts.get("label") or None
            updates.append((json.dumps(facts, ensure_ascii=False), label, r["text_hash"], r["id"]))
        with store.transaction():
            store.conn.executemany(
                "UPDATE papers SET facts = ?, label = ?, facts_hash = ? WHERE id = ?", updates)
        if progress:
            progress("facts", min(start + BATCH, total), total)
    return total
