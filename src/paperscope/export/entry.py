"""What every export format needs from a paper dict: split author names, the venue's full
name, the best link, DOI / arXiv / OpenReview ids, a title for untitled papers, and stable,
unique citation keys (`author2024word`, then `author2024worda`, `...b` for later papers).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable

from ..words import STOP_WORDS, WORD_PART

VENUES = {
    "icml": "International Conference on Machine Learning",
    "iclr": "International Conference on Learning Representations",
    "neurips": "Advances in Neural Information Processing Systems",
    "nips": "Advances in Neural Information Processing Systems",
    "uai": "Conference on Uncertainty in Artificial Intelligence",
    "colt": "Conference on Learning Theory",
    "aistats": "International Conference on Artificial Intelligence and Statistics",
    "aaai": "AAAI Conference on Artificial Intelligence",
    "ijcai": "International Joint Conference on Artificial Intelligence",
    "cvpr": "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "iccv": "IEEE/CVF International Conference on Computer Vision",
    "eccv": "European Conference on Computer Vision",
    "acl": "Annual Meeting of the Association for Computational Linguistics",
    "emnlp": "Conference on Empirical Methods in Natural Language Processing",
    "naacl": "Conference of the North American Chapter of the Association for Computational Linguistics",
    "kdd": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
    "corl": "Conference on Robot Learning",
    "colm": "Conference on Language Modeling",
}
# A citation key's word is the title's first word that says what the paper is about: not a
# stop word (paperscope.words), nor "new" or "two", which open titles without saying what about.
KEY_STOP = STOP_WORDS | {"new", "two"}
PARTICLES = frozenset("van von der den de del della di da du le la dos das ter ten zu af".split())
SUFFIXES = frozenset("jr jr. sr sr. ii iii iv".split())

_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/([0-9]{4}\.[0-9]{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/[0-9]{7})", re.I)
_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_\-]+)")


@dataclass
class Name:
    given: str
    family: str
    suffix: str = ""

    def bibtex(self) -> str:
        """`Family, Given` (or `Family, Suffix, Given`) for BibTeX."""
        if not self.given:
            return self.family
        if self.suffix:
            return f"{self.family}, {self.suffix}, {self.given}"
        return f"{self.family}, {self.given}"


def split_name(name: str) -> Name:
    """`Laurens van der Maaten` -> given `Laurens`, family `van der Maaten`; `Rathi, Nitin`
    kept as written; a single word (or a CJK name) is all family."""
    name = " ".join(name.split())
    if "," in name:
        parts = [p.strip() for p in name.split(",")]
        if len(parts) >= 3:
            return Name(given=parts[2], family=parts[0], suffix=parts[1])
        return Name(given=parts[1], family=parts[0])
    words = name.split(" ")
    suffix = ""
    if len(words) > 2 and words[-1].lower() in SUFFIXES:
        suffix = words.pop()
    if len(words) == 1:
        return Name(given="", family=words[0], suffix=suffix)
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in PARTICLES:
        start -= 1
    return Name(given=" ".join(words[:start]), family=" ".join(words[start:]), suffix=suffix)


def ascii_fold(text: str) -> str:
    """Letters and digits only, accents removed, lower case (for keys and matching)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def booktitle(paper: dict[str, Any]) -> str | None:
    venue, year = paper.get("venue"), paper.get("year")
    if not venue:
        return None
    full = VENUES.get(ascii_fold(venue))
    short = f"{venue} {year}" if year else venue
    return f"{full} ({short})" if full else short


def generated_title(paper: dict[str, Any]) -> dict[str, Any] | None:
    """The title the user's model wrote (`paperscope relabel`) for a paper with no real title:
    {title, tldr, model, ...}; None when it has a real title (which always wins) or none."""
    found = paper.get("generated")
    return found if isinstance(found, dict) and found.get("title") and not paper.get("title") else None


def display_title(paper: dict[str, Any]) -> str:
    """The title, else the title the user's model wrote, else the derived label, else the
    abstract's first words."""
    if paper.get("title"):
        return paper["title"]
    if generated_title(paper):
        return paper["generated"]["title"]
    if paper.get("label"):
        return paper["label"]
    words = (paper.get("abstract") or "").split()
    return " ".join(words[:12]) + ("…" if len(words) > 12 else "")


def links(paper: dict[str, Any]) -> list[str]:
    """Every distinct URL, the paper page first."""
    urls = paper.get("urls") or {}
    order = ["paper", "openreview", "arxiv", "proceedings", "virtual", "pdf"]
    out = [urls[k] for k in order if urls.get(k)]
    out += [v for k, v in sorted(urls.items()) if v and v not in out]
    return list(dict.fromkeys(out))


def identifiers(paper: dict[str, Any]) -> dict[str, str]:
    """DOI, arXiv id and OpenReview id found in the paper's links."""
    out: dict[str, str] = {}
    for url in links(paper) + [paper.get("doi") or ""]:
        if "doi" not in out and (m := _DOI.search(url)):
            out["doi"] = m.group(1).rstrip(".,;")
        if "arxiv" not in out and (m := _ARXIV.search(url)):
            out["arxiv"] = m.group(1)
        if "openreview" not in out and (m := _OPENREVIEW.search(url)):
            out["openreview"] = m.group(1)
    return out


