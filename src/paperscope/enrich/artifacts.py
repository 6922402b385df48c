"""Benchmarks and datasets a paper names: a curated gazetteer of well-known ones plus patterns
for the rest ("on the X benchmark", "a dataset named X", "X, the first benchmark ...")."""
from __future__ import annotations

import re

from .text import Doc, clean_token, is_capitalised, is_coined, name_key
from .vocab import COMMON_CAPITALISED, STOP_NAMES

# One entry per artifact: a display name and, when the name has spelling variants, a regex.
# Names are matched case-sensitively on word boundaries.
_GAZETTEER: list[tuple[str, str | None]] = [
    # vision
    ("ImageNet", r"ImageNet(?:-(?:1[Kk]|21[Kk]|100|C|R|A|V2|Sketch))?"), ("Tiny ImageNet", None),
    ("miniImageNet", r"mini-?ImageNet"), ("tieredImageNet", r"tiered-?ImageNet"),
    ("CIFAR-10", r"CIFAR-?10(?:-C)?(?!\d)"), ("CIFAR-100", r"CIFAR-?100(?:-C)?"),
    ("MNIST", r"(?:Fashion-|Rotated |Colored |E)?MNIST"), ("SVHN", None), ("STL-10", r"STL-?10"),
    ("CelebA", r"CelebA(?:-HQ)?"), ("FFHQ", None), ("LSUN", None), ("MS COCO", r"(?:MS[- ]?)?COCO"),
    ("Pascal VOC", r"(?:PASCAL|Pascal) VOC"), ("ADE20K", None), ("Cityscapes", None),
    ("KITTI", None), ("nuScenes", None), ("Waymo Open", r"Waymo(?: Open(?: Dataset)?)?"),
    ("ShapeNet", None), ("ModelNet40", r"ModelNet-?40"), ("ScanNet", None), ("Objaverse", None),
    ("Places365", None), ("iNaturalist", None), ("DomainNet", None), ("Office-Home", None),
    ("Office-31", None), ("PACS", None), ("VLCS", None), ("WILDS", None), ("Camelyon17", None),
    ("Waterbirds", None), ("CUB-200", r"CUB(?:-200(?:-2011)?)?"), ("Caltech-101", r"Caltech-?101"),
    ("Oxford Flowers", r"(?:Oxford )?Flowers-?102"), ("Food-101", None), ("Omniglot", None),
    ("CLEVR", None), ("LAION", r"LAION(?:-\d+[MB])?"), ("CC3M", None), ("CC12M", None),
    ("Flickr30k", r"Flickr30[Kk]"), ("Kinetics", r"Kinetics(?:-\d+)?"), ("UCF101", r"UCF-?101"),
    ("HMDB51", None), ("Something-Something", r"Something-Something(?: ?V2)?"), ("LVIS", None),
    ("VTAB", None), ("Meta-Dataset", None), ("CheXpert", None), ("MIMIC", r"MIMIC(?:-III|-IV|-CXR)?"),
    ("BraTS", None), ("Human3.6M", None), ("HumanML3D", None), ("AMASS", None),
    # language
    ("GLUE", None), ("SuperGLUE", None), ("SQuAD", r"SQuAD(?: ?v?2(?:\.0)?)?"), ("MMLU", None),
    ("GSM8K", r"GSM8[Kk]"), ("MATH", r"MATH(?= (?:dataset|benchmark))"), ("HumanEval", None),
    ("MBPP", None), ("BIG-Bench", r"BIG-?[Bb]ench(?: Hard)?"), ("HellaSwag", None),
    ("WinoGrande", None), ("PIQA", None), ("BoolQ", None), ("ARC", r"ARC(?:-Challenge|-Easy)?"),
    ("TruthfulQA", None), ("NaturalQuestions", r"Natural ?Questions"), ("TriviaQA", None),
    ("HotpotQA", None), ("MS MARCO", r"MS ?MARCO"), ("BEIR", None), ("WikiText-103",
    r"Wiki[Tt]ext(?:-?103|-2)?b?"), ("Penn Treebank", None), ("C4", None), ("The Pile", None),
    ("RedPajama", None), ("SlimPajama", None), ("FineWeb", None), ("OpenWebText", None),
    ("AlpacaEval", None), ("MT-Bench", None), ("Chatbot Arena", None), ("SST-2", None),
    ("IMDB", None), ("AG News", None), ("MultiNLI", r"Multi-?NLI|MNLI"), ("SNLI", None),
    ("CivilComments", None), ("LAMBADA", None), ("APPS", None), ("CodeContests", None),
    ("SWE-bench", None), ("Spider", r"Spider(?= (?:dataset|benchmark))"), ("WMT", r"WMT(?:'?\d\d)?"),
    ("IWSLT", r"IWSLT(?:'?\d\d)?"), ("FActScore", None), ("AdvBench", None), ("HarmBench", None),
    ("LongBench", None), ("MMMU", None), ("MathVista", None), ("ScienceQA", None), ("VQAv2", None),
    ("TextVQA", None), ("ChartQA", None), ("DocVQA", None), ("POPE", None),
    ("RealToxicityPrompts", None), ("HH-RLHF", None), ("UltraChat", None), ("ShareGPT", None),
    # speech and audio
    ("LibriSpeech", None), ("AudioSet", None), ("VCTK", None), ("MusicCaps", None),
    # reinforcement learning and robotics
    ("Atari 100k", r"Atari[- ]100[Kk]"), ("Atari", r"Atari(?: 2600)?(?! 100)"), ("MuJoCo", None),
    ("D4RL", None), ("DSRL", None), ("Procgen", None), ("MiniGrid", None), ("BabyAI", None),
    ("DeepMind Control Suite", r"DeepMind Control(?: Suite)?|DMControl|DMC(?= (?:suite|tasks))"),
    ("Meta-World", r"Meta-?World"), ("ALFRED", None), ("ALFWorld", None), ("WebShop", None),
    ("Habitat", None), ("NetHack", None), ("Crafter", None), ("SMAC", r"SMAC(?:v2)?"),
    ("MineRL", None), ("OpenAI Gym", r"(?:OpenAI )?Gym(?:nasium)?(?= )"), ("RLBench", None),
    ("CALVIN", None), ("Long-Range Arena", r"Long[- ]Range Arena|LRA"), ("Minecraft", None),
    # graphs, science, tabular, time series
    ("OGB", r"OGB(?:-LSC)?|ogbn-\w+|ogbg-\w+"), ("Cora", None), ("Citeseer", r"Cite[Ss]eer"),
    ("QM9", r"(?:GEOM-)?QM9"), ("GEOM-Drugs", None), ("ZINC", None), ("MD17", r"(?:r)?MD17"),
    ("OC20", None), ("PDBBind", r"PDB[Bb]ind"), ("CATH", r"CATH(?: \d\.\d)?"),
    ("MoleculeNet", None), ("Tox21", None), ("PDEBench", None), ("ERA5", None),
    ("WeatherBench", None), ("ETT", r"ETT(?:h1|h2|m1|m2)?"), ("M4", None), ("UCI", None),
    ("OpenML", None), ("MovieLens", r"MovieLens(?:-\d+[MK])?"), ("Criteo", None),
    ("ProteinGym", None), ("TabZilla", None), ("N-Body", r"N-[Bb]ody(?= (?:dynamics|dataset|task))"),
]



