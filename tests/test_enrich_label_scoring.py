"""Title-less labels: abbreviations written out, candidate scoring, position papers."""
from paperscope.enrich import derive_facts
from paperscope.enrich.acronyms import expand, long_forms
from paperscope.enrich.rules import label_breaks

GNN_ABSTRACT = (
    "Graph neural networks (GNNs) are widely used for node classification. However, GNNs suffer "
    "from oversmoothing in deep layers. We propose a residual rewiring scheme that mitigates "
    "oversmoothing in GNNs. Experiments on ten benchmarks show that GNNs with rewiring train deeper.")


def test_defined_abbreviations_are_collected_singular_and_lower_case():
    forms = long_forms(["Graph neural networks (GNNs) are used.", "A large language model (LLM) x.",
                        "We use Low-Rank Adaptation (LoRA) here."])
    assert forms == {"GNN": "graph neural network", "LLM": "large language model",
                     "LoRA": "Low-Rank Adaptation"}
    assert expand("Scaling GNNs, one GNN, LLMs and GNN-based LoRA", forms) == \
        "Scaling graph neural networks, one graph neural network, large language models and " \
        "GNN-based Low-Rank Adaptation"


def test_label_writes_out_an_abbreviation_the_reader_has_not_seen_defined():
    label = derive_facts(None, GNN_ABSTRACT)["label"]
    assert "graph neural networks" in label and "GNN" not in label
    assert label_breaks(label) == []


def test_words_a_title_would_name_raise_a_candidate_score():
    from paperscope.enrich.label_words import WORD_FEATURES, WORD_W, title_odds as _title_odds

    assert set(WORD_W) == {"intercept", *WORD_FEATURES}
    spread = [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    passing = [0.2, 0.2, 0.1, 0.9, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]
    features = {"oversmooth": spread, "layer": passing}
    assert _title_odds({"oversmooth"}, features) > _title_odds({"layer"}, features)
    assert _title_odds({"oversmooth", "layer"}, features) > _title_odds({"oversmooth"}, features)


ARGUING = (
    "Machine learning conferences increasingly reward leaderboard gains. We argue that the "
    "research community should treat evaluation as a scientific object in its own right. We "
    "call for open problems to be stated up front and outline future research directions for "
    "AI evaluation.")
METHOD = (
    "Sparse attention reduces the cost of long-context transformers. We propose a routing "
    "layer that selects the keys each query attends to. Experiments on five benchmarks show "
    "that it outperforms state-of-the-art sparse attention at equal cost.")


def test_a_paper_that_argues_gets_a_position_label_and_a_method_paper_does_not():
    from paperscope.enrich.position import POSITION_AT, position_score

    assert position_score(ARGUING) >= POSITION_AT > position_score(METHOD)
    arguing, method = derive_facts(None, ARGUING)["label"], derive_facts(None, METHOD)["label"]
    assert arguing.startswith("Position: ") and label_breaks(arguing, position=True) == []
    assert not method.startswith("Position") and label_breaks(method) == []


SHIFT = (
    "Conformal prediction is widely used to quantify the uncertainty of classifiers. However, "
    "its prediction sets grow large under distribution shift. We propose ShiftCP, a score "
    "reweighting scheme. On five datasets, ShiftCP keeps conformal prediction sets small.")


def test_a_label_that_does_not_say_what_it_is_about_gets_the_opening_problem():
    from paperscope.enrich.problem import problem, with_problem

    label = derive_facts(None, SHIFT)["label"]
    assert label == "ShiftCP: score reweighting scheme for conformal prediction"
    assert label_breaks(label) == []
    opening = ["Recent advances in graph neural networks have changed chemistry.",
               "Graph neural networks are hard to train."]
    assert problem(opening, {}, {"graph": 1.0, "network": 1.0}) == "graph neural networks"
    # no problem when the opening sentence has no short subject the abstract returns to
    assert problem(["We study the effects of width on depth."], {}, {"width": 1.0}) is None
    assert with_problem("Reasoning paths", "topic", "language models", 86, False) == \
        "Reasoning paths in language models"
    for label, kind in (("The model is good", "claim"), ("Models for search", "intro")):
        assert with_problem(label, kind, "language models", 86, False) == label
    assert with_problem("Position: open models", "intro", "language models", 86, True) == \
        "Position: open models"
