"""The `Library`'s expertise answers: profiles (a person's papers), `match` (papers for a
profile), `reviewers` (authors for a paper or a draft) and `experts` (authors for some words);
a mixin of the facade, the work is done by `Expertise`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .expertise.profile import Profile
    from .expertise.results import AuthorSuggestion, MatchHit


class ExpertiseMethods:
    """Mixed into `Library`: needs `store`, `expertise`, `filter()` and `_hits()`."""

    def profile(self, profile: Any = None, *, pasted: str | None = None) -> "Profile":
        """A profile (a person's papers) from a file of papers (BibTeX, RIS, CSL JSON, JSON/JSONL,
        CSV), a tag, a list of paper ids or a list of texts; or from `pasted` text (BibTeX, RIS,
        JSON, or abstracts one per paragraph)."""
        from .expertise.profile import from_pasted, resolve

        if pasted is not None:
            return from_pasted(self.store, pasted, self.expertise.matcher())
        return resolve(self.store, profile, self.expertise.matcher)

    def match(self, profile: Any, *, limit: int | None = None, explain: bool = True,
              aggregate: str | None = None, recency: float | None = None, **filters: Any) -> list["MatchHit"]:
        """Papers (of a collection, a venue / year, or the whole library) ranked by fit to a
        profile (`profile()`'s argument, or a Profile), each with the profile papers and words
        driving it; limit None ranks them all. `aggregate`: facets | centroid | fused;
        `recency`: half-life in years for older profile papers."""
        prof = self.profile(profile)
        return self._hits(self.expertise.match(prof, scope=self.filter(**filters), limit=limit, explain=explain,
                                               aggregate=aggregate, recency=recency))

    def reviewers(self, paper_id: str | None = None, *, text: str | None = None, limit: int = 10,
                  keep_authors: bool = False, keep_coauthors: bool = False,
                  conflicts: list[str] | None = None, min_papers: int = 2, aggregate: str | None = None,
                  recency: float | None = None, **filters: Any) -> dict[str, Any]:
        """Authors of the library suggested for a paper (id or unique prefix) or a text, each
        with the papers that make them fit; the paper's authors, their co-authors and named
        `conflicts` are left out unless `keep_authors` / `keep_coauthors`. Returns {query,
        own_authors, conflicts_excluded, reviewers: [AuthorSuggestion]}. `aggregate`: facets |
        centroid | fused over each author's papers; `recency`: half-life in years for older papers."""
        paper_id = self._one_of(paper_id, text)
        return self.expertise.reviewers(paper_id, text=text, limit=limit, exclude_authors=not keep_authors,
                                        exclude_coauthors=not keep_coauthors, conflicts=conflicts,
                                        min_papers=min_papers, scope=self.filter(**filters),
                                        aggregate=aggregate, recency=recency)

    def experts(self, query: str, *, limit: int = 10, min_papers: int = 2,
                **filters: Any) -> list["AuthorSuggestion"]:
        """Who here works on a topic: authors ranked by fit to some words (`query`, as the API
        and the command call it), with evidence."""
        return self.expertise.experts(query, limit=limit, min_papers=min_papers, scope=self.filter(**filters))
