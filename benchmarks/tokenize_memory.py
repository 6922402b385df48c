"""Peak memory of counting tokens before embedding (`semantic.embed_missing` sorts the texts to
embed by token count): the whole list in one tokenizer call (before) against
`Embedder.token_counts`, which tokenizes `TOKENIZE_WINDOW` texts at a time and keeps only ids.

Texts: the shared corpora (every reader, title + abstract as `semantic.paper_text` joins them),
repeated to N texts. Each variant runs in its own subprocess; it reports the peak RSS (VmHWM)
growth over the state after the texts are in memory, CPU seconds, and a hash of the counts
(`identical`: both variants count the same).

    .venv/bin/python benchmarks/tokenize_memory.py [--texts 100000]
        -> benchmarks/results/tokenize_memory.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run_info import run_info  # noqa: E402
from _topics_data import CORPORA, RESULTS, require_corpora  # noqa: E402

VARIANTS = ("one call", "windows")


def texts(n: int) -> list[str]:
    from paperscope import sources
    from paperscope.model import Record
    from paperscope.search.semantic import paper_text

    real = [paper_text(item.title, item.abstract) for f in sources.expand([CORPORA])
            for item in sources.read(f) if isinstance(item, Record)]
    return [real[i % len(real)] for i in range(n)]


def child(variant: str, n: int) -> dict:
    from paperscope.search.embedder import TOKENIZE_WINDOW, get_embedder

    def hwm_mb() -> float:
        status = Path("/proc/self/status").read_text()
        return int(status.split("VmHWM:")[1].split()[0]) / 1024

    emb = get_embedder()
    emb.token_counts(["warm up"] * 64)
    data = texts(n)
    before, cpu = hwm_mb(), time.process_time()
    if variant == "one call":
        counts = [len(e.ids) for e in emb.tokenizer.encode_batch(data)]
    else:
        counts = emb.token_counts(data)
    return {"variant": variant, "texts": n, "window": TOKENIZE_WINDOW if variant == "windows" else n,
            "peak_growth_mb": round(hwm_mb() - before, 1), "cpu_s": round(time.process_time() - cpu, 2),
            "counts_sha256": hashlib.sha256(json.dumps(counts).encode()).hexdigest()[:16]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--texts", type=int, default=100_000)
    ap.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.texts)))
        return 0
    require_corpora()
    info = run_info({"texts": f"shared corpora (every reader), title + abstract, repeated to {args.texts}"},
                    "tokenizers")
    rows = []
    for variant in VARIANTS:
        out = subprocess.run([sys.executable, __file__, "--child", variant, "--texts", str(args.texts)],
                             capture_output=True, text=True, check=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        print(json.dumps(rows[-1]), flush=True)
    result = {"rows": rows, "identical": len({r["counts_sha256"] for r in rows}) == 1, "run": info}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "tokenize_memory.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
