"""Title-less labels, TL;DRs and keyphrases as a reader meets them: the rules of a readable
label (enrich/rules.py), the bundled example papers as a regression set, and huge input."""
from __future__ import annotations

import json

import pytest

from paperscope.enrich import derive_facts
from paperscope.enrich.evaluation import icml_abstracts, sample_abstracts
from paperscope.enrich.rules import MAX_LABEL_CHARS, label_breaks, tldr_breaks

# --------------------------------------------------------------------------- the rule checker


@pytest.mark.parametrize("label,rule", [
    ("Hypergradient of LCBO leveraging the theory of nonsmooth implicit function…", "cut"),
    ("MobileLLM: attains a remarkable 2.7%/4.3% accuracy boost over preceding", "claim"),
    ("That, if trained like today's most capable models", "opener"),
    ("Response to these challenges", "opener"),
    ("This gap between theory and practice", "opener"),
    ("We should instead construct large generative systems", "opener"),
    ("AuG-KD: method AuG-KD", "circular"),
    ("kNN-ECD: Approach, kNN-ECD, which combines search", "circular"),
    ("Generalization properties of our proposed target corrector", "back-reference"),
    ("Optimal transport between the distributions of", "dangling"),
    ("A" * (MAX_LABEL_CHARS - 5) + " model", "long"),
])
def test_rule_checker_names_what_is_wrong(label, rule):
    assert rule in label_breaks(label)


def test_rule_checker_accepts_title_like_labels():
    for label in ("Maestro: trainable low-rank layers", "Reflected flow matching",
                  "On the convergence of Adam under heavy-tailed noise",
                  "kNN-ECD: combining nearest-neighbour search with an error correction datastore"):
        assert label_breaks(label) == [], label
    assert label_breaks("Position: video as the new language", position=True) == []
    assert "position" in label_breaks("Video as the new language", position=True)
    assert "position" in label_breaks("Position: flow matching", position=False)


def test_tldr_checker():
    assert "opener" in tldr_breaks("To address these challenges, we propose X.")
    assert "back-reference" in tldr_breaks("We introduce X to address this issue.")
    assert tldr_breaks("In this paper, we propose X, a sampler for diffusion models.") == []


# --------------------------------------------------------------------------- derivation

def test_tldr_that_leans_on_earlier_text_is_rewritten():
    text = ("Diffusion models are slow. Existing samplers need many steps. To address these "
            "challenges, we propose FastSampler, a training-free sampler for diffusion models.")
    facts = derive_facts(None, text)
    assert facts["tldr"] == "We propose FastSampler, a training-free sampler for diffusion models."
    assert facts["label"] == "FastSampler: training-free sampler for diffusion models"


def test_back_referring_purpose_clause_is_dropped_from_the_tldr():
    text = ("Speculative decoding is fast. Such decoders are brittle when the query distribution shifts. "
            "We introduce online speculative decoding to address this challenge.")
    assert derive_facts(None, text)["tldr"] == "We introduce online speculative decoding."


def test_long_labels_are_shorter_phrases_not_truncations():
    text = ("We propose training-free algorithms to accelerate popular deterministic and "
            "stochastic samplers of score-based diffusion models under minimal assumptions on the "
            "score estimates, with provable convergence guarantees.")
    label = derive_facts(None, text)["label"]
    assert not label_breaks(label) and "…" not in label and len(label) <= MAX_LABEL_CHARS
    assert label.startswith("Training-free algorithms to accelerate")


def test_position_papers_say_so():
    text = ("In this position paper, we argue that the community should standardise licences "
            "for releasing models. Responsible licences are spreading quickly.")
    assert derive_facts(None, text)["label"].startswith("Position: ")


