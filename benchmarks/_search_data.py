"""Shared by the search benchmarks: read the corpora in ../shared/corpora into plain dicts and
build (or reuse) benchmark libraries through the real `Library.ingest`.

A library is ingested from a JSONL file we write from the corpus: with titles, or with titles
(and authors) left out, like a title-less paper list. Libraries are cached under
benchmarks/.cache/ (SQLite files, git-ignored) so the embeddings are computed once.
"""
from __future__ import annotations

import ast
import csv
import glob
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "src"))
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", REPO.parent / "shared" / "corpora"))
CACHE = HERE / ".cache"
RESULTS = HERE / "results"
csv.field_size_limit(10_000_000)


def _rec(title, abstract, venue, year, authors=(), keywords=()) -> dict:
    return {"title": (title or "").strip(), "abstract": " ".join((abstract or "").split()),
            "venue": venue, "year": int(year), "authors": list(authors), "keywords": list(keywords)}


def icml2024() -> list[dict]:
    events = json.loads((CORPORA / "icml2024_events" / "icml2024_events.json").read_text("utf-8"))
    return [_rec(e["name"], e["abstract"], "ICML", 2024,
                 [a.strip() for a in (e.get("speakers/authors") or "").split(",") if a.strip()])
            for e in events if e.get("type") == "Poster" and e.get("abstract")]


def iclr2020() -> list[dict]:
    with open(CORPORA / "iclr2020_miniconf" / "papers.csv", encoding="utf-8") as f:
        return [_rec(r["title"], r["abstract"], "ICLR", 2020, r["authors"].split("|"),
                     [k for k in r["keywords"].split("|") if k.strip()]) for r in csv.DictReader(f)]


def iclr_submissions(year: int) -> list[dict]:
    path = CORPORA / "dylanjoo_openreview" / "ICLR" / f"ICLR{year % 100}_submissions.csv"
    out = []
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            try:
                kws = ast.literal_eval(r.get("Keyword") or "[]")
            except (ValueError, SyntaxError):
                kws = []
            out.append(_rec(r["Title"], r["Abstract"], "ICLR", year, (), [str(k) for k in kws]))
    return out


def nips() -> list[dict]:
    out = []
    for path in sorted(glob.glob(str(CORPORA / "dylanjoo_openreview" / "NIPS" / "NIPS*_paper.csv"))):
        with open(path, encoding="utf-8") as f:
            out += [_rec(r["Title"], r["Abstract"], "NIPS", r["Year"]) for r in csv.DictReader(f)]
    return out


def pmlr(folder: str, venue: str, year: int) -> list[dict]:
    import yaml

    out = []
    for path in sorted((CORPORA / folder / "_posts").glob("*.md")):
        text = path.read_text("utf-8")
        meta = yaml.safe_load(text.split("---")[1]) if text.startswith("---") else {}
        if meta and meta.get("abstract"):
            authors = [f"{a.get('given', '')} {a.get('family', '')}".strip() for a in meta.get("author") or []]
            out.append(_rec(meta.get("title"), meta["abstract"], venue, year, authors))
    return out


CORPUS = {
    "icml2024": icml2024, "iclr2020": iclr2020, "nips": nips,
    "iclr2017": lambda: iclr_submissions(2017), "iclr2018": lambda: iclr_submissions(2018),
    "uai2024": lambda: pmlr("pmlr_v244_uai2024", "UAI", 2024),
    "colt2024": lambda: pmlr("pmlr_v247_colt2024", "COLT", 2024),
    "icml2016": lambda: pmlr("pmlr_v48_icml2016", "ICML", 2016),
}


def available() -> bool:
    return CORPORA.is_dir()


def dedupe(records: list[dict]) -> list[dict]:
    """Drop records without an abstract and repeated abstracts (the library merges them)."""
    from paperscope.model import match_key

    seen, out = set(), []
    for r in records:
        key = match_key(r["abstract"])
        if len(r["abstract"]) < 40 or key in seen:
            continue
        seen.add(key)
        out.append(r)
    return out


def write_jsonl(records: list[dict], path: Path, *, titles: bool = True, keywords: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            row = {"abstract": r["abstract"], "venue": r["venue"], "year": r["year"]}
            if titles:
                row.update(title=r["title"], authors=r["authors"])
                if keywords:
                    row["keywords"] = r["keywords"]
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def library(name: str, records: list[dict], *, titles: bool, embed: bool = True, keywords: bool = True):
    """A cached benchmark library holding `records` (ingested through the real ingest);
    keywords=False leaves the keywords out (when they are the labels being predicted)."""
    from paperscope.library import Library

    tag = f"{name}-{'titled' if titles else 'notitle'}{'' if keywords or not titles else '-nokw'}"
    db = CACHE / f"{tag}.db"
    lib = Library.open(db)
    if lib.store.count_papers() < len(records):
        seed_embeddings(lib)
        src = write_jsonl(records, CACHE / f"{tag}.jsonl", titles=titles, keywords=keywords)
        lib.ingest([src], embed=embed)
    elif embed:
        lib.refresh_derived(embed=True)
    return lib


def seed_embeddings(lib) -> int:
    """Copy the vectors other cached benchmark libraries already computed (same model, same
    text hash: the same vector), so each text is embedded once across benchmarks."""
    from paperscope.search.embedder import MODEL_ID

    conn = lib.store.conn
    before = conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
    for other in sorted(CACHE.glob("*.db")):
        if other.resolve() == lib.path.resolve():
            continue
        conn.execute("ATTACH DATABASE ? AS other", (str(other),))
        try:
            with lib.store.transaction():
                conn.execute("INSERT OR IGNORE INTO main.embeddings(model, text_hash, dim, vector) "
                             "SELECT model, text_hash, dim, vector FROM other.embeddings WHERE model = ?",
                             (MODEL_ID,))
        except Exception as exc:  # a library still being written elsewhere: skip it
            print(f"  (seed from {other.name} skipped: {exc})")
        finally:
            conn.execute("DETACH DATABASE other")
    return conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0] - before


def paper_id(lib, record: dict) -> str | None:
    """The library id of this record's paper (identity = its abstract, as the ingester keys it)."""
    from paperscope.model import clean_text, decode_entities, latex_to_plain, match_key

    raw = clean_text(record["abstract"])
    decoded = clean_text(decode_entities(raw))  # as the readers store it; libraries cached by
    keys = [f"a:{match_key(latex_to_plain(t))}" for t in (decoded, raw)]  # older versions: raw
    return lib.store.paper_for_keys(keys)


def write_result(name: str, data: dict) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return path


def machine() -> dict:
    import platform

    return {"cpus": os.cpu_count(), "python": platform.python_version(),
            "loadavg_at_start": list(os.getloadavg())}
