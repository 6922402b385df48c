"""How long `derive_facts` takes for the 2,634 ICML 2024 posters, on one core.

Target (issue 4): facts for 2,634 papers in under 30 s. Measures wall-clock and CPU time of
the whole pass, title-less and with titles (CPU time is the one-core cost; wall time grows
when other processes share the cores, see `load_avg_1min`), and the time per enrich stage (methods, TL;DR,
label, links, paper type, keyphrases, artifacts), and one huge abstract (200 KB, 1 MB) in two
shapes. The plain-text rendering of the abstracts (done at ingest, not by enrich) is prepared
beforehand and not timed.

    .venv/bin/python benchmarks/enrich_speed.py      -> benchmarks/results/enrich_speed.json
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
CORPORA = Path(os.environ.get("PAPERSCOPE_CORPORA", ROOT.parent / "shared" / "corpora"))
OUT = ROOT / "benchmarks" / "results" / "enrich_speed.json"
TARGET_S = 30.0


def load_icml() -> list[tuple[str, str]]:
    from paperscope.model import clean_text, latex_to_plain

    path = CORPORA / "icml2024_events" / "icml2024_events.json"
    events = json.loads(path.read_text("utf-8"))
    return [(latex_to_plain(clean_text(e["name"])), latex_to_plain(clean_text(e["abstract"])))
            for e in events if e.get("type") == "Poster" and e.get("abstract")]


def whole_pass(papers, with_titles: bool) -> dict[str, float]:
    from paperscope.enrich import derive_facts

    wall, cpu = time.perf_counter(), time.process_time()
    for title, abstract in papers:
        derive_facts(title if with_titles else None, abstract)
    return {"wall_s": round(time.perf_counter() - wall, 2),
            "cpu_s": round(time.process_time() - cpu, 2)}


def stage_breakdown(papers) -> dict[str, float]:
    """CPU milliseconds per paper spent in each stage (title-less)."""
    from paperscope.enrich.artifacts import find_artifacts
    from paperscope.enrich.keyphrases import keyphrases
    from paperscope.enrich.label import make_label
    from paperscope.enrich.links import find_links
    from paperscope.enrich.methods import find_mentions
    from paperscope.enrich.paper_type import classify
    from paperscope.enrich.text import Doc
    from paperscope.enrich.tldr import best_sentence

    spent: dict[str, float] = {}

    def timed(stage, fn):
        t = time.process_time()
        out = fn()
        spent[stage] = spent.get(stage, 0.0) + time.process_time() - t
        return out

    for _, abstract in papers:
        doc = timed("sentences", lambda: Doc.of(abstract))
        timed("sentences", lambda: (doc.sentences, doc.tokens, doc.own_start))
        mentions = timed("methods", lambda: find_mentions(doc))
        names = [m.name for m in mentions]
        tldr = timed("tldr", lambda: best_sentence(doc, names))
        timed("links", lambda: find_links(doc.raw))
        kind, _ = timed("paper_type", lambda: classify(doc.text))
        phrases = timed("keyphrases", lambda: keyphrases(doc, exclude=names))
        timed("label", lambda: make_label(None, doc, mentions, tldr, paper_type=kind, keyphrases=phrases))
        timed("artifacts", lambda: find_artifacts(doc))
    return {k: round(v / len(papers) * 1000, 3) for k, v in spent.items()}


def huge_abstracts(papers) -> dict[str, float]:
    """CPU seconds of `derive_facts` for one huge abstract (issue 10.2: every step linear):
    the posters' abstracts run together, and a run-on text of parenthesised abbreviations (the
    shape that used to be quadratic), at 200 KB and 1 MB."""
    from paperscope.enrich import derive_facts

    joined = " ".join(abstract for _, abstract in papers)
    shapes = {"abstracts": lambda n: joined[:n],
              "parenthesised run-on": lambda n: ("deep network (DN) " * (n // 18 + 1))[:n]}
    out = {}
    for name, make in shapes.items():
        for size in (200_000, 1_000_000):
            text = make(size)
            t = time.process_time()
            derive_facts(None, text)
            out[f"{name} {size // 1000} KB"] = round(time.process_time() - t, 2)
    return out


def main() -> int:
    if not (CORPORA / "icml2024_events").is_dir():
        print(f"skipped: no corpus at {CORPORA}")
        return 0
    papers = load_icml()
    whole_pass(papers[:50], False)  # warm up: regex compilation, imports
    title_less = whole_pass(papers, with_titles=False)
    with_titles = whole_pass(papers, with_titles=True)
    stages = stage_breakdown(papers)
    huge = huge_abstracts(papers)
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _run_info import run_info

    result = {
        **run_info({"icml2024": "icml2024_events/icml2024_events.json (Poster events)"}, "numpy"),
        "papers": len(papers),
        "target_s": TARGET_S,
        "title_less": title_less,
        "with_titles": with_titles,
        "ms_per_paper": round(title_less["cpu_s"] / len(papers) * 1000, 2),
        "stage_cpu_ms_per_paper": stages,
        "huge_abstract_cpu_s": huge,
        # CPU time is the one-core cost; wall time also counts waiting for a busy machine
        "meets_target": title_less["cpu_s"] < TARGET_S and with_titles["cpu_s"] < TARGET_S,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_avg_1min": load},
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print(f"derive_facts for {len(papers)} ICML 2024 posters (one core, target < {TARGET_S:.0f} s)")
    print(f"{'pass':<14}{'wall s':>8}{'cpu s':>8}")
    print(f"{'title-less':<14}{title_less['wall_s']:>8}{title_less['cpu_s']:>8}")
    print(f"{'with titles':<14}{with_titles['wall_s']:>8}{with_titles['cpu_s']:>8}")
    print("cpu ms/paper by stage:", ", ".join(f"{k} {v}" for k, v in stages.items()))
    print("one huge abstract, cpu s:", ", ".join(f"{k} {v}" for k, v in huge.items()))
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
