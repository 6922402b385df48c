"""Peak memory and time of the lexical (BM25F) index build: the in-memory build it replaced
(`_build_index_reference`, kept here as the oracle) against the chunked two-pass build in
src/paperscope/search/lexical.py, each in its own subprocess so peaks do not mix.

Libraries: every corpus in ../shared/corpora with titles, authors and keywords (8.8 k real
papers), grown to N papers with near-copies (`_search_scale.near_copy`: 8 % of the words of
title and abstract dropped, 2 % swapped with words of another paper), tokenised with the real
`postings.index_missing`. Cached as benchmarks/.cache/lexbuild-<N>.db.

    .venv/bin/python benchmarks/lexical_build_memory.py [--sizes 20000 80000] [--chunk 2000]
        [--db benchmarks/.cache/scale-260k.db]   (also measure existing libraries, read-only)
        -> benchmarks/results/lexical_build_memory.json

A child reports RSS before the build (library open, modules imported), the peak (VmHWM) after
it, seconds, and a sha256 of the four index arrays: `identical` says old and new agree bit
for bit.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))


def _reference_from_store(conn: sqlite3.Connection, **params):
    """build_from_store of lexical.py at commit 0e80cf7 (all postings read at once)."""
    from paperscope.search import postings, tokens

    rows = conn.execute("SELECT t.paper_rowid, t.lengths, t.postings FROM paper_terms t "
                        "JOIN papers p ON p.rowid = t.paper_rowid WHERE t.tokenizer = ? "
                        "ORDER BY t.paper_rowid", (tokens.VERSION,)).fetchall()
    rowids = [r[0] for r in rows]
    lengths = [r[1] for r in rows]
    keys = [postings.unpack(r[2]) for r in rows]
    stale = [dict(r) for r in conn.execute(
        "SELECT p.rowid AS rowid, p.title, p.label, p.abstract, p.authors, p.keywords FROM papers p "
        "LEFT JOIN paper_terms t ON t.paper_rowid = p.rowid "
        "WHERE t.paper_rowid IS NULL OR t.tokenizer != ? ORDER BY p.rowid", (tokens.VERSION,))]
    memory_terms = None
    if stale:
        vocab = dict(conn.execute("SELECT term, id FROM search_terms"))
        next_id = max(vocab.values(), default=0) + 1
        for r in stale:
            ln, counts = postings.row_postings(r)
            for t, _ in counts:
                if t not in vocab:
                    vocab[t] = next_id
                    next_id += 1
            rowids.append(r["rowid"])
            lengths.append(ln.tobytes())
            keys.append(postings.unpack(postings.pack(counts, vocab)))
        order = np.argsort(np.asarray(rowids, dtype=np.int64), kind="stable")
        rowids = [rowids[i] for i in order]
        lengths = [lengths[i] for i in order]
        keys = [keys[i] for i in order]
        memory_terms = vocab
    index = _build_index_reference(np.asarray(rowids, dtype=np.int64), lengths, keys, **params)
    index.memory_terms = memory_terms
    return index


def _build_index_reference(rowids: np.ndarray, lengths: list[bytes], keys: list, *, field_weights=None,
                           field_b=None, k1=None):
    """build_index of lexical.py at commit 0e80cf7, unchanged: every posting of the library in
    memory at once, then scipy's csr -> csc. The oracle for the chunked build."""
    from scipy import sparse

    from paperscope.search import lexical, postings

    field_weights = lexical.FIELD_WEIGHTS if field_weights is None else field_weights
    field_b = lexical.FIELD_B if field_b is None else field_b
    k1 = lexical.K1 if k1 is None else k1
    n = len(rowids)
    nf = len(postings.FIELDS)
    if n == 0:
        return lexical.LexicalIndex(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int32),
                                    np.zeros(0, np.float32))
    field_len = np.frombuffer(b"".join(lengths), dtype=np.uint16).reshape(n, nf).astype(np.float32)
    sizes = np.fromiter((len(k) for k, _ in keys), dtype=np.int64, count=n)
    packed = np.concatenate([k for k, _ in keys])
    counts = np.concatenate([c for _, c in keys]).astype(np.float32)
    doc = np.repeat(np.arange(n, dtype=np.int64), sizes)
    term = (packed >> 3).astype(np.int64)
    field = (packed & 7).astype(np.int64)
    present = field_len > 0
    avg = np.where(present.any(0), field_len.sum(0) / np.maximum(present.sum(0), 1), 1.0)
    b = np.asarray(field_b, dtype=np.float32)
    norm = 1.0 - b[field] + b[field] * field_len[doc, field] / avg[field]
    wtf = np.asarray(field_weights, dtype=np.float32)[field] * counts / norm
    first = np.ones(len(term), dtype=bool)
    first[1:] = (term[1:] != term[:-1]) | (doc[1:] != doc[:-1])
    starts = np.flatnonzero(first)
    summed = np.add.reduceat(wtf, starts)
    uterm, udoc = term[starts], doc[starts]
    n_terms = int(uterm.max()) + 1
    df = np.bincount(uterm, minlength=n_terms)
    idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
    weight = (summed * (k1 + 1.0) / (k1 + summed) * idf[uterm]).astype(np.float32)
    doc_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(udoc, minlength=n), out=doc_ptr[1:])
    by_term = sparse.csr_matrix((weight, uterm.astype(np.int32), doc_ptr), shape=(n, n_terms)).tocsc()
    return lexical.LexicalIndex(np.asarray(rowids, dtype=np.int64), by_term.indptr.astype(np.int64),
                                by_term.indices.astype(np.int32), by_term.data.astype(np.float32))


