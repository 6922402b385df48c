"""The store contract holds: both backends offer every method of the `Store` Protocol with the
same signature (names, kinds, defaults and annotations of every parameter and the return), an
opened library of either backend is a `Store`, no code outside `store/` takes an untyped
`store`, and the store package passes mypy."""
from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from backends import new_postgres_url
from paperscope.store import open_store
from paperscope.store.postgres import PostgresStore
from paperscope.store.protocol import AREAS, Store
from paperscope.store.sqlite import SQLiteStore

SRC = Path(__file__).resolve().parents[1] / "src" / "paperscope"
BACKEND_CLASSES = {"sqlite": SQLiteStore, "postgres": PostgresStore}


def _members(proto: type) -> dict[str, object]:
    return {n: v for n, v in vars(proto).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}


def _methods() -> dict[str, object]:
    out: dict[str, object] = {}
    for area in AREAS:
        out.update({n: v for n, v in _members(area).items() if not isinstance(v, property)})
    return out


def _properties() -> list[str]:
    return [n for area in AREAS for n, v in _members(area).items() if isinstance(v, property)]


def test_the_protocol_is_composed_of_every_area():
    assert set(_methods()) <= set(dir(Store))
    assert len(_methods()) >= 80  # the whole surface both backends share, not a sample


@pytest.mark.parametrize("backend", sorted(BACKEND_CLASSES))
def test_backend_has_every_protocol_method_with_the_same_signature(backend):
    cls = BACKEND_CLASSES[backend]
    missing = [n for n in _methods() if not callable(getattr(cls, n, None))]
    assert not missing, f"{cls.__name__} lacks {missing}"
    differ = {n: (str(inspect.signature(getattr(cls, n))), str(inspect.signature(m)))
              for n, m in _methods().items()
              if inspect.signature(getattr(cls, n)) != inspect.signature(m)}
    assert not differ, f"{cls.__name__} signatures differ from the Protocol: {differ}"


@pytest.mark.parametrize("backend", sorted(BACKEND_CLASSES))
def test_an_opened_library_is_a_store(backend, tmp_path):
    store = open_store(tmp_path / "lib.db" if backend == "sqlite" else new_postgres_url())
    try:
        assert isinstance(store, BACKEND_CLASSES[backend])
        for name in _properties():
            assert hasattr(store, name), name
        assert store.backend == backend
        assert isinstance(store.readonly, bool)
    finally:
        store.close()


def test_every_public_method_both_backends_share_is_in_the_protocol():
    shared = {n for n in dir(SQLiteStore) if not n.startswith("_") and callable(getattr(SQLiteStore, n))} & \
             {n for n in dir(PostgresStore) if not n.startswith("_") and callable(getattr(PostgresStore, n))}
    assert shared - set(_methods()) == set()


def store_parameters() -> list[tuple[str, int, str, str | None]]:
    """(file, line, parameter, annotation) of every `store`-like parameter outside store/."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.relative_to(SRC).parts[0] == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            a = node.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs:
                if arg.arg == "store" or arg.arg.endswith("_store") or arg.arg == "staging":
                    ann = ast.unparse(arg.annotation) if arg.annotation is not None else None
                    found.append((str(path.relative_to(SRC)), node.lineno, arg.arg, ann))
    return found


def test_no_store_parameter_outside_the_store_package_is_untyped():
    params = store_parameters()
    assert len(params) > 50  # the scan sees them
    loose = [p for p in params if p[3] is None or p[3] in ("Any", "object")]
    assert not loose, f"untyped store parameters: {loose}"
    assert {p[3] for p in params} <= {"Store", "Store | None", "'Store'"}


@pytest.mark.parametrize("backend", sorted(BACKEND_CLASSES))
def test_paper_columns_cross_the_store_as_lists_and_dicts(backend, tmp_path):
    store = open_store(tmp_path / "lib.db" if backend == "sqlite" else new_postgres_url())
    try:
        with store.transaction():
            store.insert_paper({"id": "p1", "abstract": "A study.", "abstract_source": "A study.",
                                "authors": ["Ada Lovelace", "Zoë Ng"], "keywords": ["graphs"],
                                "urls": {"pdf": "https://example.org/p1.pdf"}, "text_hash": "h1"})
            store.update_paper("p1", {"keywords": ["graphs", "trees"], "urls": {"code": "https://example.org/c"}})
        row = store.paper_row("p1")
        assert row["authors"] == ["Ada Lovelace", "Zoë Ng"] and row["keywords"] == ["graphs", "trees"]
        assert row["urls"] == {"code": "https://example.org/c"} and row["facts"] == {}
        with pytest.raises(TypeError, match="authors"), store.transaction():  # JSON text would be stored as a string
            store.update_paper("p1", {"authors": '["Ada Lovelace"]'})
        assert store.paper_row("p1")["authors"] == ["Ada Lovelace", "Zoë Ng"]
    finally:
        store.close()


def test_the_store_package_passes_mypy():
    """The contract is checked, not only written: mypy (pinned in the test extra, configured in
    pyproject.toml) finds no error in any module of the store package."""
    repo = SRC.parents[1]
    modules = sorted((SRC / "store").glob("*.py"))
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(repo / ".mypy_cache")],
                          cwd=repo, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"no issues found in {len(modules)} source files" in done.stdout, done.stdout
