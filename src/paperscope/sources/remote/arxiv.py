"""arXiv: the API's Atom search, used by `resolve` to find a title-less abstract's paper.

    GET {base}/api/query?search_query=abs:"a distinctive phrase" OR abs:"..."&max_results=N

The answer is an Atom feed (`<feed><entry><id>http://arxiv.org/abs/2401.01234v2</id><title>
<summary><author><name>...`); an error is a feed whose one entry has an `.../api/errors` id.
It is parsed with defusedxml (no entity expansion, no external references: a hostile feed is
refused, never expanded) and every field is capped. arXiv's terms ask for at most one request
every 3 seconds: the transport paces this source so (`transport.MIN_INTERVAL`).
Base URL: `base_url=`, else $PAPERSCOPE_ARXIV_URL, else https://export.arxiv.org.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from ...words import FILLER_WORDS, PROSE_WORD, STOP_WORDS
from .base import RemoteSource
from .transport import BadBody, Transport

ATOM = "{http://www.w3.org/2005/Atom}"
MAX_TITLE = 600
MAX_ABSTRACT = 20_000
MAX_AUTHORS = 200
PHRASE_WORDS = 4
# a phrase neither opens nor ends on a stop or filler word, and those add no weight
_STOP = STOP_WORDS | FILLER_WORDS


@dataclass
class Entry:
    arxiv_id: str
    title: str
    abstract: str
    authors: list[str] = field(default_factory=list)
    url: str = ""
    pdf: str = ""
    year: int | None = None


class ArxivError(ValueError):
    """arXiv answered with an error entry (a malformed query)."""


def parse_feed(body: bytes) -> list[Entry]:
    """The entries of an arXiv Atom answer; BadBody when it is not a well-formed, safe feed."""
    try:
        root = fromstring(body)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise BadBody(f"not a well-formed Atom feed: {' '.join(str(exc).split())[:120]}") from None
    if root.tag != f"{ATOM}feed":
        raise BadBody(f"not an Atom feed (root element {root.tag[:60]!r})")
    entries = []
    for e in root.iter(f"{ATOM}entry"):
        ident = _text(e, "id", 300)
        if "/api/errors" in ident:
            raise ArxivError(_text(e, "summary", 300) or "arXiv reported an error")
        title, abstract = _text(e, "title", MAX_TITLE), _text(e, "summary", MAX_ABSTRACT)
        if not title or not abstract:
            continue
        links = {(a.get("title") or a.get("rel") or ""): a.get("href") or "" for a in e.findall(f"{ATOM}link")}
        published = _text(e, "published", 40)
        entries.append(Entry(
            arxiv_id=ident.rsplit("/abs/", 1)[-1], title=title, abstract=abstract,
            authors=[n for n in (_text(a, "name", 200) for a in e.findall(f"{ATOM}author")[:MAX_AUTHORS]) if n],
            url=links.get("alternate", "") or ident, pdf=links.get("pdf", ""),
            year=int(published[:4]) if published[:4].isdigit() else None))
    return entries


def _text(node: Any, tag: str, cap: int) -> str:
    child = node.find(f"{ATOM}{tag}")
    text = "".join(child.itertext()) if child is not None else ""
    return " ".join(text[: cap * 2].split())[:cap]


def phrases(abstract: str, n: int = 3) -> list[str]:
    """Distinctive runs of words from different parts of an abstract (long, rare-looking words,
    no stop words at the ends), for an exact-phrase search."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", abstract) if s]
    found: list[tuple[float, str]] = []
    for i, sentence in enumerate(sentences):
        words = PROSE_WORD.findall(sentence)
        best = None
        for j in range(len(words) - PHRASE_WORDS + 1):
            run = words[j:j + PHRASE_WORDS]
            if run[0].lower() in _STOP or run[-1].lower() in _STOP:
                continue
            weight = sum(len(w) for w in run if w.lower() not in _STOP)
            if best is None or weight > best[0]:
                best = (weight, " ".join(run))
        if best:
            found.append((best[0] + (5 if i in (0, len(sentences) // 2) else 0), best[1]))
    found.sort(reverse=True)
    return [p for _, p in found[:n]]


class Arxiv(RemoteSource):
    name = "arxiv"
    label = "arXiv"
    env = "PAPERSCOPE_ARXIV_URL"
    default_url = "https://export.arxiv.org"

    def plan(self, venue, year, **kwargs):  # not a venue source: resolve searches it
        return None

    def search(self, transport: Transport, abstract: str, *, base_url: str | None = None,
               max_results: int = 5) -> list[Entry]:
        """arXiv entries whose abstracts hold distinctive phrases of `abstract`."""
        wanted = phrases(abstract)
        if not wanted:
            return []
        query = " OR ".join(f'abs:"{p}"' for p in wanted)
        got = transport.get(f"{self.base_url(base_url)}/api/query",
                            params={"search_query": query, "start": 0, "max_results": max_results},
                            check=parse_feed)
        return got.data
