"""Cue phrases that signal a name being introduced: intro verbs with their subject ("we
propose", "this paper introduces"), "called/named/namely", "our model, X", relative-clause
blockers, claims ("X outperforms"), and token shapes that are never names (model families,
math). Used by methods.py and describe.py; MAIN_CONTRIBUTION and DESCRIBE also by headline.py and
tldr.py, RESULTS and RESULTS_START (experiments, not the contribution) by tldr.py."""
from __future__ import annotations

import re

# "The main contribution of this paper is X": the contribution said by name (headline.py, tldr.py)
MAIN_CONTRIBUTION = r"\bthe (?:main|key|primary|central) contributions? of (?:this|our|the) (?:paper|work) (?:is|are)"
# "We describe a/an/the X": what the authors make, said plainly (headline.py, tldr.py)
DESCRIBE = r"\b(?:we|this (?:paper|work)) (?:\w+ly |also |first )?describes? (?=(?:an?|the) )"
# experiments and their results, not the contribution (tldr.py): a sentence opening on them, or saying them
RESULTS_START = re.compile(r"(?:extensive|empirical|experimental|numerical|finally|furthermore|"
                            r"moreover|the resulting|the proposed)\b|"
                            r"(?:we|our \w+) (?:\w+ )?(?:test|evaluate|validate|verify|benchmark|conduct|"
                            r"perform|run|compare|experiment)\w*\b|we (?:\w+ly )?(?:demonstrate|show|"
                            r"verify|confirm|illustrate) (?:the |that (?:the|our) )?(?:ability|effectiveness|"
                            r"efficacy|superiority|performance|benefits?|advantages?|merits?|proposed|"
                            r"presented)\b|we (?:quantitatively|qualitatively|empirically|experimentally|"
                            r"numerically) ", re.I)
RESULTS = re.compile(r"\bwe (?:\w+ly )?(?:illustrate|demonstrate|show|verify|confirm|validate) the (?:efficacy|"
                      r"effectiveness|superiority|benefits?|merits?) of (?:our|the proposed)\b|"
                      r"\b(?:experiments?|empirical(?:ly)?|results?|evaluations?) "
                      r"(?:on|show|demonstrate|indicate|confirm|validate|verify|suggest)\w*\b|"
                      r"\bwe (?:also )?(?:provide|give|present) "
                      r"(?:an? )?(?:\w+ )?(?:analys[ie]s|experiments|evaluations?|comparisons?|ablations?)\b",
                      re.I)
SUBJECT = r"(?:\bwe|\bby|\bto|\bpaper|\bwork|\bstudy|\barticle|\band|\balso|\bfurther|\bthen|\bfirst|" \
           r"\bhere|\bherein|\bhereby|\btherefore|\bnow|\bthus|\bfinally|\badditionally|\bnext|\w+ly|,)"
VERB = (r"(?:propose[sd]?|proposing|introduce[sd]?|introducing|present(?:s|ed)?|develop(?:s|ed)?|"
        r"design(?:s|ed)?|devise[sd]?|build(?:s)?|built|construct(?:s|ed)?|establish(?:es|ed)?|"
        r"create[sd]?|release[sd]?|derive[sd]?|formulate[sd]?|put forward|offer(?:s|ed)?|"
        r"give[sn]?|gave|provide[sd]?|curate[sd]?|collect(?:s|ed)?|train and release)")
VERB_RX = re.compile(r"\b" + VERB + r"\b", re.I)
SUBJECT_BEFORE = re.compile(SUBJECT + r"\s+$", re.I)


class Intro:
    """Intro verbs with the subject in front ("we propose", "this paper introduces",
    "and present"): found by locating the verb first, then checking the word before it."""

    @staticmethod
    def finditer(sentence: str):
        for m in VERB_RX.finditer(sentence):
            if SUBJECT_BEFORE.search(sentence[max(0, m.start() - 24):m.start()]):
                yield m


INTRO = Intro()
RESULT = re.compile(r"\b(?:resulting in|results in|leading to|leads to|yields?|yielding|"
                    r"giving rise to|which we call|that we call|we call|we term|we name|we dub)\b",
                    re.I)
CALLED = re.compile(r"(?<!commonly )(?<!often )(?<!also )(?<!usually )(?<!widely )\b(?:called|"
                    r"named|dubbed|termed|coined|denoted|namely|referred to|tagged|refer(?:red)? as)\s+(?:as\s+)?", re.I)
OUR_KIND = (r"(?:model|method|approach|framework|algorithm|system|architecture|benchmark|"
            r"dataset|agent|tool|toolkit|library|platform|pipeline|technique|estimator|layer|"
            r"network|procedure|protocol|suite|solver|optimizer|module|language|strategy|defense|attack|sampler|"
            r"metric|measure|regularizer|corpus|simulator|planner|controller|detector|mechanism|scheme|paradigm)s?")
# "We address these limitations with ClimODE, a ...": the name the authors answer a problem with
ANSWERED_WITH = re.compile(r"\b(?:we|this paper) (?:address|tackle|overcome|remedy|solve|fix)(?:es|s|ed)? (?:[\w-]+ ){1,4}?"
                           r"with\s+(?=\S*[A-Z])", re.I)
