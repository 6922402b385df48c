"""Wire-format data for the test source servers (`source_servers.py`), built from real corpora.

Each builder reads a corpus file as the shared corpora (or the small fixtures in
`tests/data/fetch/`, same formats) hold it and answers what the real source sends:

* `openreview_v2(path)`: ICLR 2024 accepted papers (`iclr2024_accepted.json`) -> API v2 notes
  (`content.<field>.value`, `content.venue` "ICLR 2024 poster", `content.venueid`).
* `openreview_v1(path)`: ICLR 2018 submissions (`ICLR18_submissions.csv`, decision codes 1 oral,
  2 poster, 0 reject, -1 workshop) -> API v1 blind submissions (plain `content.title`) with their
  decision notes under `details.directReplies`, as `details=directReplies` returns them.
* `virtual_results(path)`: ICML 2024 virtual-site events -> `{conf}-{year}-orals-posters.json`
  `results[]` (`name`, `abstract`, `authors[].fullname`, `decision`, `eventtype`, `uid`); every
  tenth poster is also listed as an oral event with the same `uid`, as real exports do.
* `pmlr_bib(posts_dir)` / `pmlr_bib_from_events(path)`: a PMLR volume's
  `assets/bib/bibliography.bib` (an `@Proceedings` header, then `@InProceedings` entries with
  `abstract`), from a volume's `_posts/*.md` or from ICML 2024 events.
"""
from __future__ import annotations

import csv
import gzip
import hashlib
import json
from pathlib import Path

import yaml

FIXTURES = Path(__file__).resolve().parent / "data" / "fetch"
ICLR24_VENUE = "ICLR.cc/2024/Conference"
ICLR18_INVITATION = "ICLR.cc/2018/Conference/-/Blind_Submission"
_DECISIONS_2018 = {"1": "Accept (Oral)", "2": "Accept (Poster)", "0": "Reject", "-1": "Invite to Workshop Track"}


