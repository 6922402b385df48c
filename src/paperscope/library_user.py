"""The `Library`'s personal library: tags, notes, stars, read and "not relevant" marks, the
user's own papers (`mine`), recommendations, export and import of a bibliography (a mixin of
the facade; validation lives in `userdata`, the model in `Recommender`)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .model import InputError

if TYPE_CHECKING:
    from .model import Recommendation


class UserMethods:
    """Mixed into `Library`: needs `store`, `recommender`, `engine`, `filter()`, `papers()`,
    `show()`, `_hits()` and `_memo`."""

    def _user_write(self, fn, *args, **kwargs):
        with self.store.transaction():
            out = fn(self.store, *args, **kwargs)
        self._memo.clear()
        return out

    def _ids(self, refs: str | list[str]) -> list[str]:
        from .userdata import resolve_ids

        return resolve_ids(self.store, [refs] if isinstance(refs, str) else refs)

    def tag(self, paper_ids: str | list[str], tags: str | list[str]) -> dict[str, Any]:
        """Tag papers (ids or unique id prefixes); returns {papers, tags, added}."""
        from .userdata import add_tags

        ids, tags = self._ids(paper_ids), [tags] if isinstance(tags, str) else list(tags)
        return {"papers": ids, "tags": tags, "added": self._user_write(add_tags, ids, tags)}

    def untag(self, paper_ids: str | list[str], tags: str | list[str]) -> dict[str, Any]:
        from .userdata import remove_tags

        ids, tags = self._ids(paper_ids), [tags] if isinstance(tags, str) else list(tags)
        return {"papers": ids, "tags": tags, "removed": self._user_write(remove_tags, ids, tags)}

    def tags(self) -> list[dict[str, Any]]:
        """Every tag with its paper count."""
        return self.store.tag_counts()

    def _mark(self, fn, paper_id: str, *args) -> dict[str, Any]:
        pid = self._ids(paper_id)[0]
        self._user_write(fn, pid, *args)
        return self.show(pid)

    def note(self, paper_id: str, text: str | None) -> dict[str, Any]:
        """Set (empty text: clear) a paper's note; returns the paper."""
        from .userdata import set_note

        return self._mark(set_note, paper_id, text)

    def star(self, paper_id: str, on: bool = True) -> dict[str, Any]:
        from .userdata import set_starred

        return self._mark(set_starred, paper_id, on)

    def read(self, paper_id: str, on: bool = True) -> dict[str, Any]:
        from .userdata import set_read

        return self._mark(set_read, paper_id, on)

    def irrelevant(self, paper_id: str, on: bool = True, tag: str | None = None) -> dict[str, Any]:
        """"Not relevant" (for `tag`, or for every tag): an explicit negative for recommend."""
        from .userdata import set_irrelevant

        return self._mark(set_irrelevant, paper_id, on, tag)

    def mine(self, *, tag: str | None = None, starred: bool = False, read: bool = False,
             noted: bool = False) -> list[dict[str, Any]]:
        """The user's papers: tagged `tag`, or starred / read / with a note; with no filter,
        every paper carrying a tag, a star, a read mark or a note (recently marked first, then
        the tagged ones in tagging order)."""
        from .userdata import tagged_ids

        if tag:
            ids = tagged_ids(self.store, tag)
        elif starred or read or noted:
            ids = self.store.marked_ids(starred=starred, read=read, noted=noted)
        else:
            ids = list(dict.fromkeys(self.store.marked_ids() + [
                pid for t in self.store.tag_counts() for pid in tagged_ids(self.store, t["tag"])]))
        by_id = {p["id"]: p for p in self.papers(ids=ids)}
        found = [by_id[i] for i in ids if i in by_id]
        if tag or starred or read or noted:
            return found
        return [p for p in found if p["tags"] or p["starred"] or p["read"] or p["note"]]

    def recommend(self, *, tag: str | None = None, ids: list[str] | None = None, limit: int = 10,
                  explain: bool = True, **filters: Any) -> list["Recommendation"]:
        """Papers ranked for a tag (its papers positive, "not relevant" ones negative) or for an
        ad-hoc set of ids ("more like these"); each with its score and explanation."""
        from .userdata import dismissed_ids, tagged_ids

        if bool(tag) == bool(ids):
            raise InputError("give either a tag or a list of paper ids")
        positives = tagged_ids(self.store, tag) if tag else self._ids(ids)
        if tag and not positives:
            raise InputError(f"no papers tagged {tag!r} (see `paperscope tags`)")
        return self._hits(self.recommender.recommend(
            positives=positives, negatives=dismissed_ids(self.store, tag), scope=self.filter(**filters),
            limit=limit, explain=explain))

    def export(self, fmt: str, *, tag: str | None = None, query: str | None = None,
               collection: str | None = None, ids: list[str] | None = None,
               limit: int | None = None, skip_untitled: bool = False,
               on_missing: Callable[[str], None] | None = None,
               on_report: Callable[[Any], None] | None = None) -> str:
        """bibtex | ris | csljson | csv | jsonl | markdown text of a tag, a search, a
        collection, some ids or the whole library. Entries whose title is derived or whose
        authors are unknown say so in the entry; `on_missing` hears a one-line summary and
        `on_report` the counts (`export.MissingReport`); `skip_untitled` leaves out papers the
        source gave no title."""
        from .export.select import export

        def search(text: str, n: int) -> list[str]:
            return [h.id for h in self.engine.search(text, limit=n)]

        return export(self.store, search, fmt, tag=tag, query=query, collection=collection, ids=ids,
                      limit=limit, skip_untitled=skip_untitled, on_missing=on_missing,
                      on_report=on_report)

    def import_library(self, path: str | Path, *, tag: str = "mine") -> dict[str, Any]:
        """Tag the papers a user's BibTeX / RIS / CSL JSON / CSV library matches; report the rest."""
        from .export.importer import import_library

        out = import_library(self.store, path, tag=tag)
        self._memo.clear()
        return out
