"""Regular expressions run on untrusted text (list text, queries, file heads) do linear work:
an opening marker looks a bounded distance for its closing one, and no pattern can try every
split of a long run. Each case feeds ~100 KB built to make a backtracking pattern quadratic
(" _x" * 33,000 took minutes before), in a child process that must answer within a generous
limit, and checks the answer is still right."""
from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from paperscope import emphasis

N = 100_000
LIMIT_S = 300  # before the fix one of these cases ran for many minutes; after, seconds (10x headroom under load)

CASES = {
    "emphasis markers that never close": """
from paperscope.emphasis import md_plain
from paperscope.web.render import md_inline
for unit in (" _x", " *x", " **x", " `x", " __x"):
    text = (unit * (N // len(unit)))
    assert md_plain(text) == text, unit
    assert str(md_inline(text)) == text, unit
assert md_plain("we present *Spectral DeTuning*, a method") == "we present Spectral DeTuning, a method"
""",
    "enrich markup, links and names": """
from paperscope.enrich.text import emphasised_spans, strip_markup
for unit in ("**x ", "__x ", "[a](", "x.", "A"):
    text = unit * (N // len(unit))
    assert emphasised_spans(text) == [], unit
    assert len(strip_markup(text)) >= len(text.strip()) - 1, unit
assert emphasised_spans("we propose **SiT**, a model") == ["SiT"]
assert strip_markup("see [code](https://x.org/a)") == "see code (https://x.org/a)"
""",
    "facts derived from a hostile abstract": """
from paperscope.enrich import derive_facts
for unit in ("A", "x.", ":a", "AAAA, a dataset ", "$$x ", "\\\\(x ", "wwwx"):
    facts = derive_facts(None, unit * (N // len(unit)))
    assert isinstance(facts["label"], str) and isinstance(facts["keyphrases"], list), unit
facts = derive_facts(None, "We propose Maestro, a framework for trainable low-rank layers. "
                           "Code is at https://github.com/x/maestro.")
assert facts["label"] and "https://github.com/x/maestro" in facts["code_urls"]
""",
    "LaTeX spans that never close": """
from paperscope.model import latex_to_plain
for unit in ("\\\\(x ", "\\\\[x "):
    text = unit * (N // len(unit))
    assert len(latex_to_plain(text)) > N // 2, unit
assert latex_to_plain("an $O(n)$ bound") != "an $O(n)$ bound"
""",
    "file heads and queries": """
from paperscope.sources.registry import sniff
from paperscope.search.query import parse
from paperscope.search.translate import translate_query
assert sniff("[" + " " * N) == "json"
assert sniff("[1] We study graphs.\\n[2] We study sets.\\n") != "json"
for unit in ('a"', 'a:', '-"x ', 'x*'):
    q = parse(unit * (N // len(unit)))
    assert q.raw and len(q.raw) <= 2000, unit
    translate_query("图" + unit * (N // len(unit)))
""",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_text_is_answered_and_right(case):
    code = f"N = {N}\n" + CASES[case]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=LIMIT_S)
    assert done.returncode == 0, done.stderr[-2000:]


def test_emphasis_spans_are_exactly_what_the_markdown_pattern_finds():
    """The linear scan finds what the regular expression it replaces finds, on every short text
    of markers, barriers and letters tried (the pattern itself is kept as the specification)."""
    rng = random.Random(7)
    spec = re.compile(emphasis.SPEC)
    found = 0
    for _ in range(30_000):
        text = "".join(rng.choice("*_`$ \nab\\^é1,.") for _ in range(rng.randint(0, 14)))
        want = [(m.start(), m.end(), m.group(1), m.group(2)) for m in spec.finditer(text)]
        assert [tuple(e) for e in emphasis.spans(text)] == want, text
        found += bool(want)
    assert found > 300  # the texts tried hold emphasis often enough to tell
