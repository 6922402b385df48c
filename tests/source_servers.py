"""Real HTTP servers on 127.0.0.1 answering as the paper sources do, and misbehaving on demand.

    with SourceServer(openreview=source_data.openreview_v2(), ...) as server:
        server.url                                  # http://127.0.0.1:PORT (every source on it)
        server.add(Fault("429", source="openreview", page=1, times=2, value=1))
        server.served[("openreview", 1000)]         # complete 200 answers per (source, page)

Routes (the real wire formats, see `source_data.py`):
  GET  /notes?content.venueid=ID&limit=&offset=      OpenReview API v2 -> {"notes": [...], "count": N}
  GET  /notes?invitation=INV&details=directReplies   OpenReview API v1 (same paging)
  POST /login {"id", "password"}                      -> {"token": ..., "user": {...}}
  GET  /static/virtual/data/{conf}-{year}-orals-posters.json   virtual site -> {"count", "results"}
  GET  /v{N}/assets/bib/bibliography.bib             a PMLR volume's BibTeX

Faults (`Fault(kind, source="*", page=None, times=1, value=None)`; `page` is the request's
offset, 0 for one-file sources; None: any page): "429" (Retry-After: value s), "500", "reset"
(the connection is reset before an answer), "truncate" (a 200 whose JSON is cut), "slow" (the
answer waits value s), "block" (the answer waits until `server.release()`; `server.blocked`
is set when a request is held), "login" (403 without a token from POST /login), "cap" (pages
hold at most value notes, whatever the limit), "overlap" (each page after the first starts
value notes early: duplicates across pages), "grow" (after the first page, value more notes
exist: the count changes mid-run), "hostile" (OpenReview notes, virtual-site events or PMLR
entries carry script tags, a huge field and invalid UTF-8). `times` counts how often a fault fires (None: always).

Standalone, for transcripts and benchmarks:
  python tests/source_servers.py --port 8765 [--corpora ../shared/corpora] [--fault 429:openreview]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import source_data  # noqa: E402
from local_server import LocalServer, Request  # noqa: E402

USER = ("reader@example.org", "correct horse")
_VIRTUAL = re.compile(r"^/static/virtual/data/([a-z0-9]+)-(\d{4})-orals-posters\.json$")
_PMLR = re.compile(r"^/v(\d+)/assets/bib/bibliography\.bib$")


@dataclass
class Fault:
    kind: str
    source: str = "*"
    page: int | None = None
    times: int | None = 1
    value: float = 1


class SourceServer(LocalServer):
    def __init__(self, *, openreview: dict | None = None, openreview_v1: dict | None = None,
                 virtual: dict | None = None, pmlr: dict | None = None, port: int = 0):
        self.v2 = {k: list(v) for k, v in (openreview or {}).items()}
        self.v1 = {k: list(v) for k, v in (openreview_v1 or {}).items()}
        self.virtual = virtual or {}  # (conf, year) -> results
        self.pmlr = pmlr or {}  # volume -> bib text
        self.faults: list[Fault] = []
        self.requests: Counter = Counter()  # (source, page) -> requests received
        self.served: Counter = Counter()  # (source, page) -> complete 200 answers
        self.tokens: set[str] = set()
        self.blocked = threading.Event()
        self._release = threading.Event()
        self._grown: set[str] = set()
        super().__init__(port)

    def close(self) -> None:
        self.release()
        super().close()

    def add(self, *faults: Fault) -> "SourceServer":
        self.faults.extend(faults)
        return self

    def release(self) -> None:
        self._release.set()

    def fault(self, kind: str, source: str, page: int, consume: bool = True) -> Fault | None:
        """The first matching fault still armed (its count used up when `consume`)."""
        with self.lock:
            for f in self.faults:
                if f.kind == kind and f.source in ("*", source) and f.page in (None, page) and f.times != 0:
                    if consume and f.times is not None:
                        f.times -= 1
                    return f
        return None

    def handle(self, req: Request) -> None:
        if req.method == "GET":
            return self._get(req)
        if req.method != "POST" or req.route != "/login":
            return req.send(404, {"name": "NotFoundError", "message": "no such route"})
        try:
            body = req.json({})
        except ValueError:
            return req.send(400, {"name": "ValidationError", "message": "body is not JSON"})
        if (body.get("id"), body.get("password")) != USER:
            return req.send(403, {"name": "ForbiddenError", "message": "Invalid username or password"})
        token = f"tok-{len(self.tokens) + 1}"
        self.tokens.add(token)
        req.send(200, {"token": token, "user": {"id": "~Test_Reader1", "profile": {"id": "~Test_Reader1"}}})

    def _get(self, req: Request) -> None:
        if req.route == "/notes":
            return self._notes(req, req.query)
        m = _VIRTUAL.match(req.route)
        if m:
            results = self.virtual.get((m.group(1), int(m.group(2))))
            if results is None:
                return req.send(404, {"detail": "Not found."})
            answer = {"count": len(results), "next": None, "previous": None, "results": results}
            if self.fault("hostile", "virtual", 0):
                return self._answer(req, "virtual", 0, _hostile_json(answer, "results", "name"))
            return self._answer(req, "virtual", 0, answer)
        m = _PMLR.match(req.route)
        if m and m.group(1) in self.pmlr:
            body = self.pmlr[m.group(1)].encode("utf-8")
            if self.fault("hostile", "pmlr", 0):
                body = _hostile_bib(body)
            return self._answer(req, "pmlr", 0, body, "application/x-bibtex")
        req.send(404, b"<html><body>404 Not Found</body></html>", "text/html")

    # -------------------------------------------------------------- OpenReview
    def _notes(self, req: Request, query: dict) -> None:
        if self.fault("login", "openreview", -1, consume=False):
            auth = req.headers.get("Authorization", "")
            if auth.removeprefix("Bearer ") not in self.tokens:
                return req.send(403, {"name": "ForbiddenError", "message": "Forbidden: log in to read notes"})
        try:
            offset, limit = int(query.get("offset", 0)), int(query.get("limit", 1000))
        except ValueError:
            return req.send(400, {"name": "ValidationError", "message": "offset and limit must be numbers"})
        if "content.venueid" in query:
            key, notes = query["content.venueid"], self.v2.get(query["content.venueid"])
        elif query.get("invitation", "").endswith("/-/Submission"):  # v2: every submission
            key = query["invitation"].removesuffix("/-/Submission")
            found = [notes for venue, notes in self.v2.items() if venue.startswith(key)]
            notes = [n for group in found for n in group] if found else None
        else:
            key, notes = query.get("invitation", ""), self.v1.get(query.get("invitation", ""))
            if notes is not None and query.get("details") != "directReplies":
                notes = [{k: v for k, v in n.items() if k != "details"} for n in notes]
        if notes is None:
            return req.send(200, {"notes": [], "count": 0})
        if offset > 0 and key not in self._grown:
            grow = self.fault("grow", "openreview", offset)
            if grow:
                self._grown.add(key)
                extra = [dict(n, id=f"{n['id']}x", forum=f"{n['forum']}x") for n in notes[: int(grow.value)]]
                for n in extra:
                    n["content"] = {k: _reworded(v) if k in ("title", "abstract") else v
                                    for k, v in n["content"].items()}
                (self.v2 if "content.venueid" in query else self.v1)[key].extend(extra)
                notes = notes + extra
        cap = self.fault("cap", "openreview", offset, consume=False)
        limit = min(limit, 1000, int(cap.value) if cap else 1000)
        overlap = self.fault("overlap", "openreview", offset, consume=False)
        start = max(0, offset - int(overlap.value)) if overlap and offset > 0 else offset
        page = notes[start:start + limit]
        if self.fault("hostile", "openreview", offset):
            return self._answer(req, "openreview", offset, _hostile(page, len(notes)))
        self._answer(req, "openreview", offset, {"notes": page, "count": len(notes)})

    # -------------------------------------------------------------- answers
    def _answer(self, req: Request, source: str, page: int, payload, ctype: str = "application/json") -> None:
        self.requests[(source, page)] += 1
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        if self.fault("reset", source, page):
            return req.reset()
        f = self.fault("429", source, page)
        if f:
            return req.send(429, {"name": "RateLimitError", "message": "Too many requests"},
                            headers={"Retry-After": str(int(f.value))})
        if self.fault("500", source, page):
            return req.send(500, {"name": "Error", "message": "Internal server error"})
        slow = self.fault("slow", source, page)
        if slow:
            time.sleep(slow.value)
        if self.fault("block", source, page):
            self.blocked.set()
            self._release.wait(120)
            return req.reset()
        cut = self.fault("truncate", source, page) is not None
        if cut:
            body = body[: max(1, len(body) * 2 // 3)]
        req.send(200, body, ctype)
        if not cut:
            self.served[(source, page)] += 1


def _reworded(value):
    """Another paper's text (a v2 `{"value": ...}` or a v1 string) made from this one's."""
    if isinstance(value, dict):
        return {**value, "value": _reworded(value["value"])}
    return "Late addition: " + " ".join(reversed(str(value).split()))


def _hostile_json(answer: dict, key: str, title: str) -> bytes:
    """A virtual-site answer whose events carry script tags, a huge abstract, invalid UTF-8."""
    items = [dict(item) for item in answer[key]]
    for i, item in enumerate(items[:20]):
        item[title] = f"<script>alert({i})</script> " + str(item[title])
    items[0]["abstract"] = "word " * 2_000_000
    items[1]["authors"] = [{"fullname": "x" * 100_000}] * 3000
    marker = b"<script>alert(2)</script>"
    return json.dumps({**answer, key: items}).encode("utf-8").replace(marker, marker + b"\xff\xfe\xc3(", 1)


def _hostile_bib(body: bytes) -> bytes:
    """A PMLR bibliography whose entries carry script tags, a huge abstract, invalid UTF-8."""
    body = body.replace(b"\n  title = \t {", b"\n  title = \t {<script>alert(1)</script>\xff\xfe ", 20)
    return body.replace(b"abstract = \t {", b"abstract = \t {" + b"word " * 300_000, 1)


def _hostile(page: list[dict], count: int) -> bytes:
    """The page as JSON bytes, its notes carrying what hostile files carry."""
    bad = [json.loads(json.dumps(n)) for n in page]
    for i, note in enumerate(bad):
        content = note["content"]
        title = content["title"]
        if isinstance(title, dict):
            title["value"] = f"<script>alert({i})</script><img src=x onerror=alert(1)> " + title["value"]
        else:
            content["title"] = f"<script>alert({i})</script> " + title
        if i == 0:
            content["abstract"] = {"value": "word " * 2_000_000} if isinstance(title, dict) else "word " * 2_000_000
        if i == 1:
            content["authors"] = {"value": [["nested"] * 3] * 5000} if isinstance(title, dict) else [{"x": 1}] * 5000
    text = json.dumps({"notes": bad, "count": count})
    # invalid UTF-8 inside the third note's title, as a broken server would send it
    marker = "<script>alert(2)</script>"
    return text.encode("utf-8").replace(marker.encode(), marker.encode() + b"\xff\xfe\xc3(", 1)


def from_corpora(corpora: Path | None, *, port: int = 0, icml_limit: int | None = None) -> SourceServer:
    """A server holding the bundled fixtures and, with `corpora`, the shared corpora instead
    (`icml_limit`: only the first ICML 2024 posters, for quick tests)."""
    repo = Path(__file__).resolve().parents[1]
    events = repo / "examples" / "proceedings" / "icml2024_posters.json.gz"
    v2 = source_data.openreview_v2()
    v1 = source_data.openreview_v1()
    pmlr = dict([source_data.pmlr_bib_from_events(events, icml_limit)])
    if corpora:
        v2 = source_data.openreview_v2(corpora / "iclr2024_openreview" / "iclr2024_accepted.json",
                                       corpora / "dylanjoo_openreview" / "ICLR" / "ICLR18_submissions.csv")
        v1 = source_data.openreview_v1(corpora / "dylanjoo_openreview" / "ICLR" / "ICLR18_submissions.csv")
        events = corpora / "icml2024_events" / "icml2024_events.json"
        for folder in sorted(corpora.glob("pmlr_v*")):
            pmlr.update([source_data.pmlr_bib(folder)])
    virtual = {("icml", 2024): source_data.virtual_results(events, icml_limit)}
    return SourceServer(openreview=v2, openreview_v1=v1, virtual=virtual, pmlr=pmlr, port=port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--corpora", type=Path, help="the shared corpora folder (default: bundled fixtures only)")
    parser.add_argument("--fault", action="append", default=[],
                        help="KIND[:SOURCE[:PAGE[:TIMES[:VALUE]]]], e.g. 429:openreview:1000:2:1")
    args = parser.parse_args(argv)
    server = from_corpora(args.corpora, port=args.port)
    for spec in args.fault:
        kind, source, page, times, value = (spec.split(":") + [None] * 4)[:5]
        server.add(Fault(kind, source or "*", int(page) if page not in (None, "", "*") else None,
                         None if times == "always" else int(times or 1), float(value or 1)))
    server.serve_until_interrupted(f"serving {server.url}  (PAPERSCOPE_OPENREVIEW_URL / PAPERSCOPE_VIRTUAL_URL / "
                                   f"PAPERSCOPE_PMLR_URL={server.url}); Ctrl-C stops")


if __name__ == "__main__":
    main()
