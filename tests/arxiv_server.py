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
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

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


class ArxivServer:
    def __init__(self, papers: list[dict], port: int = 0):
        self.papers = papers
        self.index = [_norm(p["abstract"]) for p in papers]
        self.misbehave: list[str] = []
        self.queries: list[str] = []
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "ArxivServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

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


def _handler(server: ArxivServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path != "/api/query":
                return self._send(404, "<html>not found</html>", "text/html")
            q = {k: v[-1] for k, v in parse_qs(url.query).items()}
            with server._lock:
                server.queries.append(q.get("search_query", ""))
                bad = server.misbehave.pop(0) if server.misbehave else None
            if bad == "503":
                return self._send(503, "Service Unavailable", "text/plain", {"Retry-After": "1"})
            if bad == "empty":
                return self._send(200, FEED_HEAD + "<opensearch:totalResults>0</opensearch:totalResults></feed>")
            if bad == "malformed":
                return self._send(200, server.feed(q.get("search_query", ""), 0, 5)[:300])
            if bad == "hostile":
                return self._send(200, BOMB)
            if bad == "error":
                return self._send(400, FEED_HEAD + "<entry><id>http://arxiv.org/api/errors#incorrect_id_format</id>"
                                  "<title>Error</title><summary>incorrect id format</summary></entry></feed>")
            try:
                start, n = int(q.get("start", 0)), int(q.get("max_results", 10))
            except ValueError:
                return self._send(400, FEED_HEAD + "</feed>")
            self._send(200, server.feed(q.get("search_query", ""), start, n))

        def _send(self, status: int, text: str, ctype: str = "application/atom+xml; charset=utf-8",
                  headers: dict | None = None) -> None:
            body = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

    return Handler


def main(argv: list[str] | None = None) -> None:
    """Standalone, for transcripts: serves the bundled ICML 2024 posters as arXiv entries."""
    import argparse
    import gzip
    import json
    import time
    from pathlib import Path

    parser = argparse.ArgumentParser(description="arXiv API test server")
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args(argv)
    events = Path(__file__).resolve().parents[1] / "examples" / "proceedings" / "icml2024_posters.json.gz"
    papers = [{"title": r["name"], "abstract": r["abstract"],
               "authors": [a.strip() for a in r["speakers/authors"].split(",")]}
              for r in json.loads(gzip.decompress(events.read_bytes()))]
    with ArxivServer(papers, port=args.port) as server:
        print(f"serving {server.url} (PAPERSCOPE_ARXIV_URL={server.url}); Ctrl-C stops", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