def _load_json(path: Path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _uid(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:10]


def openreview_v2(path: Path = FIXTURES / "iclr2024_accepted.json",
                  rejected: Path | None = FIXTURES / "ICLR18_submissions.csv") -> dict[str, list[dict]]:
    """venueid -> notes: the accepted papers of ICLR 2024 (in the corpus order) and, under
    `.../Rejected_Submission`, stand-ins for rejected submissions (the ICLR 2018 rejects of
    `rejected`, as a v2 server holds them: `content.venue` "Submitted to ICLR 2024")."""
    out = {ICLR24_VENUE: _v2_accepted(path)}
    if rejected is not None:
        out[f"{ICLR24_VENUE}/Rejected_Submission"] = _v2_rejected(rejected)
    return out


def _v2_rejected(path: Path) -> list[dict]:
    notes = []
    with open(path, newline="", encoding="utf-8") as f:
        for number, row in enumerate((r for r in csv.DictReader(f) if r["Decision"].strip() == "0"), 1):
            content = {"title": {"value": row["Title"]}, "abstract": {"value": row["Abstract"]},
                       "venue": {"value": "Submitted to ICLR 2024"},
                       "venueid": {"value": f"{ICLR24_VENUE}/Rejected_Submission"}}
            notes.append({"id": f"rej{row['PID']}", "forum": f"rej{row['PID']}", "number": 90000 + number,
                          "domain": ICLR24_VENUE, "invitations": [f"{ICLR24_VENUE}/-/Submission"],
                          "content": content})
    return notes


def _v2_accepted(path: Path) -> list[dict]:
    notes = []
    for number, rec in enumerate(_load_json(path), 1):
        decision = str(rec.get("decision") or "poster").lower()
        content = {"title": {"value": rec["title"]}, "abstract": {"value": rec["abstract"]},
                   "venue": {"value": f"ICLR 2024 {decision}"}, "venueid": {"value": ICLR24_VENUE},
                   "pdf": {"value": f"/pdf/{_uid(rec['forum'])}.pdf"},
                   "keywords": {"value": []}, "primary_area": {"value": "other topics in machine learning"}}
        notes.append({"id": rec["forum"], "forum": rec["forum"], "number": number,
                      "invitations": [f"{ICLR24_VENUE}/-/Submission", f"{ICLR24_VENUE}/-/Post_Submission"],
                      "domain": ICLR24_VENUE, "cdate": 1695388800000 + number, "mdate": 1710000000000,
                      "readers": ["everyone"], "content": content})
    return notes


def openreview_v1(path: Path = FIXTURES / "ICLR18_submissions.csv") -> dict[str, list[dict]]:
    """invitation -> blind submissions, each with its decision among `details.directReplies`."""
    notes = []
    with open(path, newline="", encoding="utf-8") as f:
        for number, row in enumerate(csv.DictReader(f), 1):
            pid = row["PID"]
            decision = _DECISIONS_2018.get(row["Decision"].strip(), "Reject")
            keywords = [k.strip() for k in row.get("Keyword", "").strip("[]").replace("'", "").split(",") if k.strip()]
            reply = {"id": f"d{_uid(pid)}", "forum": pid, "replyto": pid,
                     "invitation": "ICLR.cc/2018/Conference/-/Acceptance_Decision",
                     "content": {"title": "ICLR 2018 Conference Acceptance Decision", "decision": decision,
                                 "comment": "The reviewers agree on the contribution."}}
            review = {"id": f"r{_uid(pid)}", "forum": pid, "replyto": pid,
                      "invitation": f"ICLR.cc/2018/Conference/-/Paper{number}/Official_Review",
                      "content": {"title": "A review", "rating": "6: Marginally above acceptance threshold",
                                  "review": "The paper is clear."}}
            notes.append({"id": pid, "forum": pid, "number": number, "invitation": ICLR18_INVITATION,
                          "cdate": 1509000000000 + number, "tcdate": 1509000000000 + number,
                          "content": {"title": row["Title"], "abstract": row["Abstract"],
                                      "keywords": keywords, "authors": ["Anonymous"],
                                      "pdf": f"/pdf/{_uid(pid)}.pdf"},
                          "details": {"replyCount": 2, "directReplies": [review, reply]}})
    return {ICLR18_INVITATION: notes}


def virtual_results(path: Path, limit: int | None = None) -> list[dict]:
    """ICML 2024 events -> orals-posters `results` (posters, plus an oral event for every tenth)."""
    results = []
    posters = [e for e in _load_json(path) if e.get("type") == "Poster"][:limit]
    for number, event in enumerate(posters, 1):
        page = str(event.get("virtualsite_url") or "")
        event_id = int(page.rstrip("/").rsplit("/", 1)[-1]) if page.rstrip("/").rsplit("/", 1)[-1].isdigit() else number
        uid = _uid(event["name"], event["abstract"][:200])
        names = [n.strip() for n in str(event.get("speakers/authors") or "").split(",") if n.strip()]
        item = {"id": event_id, "uid": uid, "name": event["name"], "abstract": event["abstract"],
                "authors": [{"id": i, "fullname": n, "url": "", "institution": ""} for i, n in enumerate(names)],
                "decision": "Accept (Poster)", "eventtype": "Poster", "event_type": "Poster",
                "virtualsite_url": f"/virtual/2024/poster/{event_id}", "visible": True,
                "paper_url": f"https://openreview.net/forum?id={uid}", "sourceid": event_id,
                "sourceurl": "https://openreview.net/group?id=ICML.cc/2024/Conference", "topic": None}
        results.append(item)
        if number % 10 == 0:
            results.append({**item, "id": 900000 + event_id, "eventtype": "Oral", "event_type": "Oral",
                            "decision": "Accept (Oral)", "virtualsite_url": f"/virtual/2024/oral/{900000 + event_id}"})
    return results


# ------------------------------------------------------------------------------ PMLR

def _braced(text: str) -> str:
    """Text as a braced BibTeX value (braces balanced, as PMLR's files keep them)."""
    depth, out = 0, []
    for ch in str(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                continue
            depth -= 1
        out.append(ch)
    return "".join(out) + "}" * depth


def _entry(key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = \t {{{_braced(value)}}}" for name, value in fields if value)
    return f"@InProceedings{{{key},\n{body}\n}}\n"


def _header(volume: str, booktitle: str, shortname: str, year: str) -> str:
    return (f"@Proceedings{{{shortname}{year},\n  title =     {{{booktitle}}},\n  booktitle = {{{booktitle}}},\n"
            f"  publisher = {{PMLR}},\n  series =    {{Proceedings of Machine Learning Research}},\n"
            f"  volume =    {volume}\n}}\n\n")


def pmlr_bib(volume_dir: Path) -> tuple[str, str]:
    """(volume number, bibliography.bib text) of a PMLR volume folder (`_config.yml` + `_posts`)."""
    config = yaml.safe_load((volume_dir / "_config.yml").read_text(encoding="utf-8"))
    volume, year = str(config["volume"]), str(config["year"])
    booktitle = " ".join(str(config["booktitle"]).split())
    parts = [_header(volume, booktitle, str(config.get("shortname", "PMLR")), year)]
    for post in sorted((volume_dir / "_posts").glob("*.md")):
        meta = yaml.safe_load(post.read_text(encoding="utf-8").split("\n---", 1)[0].lstrip("-\n"))
        if str(meta.get("section", "")).lower() == "preface" or not meta.get("abstract"):
            continue
        authors = " and ".join(f"{a.get('family', '')}, {a.get('given', '')}".strip(", ")
                               for a in meta.get("author") or [])
        pid = meta["id"]
        parts.append(_entry(f"pmlr-v{volume}-{pid}", [
            ("title", meta.get("tex_title") or meta["title"]), ("author", meta.get("bibtex_author") or authors),
            ("booktitle", booktitle), ("pages", str(meta.get("page", ""))), ("year", year),
            ("volume", volume), ("series", "Proceedings of Machine Learning Research"), ("publisher", "PMLR"),
            ("pdf", meta.get("pdf", "")), ("url", f"https://proceedings.mlr.press/v{volume}/{pid}.html"),
            ("abstract", " ".join(str(meta["abstract"]).split()))]))
    return volume, "\n".join(parts)


def pmlr_bib_from_events(path: Path, limit: int | None = None) -> tuple[str, str]:
    """ICML 2024 (PMLR volume 235) as bibliography.bib, from the virtual-site events."""
    booktitle = "Proceedings of the 41st International Conference on Machine Learning"
    parts = [_header("235", booktitle, "ICML", "2024")]
    posters = [e for e in _load_json(path) if e.get("type") == "Poster"][:limit]
    for number, event in enumerate(posters, 1):
        names = [n.strip() for n in str(event.get("speakers/authors") or "").split(",") if n.strip()]
        authors = " and ".join(f"{n.rsplit(' ', 1)[-1]}, {n.rsplit(' ', 1)[0]}" if " " in n else n for n in names)
        key = f"p{number}24a"
        parts.append(_entry(f"pmlr-v235-{key}", [
            ("title", event["name"]), ("author", authors), ("booktitle", booktitle), ("year", "2024"),
            ("volume", "235"), ("publisher", "PMLR"), ("url", f"https://proceedings.mlr.press/v235/{key}.html"),
            ("abstract", event["abstract"])]))
    return "235", "\n".join(parts)
