"""Streaming readers on big inputs: throughput and peak memory.

Generates paper lists of the given sizes (default 10 and 100 MB) from the bundled sample lists,
in three formats (paper-list text, one JSON array, JSON Lines), and reads each with
`paperscope.sources.read` in a fresh child process, which reports its peak RSS
(`resource.getrusage`) and, in a second run, the peak of Python allocations (`tracemalloc`).
A naive reader (read the whole file, split on blank lines / json.load) runs in the same way as
the baseline. Flat peak memory from 10 to 100 MB is what streaming means.

    .venv/bin/python benchmarks/ingest_stream.py            # writes benchmarks/results/ingest_stream.json
    .venv/bin/python benchmarks/ingest_stream.py --sizes 100 --formats list
"""
from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "ingest_stream.json"
SAMPLES = ROOT / "examples" / "lists"


def sample_abstracts() -> list[str]:
    out = []
    for path in sorted(SAMPLES.glob("*.txt")):
        out += [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]
    return out


def generate(path: Path, fmt: str, megabytes: int) -> int:
    """Write a file of about `megabytes` MB, one chunk at a time; returns the paper count."""
    abstracts = sample_abstracts()
    limit, size, n = megabytes << 20, 0, 0
    with open(path, "w", encoding="utf-8") as out:
        def put(text: str) -> None:
            nonlocal size
            out.write(text)
            size += len(text.encode("utf-8"))

        put({"list": "ICML 2024 论文列表\n\n", "json": "[\n", "jsonl": ""}[fmt])
        while size < limit:
            abstract = f"[{n}] {abstracts[n % len(abstracts)]}"
            paper = {"title": f"Paper {n}", "abstract": abstract, "authors": ["Ada Lovelace", "Alan Turing"],
                     "venue": "ICML", "year": 2024}
            if fmt == "list":
                put(abstract + "\n\n")
            elif fmt == "json":
                put((",\n" if n else "") + json.dumps(paper, ensure_ascii=False))
            else:
                put(json.dumps(paper, ensure_ascii=False) + "\n")
            n += 1
        if fmt == "json":
            put("\n]\n")
    return n


def child(path: str, fmt: str, mode: str) -> None:
    """Run in a fresh process: read the file, print one JSON line of measurements."""
    import resource
    import tracemalloc

    from paperscope import sources
    from paperscope.model import Record

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if mode == "tracemalloc":
        tracemalloc.start()
    start = time.perf_counter()
    records = problems = 0
    if mode == "naive":
        text = Path(path).read_text(encoding="utf-8")
        if fmt == "list":
            records = sum(1 for p in text.split("\n\n")[1:] if p.strip())
        elif fmt == "json":
            records = len(json.loads(text))
        else:
            records = sum(1 for line in text.splitlines() if line.strip() and json.loads(line))
    else:
        for item in sources.read(path, fmt):
            if isinstance(item, Record):
                records += 1
            else:
                problems += 1
    seconds = time.perf_counter() - start
    out = {"records": records, "problems": problems, "seconds": round(seconds, 3),
           "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
           "rss_after_imports_mb": round(rss_before / 1024, 1)}
    if mode == "tracemalloc":
        out["tracemalloc_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 2)
    print(json.dumps(out))


def measure(path: Path, fmt: str, mode: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", str(path), fmt, mode],
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100], help="file sizes in MB")
    parser.add_argument("--formats", nargs="+", default=["list", "json", "jsonl"])
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    rows = []
    with tempfile.TemporaryDirectory(prefix="paperscope-bench-") as tmp:
        for fmt in args.formats:
            for mb in args.sizes:
                path = Path(tmp) / f"papers_{mb}mb.{'txt' if fmt == 'list' else fmt}"
                papers = generate(path, fmt, mb)
                size_mb = path.stat().st_size / 2**20
                stream = measure(path, fmt, "stream")
                traced = measure(path, fmt, "tracemalloc")
                naive = measure(path, fmt, "naive")
                assert stream["records"] == papers == naive["records"], (stream, papers, naive)
                row = {
                    "format": fmt, "file_mb": round(size_mb, 1), "papers": papers,
                    "seconds": stream["seconds"],
                    "records_per_s": round(papers / stream["seconds"]),
                    "mb_per_s": round(size_mb / stream["seconds"], 1),
                    "peak_rss_mb": stream["peak_rss_mb"],
                    "rss_after_imports_mb": stream["rss_after_imports_mb"],
                    "tracemalloc_peak_mb": traced["tracemalloc_peak_mb"],
                    "naive_peak_rss_mb": naive["peak_rss_mb"], "naive_seconds": naive["seconds"],
                }
                rows.append(row)
                path.unlink()
                print(f"{fmt:6} {row['file_mb']:6.1f} MB {papers:7d} papers  {row['seconds']:6.2f} s  "
                      f"{row['records_per_s']:6d} rec/s {row['mb_per_s']:5.1f} MB/s  peak RSS "
                      f"{row['peak_rss_mb']:6.1f} MB (imports {row['rss_after_imports_mb']:.1f}, "
                      f"traced {row['tracemalloc_peak_mb']:.2f})  naive: {row['naive_peak_rss_mb']:6.1f} MB "
                      f"{row['naive_seconds']:.2f} s", flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "benchmark": "ingest_stream", "python": platform.python_version(),
        "machine": platform.machine(), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "command": "python benchmarks/ingest_stream.py " + " ".join(sys.argv[1:]),
        "rows": rows}, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
