"""What a backend's method groups (the mixins `sqlite_*.py`, `postgres_*.py`, `shared.py`) call on
the store class that joins them. `SQLiteStore` and `PostgresStore` define each of these; the
stubs here only give the mixins their types (they come last in the method order, so they never
stand in for a real method)."""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:
    from ..model import Paper


class Host:
    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def collection_id(self, venue: str, year: int | None) -> int:
        raise NotImplementedError

    def source_id(self, path: str, sha256: str, fmt: str) -> int:
        raise NotImplementedError

    def papers_by_id(self, ids: list[str]) -> dict[str, Paper]:
        raise NotImplementedError

    def save_embeddings(self, model: str, dim: int, rows: Iterable[tuple[str, bytes]]) -> None:
        raise NotImplementedError

    def _bulk_update(self, papers: Sequence[dict[str, Any]], known: dict[str, dict[str, Any]],
                     counts: dict[str, int]) -> None:
        raise NotImplementedError
