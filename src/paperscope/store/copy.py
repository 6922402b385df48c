"""Move a library between backends (SQLite file <-> PostgreSQL): papers with their facts and
identity keys, collections, list files and memberships, embeddings, and the user's tags, marks,
dismissals and remembered keys, generated titles, in one transaction per table group. Ids stay the same, so
tags and notes stay on their papers; the search indexes are rebuilt at the destination from
the copied rows (no paper is embedded again)."""
from __future__ import annotations

import itertools
from functools import partial
from typing import Callable, Iterator

from .protocol import Store

BATCH = 2000
ORDER = ("papers", "paper_keys", "collections", "sources")
USER = ("user_tags", "user_marks", "user_dismissals", "user_keys", "generated_labels")


def copy_library(src: Store, dest: Store, progress: Callable[[str, int, int], None] | None = None) -> dict[str, int]:
    """Copy every row of `src` into `dest` (rows `dest` already has are kept). Returns counts."""
    counts: dict[str, int] = {}
    with dest.transaction():
        for name in ORDER:
            counts[name] = _copy(src.dump_table(name), partial(dest.load_table, name), name, progress)
        counts["memberships"] = _copy(src.dump_memberships(), dest.load_memberships, "memberships", progress)
    with dest.transaction():
        counts["embeddings"] = _copy(src.dump_embeddings(), partial(_embeddings, dest), "embeddings", progress)
    with dest.transaction():
        for name in USER:
            counts[name] = _copy(src.dump_table(name), partial(dest.load_table, name), name, progress)
    return counts


def _copy(rows: Iterator[tuple], load: Callable[[list], None], name: str,
          progress: Callable[[str, int, int], None] | None) -> int:
    done = 0
    while batch := list(itertools.islice(rows, BATCH)):
        load(batch)
        done += len(batch)
        if progress:
            progress(f"copy {name}", done, 0)
    return done


def _embeddings(dest: Store, rows: list[tuple[str, str, int, bytes]]) -> None:
    for (model, dim), group in itertools.groupby(sorted(rows, key=lambda r: (r[0], r[2])), key=lambda r: (r[0], r[2])):
        dest.save_embeddings(model, dim, [(h, v) for _, h, _, v in group])
