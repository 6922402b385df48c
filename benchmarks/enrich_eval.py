"""Quality of the derived facts on the hand-labelled set tests/data/enrich_eval.jsonl.

Reports precision/recall of `methods` and accuracy of `paper_type` for
  - samples:       the 95 abstracts of the five bundled example lists (used while developing),
  - icml_heldout:  45 randomly drawn ICML 2024 posters, labelled before any tuning and scored
                   once the extractor was written (title-less, and with the real title); its
                   errors were then studied and fixed, so it is no longer unseen,
  - icml_heldout2: 40 more random posters, labelled after that and scored once, untouched,
next to two baselines run in the same pass: "every acronym defined in parentheses" for methods
and "always `method`" for the paper type. Also prints ten labels and TL;DRs of title-less
sample papers side by side with their real ICML titles.

    .venv/bin/python benchmarks/enrich_eval.py       -> benchmarks/results/enrich_eval.json
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", ROOT.parent / "shared" / "corpora"))
LABELS = ROOT / "tests" / "data" / "enrich_eval.jsonl"
SAMPLES = ROOT / "examples" / "lists"
OUT = ROOT / "benchmarks" / "results" / "enrich_eval.json"


def acronym_baseline(title, abstract):
    """Every short form defined in parentheses, whoever introduced it; always `method`."""
    from paperscope.enrich.acronyms import definitions
    from paperscope.enrich.text import Doc

    doc = Doc.of(abstract)
    names = [d.short for s in doc.sentences for d in definitions(s)]
    return {"methods": list(dict.fromkeys(names)), "paper_type": "method"}


def examples(icml: dict, n: int = 10) -> list[dict]:
    """Labels and TL;DRs of title-less sample abstracts whose real title is known."""
    from paperscope.enrich import derive_facts
    from paperscope.enrich.evaluation import sample_abstracts

    samples = sample_abstracts(SAMPLES)
    known = [(key, abstract) for key, abstract in samples.items() if key in icml]
    step = max(1, len(known) // n)
    out = []
    for key, abstract in known[::step][:n]:
        facts = derive_facts(None, abstract)
        out.append({"real_title": icml[key][0], "label": facts["label"], "tldr": facts["tldr"],
                    "methods": facts["methods"], "paper_type": facts["paper_type"]})
    return out


def main() -> int:
    from paperscope.enrich import derive_facts
    from paperscope.enrich.evaluation import (attach_abstracts, icml_abstracts, load_labels,
                                              sample_abstracts, score)

    icml = icml_abstracts(CORPORA) if (CORPORA / "icml2024_events").is_dir() else None
    papers = attach_abstracts(load_labels(LABELS), sample_abstracts(SAMPLES), icml)
    splits = {
        "samples": [p for p in papers if p.split == "samples"],
        "icml_heldout": [p for p in papers if p.split == "icml_heldout"],
        "icml_heldout2": [p for p in papers if p.split == "icml_heldout2"],
        "all": papers,
    }
    result: dict = {"labelled_papers": len(papers), "splits": {}}
    rows = []
    for name, group in splits.items():
        if not group:
            continue
        ours = score(group, derive_facts)
        base = score(group, acronym_baseline)
        entry = {"title_less": ours.as_dict(), "baseline": base.as_dict(),
                 "errors": ours.errors}
        rows.append((name, "enrich (title-less)", ours))
        if name.startswith("icml"):
            titled = score(group, derive_facts, use_titles=True)
            entry["with_titles"] = titled.as_dict()
            rows.append((name, "enrich (with title)", titled))
        rows.append((name, "baseline", base))
        result["splits"][name] = entry
    if icml:
        result["examples"] = examples(icml)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")

    print(f"{'split':<14}{'system':<22}{'papers':>7}{'P':>7}{'R':>7}{'F1':>7}{'type acc':>10}")
    for split, system, s in rows:
        print(f"{split:<14}{system:<22}{s.papers:>7}{s.precision:>7.3f}{s.recall:>7.3f}"
              f"{s.f1:>7.3f}{s.type_accuracy:>10.3f}")
    for ex in result.get("examples", []):
        print(f"\n  title: {ex['real_title']}\n  label: {ex['label']}\n  tldr:  {ex['tldr']}")
    print(f"\nwrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
