"""Server latency under load: closed-loop clients for 30 s against the collection list page,
the search API (400 repeating queries: what the response cache sees), the paper page and
unique searches (every query new: what the search itself costs) of a 26k-paper library,
through a real `paperscope serve`. Reports p50/p95/p99, throughput, errors, the server's and
the client's CPU milliseconds per request and the load average; writes benchmarks/results/web_load.json.

    .venv/bin/python benchmarks/web_load.py [--db benchmarks/.work/web_26k.db] [--papers 26000]
        [--clients 20,50] [--workers 1,2] [--cache off|on|both] [--targets "unique search,..."]
        [--seconds 30] [--pool 1] [--corpora ../shared/corpora]

`--db benchmarks/.cache/scale-26k.db` uses the library benchmarks/_search_scale.py builds.

The library is built once (and reused): every shared corpus (real ingest, real embeddings), then
synthetic near-copies of those papers (sentences rotated, titles reworded, in their own
"NearCopy YEAR" collections; vectors = source vector + small noise) until it holds --papers.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _run_info import run_info  # noqa: E402
RESULTS = ROOT / "benchmarks" / "results" / "web_load.json"
CORPORA = ["icml2024_events", "iclr2020_miniconf", "pmlr_v244_uai2024", "pmlr_v247_colt2024",
           "pmlr_v48_icml2016", "dylanjoo_openreview/ICLR", "dylanjoo_openreview/NIPS"]
TITLE_FORMS = ["{t}", "Revisiting {t}", "{t}: a closer look", "Towards {t}", "On {t}"]


# ---------------------------------------------------------------------- library
def build_library(db: Path, corpora: Path, target: int, seed_from: Path | None = None) -> None:
    """Real corpora through the real ingest, embedded by the real model; then near-copies up to
    `target`. A near-copy's vector is its source's plus a little Gaussian noise (cosine about
    0.97): embedding 17k synthetic abstracts would take most of an hour on 2 cores and would
    not change what this benchmark measures. `seed_from`: an older library whose stored vectors
    (same model, same text) are reused."""
    from paperscope.library import Library

    db.parent.mkdir(parents=True, exist_ok=True)
    with Library.open(db) as lib:
        if lib.stats()["papers"] < target:
            t0 = time.perf_counter()
            lib.ingest([ROOT / "examples" / "lists"] + [corpora / c for c in CORPORA if (corpora / c).exists()],
                       embed=False)
            print(f"real papers: {lib.stats()['papers']} ({time.perf_counter() - t0:.0f}s)", flush=True)
            if seed_from and seed_from.exists():
                _seed_vectors(lib, seed_from)
            t0 = time.perf_counter()
            lib.refresh_derived(embed=True)
            print(f"embedded real papers ({time.perf_counter() - t0:.0f}s)", flush=True)
            _add_near_copies(lib, db, target)
        lib.refresh_derived(embed=True, analyse=False)  # no-op once every paper has a vector
        print(f"library: {lib.stats()['papers']} papers", flush=True)


def _seed_vectors(lib, older: Path) -> None:
    conn = lib.store.conn
    conn.execute("ATTACH DATABASE ? AS old", (f"file:{older}?mode=ro",))
    try:
        with lib.store.transaction():
            n = conn.execute("INSERT OR IGNORE INTO embeddings SELECT * FROM old.embeddings").rowcount
        print(f"reused {n} stored vectors from {older}", flush=True)
    except Exception as exc:  # an unreadable older file: embed everything
        print(f"could not reuse vectors from {older}: {exc}", flush=True)
    finally:
        conn.execute("DETACH DATABASE old")


def _add_near_copies(lib, db: Path, target: int) -> None:
    import numpy as np
    from paperscope.search.embedder import DIM, MODEL_ID

    real = lib.papers()
    work = db.parent / "nearcopies"
    work.mkdir(exist_ok=True)
    rng = random.Random(7)
    copy = 0
    while lib.stats()["papers"] < target:
        copy += 1
        need = target - lib.stats()["papers"]
        batch = [_near_copy(p, copy, rng) for p in real[:need]]
        path = work / f"nearcopy_{copy}.json"
        path.write_text(json.dumps(batch, ensure_ascii=False), "utf-8")
        lib.ingest([path], embed=False)
        print(f"near-copy set {copy}: library has {lib.stats()['papers']} papers", flush=True)
    conn = lib.store.conn
    vec = {r[0]: np.frombuffer(r[1], dtype="<f2").astype(np.float32) for r in conn.execute(
        "SELECT p.id, e.vector FROM papers p JOIN embeddings e ON e.text_hash = p.text_hash AND e.model = ?",
        (MODEL_ID,))}
    noise = np.random.default_rng(7)
    rows = []
    for text_hash, external in conn.execute(
            "SELECT text_hash, external_id FROM papers WHERE external_id LIKE 'nearcopy%'"):
        source = vec.get(external.split(":", 1)[1])
        if source is not None:
            v = source + 0.25 * noise.standard_normal(DIM).astype(np.float32) / np.sqrt(DIM)
            rows.append((MODEL_ID, text_hash, DIM, (v / np.linalg.norm(v)).astype("<f2").tobytes()))
    with lib.store.transaction():
        conn.executemany("INSERT OR IGNORE INTO embeddings(model, text_hash, dim, vector) VALUES (?, ?, ?, ?)", rows)
    lib.invalidate()
    print(f"near-copy vectors: {len(rows)}", flush=True)


def _near_copy(paper: dict, copy: int, rng: random.Random) -> dict:
    sentences = re.split(r"(?<=[.!?])\s+", paper["abstract"])
    if len(sentences) > 2:
        k = 1 + (copy - 1) % (len(sentences) - 1)
        sentences = sentences[k:] + sentences[:k]
    else:
        sentences = sentences + [f"We report results on {rng.randint(3, 12)} benchmarks."]
    title = paper.get("title") or paper.get("label") or ""
    return {"id": f"nearcopy{copy}:{paper['id']}",
            "title": TITLE_FORMS[copy % len(TITLE_FORMS)].format(t=title) if title else None,
            "abstract": " ".join(sentences), "authors": paper.get("authors") or [],
            "venue": "NearCopy", "year": 2030 + copy}


# ---------------------------------------------------------------------- workload
def workload(db: Path, seed: int = 3) -> dict[str, list[str]]:
    from paperscope.library import Library

    rng = random.Random(seed)
    with Library.open(db) as lib:
        collections = [c for c in lib.collections() if c["papers"] >= 100]
        ids = [r[0] for r in lib.store.conn.execute("SELECT id FROM papers ORDER BY rowid")]
        titles = [r[0] for r in lib.store.conn.execute(
            "SELECT title FROM papers WHERE title IS NOT NULL ORDER BY rowid LIMIT 20000")]
        if len(titles) < 400:  # a title-less library: spans of abstracts instead
            titles = [r[0] for r in lib.store.conn.execute(
                "SELECT abstract FROM papers WHERE abstract IS NOT NULL ORDER BY rowid LIMIT 20000")]
    list_urls = []
    for _ in range(400):
        c = rng.choice(collections)
        offset = 50 * rng.randrange(max(1, c["papers"] // 50))
        list_urls.append(f"/c/{quote(c['name'])}?offset={offset}")
    queries = []
    for title in rng.sample(titles, 400):
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", title)]
        if len(words) >= 2:
            n = min(len(words), rng.choice([2, 3, 4]))
            start = rng.randrange(len(words) - n + 1)
            q = " ".join(words[start:start + n])
            queries.append(f'"{q}"' if rng.random() < 0.15 else q)
    search_urls = ["/api/search?" + urlencode({"query": q, "limit": 20}) for q in queries]
    paper_urls = [f"/paper/{pid}" for pid in rng.sample(ids, 400)]
    return {"list page": list_urls, "search API": search_urls, "paper page": paper_urls}


def unique_searches(db: Path, n: int, seed: int = 5) -> list[str]:
    """n search URLs, no query twice: 2-4 word spans of titles or abstracts (15 % quoted),
    so neither the response cache nor any per-query memo can answer them."""
    from paperscope.library import Library

    rng = random.Random(seed)
    with Library.open(db) as lib:
        texts = [r[0] for r in lib.store.conn.execute(
            "SELECT COALESCE(title, '') || ' ' || COALESCE(abstract, '') FROM papers ORDER BY rowid")]
    seen: set[str] = set()
    urls: list[str] = []
    while len(urls) < n:
        words = re.findall(r"[A-Za-z][A-Za-z-]{3,}", texts[rng.randrange(len(texts))])
        if len(words) < 4:
            continue
        k = rng.choice([2, 3, 4])
        start = rng.randrange(len(words) - k + 1)
        q = " ".join(words[start:start + k]).lower()
        q = f'"{q}"' if rng.random() < 0.15 else q
        if q not in seen:
            seen.add(q)
            urls.append("/api/search?" + urlencode({"query": q, "limit": 20}))
    return urls


def run_load(host: str, port: int, urls: list[str], clients: int, seconds: float) -> dict:
    """Closed loop: each client sends its next request when the last one is answered. The URLs
    are handed out in order from one shared counter (a unique list is never repeated unless
    the run outlasts it)."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    hits = [0]
    counter = iter(range(10 ** 12))

    def client(k: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        mine, bad, cached = [], [], 0
        while time.perf_counter() < stop_at:
            with lock:
                i = next(counter)
            url = urls[i % len(urls)]
            t0 = time.perf_counter()
            try:
                conn.request("GET", url)
                resp = conn.getresponse()
                resp.read()
                cached += resp.getheader("x-cache") == "hit"
                if resp.status != 200:
                    bad.append(f"{resp.status} {url}")
            except (OSError, http.client.HTTPException) as exc:
                bad.append(f"{type(exc).__name__} {url}")
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=30)
            mine.append(time.perf_counter() - t0)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(bad)
            hits[0] += cached

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return round(ms[min(len(ms) - 1, int(p / 100 * len(ms)))], 1) if ms else 0.0

    return {"requests": len(ms), "errors": len(errors), "error_examples": errors[:5],
            "cache_hit_share": round(hits[0] / len(ms), 3) if ms else 0.0,
            "rps": round(len(ms) / wall, 1), "p50_ms": pct(50), "p95_ms": pct(95), "p99_ms": pct(99),
            "mean_ms": round(statistics.fmean(ms), 1) if ms else 0.0, "max_ms": round(ms[-1], 1) if ms else 0.0}


