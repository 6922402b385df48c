"""Libraries of 2.6 k, 26 k and 260 k papers for the speed benchmark.

How they are made:
- 2.6 k: ICML 2024 (2,634 papers) ingested title-less (abstracts only) through `Library.ingest`.
- 26 k / 260 k: every corpus in ../shared/corpora (8.8 k papers, title-less, real ingest and real
  embeddings), then synthetic near-copies up to the size. A near-copy is a real abstract with 8 %
  of its words deleted and 2 % replaced by words from another abstract, in a synthetic collection
  (venue SYN, years 2000-2019). Copies are written with `SQLiteStore.insert_paper` (the FTS triggers and
  our postings run as for any paper) and indexed with the real lexical refresh. Their vectors
  are not computed by the model (250 k abstracts would take hours on 2 cores): each is the
  source paper's real vector plus Gaussian noise, renormalised, with the noise level set so that
  the mean cosine to the source equals the one measured by embedding 200 real near-copies.
"""
from __future__ import annotations

import random
import time

import numpy as np

import _search_data as data

ALL = ("icml2024", "nips", "iclr2020", "iclr2017", "iclr2018", "uai2024", "colt2024", "icml2016")
DROP, SWAP = 0.08, 0.02


def near_copy(abstract: str, donor: str, rng: random.Random) -> str:
    words = abstract.split()
    donor_words = donor.split() or ["x"]
    out = []
    for w in words:
        r = rng.random()
        if r < DROP:
            continue
        out.append(rng.choice(donor_words) if r < DROP + SWAP else w)
    return " ".join(out)


def noise_level(lib, rng: random.Random, samples: int = 200) -> tuple[float, float]:
    """(sigma, measured mean cosine): embed real near-copies, match the noise to them."""
    from paperscope.search.embedder import get_embedder

    rows = lib.store.conn.execute("SELECT abstract FROM papers ORDER BY rowid").fetchall()
    picks = rng.sample(range(len(rows)), min(samples, len(rows)))
    originals = [rows[i][0] for i in picks]
    copies = [near_copy(t, rows[rng.randrange(len(rows))][0], rng) for t in originals]
    a = get_embedder().embed(originals)
    b = get_embedder().embed(copies)
    target = float(np.mean(np.sum(a * b, axis=1)))
    g = np.random.default_rng(0).standard_normal(a.shape).astype(np.float32) / np.sqrt(a.shape[1])
    lo, hi = 0.0, 2.0
    for _ in range(40):  # bisection on sigma
        mid = (lo + hi) / 2
        v = a + mid * g
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        if float(np.mean(np.sum(a * v, axis=1))) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2, target


def base_library(name: str):
    """Title-less library of the real corpora (cached); returns the open Library."""
    records = []
    for corpus in (("icml2024",) if name == "scale-2.6k" else ALL):
        records += data.CORPUS[corpus]()
    return data.library(name, data.dedupe(records), titles=False)


def _copy(src_lib, name: str):
    """A copy of a cached library under another name (SQLite backup API)."""
    from paperscope.library import Library

    dest = Library.open(data.CACHE / f"{name}.db")
    src_lib.store.conn.backup(dest.store.conn)
    dest.invalidate()
    return dest


def add_near_copies(lib, target: int, seed: int = 0) -> dict:
    """Grow the library to `target` papers with near-copies (idempotent: counts what exists)."""
    from paperscope.model import content_hash
    from paperscope.search import lexical
    from paperscope.search.embedder import DIM, MODEL_ID

    store = lib.store
    have = store.count_papers()
    info = {"real_papers": store.conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT LIKE 'syn%'").fetchone()[0]}
    if have >= target:
        return info
    rng = random.Random(seed + have)
    sigma, measured = noise_level(lib, rng)
    info.update(noise_sigma=round(sigma, 4), near_copy_mean_cosine=round(measured, 4))
    real = store.conn.execute(
        "SELECT p.abstract, e.vector FROM papers p JOIN embeddings e ON e.text_hash = p.text_hash "
        "AND e.model = ? WHERE p.id NOT LIKE 'syn%' ORDER BY p.rowid", (MODEL_ID,)).fetchall()
    vecs = np.frombuffer(b"".join(r[1] for r in real), dtype="<f2").reshape(len(real), DIM).astype(np.float32)
    noise_rng = np.random.default_rng(seed + have)
    started = time.time()
    with store.transaction() as conn:
        source = store.source_id("synthetic://near-copies", "0" * 64, "synthetic")
        collections = [store.collection_id("SYN", 2000 + y) for y in range(20)]
    made = 0
    while have + made < target:
        batch = min(20_000, target - have - made)
        with store.transaction() as conn:
            rows, emb = [], []
            for j in range(batch):
                k = (have + made + j) % len(real)
                abstract = near_copy(real[k][0], real[rng.randrange(len(real))][0], rng)
                pid = f"syn{have + made + j:09d}"
                h = content_hash(None, abstract)
                store.insert_paper({"id": pid, "abstract": abstract, "abstract_source": abstract,
                                    "text_hash": h, "facts": {"synthetic": True}})
                rows.append((pid, collections[(have + made + j) % 20], source, have + made + j))
                v = vecs[k] + sigma * noise_rng.standard_normal(DIM).astype(np.float32) / np.sqrt(DIM)
                emb.append((MODEL_ID, h, DIM, (v / np.linalg.norm(v)).astype("<f2").tobytes()))
            conn.executemany("INSERT INTO memberships(paper_id, collection_id, source_id, position) "
                             "VALUES (?, ?, ?, ?)", rows)
            conn.executemany("INSERT OR IGNORE INTO embeddings(model, text_hash, dim, vector) "
                             "VALUES (?, ?, ?, ?)", emb)
        made += batch
        print(f"    near-copies: {have + made}/{target} ({time.time() - started:.0f}s)", flush=True)
    t = time.time()
    lexical.refresh(store)
    info["lexical_index_seconds"] = round(time.time() - t, 1)
    lib.invalidate()
    return info


def scale_library(size: int):
    """(open library of about `size` papers, build info). 26 k and 260 k start from a copy of
    the real-corpora library, so the real papers are ingested and embedded once."""
    from paperscope.library import Library

    if size <= 3000:
        return base_library("scale-2.6k"), {}
    name = f"scale-{size // 1000}k"
    path = data.CACHE / f"{name}.db"
    if path.exists():
        lib = Library.open(path)
        if lib.store.count_papers() >= size:
            return lib, {"real_papers": lib.store.conn.execute(
                "SELECT COUNT(*) FROM papers WHERE id NOT LIKE 'syn%'").fetchone()[0]}
    else:
        real = base_library("scale-real")
        lib = _copy(real, name)
        real.close()
    return lib, add_near_copies(lib, size)
