"""Ingest a generated ~100 MB paper list through the real CLI (no embeddings) and report
papers/s and the process's peak RSS: shows that ingest streams with bounded memory.
Writes benchmarks/results/ingest_stress.json.

    .venv/bin/python benchmarks/ingest_stress.py [--mb 100]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VOCAB = ("model data learning graph neural network training loss sample policy reward kernel "
         "optimization gradient robust transformer attention diffusion causal bandit convex "
         "regret bound estimator variance prior posterior latent generative adversarial sparse "
         "federated privacy fairness language vision reinforcement contrastive retrieval").split()


def write_list(path: Path, megabytes: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    target = megabytes * 1024 * 1024
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        f.write("NeurIPS 2023 Papers\n\n")
        while f.tell() < target:
            words = " ".join(rng.choice(VOCAB) for _ in range(150))
            f.write(f"We propose Method{n}, a {words}. Experiments on benchmark {rng.randint(0, 10**9)} "
                    f"show gains of {rng.randint(1, 40)}% over strong baselines.\n\n")
            n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "stress.txt"
        n = write_list(src, args.mb)
        size_mb = src.stat().st_size / 2**20
        env = {**os.environ, "PAPERSCOPE_DB": str(Path(tmp) / "stress.db")}
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "paperscope", "ingest", "--no-embed", "--json", str(src)],
                              env=env, capture_output=True, text=True)
        dt = time.perf_counter() - t0
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        report = json.loads(proc.stdout) if proc.returncode == 0 else {"error": proc.stderr[-2000:]}
    out = {"file_mb": round(size_mb, 1), "paragraphs": n, "added": report.get("added"),
           "seconds": round(dt, 1), "papers_per_s": round(n / dt, 1), "peak_rss_mb": round(peak_mb, 1),
           "exit_code": proc.returncode, "note": "full CLI ingest incl. facts (enrich), no embeddings"}
    print(json.dumps(out, indent=2))
    (ROOT / "benchmarks" / "results" / "ingest_stress.json").write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
