"""Method names a paper introduces (enrich/methods.py, acronyms.py, text.py)."""
from __future__ import annotations

import pytest

from paperscope.enrich import derive_facts
from paperscope.enrich.acronyms import definitions, expand, match_long_form
from paperscope.enrich.text import (Doc, emphasised_spans, is_coined, replace_token, split_sentences, strip_markup,
                                    token_starts)


def methods(abstract: str, title: str | None = None) -> list[str]:
    return derive_facts(title, abstract)["methods"]


# --------------------------------------------------------------------------- patterns

def test_we_propose_name_with_apposition():
    text = ("Large models are costly to train. We propose Maestro, a framework for trainable "
            "low-rank layers. Maestro recovers the SVD of linear maps.")
    assert methods(text) == ["Maestro"]


def test_called_and_named_introduce_names():
    text = ("Peptide design is hard. We propose a target-aware peptide design method called "
            "PPFlow. Besides, we establish a protein-peptide binding dataset named PPBench2024.")
    assert methods(text) == ["PPFlow", "PPBench2024"]


def test_acronym_defined_after_intro_verb_is_the_name():
    text = ("Offline safe reinforcement learning (RL) trains policies from data. In this paper, "
            "we propose temporal logic Specification-conditioned Decision Transformer (SDT), a "
            "novel framework that harnesses signal temporal logic (STL) and the Decision "
            "Transformer (DT).")
    # RL is background, STL and DT sit inside the relative clause: only SDT is introduced
    assert methods(text) == ["SDT"]


def test_generic_acronyms_are_never_methods():
    text = ("We propose deep neural networks (DNNs) trained with stochastic gradient descent "
            "(SGD) for reinforcement learning (RL) with large language models (LLMs). "
            "Our results use GPT-4 as a judge.")
    assert methods(text) == []


def test_abstract_without_a_name_gives_an_empty_list():
    text = ("We study the low rank matrix completion problem in an online setting. We prove a "
            "regret bound that is tight up to logarithmic factors.")
    assert methods(text) == []


def test_prior_work_acronym_in_background_is_not_introduced():
    text = ("Accelerated stochastic gradient descent (ASGD) is a workhorse in deep learning. "
            "We study the generalization of ASGD for linear regression. ASGD outperforms SGD "
            "in some subspaces, and ASGD is slower in others.")
    assert methods(text) == []


def test_bold_letter_markup_yields_the_acronym_not_the_letters():
    text = ("Generalisation is an open challenge in RL. We introduce **S**ymmetry-**I**nvariant "
            "**T**ransformer (**SiT**), a scalable vision transformer.")
    assert methods(text) == ["SiT"]


def test_bold_and_emphasised_names_count():
    assert methods("Bootstrap is costly. We propose a new approach called **Orthogonal "
                   "Bootstrap** that reduces replications.") == ["Orthogonal Bootstrap"]
    assert methods("Phase retrieval is hard. The formed algorithm, *DiffFPR*, is validated "
                   "by experiments.") == ["DiffFPR"]
    # emphasis on ordinary words is not a name
    assert methods("We characterize a *winner-takes-all* phenomenon in attention.") == []


def test_conjunctions_and_variants_of_a_name():
    text = ("Many mechanisms exist. Using the most effective mechanisms, we develop EvoRainbow "
            "and EvoRainbow-Exp, which outperform strong baselines.")
    assert methods(text) == ["EvoRainbow", "EvoRainbow-Exp"]
    text = ("We propose two algorithms termed as FedQ-Hoeffding and FedQ-Bernstein, "
            "respectively.")
    assert methods(text) == ["FedQ-Hoeffding", "FedQ-Bernstein"]


def test_components_of_an_introduced_method():
    text = ("We introduce an Omnidirectionally calibrated Quantization (OmniQuant) technique for "
            "LLMs. OmniQuant comprises two components including Learnable Weight Clipping (LWC) "
            "and Learnable Equivalent Transformation (LET).")
    assert methods(text) == ["OmniQuant", "LWC", "LET"]


def test_one_name_per_acronym_pair():
    text = "We introduce Cell2Sentence (C2S), a novel method. C2S offers a flexible framework."
    assert methods(text) == ["Cell2Sentence"]


def test_model_family_names_are_not_methods():
    text = ("We introduce a method to improve zero-shot reasoning. With our method, "
            "Llama-2-70b-chat outperforms zero-shot GPT-3.5 Turbo significantly.")
    assert methods(text) == []


