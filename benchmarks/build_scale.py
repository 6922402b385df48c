"""The distributed build at scale: throughput per stage and engine, a cost model, and the
quality cost of sample-then-assign topics and map.

Throughput (default): one input of N papers (the shared corpora first, then synthetic near-copies:
copy r of a paper drops 10 % of its abstract's words at random, seeded, and gets a new title
suffix, so it is a new paper to identity, facts and model alike; it keeps the venue and year, so
the real collections grow) through, each in its own
process: `ingest` (Library.ingest), `build --engine local`, `build --engine ray --workers 1`
and `--workers 2`. Per run: wall and CPU seconds per stage (read+identify, facts, embed, write),
papers/s, peak RSS of the driver and of each Ray worker (VmHWM). The shards are loaded into a
library once (from the local build: loading does not depend on the engine). From these: CPU seconds per
1 k papers per stage, the 1 -> 2 worker scaling efficiency, and projected wall time for
2.7 M papers on 1 / 8 / 32 / 128 workers (and with one GPU per worker: an assumption).

Topics (--topics): ICML 2024 replicated to 26,340 papers (benchmarks/topics_speed.py's recipe);
the full coarse/fine fits and t-SNE map against `analysis.sampled` fits on 5 k and 10 k samples:
agreement with the full fit (AMI, ARI), mean cosine to own centroid, CPU seconds, and peak
traced memory; map: 10-NN recall of each layout against the embedding neighbours.

Run: .venv/bin/python benchmarks/build_scale.py [--papers N] [--topics] [--skip-throughput]
     [--resume] [--together local,ray-1] [--only ray-2] [--cost-model]
(--cost-model recomputes the cost model of the run in progress from its saved rows, using the
one-worker Ray build's stage costs while the local build is not measured yet; --resume continues a stopped run from the configurations it saved; --together runs the named
single-threaded configurations side by side, one per core, which halves the wall time of a
long run and is recorded per row; --only runs just the named configurations of the pending ones,
so a run longer than one sitting can be split. Each group of configurations first records a host
check: single-threaded CPU-ms per abstract of the embedder on 64 fixed ICLR 2020 abstracts, so
rows measured at different times can be compared on the same scale.)
JSON: benchmarks/results/build_scale.json
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _run_info import run_info  # noqa: E402
from _topics_data import CORPORA, RESULTS, require_corpora  # noqa: E402

CONFIGS = {"ingest": {}, "local": {"engine": "local"}, "ray-1": {"engine": "ray", "workers": 1},
           "ray-2": {"engine": "ray", "workers": 2}}
TARGET = 2_700_000
RUN_COMMIT = None  # git commit of this run, recorded in each row it measures


def corpus(n: int, path: Path) -> dict:
    """Write n papers as JSONL: real ones first, then near-copies."""
    from paperscope import sources
    from paperscope.model import Record

    real = []
    for f in sources.expand([CORPORA]):
        for item in sources.read(f):
            if isinstance(item, Record) and item.venue:
                real.append({"title": item.title, "abstract": item.abstract, "authors": item.authors,
                             "venue": item.venue, "year": item.year})
    rng = random.Random(14)
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            base = real[i % len(real)]
            copy = i // len(real)
            rec = dict(base)
            if copy:
                words = base["abstract"].split()
                rec["abstract"] = " ".join(w for w in words if rng.random() > 0.1)
                rec["title"] = f"{base['title'] or 'Untitled'} (variant {copy})"
                # same venue and year: the real collections grow, so per-collection work
                # (topics, map) sees collections of realistic size, not one per copy round
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return {"papers": n, "real_papers": min(n, len(real)), "near_copies": max(0, n - len(real))}


def vm_hwm_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def one(name: str, data: Path, work: Path) -> dict:
    """One configuration, in this (fresh) process."""
    from paperscope.library import Library

    cfg = CONFIGS[name]
    wall, cpu = time.monotonic(), time.process_time()
    out: dict = {"config": name}
    if name == "ingest":
        with Library.open(work / "ingest.db") as lib:
            t = time.monotonic()
            # analyse=False: the builds compute no topics or map either (load does, once)
            report = lib.ingest([data], embed=True, analyse=False)
            out["papers"] = lib.stats()["papers"]
            out["derived"] = report.derived
    else:
        ray = None
        if cfg["engine"] == "ray":
            import ray

            # Ray starts its workers at niceness 15 by default; at 0 they compete for the CPU
            # on equal terms with the local engine (and are not starved by other work)
            os.environ.setdefault("RAY_worker_niceness", "0")
            ray.init(num_cpus=cfg["workers"], include_dashboard=False, log_to_driver=False)
        report = Library.build([data], work / name, **cfg, shard_size=250)
        out["build_wall_s"] = round(time.monotonic() - wall, 2)
        out.update(papers=report["counts"]["papers"], stages=report["stages"], computed=report["computed"])
        if ray is not None:
            out["worker_peak_rss_mb"] = [vm_hwm_mb(p) for p in report["worker_pids"]]
            ray.shutdown()
        if name == "local":  # loading shards does not depend on the engine that wrote them: once
            t, c = time.monotonic(), time.process_time()
            with Library.open(work / f"{name}.db") as lib:
                load = lib.load(work / name)
            out["load_wall_s"] = round(time.monotonic() - t, 2)
            out["load_cpu_s"] = round(time.process_time() - c, 2)
            out["load_added"] = load["added"]
    out["wall_s"] = round(time.monotonic() - wall, 2)
    out["driver_cpu_s"] = round(time.process_time() - cpu, 2)
    out["driver_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


def host_check() -> dict:
    """Single-threaded embedder cost on 64 fixed abstracts, in a fresh process: how fast this host
    is right now (virtual machines differ from day to day), recorded beside each group."""
    code = ("import csv, json, os, time, sys; sys.path.insert(0, %r); from _topics_data import CORPORA; "
            "from paperscope.search.embedder import Embedder; "
            "rows = list(csv.DictReader(open(CORPORA / 'iclr2020_miniconf' / 'papers.csv', encoding='utf-8')))[:64]; "
            "texts = [r['abstract'] for r in rows]; e = Embedder(threads=1); e.embed(texts[:4]); "
            "c = time.process_time(); e.embed(texts); "
            "print(json.dumps({'embed_cpu_ms_per_abstract_1thread': round((time.process_time() - c) / 64 * 1000, 1), "
            "'loadavg': [round(x, 2) for x in os.getloadavg()]}))") % str(Path(__file__).resolve().parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def throughput(n: int, partial=None, resume: list[dict] | None = None, together: tuple[str, ...] = (),
               only: tuple[str, ...] = ()) -> dict:
    """Every configuration on the same n-paper input; `partial(section)` is called after each
    one, so a long run that is stopped keeps the configurations it finished. `resume`: rows of
    configurations already measured on the same input (the corpus is seeded, so it is the same
    file again). `together`: configurations run side by side (each a single-threaded process on
    its own core of the two), recorded in each row as `ran_alongside`."""
    rows = list(resume or [])
    finished = {r["config"] for r in rows}
    pending = [c for c in CONFIGS if c not in finished and (not only or c in only)]
    side_by_side = [c for c in pending if c in together]
    groups = ([side_by_side] if side_by_side else []) + [[c] for c in pending if c not in together]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "papers.jsonl"
        made = corpus(n, data)
        for group in groups:
            check = host_check()
            procs = {}
            for name in group:
                work = Path(tmp) / f"w-{name}"
                work.mkdir()
                cmd = [sys.executable, __file__, "--one", name, str(data), str(work)]
                procs[name] = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name, proc in procs.items():
                out, err = proc.communicate(timeout=7200)
                if proc.returncode:
                    raise SystemExit(f"{name} failed:\n{err[-3000:]}")
                row = json.loads(out.strip().splitlines()[-1])
                if row["papers"] < 0.99 * n:  # inputs rejected or merged: the run would measure less
                    raise SystemExit(f"{name}: {row['papers']} papers in the library from {n} written")
                # builds: papers/s of the build itself (the one load is reported apart); ingest: end to end
                row["papers_per_s"] = round(row["papers"] / row.get("build_wall_s", row["wall_s"]), 2)
                row["ran_alongside"] = [g for g in group if g != name]
                row["host_check_before"] = check
                row["run"] = {"command": " ".join(["python benchmarks/build_scale.py", *sys.argv[1:]]),
                              "git_commit": RUN_COMMIT}
                rows.append(row)
                print(json.dumps(row), flush=True)
            if partial and len(rows) < len(CONFIGS):
                partial({"corpus": made, "runs": rows, "complete": False})
    rows.sort(key=lambda r: list(CONFIGS).index(r["config"]))
    if len(rows) < len(CONFIGS):  # a split run: the rest comes with a later --resume
        return {"corpus": made, "runs": rows, "complete": False}
    return {"corpus": made, "runs": rows, "cost_model": cost_model(rows)}


def cost_model(rows: list[dict]) -> dict:
    """CPU seconds per 1 k papers per stage (from the local build; from the one-worker Ray build
    while the local one is not measured yet: same stages, same per-paper work), the measured
    1 -> 2 worker efficiency and the 2.7 M projection."""
    by = {r["config"]: r for r in rows}
    source = "local" if "local" in by else "ray-1"
    local = by[source]
    n = local["papers"] / 1000
    st = local["stages"]
    per_k = {"read_identify_cpu_s": st["read"]["cpu_s"] / n, "facts_cpu_s": st["compute"]["facts_cpu_s"] / n,
             "embed_cpu_s": st["compute"]["embed_cpu_s"] / n, "write_wall_s": st["compute"]["write_wall_s"] / n}
    compute_1 = by["ray-1"]["stages"]["compute"]["wall_s"]
    compute_2 = by["ray-2"]["stages"]["compute"]["wall_s"]
    speedup = compute_1 / compute_2
    eff = speedup / 2
    worker_s_per_k = per_k["facts_cpu_s"] + per_k["embed_cpu_s"]  # one-thread worker: CPU ~ wall
    # Sequential on the driver: read+identify CPU (its wall on a loaded machine measures the load) + write.
    driver_s_per_k = per_k["read_identify_cpu_s"] + per_k["write_wall_s"]
    gpu_embed_per_s = 3000.0  # assumption: MiniLM-L6 on one mid-range GPU, not measured here
    proj = {}
    for w in (1, 8, 32, 128):
        e = 1.0 if w == 1 else eff  # measured 1->2 efficiency applied to every larger pool
        workers = TARGET / 1000 * worker_s_per_k / (w * e)
        driver = TARGET / 1000 * driver_s_per_k
        gpu_workers = TARGET / 1000 * (per_k["facts_cpu_s"] + 1000 / gpu_embed_per_s) / (w * e)
        proj[str(w)] = {"hours": round(max(workers, driver) / 3600, 2),
                        "worker_hours": round(workers / 3600, 2), "driver_hours": round(driver / 3600, 2),
                        "with_gpu_per_worker_hours": round(max(gpu_workers, driver) / 3600, 2)}
    # Rows measured in different sittings: the host's single-thread embedding speed (checked
    # before each group) may differ; scaled to the same host speed, the speed-up compares work.
    checks = [by[c].get("host_check_before", {}).get("embed_cpu_ms_per_abstract_1thread") for c in ("ray-1", "ray-2")]
    normalised = {}
    if all(checks):
        normalised = {"host_check_ms_per_abstract": {"1": checks[0], "2": checks[1]},
                      "speedup_1_to_2_same_host_speed": round((compute_1 / checks[0]) / (compute_2 / checks[1]), 3)}
    return normalised | {"per_1k_papers": {k: round(v, 2) for k, v in per_k.items()}, "per_1k_papers_from": source,
            "ray_compute_wall_s": {"1": compute_1, "2": compute_2},
            "speedup_1_to_2": round(speedup, 3), "scaling_efficiency": round(eff, 3),
            "projection_2_7M": proj,
            "load_average_after": {"1": by["ray-1"]["load_average_after"], "2": by["ray-2"]["load_average_after"]},
            "assumptions": "workers: one CPU each, CPU s = wall s; the driver's read+identify and "
                           "write are sequential (pipelined with the workers, so wall = the larger); "
                           "the 1->2 efficiency measured here holds for larger pools; GPU: "
                           f"{gpu_embed_per_s:.0f} abstracts/s per GPU (assumed, not measured)"}


def topics_quality(skip_map: bool = False) -> dict:
    import tracemalloc

    import numpy as np
    from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score

    from _topics_data import CACHE, icml2024, paper_text
    from topics_speed import replicate

    from paperscope.analysis.layout import layout
    from paperscope.analysis.topics import SEED, fit_topics
    from paperscope.analysis.sampled import sampled_layout, sampled_topics

    papers = icml2024()
    matrix = _embedded([paper_text(p) for p in papers], CACHE)
    ids, texts, matrix = replicate([p["id"] for p in papers], [paper_text(p) for p in papers], matrix, 10)
    out = {"papers": len(ids), "topics": [], "map": []}

    def measured(fn):
        tracemalloc.start()
        c = time.process_time()
        value = fn()
        cpu = time.process_time() - c
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return value, round(cpu, 1), round(peak / 2**20, 1)

    for level in ("coarse", "fine"):
        full, cpu, mem = measured(lambda: fit_topics(ids, texts, matrix, level=level))
        base = {"level": level, "method": "full", "topics": len(full.model.labels), "cpu_s": cpu,
                "peak_traced_mb": mem, "mean_cosine": round(float(full.similarity.mean()), 4)}
        out["topics"].append(base)
        print(json.dumps(base), flush=True)
        other, cpu, mem = measured(lambda: fit_topics(ids, texts, matrix, level=level, seed=SEED + 1))
        row = {"level": level, "method": "full, another seed (baseline: k-means' own variation)",
               "topics": len(other.model.labels), "cpu_s": cpu, "peak_traced_mb": mem,
               "mean_cosine": round(float(other.similarity.mean()), 4),
               "ami_vs_full": round(adjusted_mutual_info_score(full.assign, other.assign), 4),
               "ari_vs_full": round(adjusted_rand_score(full.assign, other.assign), 4)}
        out["topics"].append(row)
        print(json.dumps(row), flush=True)
        for size in (5_000, 10_000):
            fit, cpu, mem = measured(lambda: sampled_topics(ids, texts, matrix, level=level, sample=size))
            assert fit.ids == full.ids
            row = {"level": level, "method": f"sample {size} + assign", "topics": len(fit.model.labels),
                   "cpu_s": cpu, "peak_traced_mb": mem, "mean_cosine": round(float(fit.similarity.mean()), 4),
                   "ami_vs_full": round(adjusted_mutual_info_score(full.assign, fit.assign), 4),
                   "ari_vs_full": round(adjusted_rand_score(full.assign, fit.assign), 4)}
            out["topics"].append(row)
            print(json.dumps(row), flush=True)
    if not skip_map:
        truth = _knn(matrix, 10)
        for name, fn in (("full t-SNE", lambda: layout(matrix)),
                         ("sample 5000 + place", lambda: sampled_layout(ids, matrix, sample=5_000))):
            coords, cpu, mem = measured(fn)
            row = {"method": name, "cpu_s": cpu, "peak_traced_mb": mem,
                   "knn10_recall": round(_recall(truth, _knn(coords, 10)), 4)}
            out["map"].append(row)
            print(json.dumps(row), flush=True)
    return out


def _embedded(texts: list[str], cache: Path):
    """The library's embedder on `texts`, cached on disk by their hash."""
    import hashlib

    import numpy as np

    key = hashlib.sha1("\x1e".join(texts).encode("utf-8")).hexdigest()[:16]
    path = cache / f"build_scale_{key}.npy"
    if path.is_file():
        return np.load(path)
    from paperscope.search.embedder import get_embedder

    matrix = get_embedder().embed(texts)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, matrix)
    return matrix


