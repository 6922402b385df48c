"""Data for resolve_eval: real venue records from the shared corpora, and the small ways an
aggregator list's copy of an abstract differs from the source's (perturbations)."""
from __future__ import annotations

import csv
import json
import random
import re
import sys
import textwrap
from pathlib import Path

from paperscope.model import clean_text, match_key

csv.field_size_limit(sys.maxsize)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\\$])")
KINDS = ("none", "wrap", "quotes", "latex", "drop_last", "typo", "drop_middle", "combined")


def records(corpora: Path, name: str) -> list[dict]:
    """[{title, abstract, authors}] of one corpus (accepted papers where the file says)."""
    if name == "iclr2024":
        rows = json.loads((corpora / "iclr2024_openreview" / "iclr2024_accepted.json").read_text("utf-8"))
        return [_rec(r["title"], r["abstract"], []) for r in rows]
    if name == "icml2024":
        rows = json.loads((corpora / "icml2024_events" / "icml2024_events.json").read_text("utf-8"))
        return [_rec(r["name"], r["abstract"], [a.strip() for a in (r.get("speakers/authors") or "").split(",")
                                                if a.strip()])
                for r in rows if r.get("type") == "Poster"]
    if name == "iclr2020":
        with open(corpora / "iclr2020_miniconf" / "papers.csv", encoding="utf-8", newline="") as f:
            return [_rec(r["title"], r["abstract"], r["authors"].split("|")) for r in csv.DictReader(f)]
    if name in ("iclr2017", "iclr2018"):
        path = corpora / "dylanjoo_openreview" / "ICLR" / f"ICLR{name[-2:]}_submissions.csv"
        with open(path, encoding="utf-8", newline="") as f:
            return [_rec(r["Title"], r["Abstract"], []) for r in csv.DictReader(f)]
    if name.startswith("nips"):
        path = corpora / "dylanjoo_openreview" / "NIPS" / f"NIPS{name[-2:]}_paper.csv"
        with open(path, encoding="utf-8", newline="") as f:
            return [_rec(r["Title"], r["Abstract"], []) for r in csv.DictReader(f)]
    raise ValueError(name)


def _rec(title: str, abstract: str, authors: list[str]) -> dict:
    return {"title": clean_text(title), "abstract": clean_text(abstract), "authors": authors}


def usable(recs: list[dict]) -> list[dict]:
    """One record per abstract key and per title (a corpus listing a paper twice would make
    either copy a 'wrong' answer), with an abstract of some length."""
    seen: set[str] = set()
    out = []
    for r in recs:
        keys = {"a" + match_key(r["abstract"]), "t" + match_key(r["title"])}
        if len(r["abstract"].split()) >= 30 and r["title"] and not keys & seen:
            seen |= keys
            out.append(r)
    return out


def sample_list_abstracts(lists: Path, venue: str) -> list[str]:
    """Abstracts of the example lists whose header names `venue` (e.g. 'ICLR 2024')."""
    out = []
    for path in sorted(lists.glob("*.txt")):
        text = path.read_text("utf-8")
        header, _, body = text.partition("\n")
        if venue in header:
            out += [" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if p.strip()]
    return out


def perturb(text: str, kind: str, rng: random.Random) -> str:
    """`text` as an aggregator list might carry it."""
    if kind == "combined":
        for k in ("drop_last", "typo", "quotes", "wrap"):
            text = perturb(text, k, rng)
        return text
    sentences = SENTENCE.split(text)
    if kind == "wrap":
        return textwrap.fill(text, width=rng.choice((72, 78, 100)))
    if kind == "quotes":
        text = re.sub(r"\"([^\"]{1,80})\"", "“\\1”", text)
        text = text.replace("'", "’").replace(" - ", " – ")
        return text if text.count("“") or "’" in text else text.replace(", ", " , ", 1)
    if kind == "latex":
        if "$" in text:
            return re.sub(r"\$([^$]{1,200})\$", lambda m: "$ " + " ".join(m.group(1)) + " $", text, count=3)
        return re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)%", r"\1\\%", re.sub(r"\be\.g\.", r"e.g.\\", text), count=0)
    if kind == "drop_last" and len(sentences) >= 3:
        return " ".join(sentences[:-1])
    if kind == "drop_middle" and len(sentences) >= 4:
        del sentences[rng.randrange(1, len(sentences) - 1)]
        return " ".join(sentences)
    if kind == "typo":
        tokens = text.split(" ")
        long = [i for i, t in enumerate(tokens) if len(t) >= 6 and t.isalpha()]
        for i in rng.sample(long, min(len(long), 2)):
            t = tokens[i]
            j = rng.randrange(1, len(t) - 2)
            tokens[i] = t[:j] + t[j + 1] + t[j] + t[j + 2:]
        return " ".join(tokens)
    return text


def list_file(path: Path, venue: str, abstracts: list[str]) -> Path:
    """A title-less list as aggregator sites publish it: header, then one abstract per paragraph."""
    path.write_text(f"{venue} 论文列表\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def source_file(path: Path, recs: list[dict]) -> Path:
    path.write_text(json.dumps([{"title": r["title"], "abstract": r["abstract"], "authors": r["authors"]}
                                for r in recs], ensure_ascii=False), encoding="utf-8")
    return path
