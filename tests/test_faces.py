"""The faces (command line, web app, MCP server) go through the `Library` facade only: none
imports from `store/` or reaches into a component of the facade (`lib.store`, `lib.engine`,
`lib.analysis`, `lib.recommender`, `lib.expertise`)."""
from __future__ import annotations

import ast
from pathlib import Path

import paperscope

SRC = Path(paperscope.__file__).parent
FACES = sorted([*SRC.joinpath("cli").glob("*.py"), *SRC.joinpath("web").glob("*.py"), *SRC.glob("assistant*.py")])
COMPONENTS = {"store", "engine", "analysis", "recommender", "expertise"}


def _imported(node: ast.AST, package: tuple[str, ...]) -> str | None:
    """The absolute module an import statement in `package` names (None for other nodes)."""
    if isinstance(node, ast.ImportFrom):
        if node.level == 0:
            return node.module
        base = package[:len(package) - node.level + 1]
        return ".".join(base + ((node.module,) if node.module else ()))
    if isinstance(node, ast.Import):
        return ",".join(a.name for a in node.names)
    return None


def trespasses(text: str, package: tuple[str, ...], name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(text)):
        module = _imported(node, package)
        if module and any(part.startswith("paperscope.store") for part in module.split(",")):
            found.append(f"{name}:{node.lineno} imports {module}")
        if isinstance(node, ast.Attribute) and node.attr in COMPONENTS:
            found.append(f"{name}:{node.lineno} reaches .{node.attr}")
    return found


def test_faces_use_only_the_facade():
    assert len(FACES) > 20
    found = []
    for face in FACES:
        package = face.relative_to(SRC.parent).parent.parts
        found += trespasses(face.read_text(encoding="utf-8"), package, f"{'/'.join(package[1:] + (face.name,))}")
    assert found == []


def test_the_scan_sees_a_trespass():
    """The check itself: a face that opens the store or reaches into the library is caught."""
    text = "from ..store import open_store\nfrom . import deps\n\ndef f(lib):\n    return lib.store.data_version()\n"
    assert trespasses(text, ("paperscope", "web"), "probe.py") == [
        "probe.py:1 imports paperscope.store", "probe.py:5 reaches .store"]
    assert trespasses("from .store import open_store\n", ("paperscope",), "assistant.py") == [
        "assistant.py:1 imports paperscope.store"]