def _knn(x, k: int, chunk: int = 2000):
    import numpy as np

    x = np.asarray(x, np.float32)
    if x.shape[1] > 2:
        x = x / np.linalg.norm(x, axis=1, keepdims=True)
    sq = (x * x).sum(axis=1)
    out = np.empty((len(x), k), np.int64)
    for s in range(0, len(x), chunk):
        d = sq[s:s + chunk, None] - 2 * x[s:s + chunk] @ x.T + sq[None, :]
        d[np.arange(len(d)), np.arange(s, s + len(d))] = np.inf
        out[s:s + chunk] = np.argpartition(d, k, axis=1)[:, :k]
    return out


def _recall(truth, got) -> float:
    return sum(len(set(a) & set(b)) for a, b in zip(truth, got)) / truth.size


def arguments(argv: list[str]) -> argparse.Namespace:
    configs = lambda text: tuple(text.split(","))  # noqa: E731
    ap = argparse.ArgumentParser(prog="build_scale.py", description=__doc__.split("\n\n")[0],
                                 epilog="JSON: benchmarks/results/build_scale.json")
    ap.add_argument("--papers", type=int, default=100_000, help="input size (default 100000)")
    ap.add_argument("--resume", action="store_true", help="continue the run in progress of this size")
    ap.add_argument("--only", type=configs, default=(), metavar="A,B",
                    help=f"run just these of the pending configurations ({', '.join(CONFIGS)})")
    ap.add_argument("--together", type=configs, default=(), metavar="A,B",
                    help="run these single-threaded configurations side by side, one per core")
    ap.add_argument("--cost-model", action="store_true",
                    help="recompute the cost model of the run in progress from its saved rows; nothing runs")
    ap.add_argument("--skip-throughput", action="store_true")
    ap.add_argument("--topics", action="store_true", help="sample-then-assign topics and map vs the full fit")
    ap.add_argument("--skip-map", action="store_true", help="with --topics: topics only")
    ap.add_argument("--one", nargs=3, metavar=("CONFIG", "INPUT", "WORK"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    unknown = [c for c in (*args.only, *args.together) if c not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration {', '.join(unknown)}: choose from {', '.join(CONFIGS)}")
    return args


def main() -> None:
    args = arguments(sys.argv[1:])
    if args.one:
        print(json.dumps(one(args.one[0], Path(args.one[1]), Path(args.one[2]))))
        return
    require_corpora()
    n = args.papers
    global RUN_COMMIT
    path = RESULTS / "build_scale.json"
    info = run_info({"corpora": "shared corpora (every reader) + near-copies"}, "ray", "pyarrow")
    RUN_COMMIT = info.get("git_commit")

    def save(section: str, value: dict, done: str | None = None) -> None:
        result = json.loads(path.read_text()) if path.is_file() else {}  # other sections kept
        result.pop(done, None)
        result[section] = value | {"run_info": info | {"loadavg_at_write": [round(x, 2) for x in os.getloadavg()]}}
        RESULTS.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {path} ({section})", flush=True)

    if args.cost_model:  # recompute it for the run in progress from its saved rows; nothing runs
        section = "throughput" if n >= 100_000 else f"throughput_{n // 1000}k"
        held = json.loads(path.read_text())
        part = held.get(f"{section}_in_progress") or held[section]
        part["cost_model"] = cost_model(part["runs"])
        held[f"{section}_in_progress" if f"{section}_in_progress" in held else section] = part
        path.write_text(json.dumps(held, indent=1) + "\n")
        print(json.dumps(part["cost_model"], indent=1))
        return
    if not args.skip_throughput:
        # 100 k and more: "throughput"; a smaller run has its own section ("throughput_10k"), so
        # it never replaces the large one nor its run in progress
        section = "throughput" if n >= 100_000 else f"throughput_{n // 1000}k"
        progress = f"{section}_in_progress"
        # the configurations finished so far, while the run lasts (the last full run stays)
        resume = None
        if args.resume:  # continue the run in progress (same n, same seeded input)
            held = json.loads(path.read_text()).get(progress, {})
            if held.get("corpus", {}).get("papers") != n:
                raise SystemExit(f"--resume: no run in progress for {n} papers in {path}")
            resume = held["runs"]
        partial = throughput(n, partial=lambda part: save(progress, part),
                             resume=resume, together=args.together, only=args.only)
        if partial.get("complete") is False:
            save(progress, partial)
        else:
            save(section, partial, done=progress)
    if args.topics:
        save("topics_26k", topics_quality(skip_map=args.skip_map))


if __name__ == "__main__":
    main()
