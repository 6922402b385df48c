"""One name per concept across the four faces: the command line, the `Library` facade, the HTTP
API and the MCP server. `tests/test_names.py` fails when a command, a public `Library` method,
an API route or an MCP tool is missing from this table or named otherwise.

The rule: a concept's CLI command (`-` and spaces read as `_`), its `Library` method and its
MCP tool carry the same name; its API routes are listed as they are. A new face or a new
command adds its row here. Old names that scripts may still use are kept as hidden aliases
(`CLI_ALIASES`, `API_ALIASES`) and old parameter names are accepted but not advertised
(`RETIRED_PARAMS`).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Concept:
    name: str                    # the Library method (and CLI command, MCP tool) name
    cli: bool = True             # a CLI command of that name (`_` written `-`, `db_x` as `db x`)
    library: bool = True         # a Library method of that name
    api: tuple[str, ...] = ()    # "METHOD /api/path" routes
    mcp: bool = False            # an MCP tool of that name


CONCEPTS: tuple[Concept, ...] = (
    # the library itself
    Concept("ingest"),
    Concept("build"),
    Concept("load"),
    Concept("copy"),
    Concept("remove"),
    Concept("fetch", api=("POST /api/fetch",), mcp=True),
    Concept("resolve", api=("POST /api/resolve",), mcp=True),
    Concept("relabel"),
    Concept("stats", api=("GET /api/stats",)),
    Concept("collections", cli=False, api=("GET /api/collections",)),
    Concept("db_start"),
    Concept("db_stop"),
    # reading papers
    Concept("papers", api=("GET /api/papers",)),
    Concept("show", api=("GET /api/papers/{paper_id}",), mcp=True),
    Concept("search", api=("GET /api/search",), mcp=True),
    Concept("related", api=("GET /api/related", "POST /api/related", "GET /api/papers/{paper_id}/related"),
            mcp=True),
    Concept("ask", api=("GET /api/ask", "POST /api/ask"), mcp=True),
    # analysis
    Concept("topics", api=("GET /api/topics",), mcp=True),
    Concept("map", api=("GET /api/map",)),
    Concept("compare", api=("GET /api/compare",), mcp=True),
    Concept("trends", api=("GET /api/trends",)),
    # the personal library
    Concept("tag", api=("POST /api/papers/{paper_id}/tags",), mcp=True),
    Concept("untag", api=("DELETE /api/papers/{paper_id}/tags/{tag}",)),
    Concept("tags", api=("GET /api/tags",)),
    Concept("note", api=("PUT /api/papers/{paper_id}/note",)),
    Concept("star", api=("PUT /api/papers/{paper_id}/star",)),
    Concept("read", api=("PUT /api/papers/{paper_id}/read",)),
    Concept("irrelevant", api=("PUT /api/papers/{paper_id}/irrelevant",)),
    Concept("mine"),
    Concept("recommend", api=("GET /api/recommend",), mcp=True),
    Concept("export", api=("GET /api/export",), mcp=True),
    Concept("import_library"),
    # expertise
    Concept("match", api=("POST /api/match",)),
    Concept("reviewers", api=("GET /api/reviewers",)),
    Concept("experts", api=("GET /api/experts",)),
    # faces that serve the library (no Library method)
    Concept("serve", library=False),
    Concept("mcp", library=False),
)

# Public Library members that are not a concept of their own: opening and closing, the
# components (for tests and benchmarks; faces never reach into them), and the helpers the web
# pages use to build their menus.
LIBRARY_ONLY = frozenset({
    "open", "close", "path", "data_version", "invalidate", "refresh_derived",
    "engine", "analysis", "recommender", "expertise",
    "filter", "find_collection", "known_collection", "papers_page", "paper_objects", "facets",
    "topic_index", "paper_topics", "profile", "topic_warnings",
})

# Old names still answered, never advertised (hidden from --help and the API reference).
CLI_ALIASES = {"list": "papers"}
API_ALIASES = {"GET /api/trends/topics": "GET /api/trends"}

# Parameter names no face may declare any more: old name -> the one name. The API still
# accepts the old query parameter where scripts used it.
RETIRED_PARAMS = {
    "q": "query",
    "id": "paper_id",
    "paper": "paper_id",
    "exclude_authors": "keep_authors",
    "exclude_coauthors": "keep_coauthors",
}


def by_name() -> dict[str, Concept]:
    return {c.name: c for c in CONCEPTS}


def cli_name(name: str) -> str:
    """The command a concept has on the command line ("db_start" -> "db start")."""
    return name.replace("db_", "db ", 1).replace("_", "-") if name.startswith("db_") else name.replace("_", "-")
