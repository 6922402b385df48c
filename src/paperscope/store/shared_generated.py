"""Generated titles and TL;DRs (`paperscope relabel`): written by the user's own model, kept in
their own table apart from real titles and derived labels, removable. The SQL is the same in
SQLite and PostgreSQL (the upsert included), so both backends mix this in."""
from __future__ import annotations

from typing import Any, Sequence

_COLUMNS = "paper_id, title, tldr, model, score, created_at"


class GeneratedQueries:
    """Mixed in before `SharedQueries`, whose `_rows`, `_many` and `dialect` it uses."""

    dialect: Any
    _rows: Any
    _many: Any

    def generated_labels(self, paper_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Paper id -> {title, tldr, model, score, created_at} for the ids that have one."""
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(paper_ids), 500):
            which, args = self.dialect.any_of("paper_id", list(paper_ids[i:i + 500]))
            for pid, title, tldr, model, score, at in self._rows(
                    f"SELECT {_COLUMNS} FROM generated_labels WHERE {which}", args):
                out[pid] = {"title": title, "tldr": tldr, "model": model, "score": score, "created_at": at}
        return out

    def save_generated_labels(self, rows: Sequence[tuple[str, str, str | None, str, float | None]]) -> None:
        """(paper_id, title, tldr, model, score) rows, replacing a paper's earlier one; inside a
        transaction."""
        self._many("INSERT INTO generated_labels (paper_id, title, tldr, model, score) VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT (paper_id) DO UPDATE SET title = excluded.title, tldr = excluded.tldr, "
                   "model = excluded.model, score = excluded.score, created_at = excluded.created_at",
                   [tuple(r) for r in rows])

    def remove_generated_labels(self, paper_ids: list[str]) -> int:
        """Delete the generated titles of these papers; how many there were."""
        removed = 0
        for i in range(0, len(paper_ids), 500):
            which, args = self.dialect.any_of("paper_id", list(paper_ids[i:i + 500]))
            removed += len(self._rows(f"DELETE FROM generated_labels WHERE {which} RETURNING paper_id", args))
        return removed
