"""A real HTTP server on 127.0.0.1 answering as the arXiv API does, misbehaving on demand.

    with ArxivServer(papers) as server:          # papers: [{title, abstract, authors}]
        server.url                                # base URL (GET /api/query)
        server.misbehave = ["503", "empty", "malformed", "hostile", "error"]   # one per request, in order

GET /api/query?search_query=abs:"phrase" OR abs:"phrase"&start=0&max_results=N answers an Atom
feed of the papers whose abstract holds any phrase (most phrases first), in arXiv's wire format
(Atom namespace, opensearch totals, arxiv:primary_category, links alternate/pdf). Misbehaviour:
"503" (Retry-After: 1), "empty" (a feed without entries), "malformed" (cut XML), "hostile" (an
entity-expansion bomb in a DTD), "error" (arXiv's error entry for a bad query).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from local_server import LocalServer, Request  # noqa: E402

ATOM = "application/atom+xml; charset=utf-8"

_PHRASE = re.compile(r'abs:"([^"]+)"')
FEED_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
             'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
             '<link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>\n'
             '<title type="html">ArXiv Query</title><id>http://arxiv.org/api/q</id>'
             '<updated>2024-07-01T00:00:00-04:00</updated>\n')
BOMB = ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        '<title>&c;</title><summary>&c;</summary></entry></feed>')


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9-]+", text.lower()))


def entry_xml(i: int, paper: dict) -> str:
    ident = f"24{i // 100000:02d}.{i % 100000:05d}"
    authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in paper.get("authors", []))
    return (f"<entry><id>http://arxiv.org/abs/{ident}v1</id><updated>2024-02-01T00:00:00Z</updated>"
            f"<published>2024-02-01T00:00:00Z</published><title>{escape(paper['title'])}</title>"
            f"<summary>{escape(paper['abstract'])}</summary>{authors}"
            f'<link href="http://arxiv.org/abs/{ident}v1" rel="alternate" type="text/html"/>'
            f'<link title="pdf" href="http://arxiv.org/pdf/{ident}v1" rel="related" type="application/pdf"/>'
            f'<arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/></entry>\n')


class ArxivServer(LocalServer):
    def __init__(self, papers: list[dict], port: int = 0):
        self.papers = papers
        self.index = [_norm(p["abstract"]) for p in papers]
        self.misbehave: list[str] = []
        super().__init__(port)

    @property
    def queries(self) -> list[str]:
        """The search_query of every /api/query request, in order."""
        with self.lock:
            return [r.query.get("search_query", "") for r in self.received if r.path == "/api/query"]

    def feed(self, query: str, start: int, max_results: int) -> str:
        phrases = [_norm(p) for p in _PHRASE.findall(query)]
        hits = sorted(((sum(p in text for p in phrases), i) for i, text in enumerate(self.index)),
                      key=lambda h: (-h[0], h[1]))
        hits = [i for n, i in hits if n > 0]
        page = hits[start:start + max_results]
        return (FEED_HEAD + f"<opensearch:totalResults>{len(hits)}</opensearch:totalResults>"
                f"<opensearch:startIndex>{start}</opensearch:startIndex>"
                f"<opensearch:itemsPerPage>{max_results}</opensearch:itemsPerPage>\n"
                + "".join(entry_xml(i, self.papers[i]) for i in page) + "</feed>\n")

    def handle(self, request: Request) -> None:
        if request.method != "GET" or request.route != "/api/query":
            return request.send(404, "<html>not found</html>", "text/html")
        q = request.query
        with self.lock:
            bad = self.misbehave.pop(0) if self.misbehave else None
        if bad == "503":
            return request.send(503, "Service Unavailable", "text/plain", {"Retry-After": "1"})
        if bad == "empty":
            return request.send(200, FEED_HEAD + "<opensearch:totalResults>0</opensearch:totalResults></feed>", ATOM)
        if bad == "malformed":
            return request.send(200, self.feed(q.get("search_query", ""), 0, 5)[:300], ATOM)
        if bad == "hostile":
            return request.send(200, BOMB, ATOM)
        if bad == "error":
            return request.send(400, FEED_HEAD + "<entry><id>http://arxiv.org/api/errors#incorrect_id_format</id>"
                                "<title>Error</title><summary>incorrect id format</summary></entry></feed>", ATOM)
        try:
            start, n = int(q.get("start", 0)), int(q.get("max_results", 10))
        except ValueError:
            return request.send(400, FEED_HEAD + "</feed>", ATOM)
        request.send(200, self.feed(q.get("search_query", ""), start, n), ATOM)


def main(argv: list[str] | None = None) -> None:
    """Standalone, for transcripts: serves the bundled ICML 2024 posters as arXiv entries."""
    import argparse
    import gzip
    import json

    parser = argparse.ArgumentParser(description="arXiv API test server")
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args(argv)
    events = Path(__file__).resolve().parents[1] / "examples" / "proceedings" / "icml2024_posters.json.gz"
    papers = [{"title": r["name"], "abstract": r["abstract"],
               "authors": [a.strip() for a in r["speakers/authors"].split(",")]}
              for r in json.loads(gzip.decompress(events.read_bytes()))]
    server = ArxivServer(papers, port=args.port)
    server.serve_until_interrupted(f"serving {server.url} (PAPERSCOPE_ARXIV_URL={server.url}); Ctrl-C stops")


if __name__ == "__main__":
    main()
