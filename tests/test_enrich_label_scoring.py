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
