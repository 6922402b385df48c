"""The TL;DR as a reader sees it, so it reads without the abstract: each abbreviation the
abstract defined elsewhere written out where the TL;DR first uses it, and the problem the
abstract opens on named in front when the TL;DR never says it ("For generative adversarial
networks, we propose a simple training stabilizer ...")."""
from __future__ import annotations

import re

from .acronyms import expand, long_forms
from .problem import opening_problem, stems
from .rules import tldr_breaks
from .text import Doc, token_starts
from .tldr import MAX_CHARS


def spelled_out(tldr: str, doc: Doc) -> str:
    """The TL;DR with each abbreviation the abstract defined elsewhere written out where it is
    first used ("new evidence for the DSB" -> "... for the distributional simplicity bias
    (DSB)"), so it reads without the abstract; an abbreviation it defines itself stays."""
    forms = long_forms(doc.sentences)
    for short, long in forms.items():
        if re.search(r"\(\s*(?:(?:for short|in short|hereafter|henceforth|or)\s*,?\s*)?" + re.escape(short) +
                     r"s?(?![\w-])", tldr) or '"' in long or \
                long.endswith("sse"):
            continue  # defined in the TL;DR itself, or a long form not to be trusted as written
        for token, written in ((short + "s", long if long.endswith("s") else long + "s"), (short, long)):
            # "PID (e.g., X)" is left alone; "a generative EEA (GEEA) framework" has its own short form after it
            starts = [(s, bool(p and token in p.group(1))) for s in token_starts(tldr, token)
                      if not (p := re.match(r"\s*\(([^()]*)\)", tldr[s + len(token):])) or token in p.group(1)]
            if starts:
                at, named = starts[0]
                written = written[:1].upper() + written[1:] if at == 0 else written
                before = re.sub(r"\b(an?) $", lambda m: _article(m.group(1), written) + " ", tldr[:at])
                longer = f"{before}{written}{'' if named else f' ({token})'}{tldr[at + len(token):]}"
                if len(longer) <= MAX_CHARS:
                    tldr = longer
                break
    return tldr


def _article(article: str, word: str) -> str:
    """"a" or "an" for `word` as written out ("an LDS" -> "a linear dynamical system")."""
    right = "an" if word[:1].lower() in "aeiou" else "a"
    return right.capitalize() if article[:1].isupper() else right


_WE = re.compile(r"^(?:In this (?:paper|work|study),?\s+)?(?:[Ww]e|(?P<paper>[Tt]his (?:paper|work|study))) (?=[a-z])")


def framed(tldr: str, doc: Doc) -> str:
    """"We propose a training stabilizer based on consistency regularization." -> "For generative
    adversarial networks, we propose ...", when the sentence names none of the opening problem's words."""
    m = _WE.match(tldr)
    if not m or len(tldr) >= 330:
        return tldr  # two sentences: the first already sets the scene
    forms = long_forms(doc.sentences)
    found = opening_problem(doc, forms)
    if not found or stems(found) & stems(expand(tldr, forms) if forms else tldr):
        return tldr
    who = "this " + m.group("paper").split()[1] if m.group("paper") else "we"  # "For X, this paper proposes ..."
    longer = f"For {found}, {who} {tldr[m.end():]}"
    return longer if len(longer) <= MAX_CHARS and not tldr_breaks(longer) else tldr
