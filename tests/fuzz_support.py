"""Hostile inputs for every reader, and one way to judge what ingest made of them.

Shared by tests/test_fuzz_readers.py (fast profile) and benchmarks/fuzz_readers.py (long
profile). An input is a real file of the reader's format (the bundled example lists, slices of
the shared corpora when present, else small files modelled on them) put through a few
mutations: byte flips, inserts, deletions and repeats, random unicode in a random encoding, huge
lines, deep nesting, NUL bytes, byte order marks, mixed encodings and absurd values. It is
ingested through `Ingester`, the path `paperscope ingest` takes, on a library that lives for
the whole run, either auto-detected or with the reader's `--format`.

Outcomes: `accepted` (records went in), `clean` (the file, or some records, were refused with a
message naming the file), `crash` (an exception got out of the ingest, a message did not name
the file, or the library failed its checks). Hangs are judged by the caller's watchdog.
"""
from __future__ import annotations

import codecs
import csv
import io
import json
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from paperscope.ingest import Ingester

REPO = Path(__file__).resolve().parents[1]
READERS = ("list", "json", "jsonl", "pmlr", "csv", "tsv", "bibtex")
FILE_NAMES = {"list": "icml2024_list.txt", "json": "icml2024_events.json", "jsonl": "iclr2024_notes.jsonl",
              "pmlr": "2024-09-12-fuzz24a.md", "csv": "iclr2020_papers.csv", "tsv": "nips2018_papers.tsv",
              "bibtex": "icml2024.bib"}
PMLR_CONFIG = "shortname: UAI\nyear: '2024'\nvolume: '244'\nstart: &1 2024-07-15\ndates:\n- *1\n"
BOMS = [codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE]
BOM_ENCODING = {codecs.BOM_UTF8: "utf-8", codecs.BOM_UTF16_LE: "utf-16-le", codecs.BOM_UTF16_BE: "utf-16-be",
                codecs.BOM_UTF32_LE: "utf-32-le", codecs.BOM_UTF32_BE: "utf-32-be"}
ABSURD = [b"1e400", b"NaN", b"-Infinity", b"-5", b"20240", b"true", b"null", b"[]", b"{}", b"[[[[]]]]",
          b'"' + b"y" * 5000 + b'"', b"1" * 5000, b"*a", b"&a [*a]", b"!!python/object:os.system",
          b"\\u0000", b'"\\ud800"', b"{{{{", b"@string{x = x # x}", b"[1, 2]"]


# ---------------------------------------------------------------------------- seeds

def _events(papers: list[dict]) -> list[dict]:
    return [{"type": p.get("type", "Poster"), "name": p["title"], "abstract": p["abstract"],
             "speakers/authors": ", ".join(p["authors"]),
             "virtualsite_url": f"https://icml.cc/virtual/2024/poster/{i}"} for i, p in enumerate(papers)]


def _table(papers: list[dict], delimiter: str) -> str:
    out = io.StringIO()
    w = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    w.writerow(["UID", "title", "authors", "abstract", "keywords", "year"])
    for i, p in enumerate(papers):
        w.writerow([f"B1xSper{i}vH", p["title"], "|".join(p["authors"]), p["abstract"], "graphs|rl", 2020])
    return out.getvalue()


def _bibtex(papers: list[dict]) -> str:
    head = '@string{icml = "International Conference on Machine Learning"}\n% a comment\n\n'
    return head + "".join(
        f"@inproceedings{{paper{i},\n  title = {{{p['title']}}},\n  author = {{{' and '.join(p['authors'])}}},\n"
        f"  booktitle = icml,\n  year = {{2024}},\n  abstract = {{{p['abstract']}}},\n  url = {{https://x.org/{i}}}\n}}\n\n"
        for i, p in enumerate(papers))


def _post(p: dict) -> str:
    authors = "".join(f"- given: {a.split()[0]}\n  family: {a.split()[-1]}\n" for a in p["authors"])
    return (f"---\ntitle: '{p['title']}'\nabstract: '{p['abstract']}'\nsection: Papers\nid: fuzz24a\n"
            f"author:\n{authors}openreview: q9TqTSk9cy\npdf: https://x.org/a.pdf\n---\n")