def test_title_head_names_the_method_when_known():
    abstract = "We study peptide design with flow matching on tori. PPFLOW performs well."
    assert methods(abstract, title="PPFLOW: Target-Aware Peptide Design")[0] == "PPFLOW"
    # an ordinary phrase before the colon is not a name
    assert methods("We study SAM dynamics.", title="Forget Sharpness: Perturbed Forgetting") == []
    assert methods("We argue for levels.", title="Position: Levels of AGI") == []


# --------------------------------------------------------------------------- helpers

@pytest.mark.parametrize("token,coined", [
    ("SDT", True), ("AttNS", True), ("tBMM", True), ("PPBench2024", True), ("g-BH", True),
    ("FQI-LOG", True), ("Maestro", False), ("LLM-based", False), ("III", False), ("the", False),
])
def test_is_coined(token, coined):
    assert is_coined(token) is coined


def test_long_form_matching():
    head = "we take the ARC, the Abstraction and Reasoning Corpus"
    at = match_long_form("ARC", head)
    assert head[at:] == "Abstraction and Reasoning Corpus"
    head = "the corresponding Datasets with Diverse human Demonstrations for Imitation Learning"
    assert head[match_long_form("D3IL", head):].startswith("Datasets with Diverse")
    assert match_long_form("XYZ", "nothing to see here") is None


def test_definitions_in_both_orders_and_lists():
    defs = definitions("Regularization yields CoLiDE (Concomitant Linear DAG Estimation), a "
                       "criterion.")
    assert [(d.short, d.long, d.short_first) for d in defs] == [
        ("CoLiDE", "Concomitant Linear DAG Estimation", True)]
    defs = definitions("It consists of a contact mesh Transformer and a hierarchical mesh "
                       "Transformer (CMT and HMT, respectively).")
    assert [d.short for d in defs] == ["CMT", "HMT"]
    assert definitions("Such techniques (e.g., SVD) are costly.") == []


def test_markup_helpers():
    raw = "We introduce **S**ymmetry-**I**nvariant **T**ransformer (**SiT**) and *DiffFPR*."
    assert strip_markup(raw) == "We introduce Symmetry-Invariant Transformer (SiT) and DiffFPR."
    assert emphasised_spans(raw) == ["SiT", "DiffFPR"]
    # underscores inside words are not emphasis
    assert strip_markup("the W_2-distance and kNN-ECS_m stay") == "the W_2-distance and kNN-ECS_m stay"


def test_sentence_split_survives_abbreviations_and_urls():
    text = ("Methods (e.g., SVD) are costly, cf. Bolte et al. (2022). We propose X. "
            "Code is at https://github.com/a/b. Done.")
    assert split_sentences(text) == [
        "Methods (e.g., SVD) are costly, cf. Bolte et al. (2022).", "We propose X.",
        "Code is at https://github.com/a/b.", "Done."]


def test_doc_marks_background_sentences():
    doc = Doc.of("Deep nets are big. They are costly. We propose Maestro. It works.")
    assert doc.own_start == 2


def test_a_name_is_found_and_replaced_only_as_a_whole_token():
    text = "GNN and GNNs beat pre-GNN, GNN-based and GNN_x models; (GNN) too. GNN"
    assert [text[i:i + 3] for i in token_starts(text, "GNN")] == ["GNN"] * 3
    assert token_starts(text, "GNN") == [0, text.index("(GNN)") + 1, len(text) - 3]
    assert token_starts("", "GNN") == [] and token_starts("GNN", "") == []
    assert replace_token("aaa aa aa", "aa", "b") == "aaa b b"
    assert expand("GNNs and a GNN, not GNN-based", {"GNN": "graph neural network"}) == \
        "graph neural networks and a graph neural network, not GNN-based"


def test_a_quoted_name_with_its_short_form_inside_the_quotes_is_the_short_form():
    from paperscope.enrich.methods import find_mentions

    doc = Doc.of('Motivated by active forgetting in the brain, we introduce a novel learning paradigm called '
                 '"Forget to Mitigate Overfitting (FOMO)". FOMO alternates between a forgetting phase and a '
                 'relearning phase. Experiments show that FOMO alleviates robust overfitting.')
    found = {m.name: m for m in find_mentions(doc, None)}
    assert "FOMO" in found and found["FOMO"].long == "Forget to Mitigate Overfitting"
    assert not any("(" in name for name in found)


