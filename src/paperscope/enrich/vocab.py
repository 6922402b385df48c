"""Curated word lists of the enrich modules: names a paper uses but does not introduce,
capitalised English words that are never names, and verbs that end a phrase. Keys are compared
through `text.name_key` (case-folded, plural-free). Stop words and filler words are shared by
every part: `paperscope.words`."""
from __future__ import annotations

import re

from .text import name_key

# Acronyms and names of the field that papers use all the time; never reported as a paper's
# own method, whatever pattern they appear in.
_COMMON_ACRONYMS = """
USD EUR GPU CPU TPU LfD LfO ILfO AI AGI ML DL NLP CV RL DRL MARL IRL IL BC LLM MLLM VLM LM PLM SLM NN DNN CNN RNN GNN MLP LSTM
GRU GAN VAE AE SAE EBM NF CNF ODE SDE PDE NODE SNN SSM GCN GAT GIN MPNN WL 1-WL 2-WL k-WL DAG SEM
SCM MDP POMDP PAC NTK GP BO MPC PID KL JS MMD OT EMD PCA ICA SVD SVM KNN k-NN kNN LDA CRF HMM EM
MLE MAP ELBO MCMC HMC SGLD SGD ASGD GD Adam AdamW RMSProp SAM KD FL PFL OOD IID i.i.d IND ID SOTA
QA VQA NLI NER MT ASR TTS OCR MoE RAG CoT ICL RLHF RLAIF DPO PPO TRPO SAC DQN DDQN DDPG TD3 TD
A2C A3C MCTS LoRA QLoRA PEFT PTQ QAT FID BLEU ROUGE METEOR WER CER FPR TPR FDR AUC AUROC ROC
MSE RMSE MAE CE BCE NLL IoU mAP AP FLOP FLOPs GPU TPU CPU API SQL JSON CSV HTML ZO FO CTC SNR STL
DT MTL FM DM DDPM DDIM SGM VP VE NeRF 3DGS LiDAR RGB RGB-D IMU EEG fMRI MRI CT ECG DNA RNA
INT8 INT4 FP16 FP32 FP8 BF16 ReLU GELU SiLU Swish GLU SwiGLU ViT ViTs CLIP BLIP DINO DINOv2 MAE
BERT RoBERTa ALBERT DeBERTa ELECTRA T5 BART GPT GPT-2 GPT-3 GPT-3.5 GPT-4 GPT-4V GPT-4o ChatGPT
InstructGPT LLaMA LLaMA-2 LLaMA2 Llama-2 Llama-3 Llama Vicuna Alpaca Mistral Mixtral Falcon PaLM
Gemini Claude Qwen OPT BLOOM Pythia Phi-2 CodeLlama StarCoder Codex Whisper Wav2Vec HuBERT
AlphaFold ESM ESM-2 ResNet ResNets ResNet-18 ResNet-50 VGG AlexNet DenseNet EfficientNet MobileNet
ConvNeXt ConvNeXT U-Net UNet Swin DeiT DETR YOLO SAM Mamba S4 RWKV Transformer Transformers
MLP-Mixer GFlowNet GFlowNets DALL-E Imagen SDXL LDM StyleGAN BigGAN PixelCNN WaveNet NeRFs
SMOTE XGBoost LightGBM CatBoost TabPFN AutoML NAS HPO MAML ProtoNet SimCLR MoCo BYOL SwAV
CPC InfoNCE TF-IDF BM25 PageRank ADMM FISTA ISTA LBFGS L-BFGS BFGS KFAC K-FAC Shampoo
UCB LinUCB TS EXP3 MAB CMAB CBwK MAB RKHS NP NP-hard P PSPACE LP QP SDP MILP ILP SAT SMT
CPU-GPU GDPR EU US UK USA COVID COVID-19 IEEE ACM ICML ICLR NeurIPS CVPR ACL EMNLP AAAI
SOTA-level LLMs DNNs CNNs RNNs GNNs SNNs VLMs LMs MLPs GANs VAEs ODEs SDEs PDEs SSMs MDPs SCMs
CVaR VaR SHAP LIME Grad-CAM GradCAM ERM IRM DRO SWA EMA BN LN FedAvg FedProx PINN PINNs CP ECE
KDE GMM RBF HSIC CKA SVGD VI SVI ANN HNSW FAISS TV TVD WGAN CVAE ViT-B ViT-L IG
XAI MIA FC MIL SSL MIM MLM UDA DG DA CL TTA LTA NVS TTE KG KGs CF BNN BNNs OPE MBRL ODQA VLN MOO DMs SMoE SMoEs EF TT
""".split()

# Benchmarks and datasets are artifacts (artifacts.py), not methods, unless a paper names a
# new one (then a strong pattern such as "a dataset named X" reports it).
STOP_NAMES = frozenset(name_key(w) for w in _COMMON_ACRONYMS)

