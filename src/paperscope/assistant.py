"""`paperscope mcp`: a user's library as a Model Context Protocol server over stdio, so an
assistant can search it, read papers, see topics, compare collections, get recommendations and
(only when started with --allow-writes) tag papers and fetch a venue from its source.

Every tool calls one `Library` facade method and returns its JSON (the CLI's `--json` shapes).
Arguments are validated by their declared types and bounds (the SDK turns a violation into an
error the model can read); a user mistake (unknown paper, ambiguous prefix, no such collection)
comes back as a tool error with the library's own message. Collections are resources.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from pydantic import Field

from .model import InputError

Text = Annotated[str, Field(min_length=1, max_length=1000)]
Name = Annotated[Optional[str], Field(default=None, max_length=200, description='collection, e.g. "ICML 2024"')]
Year = Annotated[Optional[str], Field(default=None, max_length=20, description="a year or a range: 2024, 2020..2024, >=2020")]
PaperId = Annotated[str, Field(min_length=4, max_length=80, pattern=r"^[A-Za-z0-9_.:-]+$",
                               description="paper id or a unique prefix of at least 4 characters")]
TOPIC_PAPERS = 10  # paper ids listed per topic (the sizes say how many there are)


class _Calls:
    """One library handle, one question at a time; a user mistake becomes a tool error."""

    def __init__(self, lib: Any):
        from mcp.server.mcpserver.exceptions import ToolError

        self.lib, self.lock, self.error = lib, threading.Lock(), ToolError

    def __call__(self, fn, *args, **kwargs):
        try:
            with self.lock:
                return fn(*args, **kwargs)
        except (InputError, ValueError, KeyError) as exc:
            raise self.error(str(exc).strip("'\"")) from None

    def scope(self, collection: str | None) -> str | None:
        """A collection name the library knows (a tool error listing the known ones if not)."""
        if collection and self.lib.find_collection(collection) is None:
            known = ", ".join(c["name"] for c in self.lib.collections()) or "none"
            raise self.error(f"no collection named {collection!r} (collections: {known})")
        return collection


def build_server(db: str | Path | None, *, allow_writes: bool = False, embedder: Any | None = None):
    """The MCP server for the library at `db` (read-only unless `allow_writes`)."""
    from mcp.server.mcpserver import MCPServer

    from .library import Library

    lib = Library.open(db, readonly=not allow_writes, create=False, embedder=embedder)
    server = MCPServer("paperscope", instructions=(
        "A local library of ML conference papers. Search it (hybrid lexical + semantic), open a "
        "paper with `show`, find related work by paper id or by a draft's text, see a collection's "
        "topics, compare two collections, recommend papers from a tag. Paper ids come from the "
        "results; collections are listed as resources. `ask` answers a question with cited papers."
        + ("" if allow_writes else " This server is read-only.")))
    call = _Calls(lib)
    _reading_tools(server, call)
    _ask_tool(server, call)
    _list_tools(server, call, allow_writes)
    _resources(server, call)
    return server


def _reading_tools(server: Any, call: _Calls) -> None:
    """search, related, show, topics, compare."""
    lib = call.lib

    @server.tool(description="Search the library: words, \"exact phrases\", prefix*, -exclusions; "
                             "optional collection/venue/year filters. Returns ranked papers with scores.")
    def search(query: Text, limit: Annotated[int, Field(ge=1, le=100)] = 10, collection: Name = None,
               venue: Name = None, year: Year = None) -> list[dict[str, Any]]:
        return [h.to_json() for h in call(lib.search, query, limit=limit, collection=call.scope(collection),
                                          venue=venue, year=year)]

    @server.tool(description="Papers related to one paper (by id) or to a text of your own (a draft "
                             "abstract); give exactly one of `paper_id` or `text`.")
    def related(paper_id: Optional[PaperId] = None,
                text: Annotated[Optional[str], Field(default=None, max_length=20_000)] = None,
                limit: Annotated[int, Field(ge=1, le=50)] = 10, collection: Name = None) -> list[dict[str, Any]]:
        return [h.to_json() for h in call(lib.related, paper_id, text=text, limit=limit,
                                          collection=call.scope(collection))]

    @server.tool(description="One paper in full: title or derived label, abstract, authors, venue, "
                             "links, extracted facts and the user's tags and notes.")
    def show(paper_id: PaperId) -> dict[str, Any]:
        found = call(lib.show, paper_id)
        if found is None:
            raise call.error(f"no paper with id {paper_id!r}")
        return found

    @server.tool(description="Topics of a collection (or of the whole library): label, size, "
                             "representative terms, the most typical paper ids.")
    def topics(collection: Name = None, level: Literal["coarse", "fine"] = "coarse") -> list[dict[str, Any]]:
        rows = call(lib.topics, collection=call.scope(collection), level=level)
        return [{**t, "papers": t["papers"][:TOPIC_PAPERS]} for t in rows]

    @server.tool(description="Compare two collections: topic shares, distinctive terms (significant "
                             "ones only), paper types, and warnings when a side is small.")
    def compare(a: Annotated[str, Field(min_length=1, max_length=200)],
                b: Annotated[str, Field(min_length=1, max_length=200)]) -> dict[str, Any]:
        out = call(lib.compare, a, b)
        out["topics"] = [{k: v for k, v in t.items() if k != "papers"} for t in out["topics"]]
        return out


def _ask_tool(server: Any, call: _Calls) -> None:
    """ask: an answer with citations (the model in $PAPERSCOPE_LLM_URL writes it, when set)."""
    import os

    lib = call.lib

    @server.tool(description="Answer a question (English or Chinese) from the library with citations: "
                             "`answer` quotes the sentences of the best papers' abstracts, each group cited [n]; "
                             "`citations` maps n to paper id, title and sentences; `weak` is true when nothing "
                             "matches well (then the citations are only the closest papers).")
    def ask(question: Annotated[str, Field(min_length=1, max_length=2000)],
            limit: Annotated[int, Field(ge=1, le=20)] = 5, collection: Name = None, venue: Name = None,
            year: Year = None) -> dict[str, Any]:
        llm = os.environ.get("PAPERSCOPE_LLM_URL") or None
        return call(lib.ask, question, limit=limit, collection=call.scope(collection), venue=venue, year=year,
                    llm=llm).to_json()


def _list_tools(server: Any, call: _Calls, allow_writes: bool) -> None:
    """recommend, tag (with --allow-writes), export."""
    lib = call.lib

    @server.tool(description="Papers recommended from a tag (its papers as positives) or from a list "
                             "of paper ids (\"more like these\"); give exactly one.")
    def recommend(tag: Annotated[Optional[str], Field(default=None, max_length=80)] = None,
                  ids: Annotated[Optional[list[PaperId]], Field(default=None, max_length=200)] = None,
                  limit: Annotated[int, Field(ge=1, le=100)] = 10) -> list[dict[str, Any]]:
        return [h.to_json() for h in call(lib.recommend, tag=tag, ids=ids, limit=limit)]

    @server.tool(description="Tag papers (needs a server started with --allow-writes).")
    def tag(ids: Annotated[list[PaperId], Field(min_length=1, max_length=200)],
            tags: Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]], Field(min_length=1, max_length=20)]
            ) -> dict[str, Any]:
        if not allow_writes:
            raise call.error("this server is read-only: start it with `paperscope mcp --allow-writes` to tag papers")
        return call(lib.tag, ids, tags)

    @server.tool(description="Fetch a venue's accepted papers (title, authors, abstract, decision) from its "
                             "source (OpenReview, the conference site, PMLR) and merge them into the library; "
                             "returns the fetch report (needs a server started with --allow-writes).")
    def fetch(venue: Annotated[str, Field(min_length=1, max_length=40)], year: Annotated[int, Field(ge=1950, le=2099)],
              source: Optional[Literal["openreview", "virtual", "pmlr"]] = None) -> dict[str, Any]:
        from .sources.remote import FetchError

        if not allow_writes:
            raise call.error("this server is read-only: start it with `paperscope mcp --allow-writes` to fetch")
        try:
            return call(lib.fetch, venue, year, source=source)
        except FetchError as exc:
            raise call.error(f"fetch failed: {exc}") from None

    @server.tool(description="Real titles and authors for the title-less papers (of one collection): the "
                             "venue's source first, then arXiv, a match accepted only beyond the fuzzy-identity "
                             "threshold; dry_run says what would change (writes need --allow-writes).")
    def resolve(collection: Name = None, dry_run: bool = True) -> dict[str, Any]:
        if not allow_writes and not dry_run:
            raise call.error("this server is read-only: start it with `paperscope mcp --allow-writes` to resolve")
        return call(lib.resolve, collection, dry_run=dry_run)

    @server.tool(description="A reading list: bibtex, ris, csljson, csv, jsonl or markdown text of a tag, a "
                             "search query, a collection or some paper ids, with counts and a warning when "
                             "entries carry a derived title (the list gave none) or no authors; "
                             "skip_untitled leaves those papers out.")
    def export(format: Literal["bibtex", "ris", "csljson", "csv", "jsonl", "markdown"] = "bibtex",
               tag: Annotated[Optional[str], Field(default=None, max_length=80)] = None,
               query: Annotated[Optional[str], Field(default=None, max_length=1000)] = None,
               collection: Name = None,
               ids: Annotated[Optional[list[PaperId]], Field(default=None, max_length=1000)] = None,
               limit: Annotated[int, Field(ge=1, le=2000)] = 200,
               skip_untitled: bool = False) -> dict[str, Any]:
        if sum(x is not None for x in (tag, query, collection, ids)) != 1:
            raise call.error("give exactly one of `tag`, `query`, `collection` or `ids`")
        said: list[str] = []
        counts: dict[str, int] = {}

        def report(r) -> None:
            counts.update(entries=r.entries, skipped=r.skipped, untitled=r.untitled, no_authors=r.no_authors)

        text = call(lib.export, format, tag=tag, query=query, collection=call.scope(collection), ids=ids,
                    limit=limit, skip_untitled=skip_untitled, on_missing=said.append, on_report=report)
        return {"text": text, **counts, "warning": " ".join(said) or None}


def _resources(server: Any, call: _Calls) -> None:
    """The collections, and one collection with its papers."""
    from mcp.server.mcpserver.exceptions import ResourceError

    lib = call.lib

    @server.resource("paperscope://collections", name="collections", mime_type="application/json",
                     description="Every collection (venue + year) with its paper count.")
    def collections() -> list[dict[str, Any]]:
        with call.lock:
            return lib.collections()

    @server.resource("paperscope://collections/{name}", name="collection", mime_type="application/json",
                     description="One collection: its counts and its papers (id, title or label).")
    def collection(name: str) -> dict[str, Any]:
        with call.lock:
            found = lib.find_collection(name)
            if found is None:
                raise ResourceError(f"no collection named {name!r}")
            papers = lib.papers(collection=found["name"])
        return {**found, "papers": [{"id": p["id"], "title": p.get("title") or p.get("label") or ""}
                                    for p in papers]}


def serve(db: str | Path | None, *, allow_writes: bool = False) -> None:
    """Run the server on stdin/stdout until the client closes it (protocol errors answered
    by `assistant_stdio`)."""
    import anyio

    from .assistant_stdio import run_stdio

    anyio.run(run_stdio, build_server(db, allow_writes=allow_writes))