def _papers(corpora: Path | None) -> list[dict]:
    """Three real papers: from the ICML 2024 events corpus when present, else the example
    lists' first abstracts with made-up titles and authors."""
    events = corpora / "icml2024_events" / "icml2024_events.json" if corpora else None
    if events and events.is_file():
        data = json.loads(events.read_text(encoding="utf-8"))[:6]  # posters and a workshop
        return [{"title": e["name"], "abstract": e["abstract"], "type": e["type"],
                 "authors": [a.strip() for a in e["speakers/authors"].split(",")][:4]} for e in data]
    text = (REPO / "examples" / "lists" / "000_57cfd0dc3b5a87a8.txt").read_text(encoding="utf-8")
    paragraphs = [p for p in text.split("\n\n")[1:] if p.strip()][:3]
    return [{"title": f"Paper {i}", "abstract": p.strip(), "authors": ["Ada Lovelace", "Alan Turing"]}
            for i, p in enumerate(paragraphs)]


def seeds(corpora: Path | None = None) -> dict[str, list[bytes]]:
    """Real files per reader, a few KB each."""
    papers = _papers(corpora)
    lists = sorted((REPO / "examples" / "lists").glob("*.txt"))
    out = {
        "list": [b"\n\n".join(f.read_bytes().split(b"\n\n")[:4]) + b"\n" for f in lists[:3]],
        "json": [json.dumps(_events(papers), ensure_ascii=False, indent=1).encode(),
                 json.dumps({"notes": [{"id": "f0", "forum": "f0", "content": {
                     "title": {"value": p["title"]}, "abstract": {"value": p["abstract"]},
                     "venue": {"value": "ICLR 2024 poster"}}} for p in papers[:2]]}).encode()],
        "jsonl": ["".join(json.dumps({"title": p["title"], "abstract": p["abstract"], "authors": p["authors"],
                                      "venue": "ICLR 2024", "year": 2024}) + "\n" for p in papers).encode()],
        "pmlr": [_post(p).encode() for p in papers[:2]],
        "csv": [_table(papers, ",").encode()],
        "tsv": [_table(papers, "\t").encode()],
        "bibtex": [_bibtex(papers).encode()],
    }
    if corpora:
        for folder in ("pmlr_v244_uai2024", "pmlr_v48_icml2016"):
            posts = sorted((corpora / folder / "_posts").glob("*.md"))[:2] if (corpora / folder).is_dir() else []
            out["pmlr"] += [p.read_bytes() for p in posts]
        miniconf = corpora / "iclr2020_miniconf" / "papers.csv"
        if miniconf.is_file():
            with open(miniconf, encoding="utf-8", newline="") as f:
                rows = list(csv.reader(f))[:4]
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows(rows)
            out["csv"].append(buf.getvalue().encode())
    return out


# ---------------------------------------------------------------------------- mutations

@st.composite
def _position(draw, data: bytes) -> int:
    return draw(st.integers(0, len(data)))


@st.composite
def mutated(draw, seed_files: list[bytes], huge: int = 300_000) -> bytes:
    """One seed file with 1-4 mutations; `huge` bounds the size of huge lines and nesting."""
    data = draw(st.sampled_from(seed_files))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(MUTATIONS))
        data = kind(draw, data, huge)
        if len(data) > 4 * huge:
            data = data[: 4 * huge]
    return data


def _flip(draw, data, huge):
    if not data:
        return data
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        i = draw(st.integers(0, len(buf) - 1))
        buf[i] ^= draw(st.integers(1, 255))
    return bytes(buf)


def _insert(draw, data, huge):
    i = draw(_position(data))
    return data[:i] + draw(st.binary(min_size=1, max_size=64)) + data[i:]


def _delete(draw, data, huge):
    i = draw(_position(data))
    return data[:i] + data[i + draw(st.integers(1, 400)):]


def _repeat(draw, data, huge):
    i = draw(_position(data))
    j = min(len(data), i + draw(st.integers(1, 300)))
    times = draw(st.integers(2, 60))
    return data[:j] + data[i:j] * times + data[j:]


def _truncate(draw, data, huge):
    return data[:draw(_position(data))]


def _unicode(draw, data, huge):
    text = draw(st.text(st.characters(codec=None, exclude_categories=()), min_size=1, max_size=120))
    encoding = draw(st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "cp1252", "latin-1", "gb18030"]))
    errors = "surrogatepass" if encoding.startswith("utf") else "replace"
    try:
        blob = text.encode(encoding, errors)
    except UnicodeError:
        blob = text.encode("utf-8", "surrogatepass")
    i = draw(_position(data))
    return data[:i] + blob + data[i:]


def _huge_line(draw, data, huge):
    unit = draw(st.sampled_from([b"x", b"word ", b'"', b"\\", b",", b"\t", b"-", b"@", b"\xe2\x82\xac", b"{", b"a\r"]))
    n = draw(st.integers(1_000, huge)) // len(unit)
    i = draw(_position(data))
    return data[:i] + unit * n + data[i:]


