"""A small hand-written library for the search tests: papers chosen so that phrases, prefixes,
exclusions, filters and field weights each have a paper that must and one that must not match.
Ingested through the real `Library.ingest` from a JSONL file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

PAPERS = [
    {"key": "flow", "title": "Flow Matching for Generative Modeling", "venue": "ICLR", "year": 2023,
     "status": "Oral", "code": "https://github.com/example/flow-matching",
     "authors": ["Yaron Lipman", "Ricky T. Q. Chen"], "keywords": ["generative models"],
     "abstract": "We introduce a new paradigm for generative modeling built on continuous normalizing "
                 "flows. Flow matching trains them without simulation by regressing vector fields of "
                 "fixed conditional probability paths, and scales to large image datasets."},
    {"key": "graphmatch", "title": "Graph Matching Networks for Similarity Learning", "venue": "ICML",
     "year": 2019, "status": "Poster", "authors": ["Yujia Li"], "keywords": ["graph networks"],
     "abstract": "We study similarity learning between graphs. A cross-graph attention mechanism lets "
                 "information flow between two graphs, and the matching score between their "
                 "embeddings is learned end to end for retrieval of control flow graphs."},
    {"key": "ddpm", "title": "Denoising Diffusion Probabilistic Models", "venue": "NeurIPS", "year": 2020,
     "status": "Poster", "authors": ["Jonathan Ho", "Ajay Jain", "Pieter Abbeel"],
     "abstract": "We present high quality image synthesis results using diffusion probabilistic models, "
                 "a class of latent variable models inspired by nonequilibrium thermodynamics, trained "
                 "on a weighted variational bound connected to denoising score matching."},
    {"key": "gan", "title": "Generative Adversarial Nets", "venue": "NeurIPS", "year": 2014,
     "status": "Poster", "authors": ["Ian Goodfellow", "Yoshua Bengio"],
     "abstract": "We propose a framework for estimating generative models via an adversarial process in "
                 "which a generator captures the data distribution while a discriminator estimates "
                 "the probability that a sample came from the training data; used for image generation."},
    {"key": "lora", "title": "LoRA: Low-Rank Adaptation of Large Language Models", "venue": "ICLR",
     "year": 2022, "status": "Oral", "code": "https://github.com/example/lora",
     "authors": ["Edward J. Hu", "Yelong Shen"],
     "abstract": "We freeze the pretrained model weights and inject trainable rank decomposition matrices "
                 "into each layer of the Transformer, greatly reducing the number of trainable "
                 "parameters for downstream tasks while matching full fine-tuning quality."},
    {"key": "attention", "title": "Attention Is All You Need", "venue": "NeurIPS", "year": 2017,
     "status": "Oral", "authors": ["Ashish Vaswani", "Noam Shazeer"],
     "abstract": "We propose a simple network architecture based solely on self-mechanisms of "
                 "sequence transduction, dispensing with recurrence and convolutions entirely, and "
                 "reach a new state of the art in machine translation at a fraction of the cost."},
    {"key": "gat", "title": "Sparse Graph Networks for Molecules", "venue": "ICML", "year": 2021,
     "status": "Poster", "authors": ["José García", "Ana Müller"],
     "abstract": "Message passing networks with an attention layer over neighbouring atoms predict "
                 "molecular properties; we sparsify the neighbourhoods so inference on large "
                 "molecules stays cheap, and evaluate on quantum chemistry benchmarks."},
    {"key": "bert", "title": "Deep Bidirectional Transformers for Language Understanding", "venue": "ICLR",
     "year": 2019, "status": "Poster", "authors": ["Jacob Devlin"],
     "abstract": "We introduce a language representation model obtained by pre-training deep "
                 "bidirectional encoders on unlabeled text, conditioning on both left and right "
                 "context in all layers, then fine-tuning it for question answering and inference."},
    {"key": "bandit", "title": "Optimal Regret for Adversarial Bandits", "venue": "COLT", "year": 2024,
     "status": "Poster", "authors": ["Jane Roe"],
     "abstract": "We give an algorithm for adversarial multi-armed bandits with $\\mathcal{O}(\\sqrt{T})$ "
                 "regret against an adaptive adversary and show a matching lower bound, closing "
                 "a logarithmic gap left open by previous analyses of exponential weights."},
    {"key": "rl", "title": "Curiosity-Driven Exploration in Sparse Reward Worlds", "venue": "ICML",
     "year": 2024, "status": "Spotlight", "authors": ["Jane Doe", "John Smith"],
     "abstract": "Agents trained with reinforcement learning struggle when rewards are rare. We add an "
                 "intrinsic curiosity bonus from the prediction error of a learned forward model, and "
                 "the agents explore grid worlds and video games far more efficiently."},
]


def write_papers(path: Path, papers: list[dict] | None = None) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for p in papers or PAPERS:
            row = {k: v for k, v in p.items() if k != "key"}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def make_library(folder: Path, *, embed: bool = False, backend: str = "sqlite"):
    """A fresh library holding PAPERS (a file in `folder`, or a new PostgreSQL database);
    returns (library, {key: paper id})."""
    from backends import location
    from paperscope.library import Library

    lib = Library.open(location(backend, folder))
    report = lib.ingest([write_papers(folder / "papers.jsonl")], embed=embed)
    assert report.to_dict()["added"] == len(PAPERS), report.to_dict()
    ids = {p["title"]: p["id"] for p in lib.papers()}
    return lib, {p["key"]: ids[p["title"]] for p in PAPERS}


def titles(results: list) -> list[str]:
    return [r.paper["title"] for r in results]


@pytest.fixture(scope="module")
def small_library(tmp_path_factory, backend):
    """This library with embeddings, once a test module: (its --db value, {key: paper id})."""
    folder = tmp_path_factory.mktemp("search")
    lib, ids = make_library(folder, embed=True, backend=backend)
    where = lib.store.url if backend == "postgres" else folder / "lib.db"
    lib.close()
    return where, ids

