"""The TL;DR of a title-less paper: one or two complete sentences that carry the contribution
and stand alone (enrich/tldr.py, checked by enrich/rules.py tldr_breaks)."""
from __future__ import annotations

import re

from paperscope.enrich import derive_facts
from paperscope.enrich.rules import label_breaks, tldr_breaks
from paperscope.enrich.standalone import lead_off, rewrite
from paperscope.enrich.tldr import MAX_CHARS
from paperscope.enrich.text import Doc
from paperscope.enrich.tldr_score import contributes, undefined_name


def tldr(abstract: str) -> str:
    return derive_facts(None, abstract)["tldr"]


# --------------------------------------------------------------------------- the rules


def test_a_pronoun_with_nothing_to_point_at_breaks_the_rules():
    assert "back-reference" in tldr_breaks("We study their training dynamics in function space.")
    assert "back-reference" in tldr_breaks("Our findings show its inferiority to a greedy heuristic.")
    assert tldr_breaks("Our method and its variants reduce memory on long documents.") == []


def test_a_reference_the_tldr_resolves_itself_is_fine():
    assert tldr_breaks("We prove a lower bound on the regret of any learner, and propose an "
                       "algorithm that attains this bound up to logarithmic factors.") == []
    assert tldr_breaks("We introduce a synthetic retrieval task. We prove that a two-layer "
                       "transformer learns to solve this task with gradient descent.") == []
    assert "back-reference" in tldr_breaks("We propose an algorithm that attains this bound.")
    assert "back-reference" in tldr_breaks("This paper solves both problems for sums and counts.")
    assert "back-reference" in tldr_breaks("We give faster algorithms than the ones described above.")


def test_this_paper_opening_a_tldr_is_no_back_reference():
    assert tldr_breaks("This paper presents GradEst, a method that explains black-box models "
                       "from queries alone.") == []
    assert "opener" in tldr_breaks("This limitation motivates a new sampler for diffusion models.")


# --------------------------------------------------------------------------- the choice


def test_a_thin_sentence_gets_the_sentence_that_says_what_the_method_does():
    text = ("Federated learning with large multimodal models strains clients' memory and compute. "
            "In this work, we propose SplitFed to address the above issue. "
            "SplitFed keeps only the privacy-sensitive modules on the clients and trains the rest "
            "on the server with lightweight adapters. "
            "Experiments on four benchmarks confirm large savings in client memory.")
    got = tldr(text)
    assert "SplitFed" in got and "privacy-sensitive modules" in got, got
    assert "above issue" not in got and not tldr_breaks(got), got
    assert len(got) <= MAX_CHARS


def test_a_method_named_without_a_description_is_followed_by_what_it_is():
    text = ("Attribution maps for image classifiers are noisy. "
            "We propose an Iterative Path Attribution (IPA) method. "
            "IPA ranks input features by integrating gradients along paths found by alternating "
            "ascent and descent steps. "
            "Our code is available at https://example.org/ipa.")
    got = tldr(text)
    assert got.startswith("We propose an Iterative Path Attribution (IPA) method.")
    assert "integrating gradients along paths" in got and "example.org" not in got, got


def test_a_dangling_their_is_not_left_in_the_tldr():
    text = ("Graph neural networks are widely used. Yet whether they learn the functions we want "
            "during training remains unclear. To fill this gap, we study their training dynamics "
            "in function space. We find that gradient descent on graph neural networks implicitly "
            "aligns the learned function with the graph structure. This alignment explains when "
            "the learned functions generalize.")
    got = tldr(text)
    assert "their" not in got.split() and not tldr_breaks(got), got
    assert "aligns the learned function with the graph structure" in got, got


def test_the_main_contribution_wins_over_a_side_remark():
    text = ("This paper introduces R3D, an agent that learns from a handful of demonstrations to "
            "solve hard exploration problems in partially observable environments. "
            "We also introduce a suite of eight tasks that combine these three properties, and "
            "show that R3D solves several of them.")
    assert tldr(text).startswith("This paper introduces R3D, an agent that learns from a handful")


def test_the_contribution_wins_over_a_property_of_it():
    text = ("Attribution methods explain which input features drive a decision. Gradients give "
            "good attributions but need access to the model's internals. "
            "In response to such limited flexibility, this paper presents QueryGrad (query-based "
            "gradient estimation), a method that produces gradient-like explanations through "
            "query access alone. "
            "The proposed approach holds a set of fundamental properties for attribution methods, "
            "which are proved rigorously. "
            "Experiments on image data show that it is competitive with white-box methods.")
    got = tldr(text)
    assert got.startswith("Attribution methods explain which input features drive a decision. This paper presents "
                          "QueryGrad"), got  # after the opening sentence, which it never names
    assert "such limited flexibility" not in got


def test_an_opening_clause_is_taken_off_at_its_comma_not_in_mid_phrase():
    text = ("Speech models need large unlabelled corpora. "
            "Motivated by the recent finding that diffusion models have superior capabilities for "
            "modeling data distributions, we propose SynthSSL, a pretraining scheme that augments "
            "scarce unlabelled speech with synthetic speech from a diffusion model. "
            "SynthSSL lowers word error rates on English speech recognition.")
    got = tldr(text)
    assert got.startswith("We propose SynthSSL, a pretraining scheme"), got


def test_addressing_this_issue_by_doing_something_becomes_doing_it():
    text = ("Out-of-distribution inputs often get confident predictions. "
            "We address this issue by measuring extreme activation values in the penultimate "
            "layer of the network and then using them as an overconfidence score. "
            "Compared to the baselines, our method often grants double-digit improvements.")
    got = tldr(text)
    assert got.startswith("We measure extreme activation values in the penultimate layer"), got


def test_no_ellipsis_when_a_complete_sentence_exists():
    long_one = ("We propose " + ", ".join(f"component number {i} of a very long list of parts"
                                          for i in range(12)) + " all in one system.")
    text = (long_one + " We show that a sparse mixture of small experts matches a dense model on "
            "language modelling at a third of the compute.")
    got = tldr(text)
    assert "…" not in got and "..." not in got, got
    assert got.endswith(".") and len(got) <= MAX_CHARS


def test_experiments_do_not_make_the_tldr():
    text = ("Label noise hurts classifiers. We introduce NoiseRank, a loss that reweights "
            "examples by how consistently the model ranks them across epochs. "
            "We test our method on a wide array of experiments spanning tabular and image data, "
            "several architectures and loss functions.")
    assert tldr(text).startswith("We introduce NoiseRank, a loss that reweights")


def test_an_opening_clause_never_swallows_the_main_clause():
    text = ("Neural processes complete images from a few observed pixels. Which pixels they "
            "observe is usually chosen at random. "
            "To this end we develop the Pixel Choice Autoencoder (PCA-VAE), an amortised "
            "variational framework that learns which pixels to observe together with the model. "
            "It fits better models on several image datasets.")
    got = tldr(text)
    assert got.startswith("We develop the Pixel Choice Autoencoder (PCA-VAE), an amortised"), got


def test_a_reporting_verb_does_not_end_a_tldr():
    text = ("Linearizing activations speeds up private inference. "
            "In this paper, we demonstrate that such computational benefits may lead to increased "
            "fairness costs. "
            "We find that removing ReLU activations lowers the accuracy of minority groups far "
            "more than that of majority groups.")
    got = tldr(text)
    assert not got.rstrip(".").endswith("demonstrate"), got
    # the claim stands whole after the sentence its "such computational benefits" points to
    assert got == ("Linearizing activations speeds up private inference. In this paper, we demonstrate that such "
                   "computational benefits may lead to increased fairness costs."), got


def test_a_purpose_clause_that_points_back_is_dropped_and_the_rest_kept():
    text = ("Rising bandits model options that improve each time they are chosen. Earlier work "
            "studied their regret. "
            "We propose two algorithms to tackle the above-mentioned setting, namely R-UCB, which "
            "uses optimistic estimates, and R-SR, which rejects options one by one.")
    got = tldr(text)
    assert "We propose two algorithms, namely R-UCB, which uses optimistic" in got, got


def test_a_sentence_that_only_names_the_method_takes_the_next_one_that_opens_on_the_name():
    text = ("Aligning language models with human preferences is vital. Reinforcement learning suffers "
            "from high variance. In this paper, we propose efficient exact optimization (EXO) of the "
            "alignment objective. EXO is guaranteed to optimize in the same direction as reinforcement "
            "learning algorithms for arbitrary policy parametrization. Experiments confirm it.")
    out = tldr(text)
    assert out.startswith("In this paper, we propose efficient exact optimization (EXO)")
    assert "EXO is guaranteed to optimize" in out and tldr_breaks(out) == []


def test_what_was_studied_comes_with_what_was_found():
    text = ("Transformers are trained on many tasks. In this work, we study rapid improvements of the "
            "training loss in transformers confronted with multi-step decision tasks. We found that "
            "transformers struggle to learn the intermediate task and the loss saturates for hundreds "
            "of epochs. We trace the problem to the softmax in self-attention.")
    out = tldr(text)
    assert "we study rapid improvements" in out and "We found that transformers struggle" in out