def test_a_long_form_is_the_words_whose_initials_or_capitals_spell_the_short_form():
    from paperscope.enrich.acronyms import match_long_form

    def long(short: str, before: str) -> str | None:
        at = match_long_form(short, before)
        return before[at:] if at is not None else None

    assert long("TTA", "Previous test time adaptation") == "test time adaptation"
    assert long("EMU", "we introduce Efficient episodic Memory Utilization") == "Efficient episodic Memory Utilization"
    assert long("OOD", "In the context of out-of-distribution detection") == "out-of-distribution detection"
    assert long("AL", "An augmented Lagrangian") == "augmented Lagrangian"
    assert long("MoE", "a sparse Mixture of Experts") == "Mixture of Experts"


def test_a_short_form_written_out_keeps_its_number_and_article():
    from paperscope.enrich.acronyms import expand

    assert expand("training an LM end-to-end on two LMs", {"LM": "language models"}) == \
        "training a language model end-to-end on two language models"
    assert expand("quantizes an LLM", {"LLM": "large language model"}) == "quantizes a large language model"
    assert expand("a MoE layer", {"MoE": "Mixture of Experts"}) == "a Mixture of Experts layer"
    assert expand("a PCA step", {"PCA": "Principal Component Analysis"}) == "a Principal Component Analysis step"


def test_a_dataset_the_paper_uses_and_the_benchmarks_it_is_evaluated_on_are_not_its_names():
    from paperscope.enrich.methods import find_mentions

    doc = Doc.of("We define a diffusion model for music generation and source separation. We train our model on "
                 "Slakh2100, a standard dataset for musical source separation, and report competitive results.")
    assert "Slakh2100" not in {m.name for m in find_mentions(doc, None)}
    doc = Doc.of("We propose a Mixture Of Orthogonal Experts (MOORE) for multi-task reinforcement learning. We assess "
                 "the effectiveness of our approach on two MTRL benchmarks, namely MiniGrid and MetaWorld.")
    names = {m.name for m in find_mentions(doc, None)}
    assert "MOORE" in names and "MiniGrid" not in names


def test_capitalised_words_set_off_after_the_intro_verb_or_the_kind_are_the_papers_name():
    from paperscope.enrich.methods import find_mentions

    def names(text: str) -> set[str]:
        return {m.name for m in find_mentions(Doc.of(text), None)}

    assert "Neural Spectral Methods" in names(
        "We present Neural Spectral Methods, a technique to solve parametric differential equations with spectral bases.")
    assert "Least Volume" in names(
        "This paper introduces Least Volume---a simple regularization that reduces the latent dimensions of an "
        "autoencoder.")
    assert "Prompt Risk Control" in names(
        "We propose a lightweight framework, Prompt Risk Control, for selecting a prompt with upper bounds on risk.")
    # a side contribution in capitalised words is not the paper's name; neither is a run of common words
    assert not names("Additionally, we propose the Adaptive Memory Allocator, a memory manager trained by "
                     "reinforcement learning.")
    assert not names("We present Deep Learning, a review of the field for newcomers.")


def test_latex_dashes_braces_and_reference_links_read_as_text():
    doc = Doc.of("We study three settings---offline, online and hybrid---with the Weisfeiler--Leman test. "
                 "We propose {Scaling Laws of Rotary Extrapolation} for sets {A, B} after [Blum & Mansour][1].")
    assert doc.sentences[0] == "We study three settings — offline, online and hybrid — with the Weisfeiler–Leman test."
    assert doc.sentences[1] == "We propose Scaling Laws of Rotary Extrapolation for sets {A, B} after Blum & Mansour."


