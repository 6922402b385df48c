"""The int8 embedding model built from the packaged weights: cached with a checksum, rebuilt
when the cache is damaged, safe to build from two processes at once, replaced by the packaged
model when it cannot be built; and no command ends in a native abort while the model loads."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paperscope.search import embedder as emb
from paperscope.search import model_build

REPO = Path(__file__).resolve().parents[1]
SENTENCES = ["Diffusion models generate images by denoising.",
             "Denoising diffusion probabilistic models synthesise pictures.",
             "A regret bound for online convex optimisation."]


@pytest.fixture(scope="module")
def built_cache(tmp_path_factory) -> Path:
    """A model cache folder holding a freshly built int8 model."""
    folder = tmp_path_factory.mktemp("models")
    env = {**os.environ, "PAPERSCOPE_MODEL_DIR": str(folder)}
    env.pop("PAPERSCOPE_EMBED_MODEL", None)
    subprocess.run([sys.executable, "-c", "from paperscope.search.embedder import Embedder; Embedder()"],
                   env=env, check=True, capture_output=True, timeout=600)
    return folder


def _cache_files(folder: Path) -> tuple[Path, Path]:
    (model,) = folder.glob("*.onnx")
    return model, model.with_name(model.name + ".sha256")


@pytest.fixture()
def model_dir(monkeypatch, tmp_path, built_cache) -> Path:
    """A private copy of the built cache, used by Embedder() in this test."""
    folder = tmp_path / "models"
    folder.mkdir()
    for f in built_cache.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    monkeypatch.setenv("PAPERSCOPE_MODEL_DIR", str(folder))
    monkeypatch.delenv("PAPERSCOPE_EMBED_MODEL", raising=False)
    monkeypatch.setattr(emb, "_fallback_said", False)
    return folder


def test_int8_model_is_cached_with_a_checksum_and_agrees_with_the_packaged_one(model_dir, capfd):
    model, checksum = _cache_files(model_dir)
    digest, name = checksum.read_text("utf-8").split()
    assert name == model.name and hashlib.sha256(model.read_bytes()).hexdigest() == digest

    int8 = emb.Embedder()
    assert int8.kind == "int8"
    assert "building" not in capfd.readouterr().err  # a verified cache is used as it is
    packaged = emb.Embedder(model="packaged")
    a, b = int8.embed(SENTENCES), packaged.embed(SENTENCES)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-4)
    assert (a * b).sum(axis=1).min() > 0.98
    # Same meaning still ranks above a different topic.
    assert a[0] @ a[1] > a[0] @ a[2] + 0.2


def test_a_damaged_cache_is_rebuilt(model_dir, capfd):
    model, checksum = _cache_files(model_dir)
    good = model.read_bytes()
    damaged = bytearray(good)
    damaged[len(damaged) // 2] ^= 0xFF
    model.write_bytes(bytes(damaged))

    assert emb.Embedder().kind == "int8"
    assert "building the int8 embedding model" in capfd.readouterr().err
    assert model.read_bytes() == good  # the build is deterministic


def test_two_processes_building_at_once_leave_one_valid_model(tmp_path, built_cache):
    folder = tmp_path / "models"
    env = {**os.environ, "PAPERSCOPE_MODEL_DIR": str(folder)}
    env.pop("PAPERSCOPE_EMBED_MODEL", None)
    code = "from paperscope.search.embedder import Embedder; print(Embedder().kind)"
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert [o[0].strip() for o in outs] == ["int8", "int8"]
    model, checksum = _cache_files(folder)
    assert model_build.read_verified(model, checksum) == _cache_files(built_cache)[0].read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == sorted([model.name, checksum.name])  # no temp files left


def test_without_onnx_the_packaged_model_is_used_and_said_once(monkeypatch, tmp_path, capfd):
    monkeypatch.setenv("PAPERSCOPE_MODEL_DIR", str(tmp_path / "models"))
    monkeypatch.delenv("PAPERSCOPE_EMBED_MODEL", raising=False)
    monkeypatch.setattr(emb, "_fallback_said", False)
    monkeypatch.setitem(sys.modules, "onnx", None)  # as if the onnx package were not installed

    first = emb.Embedder()
    assert first.kind == "packaged"
    err = capfd.readouterr().err
    assert err.count("using the packaged embedding model") == 1 and "onnx" in err
    assert list((tmp_path / "models").glob("*.failed"))  # later runs do not retry the build

    monkeypatch.setattr(emb, "_fallback_said", False)  # as in a new process
    second = emb.Embedder()
    err = capfd.readouterr().err
    assert second.kind == "packaged" and "building" not in err
    assert err.count("using the packaged embedding model") == 1
    assert np.allclose(first.embed(SENTENCES), second.embed(SENTENCES), atol=1e-6)


def test_an_unwritable_cache_falls_back_without_building(monkeypatch, tmp_path, capfd):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("PAPERSCOPE_MODEL_DIR", str(blocker / "models"))
    monkeypatch.delenv("PAPERSCOPE_EMBED_MODEL", raising=False)
    monkeypatch.setattr(emb, "_fallback_said", False)
    assert emb.Embedder().kind == "packaged"
    err = capfd.readouterr().err
    assert "cannot create the model cache" in err and "building" not in err


@pytest.fixture(scope="module")
def cli_library(tmp_path_factory, built_cache) -> dict:
    """Environment for CLI runs: a small library and the built model cache."""
    folder = tmp_path_factory.mktemp("cli")
    env = {**os.environ, "PAPERSCOPE_DB": str(folder / "lib.db"), "PAPERSCOPE_MODEL_DIR": str(built_cache)}
    env.pop("PAPERSCOPE_EMBED_MODEL", None)
    first = sorted((REPO / "examples" / "lists").iterdir())[0]
    subprocess.run([sys.executable, "-m", "paperscope", "ingest", str(first)], env=env, check=True,
                   capture_output=True, timeout=600)
    return env


def test_related_with_an_unknown_id_exits_1_without_a_native_abort(cli_library):
    # The command starts loading the model in the background and fails before it needs it:
    # the exit used to tear the half-loaded model down (exit 134, "terminate called ...").
    for _ in range(5):
        run = subprocess.run([sys.executable, "-m", "paperscope", "related", "nosuchid"], env=cli_library,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 1, run.stderr
        assert "terminate called" not in run.stderr and "Abort" not in run.stderr
        assert "nosuchid" in run.stdout + run.stderr


def test_related_by_id_exits_cleanly_and_builds_no_model(cli_library, tmp_path):
    # A paper's own vector is stored: `related ID` needs no model, so a first run with an empty
    # model cache neither builds one nor says so, and every run ends with exit 0.
    listed = subprocess.run([sys.executable, "-m", "paperscope", "papers", "--json"], env=cli_library,
                            capture_output=True, text=True, timeout=300, check=True)
    paper = json.loads(listed.stdout)[0]["id"]
    env = {**cli_library, "PAPERSCOPE_MODEL_DIR": str(tmp_path / "empty-cache")}
    first = subprocess.run([sys.executable, "-m", "paperscope", "related", paper, "--json"], env=env,
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) and "building" not in first.stderr
    assert not (tmp_path / "empty-cache").exists()
    for _ in range(4):
        run = subprocess.run([sys.executable, "-m", "paperscope", "related", paper, "-n", "3"], env=cli_library,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "terminate called" not in run.stderr, run.stderr


def test_texts_embedded_side_by_side_get_the_same_vectors_in_order(model_dir):
    """Two lanes run texts on two threads at once; each text's vector must not depend on
    that, nor on which lane ran it, and the rows stay in the caller's order."""
    texts = [f"{s} Variant {i} with {'more words ' * (i % 7)}" for i, s in enumerate(SENTENCES * 12)]
    one = emb.Embedder(threads=1)
    two = emb.Embedder(threads=2)
    assert one.kind == two.kind == "int8" and two.lanes == 2
    seen: list[int] = []
    a = one.embed(texts)
    b = two.embed(texts, progress=lambda done, total: seen.append(done))
    assert np.array_equal(a, b)
    assert seen == sorted(seen) and seen[-1] == len(texts)
    singles = np.vstack([one.embed([t]) for t in texts[:5]])
    assert np.array_equal(singles, b[:5])  # a text alone or among others: the same vector