def test_an_opening_clause_comes_off_whole_or_not_at_all():
    text = ("Data holders keep data in silos. Instead of using semantic labels and proxy losses in a "
            "multi-task approach, we propose a new architecture that guides self-supervised depth "
            "learning with a fixed pretrained segmentation network. It works well on KITTI.")
    assert tldr(text).startswith("We propose a new architecture that guides self-supervised depth")
    text = ("Data holders keep data in silos. Given that many data holders may not want to, or be "
            "legally allowed to, entrust a central entity with their raw data, we propose a framework "
            "for collaborative generation of synthetic tabular data. It is private.")
    assert not tldr(text).startswith("Or ")


def test_a_study_takes_the_first_finding_within_three_sentences_not_a_step():
    text = ("Memorization is widely studied. We study the interplay between memorization and "
            "generalization of overparameterized networks trained on a single example. The task is "
            "the identity map. We formally characterize generalization in single-layer networks. "
            "Experiments on images follow.")
    out = tldr(text)
    assert out.startswith("We study the interplay") and out.endswith(
        "We formally characterize generalization in single-layer networks.")
    step = ("Sketching is widely studied. We study streaming algorithms for the subspace approximation "
            "problem in the row-arrival model. When p is infinite, we need to find a subspace that "
            "minimizes the largest distance.")
    assert "we need to find" not in tldr(step)


def test_an_answer_to_an_unsaid_question_and_another_method_point_back():
    assert "back-reference" in tldr_breaks("We give an affirmative answer by developing a variant of Adam.")
    assert "back-reference" in tldr_breaks("We introduce another phased algorithm with a regret bound.")
    assert "back-reference" in tldr_breaks("We rectify both the quantitative and qualitative issues of pruning.")
    assert tldr_breaks("We propose a model that answers questions about tables.") == []


def test_a_goal_that_points_back_gives_way_to_the_means():
    text = ("Pruning recurrent networks is hard. We seek to rectify both the quantitative and qualitative "
            "issues with recurrent network pruning by introducing a new recurrent pruning objective "
            "derived from the spectrum of the recurrent Jacobian. We evaluate on sequential MNIST.")
    assert tldr(text) == ("We introduce a new recurrent pruning objective derived from the spectrum of the "
                          "recurrent Jacobian.")


def test_a_solution_to_nothing_their_conjecture_and_a_cut_on_a_modifier_are_not_tldrs():
    assert "back-reference" in tldr_breaks("This paper introduces Cache Merging (CaM) as a solution.")
    assert tldr_breaks("We propose Cache Merging as a solution to the memory cost of long contexts.") == []
    assert "back-reference" in tldr_breaks("We study machine teaching and prove their conjecture.")
    from paperscope.enrich.standalone import self_contained

    assert self_contained("In the regime where M,N >> T, we propose two algorithms for recommending "
                          "items.") == "We propose two algorithms for recommending items."
    assert not self_contained("In this paper we analyse the sets of functions expressible by "
                              "them.").endswith("expressible.")


def test_an_abbreviation_the_abstract_defined_elsewhere_is_written_out_once():
    text = ("Large language models (LLMs) are used widely. The distributional simplicity bias (DSB) says "
            "that networks learn low-order moments first. In this work, we present new evidence for the DSB "
            "by showing that LLMs learn statistics of increasing complexity during training.")
    assert tldr(text) == ("In this work, we present new evidence for the distributional simplicity bias (DSB) "
                          "by showing that large language models (LLMs) learn statistics of increasing "
                          "complexity during training.")
    own = ("Caches are large. A linear dynamical system (LDS) is simple. In this paper we build an LDS mirror "
           "of a Gaussian process, called Layer-Adaptive Mirror (LAM), that learns fast.")
    out = tldr(own)
    assert "a linear dynamical system (LDS) mirror" in out and out.count("(LAM)") == 1


def test_more_opening_clauses_that_lean_back_come_off():
    from paperscope.enrich.standalone import self_contained
    assert self_contained("On the basis of the hypothesis, we propose entropy propagation (EntProp), which "
                          "feeds hard samples to the network.").startswith("We propose entropy propagation")
    assert self_contained("Based on that interaction we design the counterfactual control (CFC) "
                          "architecture.") == "We design the counterfactual control (CFC) architecture."
    assert self_contained("In doing so, we develop techniques for analyzing M-estimation.") == \
        "We develop techniques for analyzing M-estimation."
    assert self_contained("In this paper, we close the gap and present error bounds for score "
                          "approximation.") == "We present error bounds for score approximation."


def test_references_to_things_a_tldr_never_named_break_its_rules():
    for text in ("We give a direct algebraic proof of the theorem.",
                 "We obtain near-optimal regret guarantees for both frameworks.",
                 "This paper proposes new, scalable solutions to the bandit problem in two respects.",
                 "We propose the sliced Cramer distance as a suitable choice."):
        assert tldr_breaks(text), text
    assert not tldr_breaks("We prove the conjecture of Erdos on random graphs for all sparse graphs.")


def test_a_sentence_glued_to_the_next_without_a_space_is_split():
    from paperscope.enrich.text import Doc
    doc = Doc.of("We propose a recurrent network for video super-resolution (SR).Different from RNNs, it "
                 "uses convolutions. See github.com/a/B.Code for code.")
    assert doc.sentences[0] == "We propose a recurrent network for video super-resolution (SR)."
    assert doc.sentences[1].startswith("Different from RNNs")
    assert "github.com/a/B.Code" in doc.raw


