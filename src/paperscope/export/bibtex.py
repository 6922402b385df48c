"""BibTeX: conference papers as `@inproceedings` with `booktitle`; every value braced, every
special character escaped (`& % $ # _ { } ~ ^ \\`), non-ASCII letters as LaTeX accents, math
from the source kept as math, capitalised words protected from BibTeX's case changes."""
from __future__ import annotations

import re
from typing import Any

from pylatexenc.latexencode import RULE_DICT, UnicodeToLatexConversionRule, UnicodeToLatexEncoder

from ..model import latex_to_plain
from .entry import booktitle, display_title, identifiers, keywords, links, split_name, untitled_note

_ENCODER = UnicodeToLatexEncoder(
    # a straight double quote stays one (braced so BibTeX and babel leave it alone), not ''
    conversion_rules=[UnicodeToLatexConversionRule(RULE_DICT, {ord('"'): '"'}), "defaults"],
    non_ascii_only=False, replacement_latex_protection="braces-all",
    unknown_char_policy="keep", unknown_char_warning=False)
_MATH = re.compile(r"(?<!\\)\$(?:[^$\\]|\\.)+?(?<!\\)\$")
_NEEDS_PROTECTION = re.compile(r"^[^\W\d_]?.*[A-Z]")  # an upper-case letter after the first char


def escape(text: str) -> str:
    """Plain text -> BibTeX-safe LaTeX (balanced braces, specials escaped)."""
    return _ENCODER.unicode_to_latex(text or "")


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or text[i - 1] != "\\"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def latex_field(plain: str, source: str | None = None) -> str:
    """Encode a text field. When the source holds inline math (`$\\ell_1$`), the math is kept
    verbatim and the text around it is encoded from its plain rendering."""
    if source and "$" in source and _MATH.search(source):
        out, last = [], 0
        for m in _MATH.finditer(source):
            out.append(escape(latex_to_plain(source[last:m.start()])) if m.start() > last else "")
            if source[last:m.start()].endswith(" "):
                out.append(" ")
            math = m.group(0)
            out.append(math if _balanced(math) else escape(latex_to_plain(math)))
            last = m.end()
            if source[last:last + 1] == " ":
                out.append(" ")
        out.append(escape(latex_to_plain(source[last:])))
        return "".join(out).replace("  ", " ").strip()
    return escape(plain)


def protect_case(title_latex: str) -> str:
    """Brace words with capitals after their first letter (GANs, ImageNet, BERT) so styles
    that lower-case titles keep them."""
    words = title_latex.split(" ")
    out = []
    for w in words:
        bare = re.sub(r"[{}\\]", "", w)
        if "$" not in w and len(bare) > 1 and any(c.isupper() for c in bare[1:]) and _balanced(w):
            out.append("{" + w + "}")
        else:
            out.append(w)
    return " ".join(out)


def _authors(names: list[str]) -> str:
    out = []
    for name in names:
        latex = escape(split_name(name).bibtex())
        if re.search(r"\band\b", latex, re.I):
            latex = "{" + latex + "}"
        out.append(latex)
    return " and ".join(out)


def entry(paper: dict[str, Any], key: str) -> str:
    fields: list[tuple[str, str]] = []
    title = display_title(paper)
    source_title = paper.get("title_source") if paper.get("title") else None
    fields.append(("title", protect_case(latex_field(title, source_title))))
    if paper.get("authors"):
        fields.append(("author", _authors(paper["authors"])))
    kind = "inproceedings" if paper.get("venue") else "misc"
    if (bt := booktitle(paper)):
        fields.append(("booktitle", escape(bt)))
    if paper.get("year"):
        fields.append(("year", str(paper["year"])))
    ids = identifiers(paper)
    if ids.get("doi"):
        fields.append(("doi", escape(ids["doi"])))
    if ids.get("arxiv"):
        fields.extend([("eprint", ids["arxiv"]), ("archiveprefix", "arXiv")])
    urls = links(paper)
    if urls:
        fields.append(("url", _url(urls[0])))
    if paper.get("abstract"):
        fields.append(("abstract", latex_field(paper["abstract"], paper.get("abstract_source"))))
    if (kw := keywords(paper)):
        fields.append(("keywords", escape(", ".join(kw))))
    if (remark := untitled_note(paper)):
        fields.append(("note", escape(remark)))
    if paper.get("note"):  # the user's note; Zotero imports `annote` as a child note
        fields.append(("annote", escape(paper["note"])))
    fields.append(("paperscope_id", paper["id"]))
    width = max(len(k) for k, _ in fields)
    body = ",\n".join(f"  {k.ljust(width)} = {{{v}}}" for k, v in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def _url(url: str) -> str:
    """URLs go in verbatim except for characters that would break the braced value."""
    return url.replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D").replace(" ", "%20")


def render(papers: list[dict[str, Any]], keys: dict[str, str]) -> str:
    return "\n".join(entry(p, keys[p["id"]]) for p in papers)
