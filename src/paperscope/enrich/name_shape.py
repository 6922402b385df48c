"""The shape of a name at the start of a text: a quoted name ("Forget to Mitigate Overfitting
(FOMO)"), a coined word or a run of capitalised words that ends where a name can end
("Maestro, a framework", "Neural Spectral Methods, a technique"). Read by methods.py."""
from __future__ import annotations

import re

from . import cues as cue
from .text import clean_token, is_capitalised, is_coined
from .vocab import COMMON_CAPITALISED


def name_at(text: str) -> tuple[str, int] | None:
    """The name that starts `text` (quoted, coined or a run of capitalised words) and its
    length, or None. A name must end where a name can end (punctuation, `which`, ...)."""
    q = re.match(r'"([^"]{2,60})"', text)
    if q:
        inner = q.group(1).strip()
        acr = re.match(r"\s*(.+?)\s*\([^()]{2,20}\)\s*$", q.group(1))
        if acr and inner[:1].isupper():  # "Forget to Mitigate Overfitting (FOMO)": the short form is read after it
            return acr.group(1), 1 + q.group(1).rindex("(")
        return (inner, q.end()) if inner[:1].isupper() else None
    words = list(re.finditer(r"\S+", text[:200]))
    taken: list[re.Match] = []
    for w in words:
        tok = clean_token(w.group())
        if not tok or w.group().startswith(("(", '"', "[")):
            break
        if tok == "and" and any(is_coined(clean_token(t.group())) for t in taken):
            break
        if is_coined(tok) or (is_capitalised(tok) and tok.casefold() not in COMMON_CAPITALISED):
            taken.append(w)
        elif tok in cue.CONNECT and taken and len(taken) < 5:
            taken.append(w)
            continue
        else:
            if not taken and tok[:1].isupper() and is_capitalised(tok):
                taken.append(w)  # `Gaussian` may still open a name (`Gaussian Splatting`)
            else:
                break
        if w.group() != tok and not w.group().endswith(("'s", "’s")):
            break  # punctuation glued to the token ends the name
        if len(taken) >= 6:
            break
    while taken and clean_token(taken[-1].group()) in cue.CONNECT:
        taken.pop()
    if not taken:
        return None
    end = taken[-1].start() + len(clean_token(taken[-1].group()))
    version = re.match(r" (\d{1,2}(?:\.\d{1,2})?)(?=[,:;(]|\s(?:which|that|is|a|an)\b)", text[end:]) \
        if text[end:end + 1] == " " and taken[-1].group() == clean_token(taken[-1].group()) else None
    if version and len(taken) <= 3:  # "Habitat 3.0: a platform", "Deep Voice 2, which": a version makes a name
        return text[taken[0].start():end + version.end()], end + version.end()
    name = text[taken[0].start():end]
    toks = name.split()
    if not any(is_coined(t) for t in toks):
        if not cue.FOLLOW_OK.match(text[end:]) or toks[0].casefold() in COMMON_CAPITALISED:
            return None
        if len(toks) > 1 and not re.match(r"\s*[,(.;:]", text[end:]):
            return None
    return name, end


# "Neural Spectral Methods, a technique to", "Least Volume — a simple regularization",
# "Prompt Risk Control, for selecting": capitalised words set off as a name
_CAPITAL_RUN = re.compile(r"((?:[A-Z][a-z][\w\-]*\s+){1,4}[A-Z][a-z][\w\-]*)"
                          r"(?=\s*,\s+(?:a|an|the|for|which)\s|\s—\s(?:a|an|the)\s|\s+as\s+(?:a|an)\s|"
                          r"\s+to\s+(?:\w+ly\s+)?[a-z]+\s+(?:the|a|an)\b|\s+(?:framework|method|model|algorithm|approach)\b)")


def capital_run(text: str) -> tuple[str, int] | None:
    """Capitalised words that open `text` and are set off as a name, and their length."""
    m = _CAPITAL_RUN.match(text)
    if not m or all(w.casefold() in COMMON_CAPITALISED for w in m.group(1).split()):
        return None
    return m.group(1), m.end(1)