def _needle(disp: str, rx: str | None) -> str:
    """A lower-case literal every match of the entry contains ('' when there is none), so
    that most entries are skipped by a substring test before any regex runs."""
    if rx is None:
        return disp.lower()
    if re.search(r"(?<!\\)\|", re.sub(r"\([^()]*\)", "", rx)):
        return ""  # top-level alternatives
    core = rx
    while True:
        stripped = re.sub(r"\((?:\?:)?[^()]*\)[?*]", "", core)
        stripped = re.sub(r"\(\?[=!<][^()]*\)", "", stripped)
        if stripped == core:
            break
        core = stripped
    core = re.sub(r"\\[dwsb]|\[[^\]]*\]|.\?", " ", core)
    runs = re.findall(r"[A-Za-z0-9]+", core)
    needle = max(runs, key=len).lower() if runs else ""
    if needle not in disp.lower():  # a literal from a lookahead: use the display name instead
        needle = max(re.findall(r"[A-Za-z0-9]+", disp), key=len).lower()
    return needle


_ENTRIES = [(disp, _needle(disp, rx),
             re.compile(r"(?<![\w-])(?:" + (rx or re.escape(disp)) + r")(?![\w])"))
            for disp, rx in _GAZETTEER]
KNOWN_KEYS = frozenset(name_key(d) for d, _ in _GAZETTEER)

