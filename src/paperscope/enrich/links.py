"""URLs in an abstract, cleaned and split into code/project links and other links.

Abstracts end URLs with sentence punctuation (`https://github.com/a/b.`), wrap them in
markdown (`[GitHub](https://github.com/a/b)`), brackets (`(https://...)`, `<https://...>`),
LaTeX leftovers (`https://github.com/a/b}.`) or break them (`https: //x.github.io`).
"""
from __future__ import annotations

import re

_CODE_HOSTS = re.compile(
    r"^(?:[\w-]+\.)*(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|hf\.co|"
    r"codeberg\.org|sr\.ht|git\.\w+\.\w+|[\w-]+\.github\.io|[\w-]+\.gitlab\.io|"
    r"sites\.google\.com|colab\.research\.google\.com|pypi\.org|zenodo\.org|"
    r"paperswithcode\.com|kaggle\.com)$", re.I)
_CODE_CONTEXT = re.compile(r"\b(?:code|codes|implementation|project (?:page|website|site)|"
                           r"webpage|web page|website|homepage|demo|repository|repo|software|"
                           r"package|library|toolkit)\b[^.]{0,80}$", re.I)
_BARE_HOSTS = r"(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co)/|[\w-]+\.github\.io\b"
_URL = re.compile(
    r"(?:https?:\s?//|(?<![\w@/.-])www\.|(?<![\w@/.-])(?=" + _BARE_HOSTS + r"))"
    r"[^\s<>\"'\[\]{}|\\^`]+", re.I)
_TRAIL = ".,;:!?*'\"_>"
_PAIRS = {")": "(", "]": "[", "}": "{"}


def clean_url(url: str) -> str:
    """Strip sentence punctuation and unbalanced closing brackets from a URL's end, add a
    scheme when the text left it out."""
    url = re.sub(r"^(https?):\s+//", r"\1://", url.strip())
    while url:
        last = url[-1]
        if last in _TRAIL:
            url = url[:-1]
        elif last in _PAIRS and url.count(_PAIRS[last]) < url.count(last):
            url = url[:-1]
        else:
            break
    if not re.match(r"https?://", url, re.I):
        url = "https://" + url
    return url


def _host(url: str) -> str:
    m = re.match(r"https?://([^/:?#]+)", url, re.I)
    return m.group(1).lower() if m else ""


def _key(url: str) -> str:
    return re.sub(r"^https?://(?:www\.)?", "", url.lower()).rstrip("/")


def find_links(text: str) -> tuple[list[str], list[str]]:
    """(code_urls, other links), each de-duplicated in order of appearance. Code URLs are
    code hosts and project pages, or any URL the sentence introduces as code or a project
    page ("Code is available at ...")."""
    code: list[str] = []
    other: list[str] = []
    seen: set[str] = set()
    for m in _URL.finditer(text or ""):
        url = clean_url(m.group(0))
        host = _host(url)
        if "." not in host or len(url) < 12:
            continue
        key = _key(url)
        if key in seen:
            continue
        seen.add(key)
        before = text[max(0, m.start() - 120):m.start()]
        before = re.split(r"(?<=[.!?])\s+(?=[A-Z])", before)[-1]
        if _CODE_HOSTS.match(host) or _CODE_CONTEXT.search(before):
            code.append(url)
        else:
            other.append(url)
    return code, other
