"""The name table (`paperscope.names`) holds: every CLI command, public `Library` method, API
route and MCP tool is a row of it, carries the row's name, and no face declares a retired
parameter name. A command, method, route or tool added without its row, or renamed on one
face only, fails here."""
from __future__ import annotations

import inspect

import anyio
import pytest

from paperscope import names
from paperscope.cli import app as cli_app
from paperscope.library import Library

CONCEPTS = names.by_name()


def cli_commands() -> dict[str, bool]:
    """Command name -> hidden, subcommands of a group as "group sub"."""
    import typer.main

    out = {}
    for info in cli_app.registered_commands:
        out[info.name or typer.main.get_command_name(info.callback.__name__)] = bool(info.hidden)
    for group in cli_app.registered_groups:
        for info in group.typer_instance.registered_commands:
            out[f"{group.name} {info.name or typer.main.get_command_name(info.callback.__name__)}"] = bool(info.hidden)
    return out


def library_members() -> set[str]:
    return {name for cls in Library.__mro__ if cls is not object for name in vars(cls)
            if not name.startswith("_")}


def test_every_command_is_a_row_of_the_table_and_old_names_are_hidden():
    shown = {name for name, hidden in cli_commands().items() if not hidden}
    hidden = {name for name, hidden in cli_commands().items() if hidden}
    assert shown == {names.cli_name(c.name) for c in names.CONCEPTS if c.cli}
    assert hidden == set(names.CLI_ALIASES)
    for old, new in names.CLI_ALIASES.items():
        assert new in shown, old


def test_every_public_library_member_is_a_row_or_a_named_helper():
    members = library_members()
    concepts = {c.name for c in names.CONCEPTS if c.library}
    assert members - concepts - names.LIBRARY_ONLY == set(), "add a row to names.py (or name it a helper)"
    assert concepts - members == set(), "the table names a Library method that does not exist"
    assert names.LIBRARY_ONLY <= members


def test_cli_commands_with_a_library_method_share_its_parameters():
    """Where a command and its method take the same thing, they call it the same: a command's
    option is named as a parameter of its method, or is presentation (--json, --out, ...)."""
    from typer.main import get_command

    click = get_command(cli_app)
    presentation = {"as_json", "out", "output", "explain", "everything", "file", "off", "level", "source",
                    "dest", "conflict", "ids", "fmt", "growth", "words", "profile", "tags", "text"}
    for concept in names.CONCEPTS:
        if not (concept.cli and concept.library) or concept.name.startswith("db_"):
            continue
        command = click.commands[names.cli_name(concept.name)]
        method = inspect.signature(getattr(Library, concept.name)).parameters
        rest = [p.name for p in method.values() if p.kind is p.VAR_KEYWORD]
        if rest == ["options"]:  # build: forwarded as they are
            continue
        filters = set(inspect.signature(Library.filter).parameters) if rest else set()
        for param in command.params:
            if param.name in presentation or (concept.name, param.name) == ("match", "tag"):  # a profile's source
                continue
            assert param.name in method or param.name in filters, (concept.name, param.name)


def _app(tmp_path):
    from paperscope.web.app import create_app

    Library.open(tmp_path / "names.db").close()
    return create_app(tmp_path / "names.db", cache=False)


def test_every_api_route_is_a_row_of_the_table_and_old_addresses_still_answer(tmp_path):
    from fastapi.testclient import TestClient

    app = _app(tmp_path)
    spec = app.openapi()
    advertised = {f"{method.upper()} {path}" for path, methods in spec["paths"].items() for method in methods}
    assert advertised == {route for c in names.CONCEPTS for route in c.api}
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        for old in names.API_ALIASES:
            method, path = old.split(" ", 1)
            assert path not in spec["paths"]
            answer = client.request(method, path, params={"a": "ICML 2024", "b": "ICLR 2024"})
            assert answer.status_code != 404 or "collection" in answer.json()["error"], old
    app.state.pool.close()