_KIND = r"(?:benchmarks?|datasets?|data ?sets?|suites?|corpus|corpora|environments?|testbeds?|" \
        r"leaderboards?|challenges?|collections?)"
_NAME = r"([A-Z][\w\-.^]{0,60}(?:\s+[A-Z0-9][\w\-.^]{0,60}){0,2})"  # bounded: linear on any text
_PATTERNS = [
    # on the X benchmark / on X datasets / the X and Y benchmarks
    re.compile(r"\b(?:on|in|using|from|with|of|across)\s+(?:the\s+)?(?:popular\s+|standard\s+|"
               r"challenging\s+|large-scale\s+|public\s+|widely[- ]used\s+)?" + _NAME +
               r"(?:\s*(?:,|and)\s*" + _NAME + r")?\s+" + _KIND + r"\b"),
    # a dataset named X / benchmark called X
    re.compile(_KIND + r"\s*,?\s+(?:called|named|dubbed|termed|coined)\s+(?:as\s+)?" + _NAME),
    # X, a/the first ... benchmark|dataset
    re.compile(_NAME + r",\s+(?:a|an|the first|the)\s+(?:[\w\-]+\s+){0,6}?" + _KIND + r"\b"),
]


def _acceptable(name: str) -> bool:
    name = clean_token(name)
    first = name.split()[0]
    if first.casefold() in COMMON_CAPITALISED or name_key(name) in STOP_NAMES:
        return False
    return is_coined(first) or (is_capitalised(first) and len(name.split()) <= 3)


def find_artifacts(doc: Doc, known: bool = True) -> list[str]:
    """Benchmark and dataset names in an abstract, in order of first mention."""
    found: dict[str, tuple[int, str]] = {}
    text = doc.text

    def add(name: str, at: int) -> None:
        name = clean_token(name).strip()
        key = name_key(name)
        if key and key not in found:
            found[key] = (at, name)

    if known:
        lower = text.lower()
        hits = []
        for disp, needle, rx in _ENTRIES:
            if needle and needle not in lower:
                continue
            hits.extend((m.start(), m.group(0), disp) for m in rx.finditer(text))
        for at, variant, disp in sorted(hits):
            add(variant if name_key(variant) != name_key(disp) and len(variant) > 2 else disp, at)
    known_names = [name for _, name in found.values()]
    for rx in _PATTERNS:
        for m in rx.finditer(text):
            for g in range(1, (rx.groups or 0) + 1):
                name = m.group(g)
                if not name:
                    continue
                toks = name.split()  # "Procgen RL benchmarks": the field word is not the name
                while len(toks) > 1 and name_key(toks[-1]) in STOP_NAMES:
                    toks.pop()
                name = " ".join(toks)
                if any(name == k or name.startswith(k + " ") for k in known_names):
                    continue
                if _acceptable(name):
                    add(name, m.start(g))
    return [name for _, name in sorted(found.values())]