def start_server(db: Path, pool: int, workers: int, cache: bool) -> tuple[subprocess.Popen, int]:
    cmd = [sys.executable, "-c", "from paperscope.cli import main; main()", "--db", str(db), "serve",
           "--port", "0", "--pool", str(pool), "--workers", str(workers), "--cache" if cache else "--no-cache"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return proc, int(found.group(1))
    raise RuntimeError("server did not start")


def _process_tree(pid: int) -> list[int]:
    """`pid` and every process below it (the server's workers)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    tree, frontier = [pid], [pid]
    while frontier:
        frontier = [p for p, parent in parents.items() if parent in frontier]
        tree += frontier
    return tree


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def _wait(port: int) -> None:
    for _ in range(600):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/api/stats")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server not answering")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path, default=ROOT / "benchmarks" / ".work" / "web_26k.db")
    ap.add_argument("--papers", type=int, default=26_000)
    ap.add_argument("--clients", default="20", help="one or more client counts, e.g. 20,50")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--pool", type=int, default=1, help="requests one worker serves side by side (serve's --pool)")
    ap.add_argument("--workers", default="2", help="one or more server process counts, e.g. 1,2")
    ap.add_argument("--cache", choices=["both", "off", "on"], default="both",
                    help="run the server without its response cache, with it, or both")
    ap.add_argument("--targets", default="list page,search API,paper page,unique search",
                    help="comma-separated: list page, search API, paper page, unique search")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--seed-vectors", type=Path, default=None, help="reuse vectors stored in this older library")
    args = ap.parse_args()
    if not args.corpora.is_dir():
        print(f"skipped: no corpora at {args.corpora}")
        return 0
    build_library(args.db, args.corpora, args.papers, seed_from=args.seed_vectors)
    wanted = [t.strip() for t in args.targets.split(",") if t.strip()]
    targets = {k: v for k, v in workload(args.db).items() if k in wanted}
    clients_list = [int(c) for c in args.clients.split(",")]
    workers_list = [int(w) for w in args.workers.split(",")]
    unique = unique_searches(args.db, 60_000) if "unique search" in wanted else []
    load0 = os.getloadavg()
    runs = {}
    for workers in workers_list:
        for cache in {"both": (False, True), "off": (False,), "on": (True,)}[args.cache]:
            label = f"{workers} worker{'s' if workers > 1 else ''}, cache {'on' if cache else 'off'}"
            proc, port = start_server(args.db, args.pool, workers, cache)
            try:
                _wait(port)
                for urls in targets.values():  # warm up: model, vectors and memos of every handle
                    run_load("127.0.0.1", port, urls[-60:], args.pool * workers, 4)
                if unique:  # warm-up queries that the measured runs never send
                    run_load("127.0.0.1", port, unique[-200:], args.pool * workers, 4)
                rows = runs[label] = {}
                taken = 0
                for clients in clients_list:
                    plan = dict(targets)
                    if unique:
                        plan["unique search"] = unique[taken:len(unique) - 200]
                    for name, urls in plan.items():
                        pids = _process_tree(proc.pid)
                        cpu0, client0 = _cpu_seconds(pids), time.process_time()
                        r = run_load("127.0.0.1", port, urls, clients, args.seconds)
                        if r["requests"]:
                            r["server_cpu_ms_per_request"] = round(1000 * (_cpu_seconds(pids) - cpu0) / r["requests"], 2)
                            r["client_cpu_ms_per_request"] = round(1000 * (time.process_time() - client0) / r["requests"], 2)
                        r["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
                        if name == "unique search":
                            taken += r["requests"]
                            r["repeated_queries"] = max(0, r["requests"] - len(urls))
                        rows[f"{name}, {clients} clients"] = r
                        print(f"{label:24s} {name:14s} {clients:3d} cl {r['requests']:6d} req {r['rps']:7.1f} req/s  "
                              f"p50 {r['p50_ms']:6.1f}  p95 {r['p95_ms']:6.1f}  p99 {r['p99_ms']:6.1f} ms  "
                              f"errors {r['errors']}  cache hits {100 * r['cache_hit_share']:.0f} %  "
                              f"server {r.get('server_cpu_ms_per_request', 0):.1f} CPU-ms/req  "
                              f"load {r['load_average_after'][0]}", flush=True)
            finally:
                proc.terminate()
                proc.wait(timeout=20)
    from paperscope.library import Library

    with Library.open(args.db) as lib:
        papers = lib.stats()["papers"]
    out = {"papers": papers, "clients": clients_list, "seconds_per_target": args.seconds, "pool": args.pool,
           "workers": workers_list, "machine_cores": os.cpu_count(),
           "load_average_at_start": [round(x, 2) for x in load0],
           "client": "python threads, http.client keep-alive, closed loop, separate process from the server",
           "workload": "400 list pages / 400 title-word queries (15 % quoted phrases) / 400 paper pages, cycled; "
                       "unique search: 2-4 word spans of titles or abstracts, every query new",
           "runs": runs, "command": " ".join(["benchmarks/web_load.py", *sys.argv[1:]]),
           "run_info": run_info({"library": f"{args.db.name}: {papers} papers (see module docstring)"},
                                "uvicorn", "fastapi", "onnxruntime", "numpy")}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False))
    print(f"-> {args.out}\n")
    print("| server | target | req/s | p50 ms | p95 ms | p99 ms | server CPU-ms/req | errors | cache hits |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, rows in runs.items():
        for name, r in rows.items():
            print(f"| {label} | {name} | {r['rps']} | {r['p50_ms']} | {r['p95_ms']} | {r['p99_ms']} | "
                  f"{r.get('server_cpu_ms_per_request', '')} | {r['errors']} | {100 * r['cache_hit_share']:.0f} % |")
    return 0 if all(r["errors"] == 0 for rows in runs.values() for r in rows.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
