"""The `Library`'s analysis answers: topics, map, compare, trends (a mixin of the facade; the
work is done by `Analysis`). A scope is a collection name, or a venue and a year."""
from __future__ import annotations

from typing import Any, Sequence

from .filters import Filter
from .model import UsageError


class AnalysisMethods:
    """Mixed into `Library`: needs `analysis`, `engine`, `collections()` and `known_collection()`."""

    def _venue_year(self, collection: str | None, venue: str | None,
                    year: int | str | None) -> dict[str, Any]:
        """A collection name as the venue + year the analysis takes (NotFound if unknown)."""
        if not collection:
            return {"venue": venue, "year": year}
        found = self.known_collection(collection)
        return {"venue": found["venue"], "year": found["year"]}

    def topics(self, *, collection: str | None = None, venue: str | None = None,
               year: int | str | None = None, level: str | int = "coarse",
               ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Topics (id, label, size, share, terms, representative, papers) of a collection or a
        venue/year scope (stored in the library) or of an explicit set of papers."""
        return self.analysis.topics(**self._venue_year(collection, venue, year), level=level, ids=ids)

    @staticmethod
    def topic_warnings(topics: list[dict[str, Any]]) -> list[str]:
        """What to tell the user about `topics` (the result of `topics()`): empty unless they
        rest on too few papers (under 100 in all, or under 10 a topic on average)."""
        from .analysis.topics import small_sample_warnings

        return small_sample_warnings(topics)

    def map(self, *, collection: str | None = None, venue: str | None = None,
            year: int | str | None = None) -> list[dict[str, Any]]:
        """2-D map: (id, x, y, topic, topic_label, label) per paper (stored in the library)."""
        return self.analysis.map_points(**self._venue_year(collection, venue, year))

    def compare(self, a: str, b: str) -> dict[str, Any]:
        """Two venues side by side: topic shares, distinctive terms, paper types."""
        return self.analysis.compare(a, b)

    def trends(self, query: str | None = None, *, venue: str | None = None,
               growth: Sequence[str] | None = None) -> dict[str, Any]:
        """Share of papers containing every query term, per year (collection) of a venue; or,
        with `growth` = two collections (e.g. two years of a venue), their topics ordered by
        how much they grew."""
        from .analysis.trends import query_trend, topic_growth

        if growth:
            if len(growth) != 2 or query:
                raise UsageError("growth takes two collections (e.g. \"ICLR 2018\", \"ICLR 2020\") and no query")
            return topic_growth(self.compare, growth[0], growth[1])
        if not query or not query.strip():
            raise UsageError("give a query, or two collections to compare for growth")

        def search(text: str, *, collection: str, limit: int) -> list[Any]:
            return self.engine.search(text, scope=Filter.of(collection=collection), mode="lexical",
                                      limit=limit, explain=True)

        return query_trend(self.collections(), search, query, venue)