def test_no_face_declares_a_retired_parameter_name(tmp_path):
    app = _app(tmp_path)
    spec = app.openapi()
    app.state.pool.close()
    declared = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            declared += [(f"{method} {path}", p["name"]) for p in op.get("parameters", [])]
    from typer.main import get_command

    for name, command in get_command(cli_app).commands.items():
        declared += [(f"cli {name}", p.name) for p in command.params]
    for member in (c.name for c in names.CONCEPTS if c.library):
        fn = getattr(Library, member)
        if callable(fn):
            declared += [(f"Library.{member}", p) for p in inspect.signature(fn).parameters]
    retired = [(where, p) for where, p in declared if p in names.RETIRED_PARAMS]
    assert retired == []


@pytest.fixture(scope="module")
def mcp_tools(tmp_path_factory):
    from paperscope.assistant import build_server

    db = tmp_path_factory.mktemp("mcp") / "names.db"
    Library.open(db).close()
    server = build_server(db)
    return {t.name: t for t in anyio.run(server.list_tools)}


def test_every_mcp_tool_is_a_row_of_the_table_with_the_library_name(mcp_tools):
    assert set(mcp_tools) == {c.name for c in names.CONCEPTS if c.mcp}
    for name, tool in mcp_tools.items():
        assert CONCEPTS[name].library  # the tool calls the Library method of its name
        params = set(tool.inputSchema.get("properties", {})) if hasattr(tool, "inputSchema") else \
            set(tool.input_schema.get("properties", {}))
        assert not params & set(names.RETIRED_PARAMS), (name, params)


# API query parameters that differ from their Library parameter on purpose: Python keeps
# builtins free (`?type=` is `paper_type`, `?format=` is `fmt`), `sort` orders a page only.
API_SPELLING = {"type": "paper_type", "format": "fmt", "sort": None}


def test_api_parameters_are_named_as_their_library_method_takes_them(tmp_path):
    """A route's query parameter is the same thing by the same name in its `Library` method
    (or one of `filter()`'s), so a script moving from HTTP to Python keeps its words."""
    app = _app(tmp_path)
    spec = app.openapi()
    app.state.pool.close()
    filters = set(inspect.signature(Library.filter).parameters)
    checked, differ = 0, []
    for concept in names.CONCEPTS:
        if not (concept.library and concept.api):
            continue
        takes = set(inspect.signature(getattr(Library, concept.name)).parameters) | filters
        for route in concept.api:
            method, path = route.split(" ", 1)
            for p in spec["paths"][path][method.lower()].get("parameters", []):
                if p["in"] != "query" or p["name"] in API_SPELLING:
                    continue
                checked += 1
                if p["name"] not in takes:
                    differ.append((route, p["name"]))
    assert checked > 40 and differ == []


def test_experts_takes_its_query_by_one_name_on_every_face(tmp_path):
    """`Library.experts(query=...)`, `GET /api/experts?query=` (and the old `?q=`, hidden) and
    the command's QUERY argument: one name for the words, one answer."""
    import json

    from fastapi.testclient import TestClient
    from typer.main import get_command

    from paperscope.web.app import create_app

    topic = "conformal prediction coverage"
    abstracts = ["Conformal prediction gives sets with guaranteed coverage; we adapt it to covariate shift "
                 "by reweighting the calibration scores.",
                 "We study the coverage of split conformal prediction when labels are noisy and show how "
                 "to correct the quantile.",
                 "Graph neural networks predict molecular properties from atoms and bonds with message passing."]
    papers = [{"title": f"Study {i}", "venue": "ICML", "year": 2024, "authors": ["Rita Cover" if i < 2 else "Gus Graph"],
               "abstract": text} for i, text in enumerate(abstracts)]
    (tmp_path / "papers.jsonl").write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    db = tmp_path / "experts.db"
    with Library.open(db) as lib:
        lib.ingest([tmp_path / "papers.jsonl"], embed=False)
        found = [a.name for a in lib.experts(query=topic, limit=5)]
    assert found == ["Rita Cover"]
    app = create_app(db, cache=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        new = client.get("/api/experts", params={"query": topic, "limit": 5})
        old = client.get("/api/experts", params={"q": topic, "limit": 5})
    assert new.status_code == 200 and [a["name"] for a in new.json()] == found
    assert old.json() == new.json()
    assert "q" not in {p["name"] for p in app.openapi()["paths"]["/api/experts"]["get"]["parameters"]}
    arguments = [p.name for p in get_command(cli_app).commands["experts"].params if p.param_type_name == "argument"]
    assert arguments == ["query"]
