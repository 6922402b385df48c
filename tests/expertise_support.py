"""A small library for the expertise tests: a few authors with several papers across venues and
years (one written three ways), co-authors, and papers on distinct topics."""
from __future__ import annotations

import json
from pathlib import Path

GRAPH = "graph"
BANDIT = "bandit"

PAPERS = [
    # Ana Müller: molecules with graph networks, written three ways over three venues / years
    {"title": "Sparse Graph Networks for Molecules", "venue": "ICML", "year": 2021,
     "authors": ["Ana Müller", "José García"],
     "abstract": "Message passing networks with an attention layer over neighbouring atoms predict molecular "
                 "properties; we sparsify the neighbourhoods so inference on large molecules stays cheap."},
    {"title": "Equivariant Message Passing for Protein Graphs", "venue": "NeurIPS", "year": 2022,
     "authors": ["A. Müller"],
     "abstract": "We build rotation-equivariant graph neural networks whose messages between residues respect "
                 "3D symmetry, improving protein property prediction and molecular docking benchmarks."},
    {"title": "Pretraining Graph Transformers on Molecular Conformers", "venue": "ICML", "year": 2023,
     "authors": ["Muller, Ana", "Kim Lee"],
     "abstract": "Self-supervised pretraining of graph transformers on millions of molecular conformers "
                 "transfers to quantum chemistry property prediction with few labels."},
    # Dan Bandit: bandits, two papers, both with Bea Twin
    {"title": "Thompson Sampling for Linear Bandits with Delays", "venue": "COLT", "year": 2023,
     "authors": ["Dan Bandit", "Bea Twin"],
     "abstract": "We analyse Thompson sampling for stochastic linear bandits when rewards arrive with random "
                 "delays and prove regret bounds that degrade gracefully with the expected delay."},
    {"title": "Best-of-Both-Worlds Regret for Multi-Armed Bandits", "venue": "COLT", "year": 2024,
     "authors": ["Dan Bandit", "Eve Stone", "Bea Twin"],
     "abstract": "An algorithm for multi-armed bandits that attains logarithmic regret in stochastic "
                 "environments and square-root regret against an adversary, without knowing which."},
    # Jane Roe: bandits too, with her co-author Carl Close
    {"title": "Optimal Regret for Adversarial Bandits", "venue": "COLT", "year": 2024,
     "authors": ["Jane Roe", "Carl Close"],
     "abstract": "We give an algorithm for adversarial multi-armed bandits with square-root regret against "
                 "an adaptive adversary and a matching lower bound for exponential weights."},
    {"title": "Contextual Bandits with Switching Costs", "venue": "ICML", "year": 2024,
     "authors": ["Carl Close", "Otto Other"],
     "abstract": "Contextual bandit learning when changing the chosen arm costs money: an algorithm with "
                 "regret and switching cost bounds for adversarial contexts."},
    # Wei Chen: diffusion models, two papers
    {"title": "Denoising Diffusion for Image Synthesis", "venue": "NeurIPS", "year": 2020,
     "authors": ["Wei Chen", "Kim Lee"],
     "abstract": "High quality image synthesis with diffusion probabilistic models trained on a weighted "
                 "variational bound connected to denoising score matching."},
    {"title": "Faster Sampling for Score-Based Generative Models", "venue": "ICLR", "year": 2022,
     "authors": ["Wei Chen"],
     "abstract": "We reduce the number of denoising steps of score-based diffusion generative models for "
                 "images with a learned ODE solver, keeping sample quality."},
    # Lena Conf: conformal prediction ("conformal" and "conformers" share a stem)
    {"title": "Conformal Prediction Sets under Label Shift", "venue": "ICML", "year": 2024,
     "authors": ["Lena Conf"],
     "abstract": "Split conformal prediction gives coverage guarantees that break under label shift; we "
                 "reweight the calibration scores and recover valid prediction sets."},
    {"title": "Distribution-Free Uncertainty with Conformal Calibration", "venue": "NeurIPS", "year": 2023,
     "authors": ["Lena Conf"],
     "abstract": "Conformal calibration turns any classifier's scores into prediction sets with "
                 "distribution-free coverage; we study the size of the sets."},
    # others
    {"title": "Curiosity-Driven Exploration in Sparse Reward Worlds", "venue": "ICML", "year": 2024,
     "authors": ["Jane Doe", "John Smith"],
     "abstract": "Agents trained with reinforcement learning struggle when rewards are rare; an intrinsic "
                 "curiosity bonus from a learned forward model helps them explore."},
    {"title": "Low-Rank Adaptation of Large Language Models", "venue": "ICLR", "year": 2022,
     "authors": ["Edward Hu"],
     "abstract": "We freeze pretrained weights and inject trainable rank decomposition matrices into each "
                 "Transformer layer, reducing trainable parameters for downstream tasks."},
    {"title": "Molecular Property Prediction with Graph Attention", "venue": "ICML", "year": 2024,
     "authors": ["Rita Novel"],
     "abstract": "Graph attention networks over atoms and bonds predict molecular properties such as "
                 "solubility and toxicity; attention over neighbouring atoms explains the predictions."},
]

# the paper reviewers are wanted for: Jane Roe's new bandit paper
NEW_BANDIT = {"title": "Adaptive Adversaries in Multi-Armed Bandits", "venue": "ICML", "year": 2025,
              "authors": ["Jane Roe", "Zed Newcomer"],
              "abstract": "Multi-armed bandits against an adaptive adversary: we show square-root regret "
                          "for an exponential weights algorithm and a matching lower bound."}

BIBTEX = """@inproceedings{muller2021,
  title = {Sparse Graph Networks for Molecules},
  author = {M{\\"u}ller, Ana and Garc{\\'i}a, Jos{\\'e}},
  year = {2021}
}
@inproceedings{muller2023,
  title = {Pretraining Graph Transformers on Molecular Conformers},
  author = {M{\\"u}ller, Ana},
  year = {2023}
}
@article{muller2025,
  title = {Coarse-Grained Graph Networks for Polymers},
  author = {M{\\"u}ller, Ana},
  abstract = {Graph neural networks over coarse-grained polymer graphs predict material properties of
              long molecules from their monomers.},
  year = {2025}
}
"""


def write(path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for p in PAPERS + [NEW_BANDIT]:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    return path


def make_library(folder: Path):
    """(library, {title: paper id}) holding PAPERS and NEW_BANDIT, embedded."""
    from paperscope.library import Library

    lib = Library.open(folder / "lib.db")
    lib.ingest([write(folder / "papers.jsonl")], embed=True)
    return lib, {p["title"]: p["id"] for p in lib.papers()}