# "a novel generative model, RGBD-GAN, which", "This new method, DeepPINK", "The proposed DifNet consistently"
NEW_KIND_NAME = re.compile(r"\b(?:(?:a|an) (?:new|novel)|[Tt]his (?:new|novel)) (?:[\w\-]+ ){0,3}?" + OUR_KIND + r",\s+(?=\S*[A-Z])|"
                           r"\b[Tt]he (?:proposed|resulting) (?=(?:[A-Z]\S*[A-Z]|[A-Z][a-z]+[A-Z])\S*\s+(?:\w+ly\s+)?"
                           r"(?:[a-z]+[^s\W]s|is|are|was|can|has)\b)")  # "The proposed DifNet consistently produces"
OUR_NAME = re.compile(r"\b(?:[Oo]ur|[Tt]he (?:proposed|resulting|resulted|presented|new|final)) "
                      r"(?:[\w\-]+ ){0,3}?" + OUR_KIND + r"(?:,|:)?\s+(?=\S*[A-Z])")
OUR_NAME_BEFORE = re.compile(r"\b(?:[Oo]ur|[Tt]he proposed|[Tt]he resulting) "
                             r"(?=(\S+) " + OUR_KIND + r"\b)")
CLAIM = re.compile(r"^\s+(?:\w+ly\s+)?(?:outperforms|surpasses|achieves|attains|demonstrates|"
                   r"enables|allows|improves|delivers|yields|reduces|reaches|matches|exceeds|"
                   r"establishes|sets|obtains|excels|beats|shows|exhibits|provides|offers|"
                   r"significantly|consistently)\b")
LIST = re.compile(r"\b(?:[Tt]he (?:presented|proposed|introduced|resulting|new)|[Oo]ur) "
                  r"(?:[\w\-]+ ){0,4}" + OUR_KIND + r" include[sd]?,?(?: among others,)?\s+")
APPOS_KIND = re.compile(
    r"^\s*,\s+(?:a|an|the first|the|our)\s+(?:[\w\-]+\s+){0,6}?(?:" + OUR_KIND + r"|"
    r"decompositions?|extensions?|variants?|criteri(?:on|a)|regularizers?|loss(?:es)?|"
    r"objectives?|metrics?|mechanisms?|schemes?|operators?|polic(?:y|ies)|samplers?|encoders?|"
    r"decoders?|transformers?|famil(?:y|ies)|series|collections?|corpus|environments?|"
    r"simulators?|scores?|tests?|formulations?|parametri[sz]ations?|generators?|planners?|"
    r"retrievers?|prompting|recipes?)\b", re.I)
BUILT_ON = re.compile(r"\b(?:upon|on top of|build on|builds on|extends?|extending|following|"
                      r"follow|like|such as|compared|than|baselines?|existing|prior|previous|"
                      r"popular|standard|classical|conventional|traditional)\b[^.]{0,40}$", re.I)
CENTRAL = re.compile(r"\b(?:[Cc]entral to|[Aa]t the (?:core|heart) of|[Kk]ey to) "
                     r"our \w+ (?:is|are)\s+")
COMPONENT = re.compile(r"(?:^|, )([Ii]t|[Oo]ur \w+|[Tt]he proposed \w+|\S+)\s+(?:\w+\s+)?"
                       r"(?:comprises|consists of|contains|includes|is composed of|is made of|"
                       r"has (?:two|three|four) )")
BLOCKERS = re.compile(
    r"\b(?:that|which|who|whose|where|when|while|using|uses?|leverag\w*|based on|via|such as|"
    r"like|including|includes|inspired by|compared|than|over|against|unlike|instead of|"
    r"rather than|harness\w*|exploit\w*|employ\w*|utiliz\w*|for|to|by|from|under|on|in|"
    r"between|among|e\.g\.|i\.e\.|existing|prior|previous|popular|standard|classical|"
    r"conventional|traditional|vanilla|original)\b", re.I)
PRIOR_CONTEXT = re.compile(r"\b(?:popular|existing|prior|previous|classical|conventional|"
                           r"traditional|widely[- ]used|well[- ]known|known as|such as)\b", re.I)
PROBLEM_AFTER = re.compile(r"^\s*(?:problems?|settings?|tasks?|paradigms?|phenomen\w+|"
                           r"assumptions?|conditions?|scenarios?|regimes?)\b", re.I)
# "the problem of denoising hand-object interactions (HOI)": a short form of the problem studied
PROBLEM_BEFORE = re.compile(r"\b(?:problem|task|challenge)s? of\s+(?:[\w-]+\s+){0,6}$", re.I)
CONNECT = {"of", "for", "with", "and", "the", "to", "in", "on", "via", "from", "a"}
FOLLOW_OK = re.compile(r"^(?:\s*[,.;:(]|\s*$|\s+(?:which|that|to|for|as|and|with|in|on|is|are|"
                       r"can|achieves|outperforms|[-–—]))")
MODEL_FAMILY = re.compile(
    r"(?i)(?:llama|gpt|vicuna|mistral|mixtral|qwen|claude|gemini|gemma|palm|opt|bloom|pythia|"
    r"falcon|t5|bert|roberta|clip|vit|resnet|codellama|starcoder|deepseek|phi|yi|olmo|"
    r"stable-?diffusion|sdxl|dall-e|whisper|alpaca)[-_ ]?v?\d[\w.\-]*$")
MATH_TOKEN = re.compile(r"(?:log|exp|poly|sin|cos|max|min|arg|det|tr)[A-Z0-9]")
SUBJECT_TOKEN = re.compile(r"(?:^|(?:that|,)\s+)([A-Za-z0-9][\w\-^+.]*[\w^+])(?=\s)")