def keywords(paper: dict[str, Any]) -> list[str]:
    """The user's tags, then the paper's own keywords (case-insensitively distinct)."""
    seen: dict[str, str] = {}
    for k in list(paper.get("tags") or []) + list(paper.get("keywords") or []):
        seen.setdefault(k.casefold(), k)
    return list(seen.values())


def has_title(paper: dict[str, Any]) -> bool:
    return bool((paper.get("title") or "").strip())


def missing(paper: dict[str, Any]) -> list[str]:
    """What the source gave no value for: `title` (the shown title is derived), `authors`."""
    out = [] if has_title(paper) else ["title"]
    return out + ([] if paper.get("authors") else ["authors"])


def untitled_note(paper: dict[str, Any]) -> str | None:
    """The marking an entry carries when its title is derived or its authors are unknown."""
    gone = missing(paper)
    if not gone:
        return None
    parts = []
    made = generated_title(paper)
    if "title" in gone and made:
        parts.append(f"Title not given in the source list; shown title generated by the model "
                     f"{made.get('model')} (paperscope relabel)")
    elif "title" in gone:
        parts.append("Title not given in the source list; shown title derived by paperscope "
                     "from the abstract")
    if "authors" in gone:
        parts.append("authors not given in the source list")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


HINT = ("Ingesting the proceedings (an OpenReview, PMLR or virtual-site export) fills in titles "
        "and authors by merging.")


def missing_summary(papers: list[dict[str, Any]]) -> str | None:
    """One line on what an export lacks, or None when every entry has a real title and
    authors: "3 of 12 entries have no real title (a derived label stands in); 3 have no
    authors. Ingesting the proceedings ... fills in titles and authors by merging." """
    untitled = sum(1 for p in papers if not has_title(p))
    anonymous = sum(1 for p in papers if not p.get("authors"))
    if not untitled and not anonymous:
        return None
    n = len(papers)

    def have(k: int) -> str:
        return "has" if k == 1 else "have"

    parts = []
    if untitled:
        parts.append(f"{untitled} of {n} {'entry' if n == 1 else 'entries'} {have(untitled)} no "
                     f"real title (a derived label stands in)")
    if anonymous:
        lead = f"{anonymous}" if untitled else f"{anonymous} of {n} {'entry' if n == 1 else 'entries'}"
        parts.append(f"{lead} {have(anonymous)} no authors")
    return "; ".join(parts) + ". " + HINT


def without_untitled(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in papers if has_title(p)]


@dataclass
class MissingReport:
    """What an export holds and lacks: `selected` papers chose, `entries` written (fewer when
    `skip_untitled` left some out), and among the entries `untitled` (a derived label stands
    in for the title) and `no_authors`. The HTTP API sends it as headers, the web page as a
    warning beside the export links."""

    selected: int
    entries: int
    untitled: int
    no_authors: int

    @property
    def skipped(self) -> int:
        return self.selected - self.entries

    @classmethod
    def of(cls, papers: list[dict[str, Any]], *, skip_untitled: bool = False) -> "MissingReport":
        kept = without_untitled(papers) if skip_untitled else papers
        return cls(selected=len(papers), entries=len(kept),
                   untitled=sum(1 for p in kept if not has_title(p)),
                   no_authors=sum(1 for p in kept if not p.get("authors")))

    def lines(self, kept: list[dict[str, Any]]) -> list[str]:
        """The warnings an export prints: entries left out, then `missing_summary(kept)`."""
        out = []
        if self.skipped:
            out.append(f"left out {self.skipped} of {self.selected} entries without a real title")
        if (summary := missing_summary(kept)):
            out.append(summary)
        return out


# --------------------------------------------------------------------------- citation keys

def base_key(paper: dict[str, Any]) -> str:
    authors = paper.get("authors") or []
    who = ascii_fold(split_name(authors[0]).family) if authors else ""
    who = who or ascii_fold(paper.get("venue") or "") or "anon"
    year = str(paper.get("year") or "")
    word = ""
    for token in WORD_PART.findall(display_title(paper)):
        folded = ascii_fold(token)
        if folded and folded not in KEY_STOP and not folded.isdigit():
            word = folded
            break
    return f"{who}{year}{word or 'paper'}"


def _suffix(n: int) -> str:
    """1 -> a, 26 -> z, 27 -> aa."""
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def assign_keys(universe: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Citation keys for every paper of `universe` (the whole library, oldest first), so a
    paper's key does not depend on which subset is exported: the first paper with a base key
    keeps it, later ones get `a`, `b`, ... appended."""
    papers = list(universe)
    bases = [base_key(p) for p in papers]
    taken = set(bases)
    used: set[str] = set()
    keys: dict[str, str] = {}
    for paper, base in zip(papers, bases):
        key, n = base, 0
        while key in used or (n > 0 and key in taken):
            n += 1
            key = base + _suffix(n)
        used.add(key)
        keys[paper["id"]] = key
    return keys