def _nesting(draw, data, huge):
    depth = draw(st.integers(50, max(60, huge // 20)))
    kind = draw(st.sampled_from(["[", "{", "json", "yaml", "balanced", "brace"]))
    blob = {"[": b"[" * depth, "{": b"{" * depth, "json": b'{"a":' * depth,
            "yaml": b"".join(b"  " * k + b"- x\n" for k in range(min(depth, 3000))),
            "balanced": b"[" * depth + b"]" * depth, "brace": b"{" * depth + b"}" * depth}[kind]
    i = draw(_position(data))
    return data[:i] + blob + data[i:]


def _nul(draw, data, huge):
    for _ in range(draw(st.integers(1, 10))):
        i = draw(_position(data))
        data = data[:i] + b"\x00" * draw(st.integers(1, 4)) + data[i:]
    return data


def _bom(draw, data, huge):
    bom = draw(st.sampled_from(BOMS))
    if draw(st.booleans()):  # the BOM tells the truth: the body is re-encoded
        data = data.decode("utf-8", "replace").encode(BOM_ENCODING[bom], "replace")
        data += draw(st.binary(max_size=3))  # with an odd tail now and then
    return bom + data


def _mixed(draw, data, huge):
    i = draw(_position(data))
    encoding = draw(st.sampled_from(["utf-16-le", "utf-16-be", "latin-1", "cp1252", "utf-32-le"]))
    return data[:i] + data[i:].decode("utf-8", "replace").encode(encoding, "replace")


def _absurd(draw, data, huge):
    marks = [m.end() for m in re.finditer(rb"[:=,\t]\s*", data[:200_000])]
    i = draw(st.sampled_from(marks)) if marks else draw(_position(data))
    return data[:i] + draw(st.sampled_from(ABSURD)) + data[i:]


MUTATIONS = [_flip, _insert, _delete, _repeat, _truncate, _unicode, _huge_line, _nesting, _nul, _bom,
             _mixed, _absurd]


# ---------------------------------------------------------------------------- one input

@dataclass
class Outcome:
    kind: str  # accepted | clean | crash
    detail: str = ""


def place(folder: Path, reader: str, data: bytes, n: int) -> Path:
    """Write input `n` where its reader expects it (a PMLR post in a volume's `_posts/`). Paths
    repeat every 50 inputs, so some inputs replace a file the library has read before (a list
    edited and ingested again)."""
    slot = n % 50
    if reader == "pmlr":
        volume = folder / f"v{slot}"
        (volume / "_posts").mkdir(parents=True, exist_ok=True)
        (volume / "_config.yml").write_text(PMLR_CONFIG, encoding="utf-8")
        path = volume / "_posts" / FILE_NAMES[reader]
    else:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{slot:02d}_{FILE_NAMES[reader]}"
    path.write_bytes(data)
    return path


def ingest_one(store, path: Path, fmt: str | None) -> Outcome:
    """Ingest one file; judge the answer and the library after it."""
    try:
        report = Ingester(store, fmt=fmt).run([path])
    except Exception:  # noqa: BLE001 - this is what the harness looks for
        return Outcome("crash", traceback.format_exc(limit=-6))
    if store.conn.in_transaction:
        return Outcome("crash", "a transaction was left open")
    check = store.conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        return Outcome("crash", f"library check: {check}")
    [fr] = report.files
    messages = ([fr.error] if fr.error else []) + [str(p) for p in fr.problems + fr.warnings + fr.left_out]
    unnamed = [m for m in messages if str(path) not in m]
    if unnamed:
        return Outcome("crash", f"message without the file name: {unnamed[0][:300]}")
    if fr.error or fr.problems:
        return Outcome("clean", (fr.error or str(fr.problems[0]))[:300])
    return Outcome("accepted")


def library_consistent(store) -> str | None:
    """None when the library passes SQLite's and FTS5's integrity checks and every paper
    has a membership and an identity key; else what failed."""
    conn = store.conn
    check = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        return f"integrity_check: {check}"
    try:
        conn.execute("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')")
    except Exception as exc:  # noqa: BLE001
        return f"fts integrity-check: {exc}"
    orphans = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN "
                           "(SELECT paper_id FROM memberships)").fetchone()[0]
    keyless = conn.execute("SELECT COUNT(*) FROM papers WHERE id NOT IN "
                           "(SELECT paper_id FROM paper_keys)").fetchone()[0]
    if orphans or keyless:
        return f"{orphans} papers without a membership, {keyless} without a key"
    return None
