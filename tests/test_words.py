"""One text vocabulary: what a word is, its folding, stemming and plural folding, the stop words
and the filler words live in paperscope/words.py, and every part uses them. A module that
defines its own word tokeniser or its own stop-word list fails here, unless it is one of the
named word rules below (each a different concept, with the reason it differs)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from paperscope import words
from paperscope.analysis.terms import Terms
from paperscope.enrich.keyphrases import _chunks
from paperscope.search import query, tokens, translate

SRC = Path(words.__file__).parent

# Words that are not the vocabulary's: (file, name) -> why they differ.
NAMED_RULES = {
    ("enrich/acronyms.py", "_NAME_LINKS"): "lower-case words that join the words of a name",
    ("enrich/rules.py", "OPENERS"): "words a label may not open with (connectives, pronouns)",
    ("enrich/rules.py", "DANGLING"): "words a label may not end with",
    ("enrich/rules.py", "_FIRST_WORD"): "a label's words for its rules: apostrophes kept, any script",
    ("enrich/rules.py", "_POST_MODIFIER"): "words that open a modifier after a TL;DR's referring noun",
    ("enrich/cues.py", "CONNECT"): "words that connect a name to its description",
    ("enrich/artifacts.py", "runs"): "literal runs of a gazetteer regex, not prose",
    ("enrich/artifacts.py", "needle"): "literal runs of a gazetteer regex, not prose",
    ("sources/venues.py", "_HEADER_WORDS"): "words around a venue in a list's header",
}
# Common function words: a set holding several of them is a stop-word list.
_PROBE_STOP = set("a an and are as at be by for from in is it of on or that the this to was with".split())
# A pattern that cuts this sentence into exactly its words is a word tokeniser.
_PROBE_TEXT = "Deep networks, learn sparse representations (of graphs) quickly."
_PROBE_WORDS = set(re.findall(r"\w+", _PROBE_TEXT))
_RX_CALLS = {"compile", "findall", "finditer", "split", "sub", "search"}


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _text(node.left), _text(node.right)
        return a + b if a is not None and b is not None else None
    return None


def _what(node: ast.AST) -> str | None:
    """'stop words' or 'tokeniser' when this node defines one, else None."""
    if isinstance(node, ast.Set):
        listed = {_text(e) for e in node.elts}
        return "stop words" if len(_PROBE_STOP & listed) >= 6 else None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    if node.func.attr == "split" and _text(node.func.value) is not None:
        return "stop words" if len(_PROBE_STOP & set(_text(node.func.value).split())) >= 6 else None
    if node.func.attr in _RX_CALLS and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" \
            and node.args and _text(node.args[0]) is not None:
        try:
            found = re.findall(_text(node.args[0]), _PROBE_TEXT)
        except (re.error, TypeError):
            return None
        return "tokeniser" if len(found) >= 6 and all(f in _PROBE_WORDS for f in found) else None
    return None


def _definitions() -> list[tuple[str, str, str, int]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        tree = ast.parse(path.read_text("utf-8"))
        for stmt in ast.walk(tree):
            if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                continue
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
            name = target.id if isinstance(target, ast.Name) else ast.unparse(target)
            for node in ast.walk(stmt.value) if stmt.value else ():
                kind = _what(node)
                if kind:
                    out.append((rel, name, kind, node.lineno))
    return out


def test_one_tokeniser_and_one_stop_word_list_in_src():
    found = _definitions()
    own = [(f, n, k, line) for f, n, k, line in found if f != "words.py" and (f, n) not in NAMED_RULES]
    assert not own, "define words in paperscope/words.py, or name the different rule in NAMED_RULES:\n" + \
        "\n".join(f"  {f}:{line} {n} is a {k}" for f, n, k, line in own)
    assert {(f, k) for f, _, k, _ in found if f == "words.py"} == {("words.py", "tokeniser"), ("words.py", "stop words")}
    # the scan sees what it looks for: the lists it allows are there, so a new one would be seen too
    assert set(NAMED_RULES) <= {(f, n) for f, n, _, _ in found}


def test_every_part_uses_the_same_stop_words_and_plural_folding():
    assert tokens.terms("the networks of the graphs") == ["network", "graph"]
    assert tokens.terms("towards learning without labels") == ["learn", "label"]  # shared stop words
    terms = Terms(["Networks of graphs without labels.", "Graphs' networks without labels."], min_df=1)
    assert "without" not in terms.vocab and "network" in terms.vocab and "networks" not in terms.vocab
    assert _chunks("sparse networks without labels, and dynamics") == [["sparse", "networks"], ["labels"], ["dynamics"]]
    assert [words.singular(w) for w in ("networks", "studies", "llms", "bias", "loss", "dynamics", "series")] == \
        ["network", "study", "llm", "bias", "loss", "dynamics", "series"]
    assert words.prose_words("the model's state-of-the-art rock'n'roll") == ["the", "model", "state-of-the-art", "rock'n'roll"]


def test_the_query_and_its_translation_read_the_same_tokens():
    for raw in ('x"y z"', 'venue:ICML -"image generation" diffus*', '``Difficult" Tasks'):
        assert [m.groups() for m in query.TOKEN.finditer(raw)] == \
            [m.groups() for m in query.TOKEN.finditer(translate.translate_query(raw).english)]
    # a glued quote after Chinese closes nothing: the translated word is searched, no phrase opens
    q = query.parse(translate.translate_query('扩散模型" 图像').english)
    assert q.words and not q.phrases
