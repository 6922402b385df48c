"""Venue names, years and presentation status as they appear in headers, file names, BibTeX
booktitles and OpenReview venue strings.

Known venues get one canonical spelling (`neurips`, `NIPS` -> `NeurIPS`: the conference renamed
itself in 2018 and lists its older proceedings under the new name, so one venue spans all years).
"""
from __future__ import annotations

import re

# canonical short names; the key is the casefolded spelling met in the wild
_SHORT = {
    "icml": "ICML", "iclr": "ICLR", "neurips": "NeurIPS", "nips": "NeurIPS", "colt": "COLT",
    "uai": "UAI", "aistats": "AISTATS", "aaai": "AAAI", "ijcai": "IJCAI", "cvpr": "CVPR",
    "iccv": "ICCV", "eccv": "ECCV", "acl": "ACL", "emnlp": "EMNLP", "naacl": "NAACL",
    "eacl": "EACL", "coling": "COLING", "kdd": "KDD", "sigir": "SIGIR", "www": "WWW",
    "wsdm": "WSDM", "corl": "CoRL", "l4dc": "L4DC", "alt": "ALT", "acml": "ACML", "mlsys": "MLSys",
    "tmlr": "TMLR", "jmlr": "JMLR", "arxiv": "arXiv", "corr": "arXiv", "interspeech": "Interspeech",
    "icassp": "ICASSP", "miccai": "MICCAI", "midl": "MIDL", "chil": "CHIL", "clear": "CLeaR",
    "log": "LoG", "automl": "AutoML", "icra": "ICRA", "iros": "IROS", "rss": "RSS",
    "wacv": "WACV", "bmvc": "BMVC", "icdm": "ICDM", "sdm": "SDM", "ecml": "ECML",
    "ecmlpkdd": "ECML-PKDD", "ecml-pkdd": "ECML-PKDD", "colm": "COLM",
}
# Short names that are also common English words: only trusted in upper case.
_WORDLIKE = {"alt", "log", "clear", "rss", "www", "colm"}

# long names (BibTeX booktitle / journal, PMLR booktitle); first match wins, so the more
# specific names come first
_LONG = [
    (r"north american chapter of the association for computational linguistics", "NAACL"),
    (r"european chapter of the association for computational linguistics", "EACL"),
    (r"empirical methods in natural language processing", "EMNLP"),
    (r"association for computational linguistics", "ACL"),
    (r"neural information processing systems", "NeurIPS"),
    (r"international conference on learning representations", "ICLR"),
    (r"international conference on machine learning", "ICML"),
    (r"conference on learning theory", "COLT"),
    (r"uncertainty in artificial intelligence", "UAI"),
    (r"artificial intelligence and statistics", "AISTATS"),
    (r"aaai conference on artificial intelligence", "AAAI"),
    (r"international joint conference on artificial intelligence", "IJCAI"),
    (r"computer vision and pattern recognition", "CVPR"),
    (r"international conference on computer vision", "ICCV"),
    (r"european conference on computer vision", "ECCV"),
    (r"knowledge discovery (?:and|&) data mining", "KDD"),
    (r"journal of machine learning research", "JMLR"),
    (r"transactions on machine learning research", "TMLR"),
    (r"conference on robot learning", "CoRL"),
    (r"learning for dynamics and control", "L4DC"),
    (r"algorithmic learning theory", "ALT"),
    (r"asian conference on machine learning", "ACML"),
    (r"conference on causal learning and reasoning", "CLeaR"),
    (r"learning on graphs", "LoG"),
    (r"medical imaging with deep learning", "MIDL"),
    (r"machine learning and systems", "MLSys"),
    (r"\barxiv\b|computing research repository", "arXiv"),
]
_LONG_RE = [(re.compile(pattern, re.I), name) for pattern, name in _LONG]

_SHORT_RE = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted(map(re.escape, _SHORT), key=len, reverse=True)) + r")"
    r"(?![A-Za-z])", re.I)
# a year: 1950-2099, or a two-digit year glued to a venue (ICLR17, NeurIPS'23, ICML-24)
_YEAR_RE = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
_GLUED_YEAR_RE = re.compile(r"^(?:\s*|['’_-])(\d{4})(?!\d)|^['’_-]?(\d{2})(?!\d)")