# Capitalised English words that start sentences or titles; never a name on their own.
COMMON_CAPITALISED = frozenset(w.casefold() for w in """
We Our This These That Those The A An In On For With To From By As At Of And Or But However
Moreover Furthermore Additionally Finally First Second Third Then Here There It Its They
Experiments Experimental Results Extensive Empirical Empirically Theoretically Specifically
Position Survey Review Tutorial Perspective Overview Introduction Towards Toward Beyond
Learning Neural Deep Efficient Fast Scalable Robust Towards Rethinking Revisiting Understanding
Improving Benchmarking Evaluating Learning Training Generalization Large Small Simple Novel
New General Universal Unified Adaptive Optimal Provable Practical Bayesian Gaussian Markov
Monte Carlo Euclidean Riemannian Hilbert Lipschitz Wasserstein Langevin Fourier Laplace
Newton Hessian Jacobian Boltzmann Shapley Nash Bellman Kalman Gibbs Metropolis Hastings Bernoulli
Poisson Dirichlet Lagrangian Hamiltonian Stackelberg Pareto Turing Python Java GitHub Github
""".split())

# Verbs (and verb forms) that end a keyphrase candidate: "assess LLM responses" -> "LLM responses".
VERBS = frozenset("""
is are was were be been being become becomes became can could may might will would should must
do does did has have had show shows showed shown demonstrate demonstrates demonstrated prove
proves proved propose proposes introduce introduces present presents develop develops use uses
used apply applies applied achieve achieves achieved improve improves improved reduce reduces
reduced enable enables enabled allow allows allowed learn learns learned generate generates
generated find finds found leverage leverages leveraged fill fills cover covers scale scales
recover recovers recovered inspire inspires inspired enhance enhances enhancing enhanced obtain
obtains obtained provide provides provided require requires required make makes made take takes
took give gives gave get gets got consider considers considered study studies studied analyze
analyzes analyse analyses explore explores explored investigate investigates investigated
address addresses addressed tackle tackles tackled solve solves solved remain remains remained
lead leads led outperform outperforms outperformed surpass surpasses exhibit exhibits exhibited
yield yields yielded perform performs performed evaluate evaluates evaluated assess assesses
assessed compare compares compared capture captures captured suffer suffers suffered rely
relies relied aim aims aimed seek seeks sought fail fails failed emerge emerges emerged help
helps helped support supports supported result results resulted arise arises arose hold holds
held match matches matched guarantee guarantees establish establishes established identify
identifies identified reveal reveals revealed observe observes observed suggest suggests
suggested argue argues argued design designs designed train trains trained sample samples
boost boosts boosted mitigate mitigates mitigated alleviate alleviates alleviated incur incurs
incurred attain attains attained ensure ensures ensured preserve preserves preserved compute
computes computed adopt adopts adopted involve involves involved
""".split())

# words that end an adjective more often than a noun, and the nouns among them
ADJ_END = re.compile(r"(?:al|ive|ous|ic|ible|able|ful|less|ary|ent|ant)$")
ADJ_NOUNS = frozenset("""
retrieval signal interval potential proposal tutorial removal trial journal animal arrival
survival approval rehearsal manual individual material terminal principal chemical objective
alternative derivative primitive incentive perspective initiative narrative representative
topic logic metric heuristic music traffic graphic mechanic critic clinic epidemic
variable table cable label vulnerable agent gradient component student patient client
environment element segment experiment argument document instrument treatment assessment
management alignment movement embedment improvement statement equipment investment content
event intent extent constant variant descent ascent parent percent talent tenant
participant assistant quadrant dictionary vocabulary boundary summary library binary memory
statistic characteristic arithmetic deferral rodent adversary commentary glossary coefficient opponent
ingredient incident determinant
""".split())


# adjectives without an adjective's ending ("extracts precise"), and a count or scale in front of
# a noun ("for two-component", "using a multi-stage"): modifiers still waiting for their noun
_PLAIN_ADJECTIVES = frozenset("precise sparse dense diverse concise intricate adequate "
                              "appropriate standard smooth pre-trained pretrained large-scale small-scale real-world "
                              "state-of-the-art off-the-shelf fine-grained coarse-grained simple large small high low "
                              "wide big tiny largest smallest strong weak shallow hard soft fast slow rich".split())
_COUNTED = re.compile(r"(?:one|two|three|four|five|six|multi|single|dual|many|few)-[a-z]+(?<!s)")


METHOD_KINDS = frozenset("method approach technique framework algorithm scheme strategy solution procedure".split())


def kind_named(word: str, before: set[str]) -> bool:
    """Is `word` a kind of method ("approach") and one named among `before` (words cut to five letters,
    "techn")? Authors call one method a technique, then an approach."""
    return word.lower() in METHOD_KINDS and any(k[:5] in before for k in METHOD_KINDS)


def is_modifier(word: str) -> bool:
    """A lower-case word that ends an adjective more often than a noun ("non-stationary",
    "expressible", "inherent", "two-component"): a phrase or a sentence cannot stop on it."""
    low = word.rsplit("-", 1)[-1]
    if not word.islower():
        return False
    if low in _PLAIN_ADJECTIVES or word in _PLAIN_ADJECTIVES or _COUNTED.fullmatch(word):
        return True
    return bool(ADJ_END.search(low)) and low not in ADJ_NOUNS and \
        not low.endswith(("ment", "gradient", "descent"))  # "subgradient", "gradientdescent"