def test_names_after_a_dash_a_kind_with_listed_modifiers_our_defense_and_answered_with():
    from paperscope.enrich.methods import find_mentions

    def names(text: str) -> list[str]:
        return [m.name for m in find_mentions(Doc.of(text), None)]

    assert names("We present CellBench—an open platform that unifies data for battery research.") == ["CellBench"]
    assert names("Under this threat model, our defense, ShieldNet, outperforms adversarial training.") == ["ShieldNet"]
    assert names("We show that our amortized posterior sampler, TreeFlow, produces diverse hypotheses.") == ["TreeFlow"]
    assert names("We propose a training-free, two-step zero-shot classification method ViewCLIP.") == ["ViewCLIP"]
    assert names("We address these limitations with WeatherODE, a continuous-time process with physics.") == \
        ["WeatherODE"]
    assert names("Here, we propose Beam Ranking to enumerate the most probable sub-sequences.") == ["Beam Ranking"]
    assert names("This paper proposes Poisoned Mirror Face framework, which enables clean-label attacks.") == \
        ["Poisoned Mirror Face"]
    # a currency is no name, and "with" a method the field knows names nothing
    assert names("For under $20 USD, our attack extracts the projection matrix of a production model.") == []
    assert names("We tackle the problem with Monte Carlo sampling.") == []


def test_a_name_whose_short_form_the_field_owns_is_its_long_form_and_tagged_names_a_method():
    from paperscope.enrich.methods import find_mentions

    def names(text: str) -> list[str]:
        return [m.name for m in find_mentions(Doc.of(text), None)]

    assert "Instructive Decoding" in names("This paper presents Instructive Decoding (ID), a simple approach that "
                                           "augments instruction-tuned models with noisy instructions.")
    assert "Batch Calibration" in names("Inspired by these analyses, we propose Batch Calibration (BC), a simple "
                                        "method that controls the contextual bias.")
    assert "learning from demonstrations" not in " ".join(names(
        "We propose learning from demonstrations (LfD), a setting for robots.")).lower()
    assert names("To that end, we propose a simple search-based offline imitation method, tagged SEABO.") == ["SEABO"]


def test_a_version_number_a_new_kind_in_apposition_and_a_long_name_before_its_short_form():
    from paperscope.enrich.methods import find_mentions

    def names(text: str) -> list[str]:
        return [m.name for m in find_mentions(Doc.of(text), None)]

    assert names("We present Habitat 4.0: a simulation platform for studying human-robot tasks.") == ["Habitat 4.0"]
    assert names("In this paper, we develop VoiceCraft 2, a speech system built on a neural audio codec.") == \
        ["VoiceCraft 2"]
    assert names("We herein propose a novel generative model, DepthGAN, which learns 3D structure from images.") == \
        ["DepthGAN"]
    assert names("We therefore developed a novel architecture, MEMOX, endowed with a longer reach.") == ["MEMOX"]
    assert names("We create a new algorithm, Reset Free Learning with Smart Switching Control (RFSSC), which "
                 "switches between controllers.") == ["RFSSC"]
    # "the proposed X" names X only when X is the subject that does something
    assert names("We study pooling. The proposed DiffNet consistently improves over the baselines.") == ["DiffNet"]
    assert names("We study bounds. The proposed TC bound is grounded in information theory.") == []


def test_a_short_form_defined_inside_the_problem_studied_is_not_the_papers_name():
    text = ("In this work, we tackle the challenging problem of denoising hand-object interactions (HOI). "
            "Given an erroneous HOI sequence, the goal is to refine the hand trajectory and remove artifacts. "
            "This involves unnatural hand poses and incorrect hand-object relations in HOI data. "
            "We tackle those challenges through a novel approach, GraspDenoise, built on two key designs: a "
            "contact-centric HOI representation and a domain-generalizable denoising scheme. "
            "The representation parameterizes the HOI process and generalizes across HOI scenarios.")
    from paperscope.enrich.methods import find_methods
    assert "HOI" not in find_methods(Doc.of(text))
    assert derive_facts(None, text)["label"].startswith("GraspDenoise: ")


def test_the_first_word_of_a_spelled_out_name_is_not_a_name_of_its_own():
    text = ("Test-time adaptation rarely looks at several modalities. We reveal a new challenge named reliability bias. "
            "To solve the challenge, we propose a novel method, dubbed REliable fusion and robust ADaptation (READ). "
            "READ modulates the attention between modalities in a self-adaptive way.")
    facts = derive_facts(None, text)
    assert "READ" in facts["methods"] and "REliable" not in facts["methods"]
    assert facts["label"].startswith("READ: ")
    hyphenated = ("We introduce Sinkhorn-Newton-Sparse (SNS), an extension to the Sinkhorn algorithm. "
                  "Sinkhorn-Newton-Sparse converges fast.")
    assert "Sinkhorn-Newton-Sparse" in derive_facts(None, hyphenated)["methods"]