# words that surround a venue in a list header and are never the venue itself
_HEADER_WORDS = {
    "accepted", "paper", "papers", "list", "lists", "of", "at", "the", "in", "for", "and",
    "proceedings", "conference", "abstracts", "abstract", "all", "main", "track", "orals", "oral",
    "posters", "poster", "spotlights", "spotlight", "selected", "titles", "workshop", "edition",
}


def canonical_venue(name: str | None) -> str | None:
    """Canonical spelling of a venue name (`neurips` -> `NeurIPS`); unknown names are kept."""
    if not name:
        return None
    name = " ".join(name.split()).strip(" ,;:-")
    if not name:
        return None
    short = _SHORT.get(name.casefold())
    if short:
        return short
    found = venue_in(name)
    if found and len(name.split()) > 2:  # a long name such as a BibTeX booktitle
        return found
    return name


def venue_in(text: str) -> str | None:
    """The known venue named anywhere in `text` (short or long name), else None."""
    for m in _SHORT_RE.finditer(text):
        word = m.group(1)
        if word.casefold() in _WORDLIKE and not word.isupper():
            continue
        return _SHORT[word.casefold()]
    for pattern, name in _LONG_RE:
        if pattern.search(text):
            return name
    return None


def year_in(text: str) -> int | None:
    """The first plausible four-digit year in `text`."""
    m = _YEAR_RE.search(text)
    return int(m.group(1)) if m else None


def _two_digit(value: str) -> int:
    year = int(value)
    if len(value) == 4:
        return year
    return 2000 + year if year < 70 else 1900 + year


def venue_year(text: str) -> tuple[str | None, int | None]:
    """Venue and year named in a short text: a list header (`Accepted papers at COLT 2024`,
    `ICML 2024 论文列表`), a file name (`ICLR17_submissions`, `icml2024_events`) or an
    OpenReview venue string (`ICLR 2024 poster`). Unknown venues: the word next to the year."""
    text = text.strip()
    venue = year = None
    for m in _SHORT_RE.finditer(text):
        word = m.group(1)
        if word.casefold() in _WORDLIKE and not word.isupper():
            continue
        venue = _SHORT[word.casefold()]
        glued = _GLUED_YEAR_RE.match(text[m.end():])
        if glued:
            year = _two_digit(glued.group(1) or glued.group(2))
        break
    if venue is None:
        venue = venue_in(text)
    if year is None:
        year = year_in(text)
    if venue is None and year is not None:
        venue = _word_next_to_year(text)
    return venue, year


def _word_next_to_year(text: str) -> str | None:
    tokens = re.findall(r"[^\W_][\w.+&-]*", text)
    for i, tok in enumerate(tokens):
        if _YEAR_RE.fullmatch(tok):
            for j in (i - 1, i + 1):
                if 0 <= j < len(tokens):
                    cand = tokens[j]
                    if (cand.casefold() not in _HEADER_WORDS and any(c.isalpha() for c in cand)
                            and cand.isascii() and any(c.isupper() for c in cand)):
                        return cand
    return None


_STATUS = [  # first match wins
    (re.compile(r"withdraw", re.I), "Withdrawn"),
    (re.compile(r"desk[\s_-]*reject", re.I), "Desk Rejected"),
    (re.compile(r"reject", re.I), "Rejected"),
    (re.compile(r"submitted|submission", re.I), "Submitted"),
    (re.compile(r"\boral", re.I), "Oral"),
    (re.compile(r"spotlight", re.I), "Spotlight"),
    (re.compile(r"poster", re.I), "Poster"),
    (re.compile(r"workshop", re.I), "Workshop"),
    (re.compile(r"accept", re.I), "Accepted"),
]


def status_from(text: str | None, keep_unknown: bool = True) -> str | None:
    """Presentation status from a decision or venue string: `Accept (Oral)` -> `Oral`,
    `ICLR 2024 poster` -> `Poster`. Unknown non-empty values are kept, capitalised (or None
    with keep_unknown=False)."""
    if text is None:
        return None
    text = " ".join(str(text).split())
    if not text:
        return None
    for pattern, status in _STATUS:
        if pattern.search(text):
            return status
    return text[:1].upper() + text[1:] if keep_unknown else None