# --------------------------------------------------------------------------- library


def _records() -> list[dict]:
    import _search_data as data

    out = []
    for name in ("icml2024", "nips", "iclr2020", "iclr2017", "iclr2018", "uai2024", "colt2024", "icml2016"):
        out += data.CORPUS[name]()
    return data.dedupe(out)


def library_path(n: int) -> Path:
    """A cached library of n papers with current postings (built on first use)."""
    from _search_scale import near_copy

    from paperscope.model import content_hash
    from paperscope.search import postings
    from paperscope.store.sqlite import SQLiteStore

    path = HERE / ".cache" / f"lexbuild-{n}.db"
    path.parent.mkdir(exist_ok=True)
    store = SQLiteStore(path)
    have = store.count_papers()
    if have < n:
        real = _records()
        rng = random.Random(have)
        started = time.time()
        while have < n:
            with store.transaction():
                for i in range(have, min(n, have + 10_000)):
                    r = real[i % len(real)]
                    title, abstract = r["title"], r["abstract"]
                    if i >= len(real):  # near-copies past the real papers
                        donor = real[rng.randrange(len(real))]
                        title = near_copy(title, donor["title"], rng)
                        abstract = near_copy(abstract, donor["abstract"], rng)
                    store.insert_paper({"id": f"lexbuild{i:09d}", "title": title, "title_source": title,
                                        "label": title, "abstract": abstract, "abstract_source": abstract,
                                        "authors": list(r["authors"]), "keywords": list(r["keywords"]),
                                        "text_hash": content_hash(title, abstract)})
                have = min(n, have + 10_000)
            print(f"  papers: {have}/{n} ({time.time() - started:.0f}s)", flush=True)
    # (re)tokenise what has no current postings (new papers, or a tokenizer version bump)
    postings.index_missing(store, progress=lambda _s, done, total: done % 20_000 == 0 and print(
        f"  postings: {done}/{total}", flush=True))
    store.close()
    return path


# --------------------------------------------------------------------------- measure


def _rss_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def child(which: str, db: str, chunk: int) -> None:
    from paperscope.search import lexical

    from paperscope.store import open_store

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    conn.execute("SELECT COUNT(*) FROM papers").fetchone()
    store = open_store(db, readonly=True)
    before = _rss_mb("VmRSS")
    t0 = time.perf_counter()
    index = (_reference_from_store(conn) if which == "old" else lexical.build_from_store(store, chunk=chunk))
    seconds = time.perf_counter() - t0
    peak = _rss_mb("VmHWM")  # before hashing (which copies arrays)
    digest = hashlib.sha256()
    for name in ("rowids", "indptr", "indices", "data"):
        arr = getattr(index, name)
        digest.update(f"{name}:{arr.dtype.str}:{arr.shape}".encode())
        digest.update(np.ascontiguousarray(arr).tobytes())
    index_mb = sum(getattr(index, a).nbytes for a in ("rowids", "indptr", "indices", "data")) / 2**20
    print(json.dumps({"build": which, "papers": index.size, "nnz": int(len(index.indices)),
                      "terms": int(len(index.indptr) - 1), "seconds": round(seconds, 2),
                      "rss_before_mb": round(before, 1), "peak_rss_mb": round(peak, 1),
                      "index_arrays_mb": round(index_mb, 1), "sha256": digest.hexdigest()}))


def measure(which: str, db: Path, chunk: int) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", which, str(db), "--chunk", str(chunk)],
                          capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["extra_mb"] = round(out["peak_rss_mb"] - out["rss_before_mb"], 1)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[20_000, 80_000])
    ap.add_argument("--chunk", type=int, default=None, help="papers per chunk (default: lexical.CHUNK)")
    ap.add_argument("--db", type=Path, nargs="*", default=[], help="also measure these existing libraries")
    ap.add_argument("--child", nargs=2, metavar=("BUILD", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.chunk is None:
        from paperscope.search import lexical

        args.chunk = lexical.CHUNK
    if args.child:
        child(args.child[0], args.child[1], args.chunk)
        return 0
    import _search_data as data

    if not data.available():
        print("corpora not found: skipped")
        return 0
    rows = []
    for db in [library_path(n) for n in args.sizes] + args.db:
        old, new = measure("old", db, args.chunk), measure("new", db, args.chunk)
        n = new["papers"]
        row = {"library": db.name, "papers": n, "chunk": args.chunk, "identical": old["sha256"] == new["sha256"], "old": old, "new": new}
        print(f"{n:>7} papers: old {old['peak_rss_mb']:.0f} MB peak (+{old['extra_mb']:.0f}) {old['seconds']:.1f}s"
              f" | new {new['peak_rss_mb']:.0f} MB peak (+{new['extra_mb']:.0f}) {new['seconds']:.1f}s"
              f" | index {new['index_arrays_mb']:.0f} MB | identical={row['identical']}", flush=True)
        rows.append(row)
    out = {"benchmark": "lexical index build: peak RSS and time, old in-memory vs chunked two-pass",
           "command": "python benchmarks/lexical_build_memory.py " + " ".join(sys.argv[1:]), "runs": rows}
    (HERE / "results" / "lexical_build_memory.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