def test_a_problem_the_paper_considers_is_followed_by_what_it_shows_about_it():
    text = ("Generative models are widely used. We consider the problem of density estimation, in which a "
            "learner is given draws from an unknown distribution and must output a close hypothesis. "
            "Such problems arise in many sciences. Prior methods are slow on large data. Histograms are a "
            "classic tool. We prove that a variable-width histogram learner attains near-optimal sample "
            "complexity in near-linear time.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("We consider the problem of density estimation.")
    assert "variable-width histogram" in tldr and not tldr_breaks(tldr)


def test_a_parenthesis_padded_with_spaces_holds_its_name_tightly():
    from paperscope.enrich.text import Doc

    doc = Doc.of("Attention is slow at inference. Based on this insight, we propose Clustered Head Attention ( CHAI ).")
    assert doc.sentences[1] == "Based on this insight, we propose Clustered Head Attention (CHAI)."
    assert Doc.of("We keep f( x ) = 0 as written ( see below ).").sentences[0] == "We keep f(x) = 0 as written (see below)."


def test_an_affirmative_answer_by_developing_x_is_said_as_developing_x():
    text = ("Adaptive optimizers are popular. Whether strong convexity helps them remains an open problem. In this "
            "paper, we give an affirmative answer by developing a variant of Adam (referred to as SAdam) which "
            "attains a logarithmic regret bound for strongly convex functions. In addition, under special "
            "hyperparameters our SAdam reduces to SC-RMSprop, for which we provide the first such bound.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("We develop a variant of Adam") and not tldr_breaks(tldr)


def test_a_long_opening_that_leans_back_comes_off_the_contribution():
    text = ("Hard-label attacks need many queries. Prior work estimates gradients with binary search. In this paper, "
            "we estimate the sign of the gradient in any direction with a single query. Using this single query "
            "oracle for retrieving the sign of a directional derivative, we develop a novel query-efficient Sign-OPT "
            "approach for hard-label black-box attack. We also analyse its convergence.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.endswith("We develop a novel query-efficient Sign-OPT approach for hard-label black-box attack.")
    assert "Using this" not in tldr


def test_formalising_this_framework_and_using_it_to_build_x_is_said_as_building_x():
    text = ("Platforms filter what users see. Regulators find this hard to audit. In this paper, we mathematically "
            "formalize this framework and utilize it to construct a data-driven statistical auditing procedure "
            "with sample complexity guarantees. Authorities or platforms can run it.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("We construct a data-driven statistical auditing procedure") and not tldr_breaks(tldr)


def test_a_pronoun_with_nothing_before_it_to_refer_to_is_a_back_reference():
    assert tldr_breaks("We show that when its weights satisfy a spectral condition, its output loses information.")
    assert not tldr_breaks("We show that a graph network and its variants lose information with depth.")


def test_the_sentence_after_a_thin_contribution_that_opens_in_our_method_is_joined():
    text = ("Compressing deep networks usually needs heavy retraining. In this paper, we propose a new layer-wise "
            "pruning method for deep neural networks. In our proposed method, the parameters of each layer are "
            "pruned independently based on second order derivatives of a layer-wise error function. Experiments "
            "confirm the gains.")
    tldr = derive_facts(None, text)["tldr"]
    assert "second order derivatives" in tldr and tldr.startswith("In this paper, we propose")


def test_these_problems_are_said_as_the_sentence_before_named_them():
    text = ("Domain adaptation and causal inference both predict under shifted distributions. We focus on a class of "
            "causal domain adaptation problems, where data for several source domains are given. We propose an "
            "approach for solving these problems that exploits causal inference and needs no causal graph. We "
            "demonstrate our approach on simulated and real data.")
    tldr = derive_facts(None, text)["tldr"]
    assert "We propose an approach for solving causal domain adaptation problems that exploits" in tldr
    assert not tldr_breaks(tldr)


def test_a_problem_named_only_by_a_verb_phrase_is_not_borrowed():
    from paperscope.enrich.standalone import resolved

    said = resolved("We combine two approaches to this problem.", ["Agents must solve complex problems."])
    assert "solve" not in said and "complex" not in said


def test_what_the_authors_study_is_followed_by_what_they_derive_in_that_way():
    text = ("Motivated by imaging, we study a class of online optimization problems with loss functions that are not "
            "Lipschitz continuous; in particular, the losses could exhibit gradient singularities. Drawing on "
            "Riemannian geometry, we examine a continuity condition tailored to the singularities. In this way, we "
            "are able to go beyond the Lipschitz framework, and we derive optimal regret bounds for mirror descent. "
            "These results are validated on Poisson inverse problems.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("We study a class of online optimization problems") and "regret bounds" in tldr
    assert "In this way" not in tldr and not tldr_breaks(tldr)


def test_the_hypothesis_a_learner_returns_is_not_a_back_reference():
    assert not tldr_breaks("We establish a bound on the robust error of the hypothesis returned by adversarial "
                           "regularized risk minimization.")
    assert tldr_breaks("We confirm the hypothesis in sparse graphs.")


def test_a_cut_never_leaves_that_waiting_for_its_clause():
    from paperscope.enrich.standalone import lead_off, rewrite

    said, _ = rewrite("First, we show that, even for two layer neural networks, the exact computation of this "
                      "quantity is NP-hard.")
    assert not said.endswith("even for two layer neural networks.")


def test_a_short_tldr_is_preceded_by_what_the_authors_work_on():
    text = ("Pipelines split a network across devices. We optimize pipeline parallelism for deep neural network "
            "inference by partitioning model graphs into k stages and minimizing the time of the bottleneck stage. "
            "Practitioners need to know when a partition is good enough. We design novel mixed integer programming "
            "relaxations for proving lower bounds. On 369 production models the bounds are strong.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("We optimize pipeline parallelism") and tldr.endswith("for proving lower bounds.")
    assert tldr_breaks("We provide an algorithm that achieves the guarantee above in linear time.")
    assert not tldr_breaks("We provide an algorithm that keeps the loss above the threshold.")


def test_a_setting_is_one_the_authors_work_on_not_one_they_need():
    text = ("Internal states shape perception. We need to understand the statistical structure of such states. "
            "Recordings of many neurons are now common. We present a statistical model for extracting hierarchically "
            "organised neural population states from multi-channel spike recordings.")
    tldr = derive_facts(None, text)["tldr"]
    assert not tldr.startswith("We need to") and tldr.startswith("We present a statistical model")
    assert tldr_breaks("In this work, we analyze their scaling properties under many assumptions.")


def test_a_setting_too_short_to_say_anything_is_not_put_first():
    text = ("Primates recognise actions quickly. This paper addresses two questions. We find that a baseline model, "
            "one that sums ventral and dorsal responses to short action snippets, fits the neural data well.")
    assert not derive_facts(None, text)["tldr"].startswith("This paper addresses two questions")


def test_a_setting_that_points_at_a_claim_it_does_not_state_is_not_put_first():
    text = ("Adaptive optimizers need warmup. We provide both empirical and theoretical evidence to verify our "
            "hypothesis. We propose Rectified Adam, a variant of Adam that rectifies the variance of the adaptive "
            "learning rate.")
    assert derive_facts(None, text)["tldr"].startswith("We propose Rectified Adam")


def test_an_aim_is_not_the_contribution_when_the_authors_later_present_one():
    text = ("Neural networks are easily fooled by small perturbations of their inputs. To take a step towards robust "
            "classifiers, we aim to create neural network models provably defended from perturbations. Prior "
            "certification work requires strong assumptions on network structures. From the relation between Lipschitz "
            "constants and margins, we present a cheap technique to lower-bound the size of adversarial perturbations "
            "that can deceive networks. Experiments confirm the bounds on large networks.")
    tldr = derive_facts(None, text)["tldr"]
    assert "we present a cheap technique to lower-bound" in tldr and "we aim to create" not in tldr


def test_the_method_speaking_for_the_authors_beats_an_efficacy_sentence():
    text = ("Implicit neural representations capture 3D shapes. Signed distance functions encode shape geometry well. "
            "However, learning them from sparse point clouds without supervision remains hard. While recent methods "
            "rely on smoothness priors, our method introduces a regularization term that uses adversarial samples "
            "around the shape to improve the learned distance functions. Through extensive experiments, we illustrate "
            "the efficacy of our proposed method on synthetic and real data.")
    tldr = derive_facts(None, text)["tldr"]
    assert "our method introduces a regularization term" in tldr and "efficacy" not in tldr


def test_instead_of_without_its_comma_comes_off_and_no_cut_ends_on_an_aim():
    from paperscope.enrich.standalone import lead_off, rewrite

    said, kept = rewrite("In this paper, instead of pulling examples of one class together we propose to move the "
                         "examples with respect to virtual points.")
    assert said.startswith("We propose to move the examples") and kept == 1.0
    said, _ = rewrite("In this paper, we take a step back and aim to summarize and quantify empirically the impact of "
                      "each of these dimensions on model performance.")
    assert not re.search(r"\b(?:aim|aim to summarize)\.$", said), said


def test_restating_the_problem_is_no_contribution_but_introducing_x_as_y_is():
    text = ("We study the problem of reconstructing low-rank matrices from their noisy observations. We formulate the "
            "problem in the Bayesian framework, which lets us use structure beyond low rank, such as sparsity. We "
            "propose an efficient approximate message passing algorithm to perform the Bayesian inference. Numerical "
            "experiments show that the algorithm outperforms k-means.")
    tldr = derive_facts(None, text)["tldr"]
    assert "We propose an efficient approximate message passing algorithm" in tldr
    assert "We formulate the problem" not in tldr
    framing = ("We introduce the beta-risk as a generalized formulation of the empirical risk for weakly labeled data. "
               "Experiments on ten datasets confirm the gains.")
    assert derive_facts(None, framing)["tldr"].startswith("We introduce the beta-risk as a generalized formulation")


def test_a_short_tldr_that_never_names_the_opening_problem_is_framed_by_it():
    # an opening sentence too short to stand in front of it (fewer than 8 words) frames it instead
    text = ("Generative adversarial networks often diverge in training. "
            "In this work, we explore ways to tackle the instability problem by dualizing the discriminator. "
            "Generative adversarial networks trained this way reach better scores on three benchmarks.")
    assert derive_facts(None, text)["tldr"] == ("For generative adversarial networks, we explore ways to tackle the "
                                                "instability problem by dualizing the discriminator.")
    vague = text.replace("Generative adversarial networks often diverge in training.",
                         "One important tool often diverges in training.")
    assert not derive_facts(None, vague)["tldr"].startswith("For one")


def test_our_first_contribution_and_a_passive_in_this_work_speak_for_the_authors():
    text = ("Structured sparse estimation is an important technique in data analysis. Unfortunately, these estimators "
            "create computational difficulties. Our first contribution is to uncover a rich class of structured sparse "
            "regularizers whose polar operator can be evaluated efficiently. We also demonstrate a new reduction of "
            "polar to proximal maps that enables a more efficient latent fused lasso.")
    assert derive_facts(None, text)["tldr"].startswith("Our first contribution is to uncover a rich class")
    passive = ("Crowdsourcing splits large projects into small tasks for many workers. In this work, the crowdsourcing "
               "problem is modeled and analyzed in an information theoretic rate-distortion framework. The purpose is "
               "to identify the ultimate fidelity of any query scheme. We also present a query scheme dubbed k-ary "
               "incidence coding.")
    assert "is modeled and analyzed in an information theoretic rate-distortion framework" in \
        derive_facts(None, passive)["tldr"]


def test_no_cut_leaves_an_infinitive_waiting_for_its_object():
    from paperscope.enrich.standalone import lead_off, rewrite

    said, _ = rewrite("Our key contribution is the design of a computationally efficient reputation algorithm to "
                      "identify and filter out these adversarial workers in crowdsourcing systems.")
    assert not said.endswith("to identify."), said


def test_provide_one_and_the_first_challenge_point_at_nothing():
    assert tldr_breaks("In this paper, we provide one.")
    assert tldr_breaks("We show that language models generate category learning tasks, thereby addressing the first "
                       "challenge.")
    assert not tldr_breaks("We propose one of the first benchmarks for category learning with language models.")
    assert not tldr_breaks("We address the first challenge of federated learning, client drift, with a new optimizer.")


def test_for_short_defines_an_abbreviation_and_a_short_setting_precedes_a_longer_tldr():
    from paperscope.enrich.acronyms import long_forms

    assert long_forms(["The Equalized Odds (for short, EO) is a popular measure of discrimination."]) == \
        {"EO": "Equalized Odds"}
    assert long_forms(["We use graph neural networks (GNNs for short) here."]) == {"GNN": "graph neural network"}
    text = ("Generating 3D objects is hard. We study the problem of 3D object generation. We propose a novel framework, "
            "namely a 3D generative adversarial network, which generates 3D objects from a probabilistic space by "
            "leveraging recent advances in volumetric convolutional networks and generative adversarial nets, and "
            "learns without any supervision. Experiments show realistic objects.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("We study the problem of 3D object generation. We propose a novel framework"), tldr


def test_a_claim_of_what_the_method_does_takes_the_next_sentence_that_says_how():
    by = ("Wide networks are accurate but slow. We present a method that trains wide convolutional networks with higher "
          "accuracy and lower inference cost. This is achieved by switching individual channels on and off per input. "
          "Results on three datasets confirm it.")
    assert tldr(by).endswith("with higher accuracy and lower inference cost, by switching individual channels on and "
                             "off per input.")
    idea = ("Imitation learning suffers from compounding errors. We propose a meta algorithm for learning from noisy "
            "demonstrations. The key idea is to train two policies and update them only where they disagree. "
            "It beats baselines on ten tasks.")
    assert tldr(idea).endswith("The key idea is to train two policies and update them only where they disagree.")


def test_we_do_so_points_back_at_what_the_reader_cannot_see():
    assert "back-reference" in tldr_breaks("In this paper, we do so by relating motion planning to active learning.")
    assert not tldr_breaks("We show that attention layers can perform convolution and often learn to do so.")


def test_a_lost_name_an_unstated_conjecture_or_each_problem_points_at_nothing():
    for text in ("We introduce , which leverages language models for data augmentation.",
                 "In this paper, we put our conjecture to test by applying a policy search algorithm to Tetris.",
                 "For each problem, we give background and list open challenges."):
        assert "back-reference" in tldr_breaks(text), text
    for text in ("We show our conjecture that every planar graph is 4-colourable holds for random graphs.",
                 "We bound the error on our hypothesis class for dependent data."):
        assert not tldr_breaks(text), text


def test_so_motivated_comes_off_and_an_unannounced_our_results_leans_back():
    from paperscope.enrich.standalone import lead_off
    assert lead_off("So motivated, we introduce a contrastive method for partial data.").startswith("We introduce")
    assert "back-reference" in tldr_breaks("We confirm our results on synthetic data and design a faster estimator.")
    assert not tldr_breaks("Our results show that maximization is an inappropriate decoding objective for text.")


def test_more_openings_name_the_problem_the_paper_is_about():
    from paperscope.enrich.acronyms import long_forms
    from paperscope.enrich.problem import opening_problem
    from paperscope.enrich.text import Doc

    def opening(text: str) -> str | None:
        doc = Doc.of(text)
        return opening_problem(doc, long_forms(doc.sentences))

    assert opening("We study the problem of online rank elicitation, where a learner queries pairs. We give an "
                   "algorithm for online rank elicitation with few queries. It is optimal.") == "online rank elicitation"
    assert opening("Unbiased Learning to Rank (ULTR) aims to train rankers from biased clicks. We show when Unbiased "
                   "Learning to Rank is identifiable. Ranking models then recover relevance.") == \
        "Unbiased Learning to Rank"
    assert opening("In the realm of electrical engineering, automation of analog circuit design is increasingly vital. "
                   "We propose a language model for automation of analog circuit design. It helps.") == \
        "automation of analog circuit design"


def test_a_cut_never_leaves_a_participle_waiting_and_yahoo_ends_no_sentence():
    from paperscope.enrich.standalone import lead_off, rewrite
    from paperscope.enrich.text import split_sentences
    text, _ = rewrite("This paper introduces Federated Prompt Tuning (FedPT), a framework designed to address these "
                      "challenges.")
    assert not text.endswith("designed.")
    assert len(split_sentences("We solve a revenue problem on the Yahoo! Front Page Today Module. It scales.")) == 2
    assert "back-reference" in tldr_breaks("We call the result a submodular field grammar (SFG).")


def test_this_paper_proposes_is_framed_by_the_problem_too():
    text = ("Sum-product networks are tractable probabilistic models. Learning sum-product networks is slow. This paper "
            "describes a new online structure learning technique for streaming data. It scales to millions of items.")
    assert tldr(text).startswith("For sum-product networks, this paper describes a new online structure learning")


def test_a_short_two_sentence_tldr_is_framed_when_neither_sentence_names_the_problem():
    text = ("Universal style transfer aims to render any image in any style. Style transfer is slow. We present a "
            "simple yet effective method. The key ingredient is a pair of feature transforms, whitening and coloring, "
            "inside an image reconstruction network. It needs no training per style.")
    assert tldr(text).startswith("For universal style transfer, we present a simple yet effective method. The key")


def test_a_purpose_that_points_back_comes_off_the_end_without_leaving_in_order():
    from paperscope.enrich.standalone import self_contained
    said = self_contained("In this work, we propose a new method that effectively combines the strengths of deep "
                          "learning with conditional mean embeddings in order to address these challenges.")
    assert said.endswith("with conditional mean embeddings.") and "in order" not in said


def test_a_cut_keeps_the_from_its_verb_needs_and_stark_contrast_comes_off():
    from paperscope.enrich.standalone import lead_off, self_contained
    said = self_contained("In this paper, we deviate from this line of work by conditioning the visual pipeline on "
                          "language from the start.")
    assert not said.endswith("we deviate.")
    assert lead_off("In stark contrast, our approach combines a non-Euclidean gradient method with "
                    "preconditioning.").startswith("Our approach combines")


def test_people_or_a_technology_are_no_problem_to_frame_a_tldr_with():
    from paperscope.enrich.problem import opening_problem
    from paperscope.enrich.text import Doc
    text = ("Medical researchers are coming to appreciate that many diseases are complex syndromes. Medical researchers "
            "study longitudinal records. In this paper, we focus on two questions. We propose the Disease Trajectory "
            "Map, a probabilistic model of sparse longitudinal data.")
    assert opening_problem(Doc.of(text), {}) is None
    assert not derive_facts(None, text)["tldr"].startswith("For medical researchers")


def test_a_sentence_cut_to_its_first_words_at_such_keeps_them_all():
    sentence = ("We introduce a novel method to systematically construct such benchmarks by maximizing compound "
                "divergence while guaranteeing a small atom divergence between train and test sets.")
    text, kept = rewrite(sentence)
    assert kept == 1.0 and text.startswith("We introduce a novel method to systematically construct benchmarks by")
    assert rewrite("We show that any such algorithm incurs constant regret.")[0] != \
        "We show that any algorithm incurs constant regret."  # "any such" is not "any"


def test_a_participle_waiting_for_its_list_dangles():
    assert "dangling" in label_breaks("SleepFM: large polysomnography dataset from 14,000 participants comprising")


def test_a_participle_leaning_on_the_work_before_comes_off_and_a_cut_never_ends_on_agnostic():
    text = ("Conformal prediction gives prediction sets with coverage guarantees. Full conditional coverage is "
            "impossible without assumptions. A line of work relaxes the conditional guarantee with fixed groups. "
            "Departing from this line of thinking, we propose Learned Group Conformal Prediction (LGCP), a framework "
            "that learns the groups on which coverage holds. We analyze LGCP and give finite sample guarantees.")
    assert derive_facts(None, text)["tldr"].startswith("We propose Learned Group Conformal Prediction (LGCP), a framework")
    text = ("We study the task of learning a value function in reinforcement learning. The usual approach keeps the "
            "parameters of an online and a target network equal. We propose Replicate-Ahead (RA), a new "
            "value-function approximation algorithm that is agnostic to this parameter-space equivalence. We show "
            "that RA converges in the function space.")
    tldr = derive_facts(None, text)["tldr"]
    assert "We propose Replicate-Ahead (RA)" in tldr and "agnostic." not in tldr


def test_a_short_tldr_goes_on_with_the_authors_next_sentence_but_not_with_background():
    text = ("Generalization bounds are a central tool of learning theory. We present a unified framework for deriving "
            "PAC-Bayesian generalization bounds. Our bounds are anytime-valid, meaning that they hold at all stopping "
            "times and not only for a fixed sample size. Experiments on synthetic data illustrate the bounds.")
    assert derive_facts(None, text)["tldr"] == (
        "We present a unified framework for deriving PAC-Bayesian generalization bounds. Our bounds are anytime-valid, "
        "meaning that they hold at all stopping times and not only for a fixed sample size.")
    text = ("Sound synthesis is old. We propose a text-to-audio generation method that drives a virtual synthesizer with "
            "few parameters. Synthesizers have long been used by skilled sound designers for media like music and film.")
    assert "Synthesizers have long been used" not in derive_facts(None, text)["tldr"]


def test_a_sentence_that_only_announces_the_contributions_is_never_the_tldr():
    text = ("Aligning language models with human preferences is a central problem. In this paper, our contribution is "
            "two-fold. We show the equivalence between two recent alignment methods, namely identity policy "
            "optimisation and mirror descent. We introduce a new algorithm that mixes the online and reference policy.")
    assert "two-fold" not in derive_facts(None, text)["tldr"]


def test_a_two_sentence_tldr_that_never_names_the_opening_problem_is_framed_with_it():
    text = ("Generative adversarial networks are powerful but their training often collapses onto a few modes of the "
            "data. Generative adversarial networks are used for images, audio and text. We study a principled approach "
            "to handling mode collapse, which we call packing. The main idea is to modify the discriminator to make "
            "decisions based on several samples drawn jointly from the same class rather than on a single sample at a "
            "time. We show that packing penalizes generators with mode collapse.")
    tldr = derive_facts(None, text)["tldr"]
    assert tldr.startswith("For generative adversarial networks, we study a principled approach") and tldr.count(". ") == 1


def test_a_sentence_cut_to_its_first_words_stands_whole_after_the_sentence_it_points_back_to():
    text = ("A large part of overfitting in model-free reinforcement learning comes from agents that tie reward to "
            "spurious features of what they observe. We provide a general framework for analyzing this scenario, "
            "which we use to design synthetic benchmarks that only modify the observation space. Our experiments "
            "expose intriguing properties of implicit regularization.")
    assert derive_facts(None, text)["tldr"] == (
        "A large part of overfitting in model-free reinforcement learning comes from agents that tie reward to "
        "spurious features of what they observe. We provide a general framework for analyzing this scenario, "
        "which we use to design synthetic benchmarks that only modify the observation space.")


def test_a_sentence_before_that_points_back_itself_is_no_antecedent():
    text = ("Speculative decoding is fast. Such decoders are brittle when the query distribution shifts. "
            "We introduce a general recipe for analyzing this failure, which we use to design adaptive drafts. "
            "Drafts are retrained online on the queries a deployed model receives.")
    assert not derive_facts(None, text)["tldr"].startswith("Such decoders")


def test_a_sentence_opening_on_and_loses_it_and_a_lost_name_breaks_the_rules():
    assert lead_off("And we propose end-to-end training algorithms for the network.") == \
        "We propose end-to-end training algorithms for the network."
    assert "back-reference" in tldr_breaks("We develop , a novel method based on upper confidence bounds.")


def test_studying_something_new_is_a_contribution_studying_a_new_problem_is_not():
    assert contributes("In this work, we study a novel convex estimator for generalized mixed regression.")
    assert not contributes("We study a novel problem at the intersection of bandits and outlier detection.")


def test_a_one_sentence_tldr_that_never_names_the_opening_topic_stands_after_it():
    text = ("Hyperspectral image super-resolution aims to fuse a low-resolution hyperspectral image with a "
            "high-resolution multispectral image. Earlier networks ignore the scales of the two images. "
            "We propose a multi-scale feature transfer network that learns features at several resolutions. "
            "Experiments on three datasets show gains over eight baselines.")
    facts = derive_facts(None, text)
    assert facts["tldr"] == ("Hyperspectral image super-resolution aims to fuse a low-resolution hyperspectral image "
                             "with a high-resolution multispectral image. We propose a multi-scale feature transfer "
                             "network that learns features at several resolutions.")
    said = ("We propose a multi-scale network that fuses a low-resolution hyperspectral image with a high-resolution "
            "multispectral image.")  # says most of the opening: it stands alone
    named = text.replace("We propose a multi-scale feature transfer network that learns features at several resolutions.", said)
    assert derive_facts(None, named)["tldr"] == said


def test_a_sentence_cut_short_at_a_trailing_reference_stands_whole_after_its_antecedent():
    text = ("Model-based value expansion is fragile because errors in a learned model compound over long rollouts "
            "and mislead the critic. We propose stochastic ensemble value expansion, a model-based technique that "
            "interpolates between rollout horizons of an ensemble of learned models in order to avoid this problem. "
            "It reaches the same returns as model-free methods with a tenth of the samples.")
    assert derive_facts(None, text)["tldr"] == (
        "Model-based value expansion is fragile because errors in a learned model compound over long rollouts and "
        "mislead the critic. We propose stochastic ensemble value expansion, a model-based technique that "
        "interpolates between rollout horizons of an ensemble of learned models in order to avoid this problem.")


def test_words_any_two_sentences_share_do_not_count_as_naming_the_topic():
    text = ("Artificial neural networks suffer from catastrophic forgetting when they are trained on several tasks "
            "in sequence. Replay buffers are a common remedy. We present a novel approach based on task-conditioned "
            "hypernetworks, networks that generate the weights of a target model from the task identity. "
            "Experiments show it retains accuracy on long task sequences.")
    assert derive_facts(None, text)["tldr"].startswith("Artificial neural networks suffer from catastrophic forgetting")


def test_an_example_sentence_loses_its_for_instance():
    from paperscope.enrich.standalone import strip_lead

    s = "For instance, we find that transformer decoders with few decoding steps push the limits only slightly."
    assert strip_lead(s) == s[len("For instance, "):]
    assert strip_lead("For example, consider a graph.") == "consider a graph."


def test_problems_drawn_from_github_issues_are_no_housekeeping():
    text = ("Language models have outpaced our ability to evaluate them effectively. We find real-world software "
            "engineering to be a rich testbed for evaluating language models. To this end, we introduce SWE-bench, an "
            "evaluation framework consisting of 2,294 software engineering problems drawn from real GitHub issues and "
            "corresponding pull requests. The best model solves 1.96% of the issues. Code is on GitHub at "
            "https://github.com/x/y.")
    assert "we introduce SWE-bench" in derive_facts(None, text)["tldr"].replace("We introduce", "we introduce")


def test_a_contrast_connective_is_taken_off_and_a_cut_never_ends_on_a_bare_verb():
    text = ("Aligning language models with human values relies on supervised fine-tuning on curated data. "
            "Conversely, this study proposes a novel alignment technique based on mistake analysis, which "
            "exposes language models to erroneous content to learn the reasons for mistakes.")
    tldr = derive_facts(None, text)["tldr"]
    assert "This study proposes a novel alignment technique" in tldr and "Conversely" not in tldr
    from paperscope.enrich.standalone import rewrite

    cut, _ = rewrite("In this paper, we leverage this insight to bound the risk of any weighted conformal method.")
    assert not cut.endswith("we leverage.")
    cut, _ = rewrite("We develop a mathematical framework for analyzing these models and their sampling schemes.")
    assert not cut.endswith("for analyzing.")


def test_an_escaped_percent_reads_as_a_percent():
    from paperscope.enrich.text import strip_markup

    assert strip_markup(r"adding just 3\% safety examples \& more") == "adding just 3% safety examples & more"


def test_a_list_cut_after_its_first_item_is_cut_and_to_address_them_points_at_nothing():
    assert "cut" in tldr_breaks("We build the KoLA benchmark, in which we design three crucial factors: (1) For ability "
                                "modeling, we mimic human cognition to form a taxonomy of abilities.")
    assert "cut" not in tldr_breaks("We design three factors: (1) ability modeling, (2) known and evolving data, and "
                                    "(3) a contrastive evaluation system.")
    assert "cut" not in tldr_breaks("We improve the complexity of maximum inner product search from O(√d) to O(1).")
    text, _ = rewrite("We introduce an improved method: Random Truncated Backpropagation Through Time (RaT-BPTT) "
                      "to address them.")
    assert text.endswith("(RaT-BPTT).")


def test_a_word_split_by_a_line_break_is_joined_and_a_suspended_hyphen_stays():
    from paperscope.enrich.text import Doc

    doc = Doc.of("We study in-context learning. In- context learning of automata uses neural net- works. "
                 "Networks of this kind go from high- to low-level features with a text- to-speech model.")
    assert "In-context learning of automata uses neural networks." in doc.sentences
    assert "high- to low-level" in doc.text and "text-to-speech" in doc.text
    assert "ubiq- uitous" in Doc.of("It is ubiq- uitous.").text  # no spelling elsewhere to say which


def test_a_sentence_opening_on_emphasis_is_its_own_sentence_and_an_announced_list_is_never_cut_short():
    from paperscope.enrich.text import split_sentences, strip_markup
    from paperscope.enrich.tldr import shorten

    parts = split_sentences("Foundation models grew fast. **In this position paper, we argue for open-endedness.** "
                            "It supports three desiderata: 1. *Intrinsic control.* A bound holds.")
    assert [strip_markup(p) for p in parts][1] == "In this position paper, we argue for open-endedness."
    assert parts[2].startswith("It supports three desiderata: 1. *Intrinsic")
    long = ("We present Q-Bench, a holistic benchmark crafted to systematically evaluate potential abilities of "
            "multi-modality large language models on three realms: low-level visual perception, low-level visual "
            "description, and overall visual quality assessment. a) To evaluate the low-level perception ability, "
            "we construct the LLVisionQA dataset of 2,990 images, each with a question on its low-level attributes.")
    assert shorten(long, 400).endswith("low-level visual description, and overall visual quality assessment.")


def test_what_moved_the_authors_comes_off_and_an_answer_needs_its_question():
    assert lead_off("These observations motivate us to propose ADDP for recognition and generation.") == \
        "We propose ADDP for recognition and generation."
    assert lead_off("This insight led us to design a sampler.") == "We design a sampler."
    assert "back-reference" in tldr_breaks("We show that the answer is yes, but the increase depends on the "
                                           "amount of intermediate generation.")
    assert "back-reference" in tldr_breaks("We answer in the affirmative for SOR, a standard solver.")
    assert "back-reference" not in tldr_breaks("We ask: do generative models used in manifold-based defenses "
                                               "need to be topology-aware? We show the answer is yes.")


def test_a_short_tldr_goes_on_with_the_sentence_its_method_name_opens():
    text = ("While instruction-tuned language models generalize well, they struggle with unseen tasks. "
            "This paper presents Instructive Decoding (ID), a simple yet effective approach that augments the "
            "efficacy of instruction-tuned models. Specifically, ID adjusts the logits for next-token prediction "
            "in a contrastive manner, using predictions from a noisy version of the instruction. "
            "Our approach achieves considerable gains across models and tasks.")
    assert "ID adjusts the logits" in derive_facts(None, text)["tldr"]
    text = ("We propose a technique for declaratively specifying strategies for semi-supervised learning (SSL). "
            "SSL methods based on different assumptions perform differently on different tasks. "
            "SSL is hard to apply in practice. Our technique lets users state assumptions as logical rules.")
    assert "SSL methods based on" not in derive_facts(None, text)["tldr"]


def test_overcoming_the_challenges_says_nothing_until_they_are_named():
    text, _ = rewrite("We circumvent the challenges by converting regression to a classification problem.")
    assert text == "We convert regression to a classification problem."
    assert "back-reference" in tldr_breaks("We present HOMER, a training-free scheme designed to overcome the "
                                           "limitations.")
    assert "back-reference" not in tldr_breaks("We present HOMER, a training-free scheme designed to overcome the "
                                               "limitations of context length in large language models.")


def test_an_aside_between_dashes_comes_off_whole_and_a_lost_name_breaks_the_tldr():
    assert lead_off("Inspired by selective attention in humans—the process through which people filter their "
                    "perception based on their experiences, knowledge, and the task at hand—we introduce a "
                    "parameter-efficient approach to filter visual stimuli.") == \
        "We introduce a parameter-efficient approach to filter visual stimuli."
    assert "back-reference" in tldr_breaks("We propose a novel merging algorithm for sparse mixtures of experts, "
                                           "i.e., , which leverages routing statistics to guide expert merging.")
    assert not tldr_breaks("We propose a mixture of receptive fields with different sizes, e.g., convolutions "
                           "with different kernel sizes, for image classification.")


def test_a_promised_analysis_goes_on_with_its_first_finding_and_in_this_paper_is_said_once():
    text = ("In this paper, we provide a rigorous theoretical study of clustering with noisy queries. Given a set of "
            "n elements, our goal is to recover the true clustering by asking a minimum number of pairwise queries to "
            "an oracle whose answers can be erroneous. In this paper, we provide the first information theoretic "
            "lower bound on the number of queries for clustering with a noisy oracle in both situations. We design "
            "novel algorithms that closely match this query complexity lower bound.")
    tldr = derive_facts(None, text)["tldr"]
    assert "lower bound" in tldr and tldr.count("In this paper") <= 1, tldr


def test_both_properties_the_previous_problem_and_our_claims_point_back():
    for text in ("We show that both properties are strongly correlated with transferability and propose CWA to "
                 "promote these two properties.",
                 "We revisit the SRV evaluation, currently the only feasible method to alleviate the previous problem.",
                 "We perform analysis on language models trained on TinyStories to support our claims."):
        assert "back-reference" in tldr_breaks(text), text
    assert not tldr_breaks("We show that flatness and closeness are both properties of good minima.")


def test_an_opening_clause_with_a_comma_inside_comes_off_and_closing_remarks_and_the_question_say_nothing():
    assert lead_off("To learn to explore in complex, high-dimensional environments, we propose a novel RL "
                    "objective.") == "We propose a novel RL objective."
    assert lead_off("In that regard, we propose a novel measure.") == "We propose a novel measure."
    text, _ = rewrite("In this paper, we address the question by studying the necessity of high-pass information.")
    assert text == "We study the necessity of high-pass information."
    assert "back-reference" in tldr_breaks("We call the new method TPL. TPL outperforms strong baselines.")
    assert "back-reference" in tldr_breaks("We propose to tackle the research question from the perspective of "
                                           "detection difficulty.")
    assert "back-reference" not in tldr_breaks("We study the question of whether transformers can count.")
    assert "thin" in tldr_breaks("In this paper, we propose a new direction.")
    text = ("Time series are hard to reconstruct. An interpretable sparse system identification method that needs "
            "no training through back-propagation is proposed in this study. It integrates knowledge-based and "
            "data-driven approaches. This study may shed some light onto the realm of time series reconstruction.")
    assert "shed some light" not in derive_facts(None, text)["tldr"]


def test_position_indices_make_no_position_paper_and_display_mathematics_makes_no_tldr():
    from paperscope.enrich.position import is_position

    pose = ("Large language models are trained with a fixed context size. We believe that extending it cheaply "
            "matters, and propose Positional Skip-wise training (PoSE), which manipulates the position indices "
            "within a fixed context window, and adjusts the position indices of each chunk. Experiments show it "
            "extends LLaMA to 128k tokens.")
    assert not is_position(pose)
    text = ("We revisit the complexity of quantum PAC learning. We show that with a natural extension of the "
            "definition of quantum PAC learning, we can achieve a generic advantage in quantum learning. To be "
            "precise, for any concept class of VC dimension d, we show there is a quantum PAC learner with sample "
            "complexity \\[O\\left(\\frac{1}{\\sqrt{\\epsilon}}\\right). \\]{Up} to polylogarithmic factors.")
    assert "\\[" not in derive_facts(None, text)["tldr"]


def test_our_approach_opening_a_tldr_points_at_nothing_and_a_direction_that_vs_x_is_ving_x():
    from paperscope.enrich.compose import unframed

    assert "back-reference" in tldr_breaks("Our approach employs two key techniques: targeted structured pruning and "
                                           "dynamic batch loading.")
    assert unframed("Direction that leverages constrained decoding for label projection") == \
        "Leveraging constrained decoding for label projection"


def test_a_short_tldr_goes_on_when_the_next_sentence_says_what_the_new_thing_is():
    text = ("Comparing predicted and target meshes remains an open problem. To address this, we propose a novel metric "
            "for learning mesh deformation. The metric is a sliced Wasserstein distance between meshes seen as "
            "probability measures. Experiments on shape datasets show gains.")
    assert tldr(text) == ("We propose a novel metric for learning mesh deformation. The metric is a sliced Wasserstein "
                          "distance between meshes seen as probability measures.")
    announced = ("Reasoning benchmarks are saturated. We introduce MuSR, a dataset for evaluating language models on "
                 "multistep soft reasoning. This dataset has two crucial features. Experiments show gaps.")
    assert not tldr(announced).endswith("two crucial features.")


def test_after_that_and_more_particularly_are_connectives_a_tldr_drops():
    assert lead_off("After that, we propose a unified framework.") == "We propose a unified framework."
    assert lead_off("More particularly, we present a robust optimizer.") == "We present a robust optimizer."


def test_an_abbreviation_inside_the_papers_own_short_form_is_written_out_without_a_second_parenthesis():
    text = ("Embedding-based entity alignment (EEA) links graphs. Existing EEA methods "
            "cannot synthesize new entities. We introduce a generative EEA (GEEA) framework built on a mutual "
            "variational autoencoder that converts entities between graphs and generates new ones.")
    out = tldr(text)
    assert "a generative embedding-based entity alignment (GEEA) framework" in out and "(EEA)" not in out, out
    aside = ("Large language models (LLMs) follow instructions. We filter training data with a strong LLM (e.g., a "
             "chat model) and train Alpacino on the 9k examples that remain, which beats the model trained on all data.")
    assert "LLM (e.g., a chat model)" in tldr(aside)


def test_a_sentence_that_only_names_the_method_goes_on_with_what_the_method_does():
    text = ("Long convolutions are slow on accelerators. In this paper, we study how to speed them up. We find two "
            "bottlenecks in the transform. In response, we propose FlashConv. FlashConv uses a matrix decomposition "
            "that computes the transform with matrix multiply units and fuses kernels for long sequences. FlashConv "
            "is up to 8 times faster.")
    assert tldr(text) == ("We propose FlashConv. FlashConv uses a matrix decomposition that computes the transform "
                          "with matrix multiply units and fuses kernels for long sequences.")


def test_a_third_option_points_back_at_two_the_tldr_does_not_give():
    assert "back-reference" in tldr_breaks("We introduce RA-X, a lightweight tuning method that provides a third "
                                          "option by retrofitting any language model with retrieval.")


def test_a_dash_aside_never_closed_and_a_naming_sentence_that_points_back_break_a_tldr():
    assert "cut" in tldr_breaks("We find that — after finetuning them on data from psychological experiments.")
    assert "cut" not in tldr_breaks("We propose GenZ — a generative prompting framework for zero-shot classification.")
    assert "back-reference" in tldr_breaks("We call our scheme WRP, wide reduced-precision networks.")
    doc_dashes = ("We study pure private learning in the agnostic model -- a framework that reflects practice. We give an "
                  "algorithm with a nearly tight user complexity for learning thresholds.")
    assert " -- " not in tldr(doc_dashes)


def test_a_bare_tldr_goes_on_with_the_next_sentence_that_says_what_the_authors_do():
    text = ("Generative flow networks need a reward to train. We introduce a novel approach for reward-free pre-training "
            "of generative flow networks. By framing the training as a self-supervised problem, we propose an "
            "outcome-conditioned network that learns to explore the candidate space. Experiments confirm this.")
    assert tldr(text).startswith("We introduce a novel approach for reward-free pre-training of generative flow "
                                 "networks. By framing the training as a self-supervised problem, we propose")


def test_in_this_direction_is_a_connective_a_tldr_drops():
    assert lead_off("In this direction, this work shows that first-order methods learn shared representations.") == \
        "This work shows that first-order methods learn shared representations."


def test_a_first_step_a_new_direction_a_different_approach_and_put_another_way_lean_on_what_is_not_said():
    for text in ("This paper takes the first step. We prove that low-rank adapters can represent any smaller model.",
                 "In this paper, we propose a new direction. We show how recurrent models approach Transformers.",
                 "In this paper, we take a different approach, focusing on geometric information from complexes.",
                 "We substantiate our theoretical claims with experiments on six datasets."):
        assert "back-reference" in tldr_breaks(text), text
    assert "back-reference" not in tldr_breaks("We take a different approach by constructing light models in a cascade.")
    assert lead_off("Put another way, tuned models are not robust to rephrasings.") == \
        "Tuned models are not robust to rephrasings."


def test_a_pronoun_a_few_words_in_with_nothing_before_it_points_back():
    assert "back-reference" in tldr_breaks("We carefully study to what extent they can retain interpretable properties.")
    assert "back-reference" not in tldr_breaks("We show that when models grow, their errors shrink on held-out data.")


def test_a_list_numbered_1_without_its_2_is_cut():
    assert "cut" in tldr_breaks("We propose FedX. FedX is divided into two steps: 1) utilizing the training data.")
    assert "cut" not in tldr_breaks("We propose FedX in two steps: 1) we find signatures; 2) we remove shortcuts.")



def test_a_bare_contribution_goes_on_with_how_even_when_that_sentence_must_be_cut():
    from paperscope.enrich.text import Doc
    from paperscope.enrich.tldr import _with_next
    from paperscope.enrich.tldr_score import features
    doc = Doc.of("We study bandits whose feedback is only the best arm. "
                 "We propose an algorithm and derive a regret bound for instances where arm outcomes follow "
                 "distributions with finite supports. "
                 "Our algorithm introduces a novel concept of biased arm replacement that swaps a suspected arm for a "
                 "fresh one whenever the reported index stays unchanged for many rounds in order to cope with the weak "
                 "feedback, and it achieves a distribution-dependent regret bound of O((k/Δ) log T) and a "
                 "distribution-independent regret bound of O(√T). "
                 "Experiments confirm the analysis.")
    first = doc.sentences[1]
    got = _with_next(doc, 1, features(doc, []), first, [])
    assert got.startswith(first + " Our algorithm introduces a novel concept of biased arm replacement")
    assert len(got) <= MAX_CHARS and tldr_breaks(got) == []


def test_a_short_contribution_goes_on_with_a_sentence_that_says_by_what_means_but_not_with_experiments():
    text = ("Graph clustering is a basic problem in machine learning. "
            "We present a novel model that combines spectral embeddings of the nodes with learnable hyperbolic partition "
            "trees. "
            "By minimizing a differentiable structural entropy, we build the optimal partition tree in which densely "
            "connected nodes share an assignment. Our experiments on five graphs show large gains.")
    got = tldr(text)
    assert got.endswith("we present a novel model that combines spectral embeddings of the nodes with learnable hyperbolic "
                        "partition trees. "
                        "By minimizing a differentiable structural entropy, we build the optimal partition tree in which "
                        "densely connected nodes share an assignment.")
    other = text.replace("By minimizing a differentiable structural entropy, we build the optimal partition tree in "
                         "which densely connected nodes share an assignment.",
                         "Through extensive experiments on five graphs, we show that it beats all baselines.")
    assert "Through extensive experiments" not in tldr(other)


def test_a_long_one_sentence_tldr_still_gets_the_topic_the_abstract_opens_on():
    text = ("Most work on video understanding trains on short clips and rarely models dependencies across minutes of "
            "footage. In this paper, we propose Noise Robust Temporal Optimal Transport (NORTOT) that addresses "
            "multi-granularity noisy correspondence between long recordings and their captions within a single "
            "unified optimal transport framework. Experiments on retrieval and question answering show clear gains.")
    got = tldr(text)
    assert got.startswith("Most work on video understanding trains on short clips")
    assert got.endswith("within a single unified optimal transport framework.") and len(got) <= MAX_CHARS


def test_a_tldr_that_shares_a_couple_of_words_with_the_opening_still_gets_its_topic():
    text = ("Autonomous agents built on pre-trained language models now generalize well on simulated benchmarks of web "
            "tasks. We introduce WebPilot, an agent that learns from its own experience to complete tasks on real "
            "websites following natural language instructions. Experiments on real websites show that WebPilot "
            "raises the success rate by over 50 percent.")
    assert tldr(text).startswith("Autonomous agents built on pre-trained language models now generalize well")


def test_a_long_sentence_is_never_cut_before_the_last_item_of_a_list():
    from paperscope.enrich.tldr import shorten
    text = ("Our model embeds a conditional diffusion model within a language model architecture, orchestrating a "
            "sequence of vision models for several symbolic steps, which span region identification, style transfer, "
            "and position manipulation, facilitating transparent and controllable image translation processes.")
    got = shorten(text, 280)
    assert "style transfer." not in got
    assert got == ("Our model embeds a conditional diffusion model within a language model architecture, orchestrating "
                   "a sequence of vision models for several symbolic steps.")
    clause = ("We propose a new method for sparse regression with heavy-tailed noise, and it achieves the best regret "
              "bound known so far in all of the settings we consider, which is remarkable for so simple a method.")
    assert shorten(clause, 120) == "We propose a new method for sparse regression with heavy-tailed noise."


def test_a_contribution_that_only_praises_its_method_goes_on_with_what_the_method_does():
    text = ("Optimal transport between two distributions has been used to build generative models in many ways. "
            "We suggest a simple but novel method that improves the best-performing transport-based model. "
            "Intuitively, our approach conducts a gradual refinement of the generated distribution, progressively "
            "aligning it with the data distribution. Our approach reaches an FID of 2.51 on CIFAR-10.")
    got = tldr(text)
    assert "We suggest a simple but novel method" in got or "we suggest a simple but novel method" in got
    assert got.endswith("Intuitively, our approach conducts a gradual refinement of the generated distribution, "
                        "progressively aligning it with the data distribution.")
    background = text.replace("Intuitively, our approach conducts", "In general, earlier models conduct")
    assert "earlier models" not in tldr(background)  # background is not what the method does


def test_a_connective_that_points_at_an_earlier_list_comes_off():
    assert lead_off("For the first, we introduce VQ-TR, which maps sequences to codes.") == \
        "We introduce VQ-TR, which maps sequences to codes."
    assert lead_off("On the positive side, we provide a tight query complexity bound.") == \
        "We provide a tight query complexity bound."
    assert lead_off("As a by-product, we give convergence guarantees.") == "We give convergence guarantees."
    assert lead_off("For the first time, we show that X holds.") == "For the first time, we show that X holds."


def test_a_short_tldr_that_names_its_method_goes_on_where_the_abstract_says_how_the_method_works():
    text = ("In this paper, we introduce FROSTER, an effective framework for open-vocabulary action recognition. "
            "The CLIP model has achieved remarkable success in a range of image-based tasks. "
            "However, applying CLIP directly to action recognition is challenging due to the absence of temporal "
            "information in its pretraining. "
            "To address these issues, FROSTER employs a residual feature distillation approach to ensure that CLIP "
            "retains its generalization capability while adapting to the action recognition task. "
            "Experiments on five benchmarks show state-of-the-art results.")
    got = tldr(text)
    assert got.startswith("In this paper, we introduce FROSTER, an effective framework for open-vocabulary action "
                          "recognition. FROSTER employs a residual feature distillation approach")


def test_a_first_sentence_contribution_goes_on_with_how_after_a_leading_clause():
    text = ("We introduce Text2Reward, a data-free framework that automates the generation of dense reward functions "
            "with large language models. "
            "Given a goal described in natural language, Text2Reward generates shaped dense reward functions as an "
            "executable program grounded in a compact representation of the environment. "
            "Experiments on two robotic benchmarks show large gains.")
    assert tldr(text).endswith("Given a goal described in natural language, Text2Reward generates shaped dense reward "
                               "functions as an executable program grounded in a compact representation of the "
                               "environment.")


def test_a_sentence_that_only_announces_a_list_never_ends_a_tldr():
    from paperscope.enrich.tldr import _joined
    first = "In this work, we introduce the first diffusion model able to reconstruct and generate real-world 3D scenes."
    assert _joined(first, "We make three contributions.") is None
    assert _joined(first, "Our approach incorporates two essential innovations.") is None
    assert _joined(first, "It reconstructs a scene from a few images in seconds.") is not None


def test_a_short_first_sentence_goes_on_with_a_sentence_about_the_contribution_not_about_earlier_work():
    text = ("We introduce Lagrangian Flow Networks (LFlows) for modeling fluid densities and velocities continuously "
            "in space and time. By construction, the proposed LFlows satisfy the continuity equation, a PDE describing "
            "mass conservation in its differential form. Experiments on two datasets confirm it.")
    assert tldr(text).endswith("By construction, the proposed LFlows satisfy the continuity equation, a PDE describing "
                               "mass conservation in its differential form.")
    earlier = text.replace("By construction, the proposed LFlows satisfy", "Previous methods for this problem satisfy")
    assert "Previous methods" not in tldr(earlier)


def test_a_contribution_that_speaks_of_what_only_the_opening_introduces_gets_the_opening_not_the_next_sentence():
    text = ("Diffusion models generate samples by reversing a noising process whose variance schedule is fixed by hand. "
            "We learn the schedule jointly with the denoiser by differentiating the sampling loss through the noise "
            "levels. We then apply it to deblurring and inpainting with a single network. Experiments show gains.")
    got = tldr(text)
    assert got.startswith("Diffusion models generate samples by reversing a noising process whose variance schedule")
    assert got.endswith("We learn the schedule jointly with the denoiser by differentiating the sampling loss through "
                        "the noise levels.")


def test_a_longer_first_sentence_goes_on_only_with_a_sentence_about_the_contribution():
    first = ("In this paper, we introduce Depth-muP, a principled approach for depth scaling, allowing for the training "
             "of arbitrarily deep architectures while maximizing feature learning and diversity among nearby layers.")
    assert 180 <= len(first) < 260
    ours = first + (" Our method involves dividing the contribution of each residual block and the parameter update by "
                    "the square root of the depth. Experiments confirm the theory.")
    assert tldr(ours).endswith("Our method involves dividing the contribution of each residual block and the parameter "
                               "update by the square root of the depth.")
    others = first + (" Previous methods scale depth by tuning the learning rate of every layer by hand for each new "
                      "architecture. Experiments confirm the theory.")
    assert tldr(others) == first


def test_a_theory_paper_that_states_its_problem_goes_on_with_its_main_result_not_its_assumptions():
    text = ("We study the problem of learning hierarchical polynomials over the standard Gaussian distribution with "
            "three-layer neural networks. We specifically consider target functions of the form h = g(p(x)) where p is "
            "a degree k polynomial. This function class generalizes the single-index model. Our main result shows that "
            "a three-layer network trained by layerwise gradient descent learns the target in O(d^k) samples.")
    got = tldr(text)
    assert got.startswith("We study the problem of learning hierarchical polynomials")
    assert "Our main result shows that a three-layer network trained by layerwise gradient descent" in got
    assert "We specifically consider" not in got
    empirical = text.replace("Our main result shows that", "Our experiments show that")
    assert "Our experiments show" not in tldr(empirical)


def test_a_technique_only_named_goes_on_with_what_the_approach_does():
    text = ("Multi-task learning aims to let one model tackle many tasks at once. Merging fine-tuned models often "
            "degrades every task. This paper introduces an innovative technique called Adaptive Model Merging "
            "(AdaMerging). This approach learns the coefficients for model merging task-wise or layer-wise without "
            "the original training data. Experiments on eight tasks show large gains.")
    assert tldr(text) == ("This paper introduces an innovative technique called Adaptive Model Merging (AdaMerging). "
                          "This approach learns the coefficients for model merging task-wise or layer-wise without "
                          "the original training data.")


def test_a_contribution_that_points_back_stands_after_the_sentence_it_points_to():
    text = ("Policy gradient methods hold great potential for solving complex continuous control tasks. "
            "Still, their training efficiency can be improved. "
            "Recent work indicates that supervised learning can be accelerated because gradients lie in a "
            "low-dimensional and slowly-changing subspace. In this paper, we conduct a thorough evaluation of this "
            "phenomenon for two popular deep policy gradient methods on simulated benchmark tasks.")
    assert tldr(text) == ("Recent work indicates that supervised learning can be accelerated because gradients lie in a "
                          "low-dimensional and slowly-changing subspace. In this paper, we conduct a thorough evaluation "
                          "of this phenomenon for two popular deep policy gradient methods on simulated benchmark tasks.")


def test_a_long_sentence_ends_before_an_in_which_clause():
    from paperscope.enrich.tldr import shorten
    long = ("In this paper, we propose Diffusion-TS, a novel diffusion-based framework that generates multivariate time "
            "series samples of high quality by using an encoder-decoder transformer with disentangled temporal "
            "representations, in which the decomposition technique guides Diffusion-TS to capture the semantic meaning "
            "of time series while transformers mine detailed sequential information from the noisy model input.")
    assert shorten(long, 400).endswith("with disentangled temporal representations.")



def test_an_authors_initial_ends_no_sentence():
    from paperscope.enrich.text import split_sentences
    text = ("We train linear Transformers to solve regression tasks, inspired by J. von Oswald et al. (ICML 2023), "
            "and K. Ahn et al. (NeurIPS 2023). However, we find the solution. It works.")
    assert split_sentences(text)[0].endswith("and K. Ahn et al. (NeurIPS 2023).")
    assert split_sentences("We bound the error over the set S. We show it.") == \
        ["We bound the error over the set S.", "We show it."]


def test_a_circled_number_starts_a_sentence_and_is_not_shown():
    from paperscope.enrich.text import split_sentences
    text = ("We ask in which space graphs should be diffused. ❶ We motivate the study with an analysis of bounds. "
            "❷ Guided by it, we propose to diffuse graphs in a learned latent space.")
    assert split_sentences(text) == ["We ask in which space graphs should be diffused.",
                                     "We motivate the study with an analysis of bounds.",
                                     "Guided by it, we propose to diffuse graphs in a learned latent space."]


def test_a_report_on_our_approach_does_not_stand_for_the_approach():
    text = ("Grounding the reasoning of language models in physical domains remains an unsolved problem for robots. "
            "Whereas prior works have used language models directly for planning in symbolic spaces, this work uses "
            "language models to guide the search of task constraints implicit in multi-step demonstrations. "
            "Specifically, we borrow the concept of mode families from manipulation planning. "
            "We show our approach improves the interpretability of imitation learning on navigation and manipulation.")
    assert "this work uses language models to guide the search" in tldr(text)
    assert "We show our approach" not in tldr(text)


def test_a_study_goes_on_with_its_key_result_that_points_back_at_it():
    text = ("In this paper, we investigate the behavior of gradient descent algorithms in physics-informed machine "
            "learning methods like PINNs, which minimize residuals connected to partial differential equations. "
            "Our key result is that the difficulty in training these models is closely related to the conditioning "
            "of a specific differential operator. If this operator is ill-conditioned, training is slow. "
            "We evaluate several strategies empirically.")
    assert tldr(text).endswith("Our key result is that the difficulty in training these models is closely related "
                               "to the conditioning of a specific differential operator.")


def test_a_study_goes_on_with_its_finding_past_400_characters():
    text = ("We rigorously study the joint evolution of training dynamics via stochastic gradient descent and the "
            "spectra of empirical Hessian and gradient matrices. We prove that in two "
            "canonical classification tasks for multi-class high-dimensional mixtures and either one or two-layer "
            "neural networks, the trajectory of stochastic gradient descent rapidly aligns with emerging low-rank "
            "outlier eigenspaces of the Hessian and gradient matrices. We also report numerical studies.")
    out = tldr(text)
    assert out.startswith("We rigorously study") and "rapidly aligns with emerging low-rank outlier eigenspaces" in out
    assert 400 < len(out) <= MAX_CHARS


def test_a_study_goes_on_with_what_its_results_show():
    text = ("This paper addresses the problem of early stopping for gradient boosting on tabular data, where a model "
            "must decide when further trees stop helping. We focus on validation-free criteria, which decide from "
            "the training data alone without holding any of it out. We survey twelve criteria from earlier work. "
            "Our results show that a simple criterion based on the margins of the training examples matches "
            "held-out validation on forty public datasets.")
    out = tldr(text)
    assert out.startswith("This paper addresses the problem of early stopping for gradient boosting")
    assert out.endswith("Our results show that a simple criterion based on the margins of the training examples "
                        "matches held-out validation on forty public datasets.")


def test_a_short_contribution_that_points_back_keeps_the_sentence_it_points_at():
    text = ("Recovering a cost function from expert trajectories needs many trajectories. Even with plenty of data, "
            "current inverse optimal control methods that learn from a single fixed world can fail to cope with small "
            "changes in its physics. We tackle these challenges through adaptive world design. In our framework, the "
            "learner repeatedly chooses worlds for the expert to act in, so as to identify the cost as fast as possible. "
            "This improves both sample efficiency and robustness, as we show experimentally.")
    assert tldr(text) == ("Even with plenty of data, current inverse optimal control methods that learn from a single "
                          "fixed world can fail to cope with small changes in its physics. We tackle these challenges "
                          "through adaptive world design.")


def test_a_name_an_earlier_sentence_introduces_is_undefined_in_a_tldr_without_it():
    doc = Doc.of("Training physics-informed networks with Balanced Point Sampling (BPS) needs many points of several "
                 "kinds. This work introduces BALLAST, an algorithm that picks all kinds of training points jointly. "
                 "We show that the criterion used by BALLAST bounds the generalization error.")
    shown = "We show that the criterion used by BALLAST bounds the generalization error."
    assert undefined_name(doc, 2, shown, ["BALLAST"])
    assert not undefined_name(doc, 1, doc.sentences[1], ["BALLAST"])  # the sentence that introduces it
    assert not undefined_name(doc, 2, "We propose BALLAST, which picks points. " + shown, ["BALLAST"])
    assert not undefined_name(doc, 2, "Point selection (BALLAST) picks points. " + shown, ["BALLAST"])
    assert not undefined_name(doc, 2, "We show that BPS needs more points.", ["BPS"])  # spelled out wherever shown


def test_what_the_results_showed_is_a_finding_of_a_study_but_a_method_beating_baselines_is_not():
    from paperscope.enrich.tldr_score import THEORY_CLAIM

    assert THEORY_CLAIM.match("Our empirical results, supported by a theoretical analysis, showed that the group "
                              "needed to be three times larger.")
    assert THEORY_CLAIM.match("Our key observation is that whether tasks are aligned decides transfer.")
    assert not THEORY_CLAIM.match("Our experimental results demonstrate the effectiveness of the proposed algorithms.")
    assert not THEORY_CLAIM.match("Our results show that they are responsible for most of the gain.")


def test_this_problem_is_said_by_the_name_the_abstract_defines_it_with():
    from paperscope.enrich.standalone import resolved

    defined = "Learning from Label Proportions (LLP) is a learning problem where only bag-level labels are seen."
    assert resolved("We propose a framework for this problem that iterates two steps.", [defined]) == \
        "We propose a framework for Learning from Label Proportions (LLP) that iterates two steps."
    assert resolved("We formalize this task in causal language.",
                    ["Counterfactual image editing is a challenging task within generative AI."]) == \
        "We formalize counterfactual image editing in causal language."
    assert "for This" not in resolved("We focus on streaming for this problem.", ["This is a natural clustering problem."])
