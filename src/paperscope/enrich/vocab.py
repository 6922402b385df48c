"""Curated word lists: names a paper uses but does not introduce, English stopwords, and
academic filler words. Keys are compared through `text.name_key` (case-folded, plural-free)."""
from __future__ import annotations

from .text import name_key

# Acronyms and names of the field that papers use all the time; never reported as a paper's
# own method, whatever pattern they appear in.
_COMMON_ACRONYMS = """
AI AGI ML DL NLP CV RL DRL MARL IRL IL BC LLM MLLM VLM LM PLM SLM NN DNN CNN RNN GNN MLP LSTM
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

STOPWORDS = frozenset("""
a about above across after again against all almost along also although always am among an
and another any are around as at be because been before being below between both but by can
cannot could did do does doing done down due during each either else enough especially even
ever every few for from further given had has have having he her here hers him his how however
i if in into is it its itself just least less let like made make makes many may me might more
most much must my neither no nor not now of off often on once one only onto or other others
otherwise our ours out over own per perhaps quite rather re same several shall she should
since so some such than that the their theirs them themselves then there thereby therefore
these they this those though through thus to too toward towards under unless until up upon
us very via was we were what whatever when whenever where whereas whether which while who
whom whose why will with within without would yet you your i.e e.g et al etc vs using
called named termed dubbed namely behind beyond despite versus whereby
""".split())

# Academic filler: words that say nothing about a paper's topic on their own.
GENERIC_WORDS = frozenset("""
paper papers work works study studies approach approaches method methods methodology model
models framework frameworks technique techniques algorithm algorithms result results
performance propose proposes proposed present presents presented introduce introduces
introduced show shows shown demonstrate demonstrates demonstrated novel new existing previous
prior recent recently state art state-of-the-art sota baseline baselines experiment experiments
experimental empirical empirically extensive evaluation evaluations evaluate evaluated
task tasks problem problems issue issues challenge challenges challenging setting settings
scenario scenarios way ways use used uses using based various different diverse several
significant significantly effective effectiveness efficient efficiency improve improves improved
improvement improvements achieve achieves achieved outperform outperforms superior better best
high low large small key important crucial major main common general specific particular
real real-world world practical practice applications application domain domains field fields
number set sets form forms type types case cases order terms term range wide variety level
levels aspect aspects analysis analyze analyse provide provides providing develop developed
design designed enable enables enabling allow allows first second third finally furthermore
moreover additionally however thus therefore hence specifically particular particularly
capability capabilities ability abilities potential insight insights understanding lead leads
leading fail fails remain remains remaining consider considered address addresses addressing
aim aims goal goals need needs require requires required gap gaps limitation limitations
code available publicly github https http com www data dataset datasets benchmark benchmarks
extensive comprehensive simple simply strong stronger robust robustness widely typically
often usually generally commonly highly well great greatly substantial substantially
overall across existing prior related respect respectively current currently standard
propose novel approach achieve state-of-the-art art demonstrate including include includes
one two three four five six many much more most less fewer lot thereby via due able
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
