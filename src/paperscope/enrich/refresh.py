"""Keep derived facts current: recompute them for papers whose text changed since."""
from __future__ import annotations

from typing import Callable

from . import FACTS_VERSION, derive_facts
from ..store.protocol import Store

BATCH = 500


def refresh_facts(store: Store, progress: Callable[[str, int, int], None] | None = None) -> int:
    """Derive facts for every paper whose text (or the extractors, `FACTS_VERSION`) changed
    since its facts were made, paging through the papers so memory stays bounded. Each batch is
    one transaction. Returns how many papers were (re)derived."""
    version = f":{FACTS_VERSION}"
    total = store.stale_facts_count(version)
    done, last = 0, 0
    while done < total:
        chunk = store.stale_facts(version, last, BATCH)
        if not chunk:
            break
        updates = []
        for r in chunk:
            facts = derive_facts(r["title"], r["abstract"])
            label = r["title"] or facts.get("label") or None
            updates.append((facts, label, r["text_hash"] + version, r["id"]))
        with store.transaction():
            store.save_facts(updates)
        last = chunk[-1]["rowid"]
        done += len(chunk)
        if progress:
            progress("facts", done, total)
    return done