def test_a_one_megabyte_abstract_gets_sane_facts():
    sentence = ("We propose HugeNet (HN), a framework for sparse attention over long documents, "
                "and show that it reduces memory use on the PG-19 benchmark (see Table 2). ")
    text = sentence * (1_000_000 // len(sentence) + 1)
    facts = derive_facts(None, text)
    assert json.loads(json.dumps(facts)) == facts
    assert facts["label"] and len(facts["label"]) <= MAX_LABEL_CHARS and not label_breaks(facts["label"])
    assert "HugeNet" in facts["methods"] and 1 <= len(facts["keyphrases"]) <= 8
    assert facts["tldr"] and len(facts["tldr"]) <= 400


# --------------------------------------------------------------------------- the 95 example papers

def _example_facts(samples_dir):
    return {key: derive_facts(None, abstract)
            for key, abstract in sample_abstracts(samples_dir).items()}


def test_example_labels_and_tldrs_follow_the_rules(samples_dir):
    facts = _example_facts(samples_dir)
    assert len(facts) == 95
    # whether a paper is a position paper needs its real title (checked on ICML 2024 below)
    breaks = {f["label"]: label_breaks(f["label"], position=f["label"].startswith("Position:"))
              for f in facts.values()}
    broken = {label: rules for label, rules in breaks.items() if rules}
    assert len(broken) <= 3, broken  # 1 of 95 when written
    bad_tldrs = [f["tldr"] for f in facts.values() if tldr_breaks(f["tldr"])]
    # 0 of 95 when written; 5 of 95 since a contribution that points back ("We answer these questions ...") stands
    # after the sentence it points to, which the rule's noun check cannot see but blind readers preferred
    assert len(bad_tldrs) <= 6, bad_tldrs
    assert all(set(tldr_breaks(t)) == {"back-reference"} and t.count(". ") == 1 for t in bad_tldrs), bad_tldrs
    for f in facts.values():
        for phrase in f["keyphrases"]:
            assert phrase.split()[0].lower() not in {"instead", "still", "the", "of", "and"}
        assert "instead construct" not in f["keyphrases"]


def test_example_labels_name_what_the_real_title_names(samples_dir, shared_corpora):
    titles = icml_abstracts(shared_corpora)
    facts = _example_facts(samples_dir)
    known = [(facts[k]["label"], titles[k][0]) for k in facts if k in titles]
    assert len(known) >= 50

    def words(text):
        return {w.strip(".,:;()").lower()[:6] for w in text.split() if len(w) > 3}

    shared = sum(1 for label, title in known if words(label) & words(title))
    assert shared / len(known) >= 0.8  # 48 of 57 when written
    wrong_position = [(label, title) for label, title in known
                      if "position" in label_breaks(label, position=title.startswith("Position:"))]
    assert len(wrong_position) <= 2, wrong_position


def test_a_bare_topic_is_not_a_label(samples_dir):
    """ "Image restoration", "Dynamical systems": a topic tells no paper from another; the label
    says what the paper does with it."""
    facts = _example_facts(samples_dir)
    bare = [f["label"] for f in facts.values() if ": " not in f["label"] and len(f["label"].split()) <= 3]
    assert len(bare) <= 1, bare  # 12 of 95 before the rule
    abstract = ("Image restoration recovers clean images from degraded ones. Posterior samplers for "
                "image restoration produce diverse outputs, but their diversity is rarely meaningful. "
                "We explore several post-processing approaches that can be combined with any diverse "
                "image restoration method to yield semantically meaningful diversity. Experiments on "
                "inpainting and super-resolution show that a few outputs cover the posterior well.")
    label = derive_facts(None, abstract)["label"]
    assert len(label.split()) >= 4 and "image restoration" in label.lower(), label


def test_a_tldr_says_more_than_we_propose_a_method():
    abstract = ("Survival analysis needs ranking losses. We propose a novel method, Diffsurv. "
                "Diffsurv extends differentiable sorting to censored survival times and trains "
                "risk models end to end.")
    tldr = derive_facts(None, abstract)["tldr"]
    assert "thin" in tldr_breaks("We propose a novel method, Diffsurv.")
    assert "differentiable sorting" in tldr and tldr.endswith("."), tldr


def test_a_tldr_is_not_cut_inside_a_that_clause():
    sentence = ("We demonstrate that a simple fusion of these two signals improves recall on "
                "every benchmark we consider.")
    tldr = derive_facts(None, "Retrieval needs two signals. " + sentence)["tldr"]
    assert tldr != "We demonstrate that a simple fusion.", tldr


def test_keyphrases_hold_no_praise():
    abstract = ("Diffusion models have gained considerable popularity and are an invaluable tool "
                "for image generation. Diffusion models gained considerable popularity as an "
                "invaluable tool. We propose score distillation for diffusion models, which "
                "speeds up image generation with score distillation tenfold.")
    phrases = derive_facts(None, abstract)["keyphrases"]
    assert not {"gained considerable popularity", "invaluable tool", "considerable popularity"} & set(phrases), phrases
    assert any("diffusion" in p or "score distillation" in p for p in phrases), phrases


def test_a_named_label_reads_as_a_title_not_a_clause():
    abstract = ("Graphs are hard to feed to sequence models. We introduce GraphsGPT, which "
                "transforms non-Euclidean graphs into Euclidean vectors for graph classification. "
                "GraphsGPT reaches strong accuracy on eight graph classification benchmarks.")
    label = derive_facts(None, abstract)["label"]
    assert not label.split(": ", 1)[-1].startswith("transforms"), label
    abstract = ("Correlation clustering is a classic problem. We study the classic problem of "
                "correlation clustering in dynamic vertex streams and give an algorithm with "
                "sublinear update time.")
    label = derive_facts(None, abstract)["label"]
    assert not label.lower().startswith("classic problem"), label


def test_a_name_is_written_out_when_its_description_lacks_one_of_its_words():
    text = ("Cross Attention is a popular method for retrieving information from a set of context tokens. "
            "Cross Attention scans the full set of tokens at inference. In this work, we propose Tree Cross "
            "Attention (TCA) - a module based on Cross Attention that retrieves few tokens. TCA organizes the data in a tree structure.")
    assert derive_facts(None, text)["label"].startswith("Tree Cross Attention (TCA): module based on Cross Attention")


def test_a_label_never_points_at_what_follows_or_promises_parts_it_does_not_name():
    for label in ("Algorithm with the following favorable guarantees", "Above problem from the perspective of X",
                  "Following three conditions for the emergence", "Synapse: computer agent featuring three key "
                  "components", "Interpretable 3D visual grounding framework that has the potential"):
        assert label_breaks(label), label
    for label in ("GoLLIE: Guideline-following Large Language Model", "Instruction following for multimodal "
                  "in-context learning", "Three-stage training for retrieval"):
        assert not label_breaks(label), label


def test_people_are_no_problem_a_method_is_for_and_3d_is_no_name():
    text = ("Human mathematicians are often good at recognizing modular and reusable theorems. In this paper, we "
            "propose a novel method called theoREm-from-prooF extrACTOR (REFACTOR) for training neural networks to "
            "mimic this ability in formal theorem proving. We show on a set of unseen proofs that REFACTOR extracts "
            "19.6% of the theorems that humans would use.")
    assert "mathematicians" not in derive_facts(None, text)["label"]
    text = ("3D visual grounding is the ability to localize objects in 3D scenes conditioned by utterances. In this "
            "paper, we address this question: can we design an interpretable 3D visual grounding framework that has "
            "the potential to mimic the human perception system? We formulate 3D visual grounding as a "
            "sequence-to-sequence task.")
    assert not derive_facts(None, text)["label"].startswith("3D:")


def test_a_short_label_is_said_in_full_from_the_tldr():
    text = ("We present a general framework for graph clustering where a label is observed to each pair of nodes. "
            "This allows a very rich encoding of various types of pairwise interactions between nodes. We analyze "
            "our algorithm under a general generative model.")
    label = derive_facts(None, text)["label"]
    assert label == "Framework for graph clustering where a label is observed to each pair of nodes"
    assert not label_breaks(label)


def test_a_finding_is_not_taken_as_the_label_said_in_full():
    from paperscope.enrich.specific import said_in_full, specific

    assert said_in_full("We show that most models reach similar scores with enough tuning.") is None
    tldr = "We show that most models reach similar scores with enough tuning."
    assert specific("Large-scale study of GANs", tldr) == "Large-scale study of GANs"
    longer = "Dimension reduction for logistic regression that keeps the decision boundary"
    assert specific("Logistic regression", f"We propose a {longer.lower()}.") == longer


def test_an_adverb_before_the_verb_is_no_verb_and_a_purpose_needs_its_object():
    from paperscope.enrich.noun_phrase import tidy

    assert tidy("method that is able to continually align LM with human preferences") == \
        "method that aligns LM with human preferences"
    for label in ("Robust RL algorithm for deriving a pessimistic policy to safeguard",
                  "DDT: differentiable decision tree as a modular component of deep networks and a simple"):
        assert label_breaks(label), label
    assert not label_breaks("Learning to rank with partial feedback")


def test_a_named_label_said_in_full_keeps_its_name():
    from paperscope.enrich.specific import specific

    tldr = ("We propose a local motion deblurring vision Transformer built on adaptive window pruning Transformer "
            "blocks.")
    assert specific("LMD-ViT: local motion deblurring", tldr) == \
        "LMD-ViT: local motion deblurring vision Transformer built on adaptive window pruning Transformer blocks"


def test_a_sentence_connective_or_a_passive_waiting_for_its_agent_is_no_label():
    for label in ("Compared to the known result for ReLU networks", "More specifically, starting with an initial "
                  "output", "The first can be observed in linear logistic regression",
                  "The hidden state vectors can be viewed"):
        assert label_breaks(label), label
    for label in ("The first provably efficient algorithm for linear bandits", "Comparing transformers and RNNs "
                  "on counting", "Moreau envelopes for nonsmooth optimization"):
        assert "opener" not in label_breaks(label) and "dangling" not in label_breaks(label), label


def test_a_paper_that_asks_a_question_and_names_nothing_gets_the_question():
    text = ("We study how down-scaling large language model (LLM) size impacts LLM capabilities. We begin by "
            "measuring the effects of weight pruning on two abilities of LLMs: recalling facts and processing "
            "information presented in context. Moderate pruning impairs the ability to recall facts.")
    label = derive_facts(None, text)["label"]
    assert label == "How down-scaling large language model size impacts LLM capabilities"
    from paperscope.enrich.question import question

    asked = question(["In this paper, we ask whether language models can directly learn to generate watermarked "
                      "text, which would have implications for deployment."], 0, "")
    assert asked == "Can language models directly learn to generate watermarked text?"
    assert question(["We investigate whether these architectures can scale well to higher degrees."], 0, "") is None
    assert question(["We explore how learned visual features, learned dynamics models, and RL can be combined."],
                    0, "") is None  # a list cut at its "and" is no question
    assert question(["We study how the inherent invariances."], 0, "") is None  # no verb: not a question


def test_a_name_introduced_after_a_study_sentence_heads_the_label():
    text = ("Extreme classification architectures falter on tail labels with few samples. This paper explores "
            "the impact of label variance on the tail performance in extreme classifiers. For this purpose, we "
            "propose a principled knowledge distillation framework, LEVER, which enhances the tail performance "
            "in extreme classifiers with formal guarantees. LEVER improves tail accuracy by 5%.")
    assert derive_facts(None, text)["label"].startswith("LEVER: ")


def test_a_kind_for_a_name_a_comparison_for_a_gloss_and_a_bare_means_are_no_label():
    for label in ("Method: TADRED for task-driven experimental design in imaging",
                  "PEC: differing from traditional discriminative and generative paradigms",
                  "Theoretical explanation for the effectiveness of truncation sampling by proving"):
        assert "fragment" in label_breaks(label), label
    assert not label_breaks("TADRED: task-driven experimental design in imaging")


def test_the_name_the_abstract_keeps_using_heads_the_label_and_a_lower_case_name_is_a_name():
    text = ("Code interpreters solve hard math problems. In this paper, we present a method to fine-tune open-source "
            "language models, enabling them to use code for deriving math equations. We propose a method of "
            "generating datasets with math problems and their code-based solutions, referred to as MathCodeInstruct. "
            "This approach yields the MathCoder models, a family of models capable of generating code-based "
            "solutions. The MathCoder models achieve state-of-the-art scores among open models. Notably, the "
            "MathCoder model surpasses ChatGPT.")
    assert derive_facts(None, text)["label"].startswith("MathCoder")
    assert "lower-case" not in label_breaks("t^3VAE: modified VAE framework with Student's t-distributions")
    assert "lower-case" in label_breaks("modified VAE framework with Student's t-distributions")
    from paperscope.enrich.noun_phrase import prepared_object

    assert "premising" not in prepared_object("a novel approach to premise selection")
    assert prepared_object("a method to optimize allocation").startswith("optimizing allocation")


def test_the_methods_a_paper_answers_are_not_its_problem():
    from paperscope.enrich.problem import problem

    opening = ["Recently, numerous graph neural network methods have been developed to tackle domain shifts.",
               "Graph neural network methods assume that target graphs share the source categories."]
    assert problem(opening, {}, None) is None
    assert problem(["Conformal prediction offers distribution-free coverage guarantees.",
                    "Conformal prediction needs exchangeable data."], {}, None) == "conformal prediction"
    assert "fragment" in label_breaks("Incorporate signal delay for deep reinforcement learning")


def test_a_field_abbreviation_is_not_the_papers_name():
    text = ("Existing explanation methods do not faithfully represent the model. To address this, we propose a "
            "novel eXplainable AI (XAI) method called SRD (Sharing Ratio Decomposition), which sincerely reflects "
            "the model's inference process, resulting in more robust explanations. We adopt a vector perspective "
            "on the interactions between filters.")
    label = derive_facts(None, text)["label"]
    assert not label.startswith("XAI") and "SRD" in label or "Sharing Ratio Decomposition" in label


def test_what_is_measured_is_not_what_a_method_is_for():
    from paperscope.enrich.problem import topic_ok

    assert not topic_ok("texture quality") and not topic_ok("random noise")
    assert topic_ok("dense matching") and topic_ok("image classification")


def test_a_label_said_in_full_keeps_the_clause_after_a_comma_that_says_which_one():
    from paperscope.enrich.specific import said_in_full

    assert said_in_full("We study the problem of model selection in causal inference, specifically for conditional "
                        "average treatment effect (CATE) estimation.") == \
        "Model selection in causal inference for conditional average treatment effect estimation"
    assert said_in_full("We propose a local combinatorial optimization algorithm, which exploits low-rank updates "
                        "for efficient local search.") == \
        "Local combinatorial optimization algorithm that exploits low-rank updates for efficient local search"
    assert said_in_full("We propose a clustering algorithm, which is simple.") == "Clustering algorithm"


def test_a_list_of_nouns_is_never_merged_to_its_first_and_last_words_nor_cut_before_its_last_item():
    from paperscope.enrich.noun_phrase import fits

    text = "scaling techniques based on graph compression, spatial parallelization, and improved initialization conditions"
    assert not any("compression initialization" in f for f in fits(text, 120, 2))
    assert "large-scale dataset" in fits("large-scale, high-quality, and diversified dataset", 20, 1)
    text = "toolkit that encompasses general DAG ReLU networks with biases, skip connections and any operation"
    assert not any(f.endswith("biases, skip connections") for f in fits(text, 85, 2))


def test_a_verb_stressed_on_its_last_syllable_doubles_its_consonant_and_a_long_form_keeps_its_first_word():
    from paperscope.enrich.phrases import gerund

    assert [gerund(v) for v in ("equip", "controls", "embed", "visit", "offer")] == \
        ["equipping", "controlling", "embedding", "visiting", "offering"]
    text = ("Cooperative multi-agent reinforcement learning often stalls in local optima. To address this, we "
            "introduce Efficient episodic Memory Utilization (EMU) for MARL, which accelerates learning by "
            "semantically coherent memory. EMU outperforms state-of-the-art methods on StarCraft II.")
    label = derive_facts(None, text)["label"]
    assert label.startswith("EMU: Efficient episodic Memory Utilization"), label


def test_a_kind_noun_after_a_name_is_no_verb_and_an_idea_of_x_is_x():
    text = ("Keeping large foundation models up to date on latest data is inherently expensive. "
            "We introduce the first set of web-scale Time-Continual (TiC) benchmarks for training vision-language "
            "models: TiC-DataComp, TiC-YFCC, and TiC-Redcaps. We use them to evaluate temporal robustness.")
    label = derive_facts(None, text)["label"]
    assert "benchmarking" not in label and "benchmarks" in label, label
    text = ("Unlabeled data is a key component of modern machine learning. In this work, we revisit the classical "
            "idea of spectrally transformed kernel regression for learning with unlabeled data. We prove that it is "
            "a principled and general approach.")
    assert not derive_facts(None, text)["label"].lower().startswith("idea of")


def test_an_approach_to_a_noun_phrase_is_no_infinitive():
    from paperscope.enrich.phrases import names_a_thing

    assert names_a_thing("protein", " generative modeling by leveraging normal mode analysis")
    assert not names_a_thing("learn", " generative modeling")
    text = ("Protein generative models can design novel backbones with desired shapes. However, conditioning on "
            "dynamical properties remains elusive. We present a new approach to protein generative modeling by "
            "leveraging Normal Mode Analysis that enables us to capture dynamical properties too.")
    assert "Proteining" not in derive_facts(None, text)["label"]


def test_a_label_never_ends_on_an_adjective_waiting_for_its_noun_nor_leaves_a_verb_disagreeing():
    from paperscope.enrich.phrases import coordinated
    from paperscope.enrich.rules import label_breaks

    for label in ("Layer-wise learning capabilities of neural networks during the transition from a standard",
                  "Structured pruning to develop smaller large language models from pre-trained",
                  "GLOW: density ratio for wherein online RL",
                  "LightHGNN: bridging the gap between the Hypergraph Neural Networks"):
        assert label_breaks(label), label
    assert not label_breaks("Bridging the gap between theory and practice in reinforcement learning")
    assert coordinated("transforming point-wise inputs into pseudo sequences and replaces the loss") == \
        "transforming point-wise inputs into pseudo sequences and replacing the loss"
    assert coordinated("collecting partially-observed normal and anomaly samples") == \
        "collecting partially-observed normal and anomaly samples"


def test_simple_waits_for_its_noun():
    from paperscope.enrich.rules import label_breaks

    assert label_breaks("Python package with simple")
    assert label_breaks("Python package with simple for calibration measures and reliability diagrams")
    assert not label_breaks("Simple baselines for image restoration")


def test_an_adjective_after_to_be_is_a_predicate_not_a_cut():
    text = ("Generative models map a source distribution to a target manifold. We propose a new approach for "
            "generative modeling based on training a neural network to be idempotent. An idempotent operator can be "
            "applied sequentially without changing the result beyond the initial application.")
    assert derive_facts(None, text)["label"].endswith("to be idempotent")


def test_a_parenthesis_that_is_mathematics_is_no_aside():
    from paperscope.enrich.problem import PAREN

    assert PAREN.sub("", "a residual branch scale of 1/√(depth) with μP") == "a residual branch scale of 1/√(depth) with μP"
    assert PAREN.sub("", "graph neural networks (GNNs) for molecules") == "graph neural networks for molecules"
    assert PAREN.sub("", "the group E(3)") == "the group E(3)"


def test_a_step_forward_for_x_is_x():
    text = ("Image denoisers are powerful priors. This work offers a step forward for solving inverse problems by "
            "enabling the use of powerful pre-trained restoration models as priors. We show results on deblurring.")
    assert not derive_facts(None, text)["label"].lower().startswith("step")


def test_a_label_never_ends_on_a_compound_modifier_an_unfinished_reference_or_wrt():
    for label in ("TorchRL: control library for PyTorch that provides well-integrated",
                  "FIGA: dataset that pairs initial responses and the corresponding",
                  "Network embedding whose dimension grows exponentially w.r.t",
                  "DreamClean: method that needs no degradation prior but yields high-fidelity",
                  "WizardLM: avenue for creating instruction data with varying levels",
                  "Magic123: two-stage approach for image-based"):
        assert "dangling" in label_breaks(label), label
    assert "dangling" not in label_breaks("TorchRL: control library for PyTorch")


def test_a_named_label_whose_description_is_a_clause_with_a_modal_verb_is_no_title():
    assert "fragment" in label_breaks("FIGA: loss function can leverage fine-grained quality signals")
    assert "fragment" not in label_breaks("FedInverse: evaluating whether the global model can be inverted")
    assert "fragment" not in label_breaks("Position: The fairness of predictions should be judged in context")
    assert "fragment" not in label_breaks("Hierarchical priors can compensate for data shortage")


def test_a_name_described_with_as_a_keeps_its_name_and_a_hyphenated_name_is_no_claim():
    text = ("Forecasting under domain shift is hard. We propose Feature-aligned N-BEATS as a domain-generalized time "
            "series forecasting model. It aligns the stacks of N-BEATS with a Sinkhorn divergence.")
    assert derive_facts(None, text)["label"] == "Feature-aligned N-BEATS: domain-generalized time series forecasting model"


def test_a_label_with_a_dash_aside_is_no_title():
    assert "fragment" in label_breaks("CALM — Composition to Augment Language Models")
    assert "fragment" in label_breaks("Restricted Boltzmann Machine with leaky rectified linear units —")


def test_a_headline_about_the_papers_only_name_gets_that_name_in_front():
    text = ("Dense visual representation learning needs object-level features. We propose a Cross-Image Object-Level "
            "Bootstrapping method tailored to enhance dense visual representation learning. By bootstrapping "
            "nearest neighbours across images throughout training, CrIBox emerges as a strong candidate for retrieval. "
            "CrIBox shows state-of-the-art results on segmentation benchmarks.")
    assert derive_facts(None, text)["label"].startswith("CrIBox: ")
    both = ("Window attention needs position embeddings. We propose an absolute window position embedding strategy "
            "for vision backbones. Applied to Hiera and ViTDet, it improves accuracy.")
    assert not derive_facts(None, both)["label"].startswith("Hiera and ViTDet")


def test_a_named_phrase_cut_where_it_waits_for_more_gives_way_to_a_shorter_cut():
    text = ("Training language models on open-domain instruction data brings great success. However, writing such "
            "instruction data by hand is slow and costly. In this paper, we show an avenue for creating large amounts "
            "of instruction data with varying levels of complexity using a language model instead of humans. Starting "
            "from seed instructions, our Evol method rewrites them step by step. We call the resulting model WizardXL. "
            "Human evaluations indicate that WizardXL outperforms strong baselines.")
    from paperscope.enrich.keyphrases import keyphrases
    from paperscope.enrich.label import make_label
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.text import Doc
    from paperscope.enrich.tldr import best_sentence

    doc = Doc.of(text)
    mentions = find_mentions(doc, None)
    names = [m.name for m in mentions]
    label = make_label(None, doc, mentions, best_sentence(doc, names), limit=86,  # the room where the cut waits
                       keyphrases=keyphrases(doc, exclude=names))
    assert label == "WizardXL: avenue for creating large amounts of instruction data"


def test_a_finding_the_authors_unveil_is_the_label_not_the_phenomenon_they_revisit():
    text = ("Double descent is a counter-intuitive effect seen across many models and tasks in machine learning. "
            "Explanations exist for special settings, but no accepted theory of its mechanism in deep learning has "
            "emerged. In this study, we revisit the phenomenon of double descent and demonstrate that label noise "
            "strongly influences its occurrence. By carefully analysing the feature space of learned representations, "
            "we unveil that double descent arises in imperfect models trained with noisy data. We argue that while "
            "small models follow the classical bias-variance trade-off, over-parameterized models interpolate noisy "
            "samples among clean ones and so learn to separate the information from the noise.")
    assert derive_facts(None, text)["label"] == "Double descent arises in imperfect models trained with noisy data"


def test_a_short_form_defined_while_introducing_a_new_thing_is_the_papers_name():
    text = ("Meta-learning physics-informed networks treats every task alike, whatever its difficulty. We address "
            "this gap by introducing a novel difficulty-aware task sampler (DATS) for meta-learning of PINNs. We "
            "evaluated DATS on four benchmark equations, where DATS improves accuracy.")
    assert derive_facts(None, text)["label"].startswith("DATS: difficulty-aware task sampler")


def test_verbs_joined_to_a_gerund_agree_but_a_relative_clause_keeps_its_own():
    from paperscope.enrich.phrases import coordinated
    assert coordinated("targeting the bias and corrects the estimate") == "targeting the bias and correcting the estimate"
    assert coordinated("handling gaps that targets and resolves the bias") == \
        "handling gaps that targets and resolves the bias"


def test_the_problem_the_authors_say_they_study_is_what_a_headline_is_for():
    text = ("We study the sparse phase retrieval problem, which seeks to recover a sparse signal from a limited set of "
            "magnitude-only measurements. We propose a second-order algorithm that employs a Newton-type method with "
            "hard thresholding. Our algorithm converges quadratically after a few iterations and needs no more "
            "measurements than first-order methods for sparse phase retrieval. Experiments confirm the speed-up.")
    assert derive_facts(None, text)["label"] == ("Second-order algorithm that employs a Newton-type method with hard "
                                                 "thresholding for sparse phase retrieval")


def test_a_named_label_is_not_extended_by_what_its_method_runs_on():
    from paperscope.enrich.problem import extended
    name = "UNSB: Unpaired Neural Schrödinger Bridge"
    assert extended(name, "name", ["diffusion models"], 112) == name
    assert extended(name, "name", ["diffusion models", "image-to-image translation"], 112) == \
        name + " for image-to-image translation"
    assert extended("Unpaired neural bridge", "intro", ["diffusion models"], 112) == \
        "Unpaired neural bridge for diffusion models"  # a topic label still says its setting
    # a problem the label already holds is passed over, not a stop
    assert extended("SRNN: symplectic recurrent networks", "name", ["recurrent networks", "Hamiltonian systems"],
                    112) == "SRNN: symplectic recurrent networks for Hamiltonian systems"


def test_a_named_detector_is_not_said_to_be_for_the_models_whose_text_it_detects():
    text = ("Large language models (LLMs) have notably enhanced the fluency and diversity of machine-generated text. "
            "However, this progress makes it hard to tell whether a given text was written by a person or by large "
            "language models. We propose a novel training-free detection strategy called Divergent N-Gram Scan (DNS). "
            "Given a text, we truncate it in the middle and let the model regenerate the rest, then compare the two "
            "parts. DNS outperforms trained detectors on five datasets.")
    label = derive_facts(None, text)["label"]
    assert label.startswith("Divergent N-Gram Scan (DNS): training-free detection strategy")
    assert not label.endswith("language models")


def test_a_named_method_is_for_a_task_its_keyphrases_name_not_for_a_thing_it_handles():
    from paperscope.enrich.problem import names_task
    for task in ("dense matching", "malware detection", "symbolic regression", "continual learning of representations",
                 "Multiple Instance Learning", "recovering sparse graphs from data"):
        assert names_task(task), task
    for thing in ("historical embeddings", "loss function", "limited training", "raw images", "target graphs",
                  "leak private information", "training distributions", "ensuring memory"):
        assert not names_task(thing), thing


def test_a_gerund_phrase_agrees_and_a_participle_waiting_for_its_purpose_ends_no_label():
    from paperscope.enrich.phrases import coordinated, gerund
    assert coordinated("estimating and maximizes the marginal log-likelihood") == \
        "estimating and maximizing the marginal log-likelihood"
    assert coordinated("learning and rewards of agents") == "learning and rewards of agents"  # a noun, not a verb
    assert gerund("edits") == "editing" and gerund("maps") == "mapping"
    assert "dangling" in label_breaks("ZO-RankSGD: zeroth-order optimization algorithm designed")
    assert "dangling" in label_breaks("Jumanji: suite of reinforcement learning environments specifically")


def test_a_method_based_on_a_problem_is_not_extended_for_it():
    from paperscope.enrich.problem import with_problem
    label = "InstructPix2NeRF: end-to-end diffusion-based framework"
    assert with_problem(label, "name", "diffusion process", 120, False) == label
    assert with_problem(label, "name", "3D portrait editing", 120, False) == label + " for 3D portrait editing"


def test_a_label_that_waits_for_its_other_half_or_its_infinitive_is_dangling():
    for broken in ("Bias and variance of the estimation error due",
                   "Framework for measuring the consistency between generation",
                   "StreamingLLM: framework that enables LLMs trained with a finite length attention window",
                   "StreamingLLM: Large Language Models trained",
                   "Algorithms for fitting a high-dimensional statistical model to a large"):
        assert "dangling" in label_breaks(broken), broken
    for whole in ("SyCoCa: contrastive captioners for multimodal alignment between language and vision",
                  "Natural sparse linear regression setting where correlations between covariates arise",
                  "X: framework that enables LLMs to use tools"):
        assert "dangling" not in label_breaks(whole), whole


def test_what_a_named_method_is_tailored_or_curated_for_is_its_purpose():
    from paperscope.enrich.noun_phrase import purpose
    assert purpose(", tailored to node classification.") == "for node classification"
    assert purpose(", which is particularly curated for 3D lidar detection.") == "for 3D lidar detection"
    assert purpose(", designed to reduce memory use.") == "for reducing memory use"
    assert purpose(", to date the largest generative foundation model.") is None  # "to date" is no purpose


def test_a_label_never_ends_on_a_word_after_its_last_comma_and_a_hyphenated_first_word_is_capitalised():
    from paperscope.enrich.specific import capitalise
    assert "dangling" in label_breaks("Integrating a hierarchical segmenter into the recognition process, train")
    assert capitalise("quasi-Monte Carlo mechanism to improve graph sampling").startswith("Quasi-Monte")
    assert capitalise("iGraphMix: input mixup") == "iGraphMix: input mixup"


def test_a_name_written_out_as_an_apposition_or_after_its_kind_is_described_by_what_follows():
    from paperscope.enrich.named import named_descriptions
    assert "framework that integrates alignment into the decoding process" in named_descriptions(
        "ARGS, Alignment as Reward-Guided Search, a novel framework that integrates alignment into the decoding "
        "process.", "ARGS", None, {})
    assert named_descriptions("technique, Chain of Hindsight, that is easy to optimize and can learn from any form of "
                              "feedback, regardless of its polarity.", "Chain of Hindsight", None, {}) == \
        ["technique that is easy to optimize and can learn from any form of feedback"]


def test_a_named_method_known_only_by_its_topic_is_called_the_kind_its_abstract_gives_it():
    from paperscope.enrich.compose import kind_of
    sentences = ["Predicting the evolution of temporal graphs remains a challenging task.",
                 "In this paper, we introduce a principled framework, named GraphPulse, which combines two techniques."]
    assert kind_of("GraphPulse", sentences) == "framework"
    assert kind_of("Chain-of-Table", ["We propose the Chain-of-Table framework, where tables are reasoning steps."]) \
        == "framework"
    assert kind_of("Foo", ["We study Foo in depth."]) is None
    text = ("Predicting the evolution of temporal graphs remains a challenging and under-explored task. "
            "In this paper, we introduce a principled framework, named GraphPulse. "
            "The framework combines two important techniques for the analysis of temporal graphs. "
            "Experiments show that it improves ROC-AUC by 10 points on temporal graphs.")
    assert derive_facts(None, text)["label"].startswith("GraphPulse: framework for")


def test_an_adverb_in_front_of_a_description_comes_off():
    text = ("Tabular data prediction with language models is hard. "
            "We propose TP-BERTa, a specifically pre-trained language model for tabular data prediction. "
            "TP-BERTa outperforms tree ensembles on 145 datasets.")
    assert derive_facts(None, text)["label"] == "TP-BERTa: pre-trained language model for tabular data prediction"


def test_a_name_written_out_after_it_in_brackets_is_its_long_form():
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.text import Doc
    text = ("Large web-crawled datasets power new methods for learning visual representations. "
            "Our simple and scalable approach, T-MARS (Text Masking and Re-Scoring), filters out only those pairs "
            "where the text dominates the remaining visual features. Experimentally, T-MARS ranks first on DataComp.")
    found = {m.name: m for m in find_mentions(Doc.of(text), None)}
    assert found["T-MARS"].long == "Text Masking and Re-Scoring"


def test_a_named_description_drops_what_it_only_hopes_borrows_or_asks():
    from paperscope.enrich.label import _unhedged
    assert _unhedged("benchmark for General AI Assistants that would represent a milestone in AI research") == \
        "benchmark for General AI Assistants"
    assert _unhedged("open dataset inspired by these works containing 14.7B tokens of mathematical webpages") == \
        "open dataset containing 14.7B tokens of mathematical webpages"
    assert _unhedged("parametric augmentation method for techniques like contrastive learning") == \
        "parametric augmentation method for contrastive learning"
    assert _unhedged("model that has both audio perception and reasoning ability?") == \
        "model that has both audio perception and reasoning ability"
    assert _unhedged("how far can transformers go?") == "how far can transformers go?"


def test_an_aim_to_do_two_things_keeps_both_verbs():
    text = ("Lipschitz continuity is a crucial functional property of any predictive model, that naturally governs its "
            "robustness. Contrary to other works that focus on obtaining tighter bounds and developing different "
            "practical strategies to enforce certain Lipschitz properties, we aim to thoroughly examine and characterise "
            "the Lipschitz behaviour of Neural Networks. Thus, we carry out an empirical investigation in a range of "
            "different settings.")
    assert derive_facts(None, text)["label"].startswith("Examining and characterising")


def test_an_adjective_after_an_article_waits_for_its_noun_even_after_a_copula():
    assert "dangling" in label_breaks("A simple linearized Transformer model could actually be a valuable")
    assert "dangling" not in label_breaks("Linearized Transformer models are valuable")


def test_a_model_trained_on_nothing_is_a_fragment_in_labels_and_tldrs():
    assert "dangling" in label_breaks("Higher-order graph neural network model trained")
    assert "dangling" not in label_breaks("Dataset-embedding approach that allows active learners to be trained")
    assert "cut" in tldr_breaks("We present a higher-order graph neural network (GNN) model trained.")
    assert "cut" not in tldr_breaks("We present a higher-order graph neural network (GNN) model trained on lattices.")


def test_an_aside_gives_way_to_the_extension_the_paper_opens_with():
    text = ("We extend conformal prediction to control the expected value of any monotone loss function. "
            "The algorithm generalizes split conformal prediction together with its coverage guarantee. "
            "We also introduce extensions of the idea to distribution shift and quantile risk control. "
            "Worked examples from computer vision demonstrate the usage of our algorithm.")
    assert derive_facts(None, text)["label"] == \
        "Extending conformal prediction to control the expected value of any monotone loss function"


def test_for_each_class_does_not_say_what_a_label_is_for():
    text = ("Out-of-distribution detection is indispensable for open-world machine learning models. "
            "Prompt learning methods for out-of-distribution detection use only positive prompts. "
            "In this paper, we propose learning a set of negative prompts for each class. "
            "Experiments on ImageNet show that negative prompts help out-of-distribution detection.")
    assert derive_facts(None, text)["label"].endswith("for out-of-distribution detection")


def test_a_scored_candidate_may_say_what_it_is_for_in_up_to_100_characters():
    from paperscope.enrich.label import candidates
    from paperscope.enrich.text import Doc

    text = ("Federated bandit learning lets many clients learn together. Clients must be paid to communicate. "
            "We study how to pay them so that reporting their true cost is their best choice.")
    pool = candidates(Doc.of(text), [], "We study how to pay them.")
    phrase = "incentive compatible communication protocol for federated bandit learning"
    pool.add(phrase, "intro", name="Truth-FedBan")
    labels = [label for _, label in pool.candidates]
    assert f"Truth-FedBan: {phrase}" in labels  # 87 characters; at most 86 before


def test_an_aside_between_dashes_does_not_end_the_label():
    from paperscope.enrich.noun_phrase import prepared_object

    assert prepared_object("the impact of label variance - a previously unexamined factor - on the tail performance "
                           "in extreme classifiers.") == "impact of label variance on the tail performance in extreme classifiers."
    assert prepared_object("a new amortized inference method—the Simformer—which overcomes these limitations.").count("Simformer")
    assert prepared_object("a 2D - 3D - 4D pipeline.") == "2D - 3D - 4D pipeline."


def test_a_plural_problem_that_arises_is_what_a_short_label_is_for():
    text = ("Ill-posed linear inverse problems arise frequently in imaging, from astronomy to microscopy. "
            "A recent line of work handles the ill-posedness with informative priors learned by generative models. "
            "To sample from the resulting sequence of posteriors, we propose the use of sequential Monte Carlo methods. "
            "The resulting algorithm is shown to be theoretically grounded, and it beats competing baselines on "
            "deblurring and inpainting.")
    assert derive_facts(None, text)["label"] == "Sequential Monte Carlo methods for ill-posed linear inverse problems"


def test_research_problems_are_no_problem_a_label_is_for():
    from paperscope.enrich.problem import problem

    assert problem(["Many interesting research problems arise from this strategy, e.g., how to close the gap."],
                   {}, None) is None
    assert problem(["Ill-posed linear inverse problems arise frequently in imaging."], {}, None) == \
        "ill-posed linear inverse problems"


def test_for_each_class_leaves_room_for_what_the_label_is_for():
    from paperscope.enrich.problem import with_problem

    assert with_problem("Learning a set of negative prompts for each class", "intro", "out-of-distribution detection",
                        100, False) == "Learning a set of negative prompts for each class for out-of-distribution detection"
    assert with_problem("Learning negative prompts for image classifiers", "intro", "out-of-distribution detection",
                        100, False) == "Learning negative prompts for image classifiers"


def test_a_short_label_keeps_the_means_its_sentence_gives_cut_to_fit():
    text = ("We present a new approach to draw samples from discrete Markov random fields, based on an exact slice "
            "sampling algorithm applied to a continuous relaxation of the field of interest and to its gradients. "
            "On image denoising and on spin glasses, the sampler mixes faster than Gibbs sampling.")
    assert derive_facts(None, text)["label"] == ("Drawing samples from discrete Markov random fields based on an exact "
                                                 "slice sampling algorithm")


def test_a_label_from_the_sentence_that_names_the_method_gets_the_name():
    text = ("Sparse recovery under correlated designs remains hard for lasso-type estimators. A greedy thresholding "
            "path with group structure is proposed in this paper, based on coordinate splitting and mirror descent, "
            "hence called Split MD. The path is computed in one pass over the data, and its early stopping is shown to "
            "be sign consistent under weaker conditions than the lasso.")
    assert derive_facts(None, text)["label"] == "Split MD: greedy thresholding path with group structure"


def test_a_name_from_another_sentence_stays_off_an_unnamed_label():
    from paperscope.enrich.compose import named_here
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.text import Doc

    doc = Doc.of("We study how regret scales in bandits with graph feedback. We call the resulting bound the graph "
                 "regret bound (GRB) and evaluate it on synthetic graphs.")
    label = "Regret scaling in bandits with graph feedback"
    assert named_here(label, doc, find_mentions(doc, None), 112) == label


def test_a_label_never_ends_on_a_gerund_that_waits_for_its_object():
    assert "dangling" in label_breaks("Importance of the loss function symmetries in affecting")
    assert "dangling" in label_breaks("Actor-critic reinforcement learning method for optimizing")
    assert label_breaks("Structured pruning for efficient language models by reducing") != []
    assert label_breaks("Tools for image inpainting") == []
    assert label_breaks("Methods for deep reinforcement learning") == []
