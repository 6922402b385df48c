"""Keep derived facts current: recompute them for papers whose text changed since."""
from __future__ import annotations

import json
from typing import Callable

from . import FACTS_VERSION, derive_facts

BATCH = 500


def refresh_facts(store, progress: Callable[[str, int, int], None] | None = None) -> int:
    """Derive facts for every paper whose `text_hash` differs from its `facts_hash`, paging
    through the table so memory stays bounded. Each batch is one transaction. Returns how many
    papers were (re)derived."""
    # Facts are stale when the text changed or the extractors did (FACTS_VERSION).
    version = f":{FACTS_VERSION}"
    stale = "(facts_hash IS NULL OR facts_hash != text_hash || ?)"
    total = store.conn.execute(f"SELECT COUNT(*) FROM papers WHERE {stale}", (version,)).fetchone()[0]
    done, last = 0, 0
    while done < total:
        chunk = store.conn.execute(
            f"SELECT rowid, id, title, abstract, text_hash FROM papers WHERE {stale} AND rowid > ? "
            "ORDER BY rowid LIMIT ?", (version, last, BATCH)).fetchall()
        if not chunk:
            break
        updates = []
        for r in chunk:
            facts = derive_facts(r["title"], r["abstract"])
            label = r["title"] or facts.get("label") or None
            updates.append((json.dumps(facts, ensure_ascii=False), label, r["text_hash"] + version, r["id"]))
        with store.transaction():
            store.conn.executemany(
                "UPDATE papers SET facts = ?, label = ?, facts_hash = ? WHERE id = ?", updates)
        last = chunk[-1]["rowid"]
        done += len(chunk)
        if progress:
            progress("facts", done, total)
    return done
