"""The venue comparison chart: topic shares side by side, distinctive terms of each venue, and
counts by paper type."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np

COLOUR_A, COLOUR_B = "#1f77b4", "#ff7f0e"


def render_compare(result: dict[str, Any], out: Path, *, max_topics: int = 20, max_terms: int = 12) -> Path:
    import matplotlib.pyplot as plt

    fig = compare_figure(result, max_topics=max_topics, max_terms=max_terms)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format=out.suffix.lstrip(".").lower() or "png", bbox_inches="tight")
    plt.close(fig)
    return out


def compare_figure(result: dict[str, Any], *, max_topics: int = 20, max_terms: int = 12) -> Any:
    """The chart as a matplotlib figure (the caller saves and closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    name_a, name_b = result["a"]["name"], result["b"]["name"]
    topics = sorted(result["topics"], key=lambda t: -(t["a_share"] + t["b_share"]))[:max_topics]
    fig = plt.figure(figsize=(17, 10), dpi=90)
    grid = fig.add_gridspec(2, 3, width_ratios=[1.5, 1, 1], height_ratios=[2.2, 1], wspace=0.55, hspace=0.35)

    ax = fig.add_subplot(grid[:, 0])
    y = np.arange(len(topics))
    ax.barh(y - 0.2, [100 * t["a_share"] for t in topics], height=0.4, color=COLOUR_A, label=name_a)
    ax.barh(y + 0.2, [100 * t["b_share"] for t in topics], height=0.4, color=COLOUR_B, label=name_b)
    ax.set_yticks(y, ["\n".join(textwrap.wrap(t["label"], 34)[:2]) for t in topics], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("% of the venue's papers")
    ax.set_title("Topic shares (topics fitted on both venues)", fontsize=11)
    ax.legend(loc="lower right", fontsize=9)
    ax.grid(axis="x", alpha=0.3)

    for col, (name, colour) in enumerate(((name_a, COLOUR_A), (name_b, COLOUR_B)), start=1):
        ax = fig.add_subplot(grid[0, col])
        terms = result["distinctive"][name][:max_terms]
        if not terms:  # a clear note, not an empty panel with a meaningless axis
            _no_terms(ax, name)
            continue
        yy = np.arange(len(terms))
        ax.barh(yy, [abs(t["z"]) for t in terms], color=colour)
        ax.set_yticks(yy, [t["term"] for t in terms], fontsize=9)
        ax.invert_yaxis()
        ax.set_xlabel("z-score (weighted log-odds)")
        ax.set_title(f"Most distinctive of {name}", fontsize=11)
        ax.grid(axis="x", alpha=0.3)

    ax = fig.add_subplot(grid[1, 1:])
    kinds = sorted(set(result["paper_types"][name_a]) | set(result["paper_types"][name_b]))
    x = np.arange(len(kinds))
    n_a = max(result["a"]["papers"], 1)
    n_b = max(result["b"]["papers"], 1)
    ax.bar(x - 0.2, [100 * result["paper_types"][name_a].get(k, 0) / n_a for k in kinds], 0.4,
           color=COLOUR_A, label=name_a)
    ax.bar(x + 0.2, [100 * result["paper_types"][name_b].get(k, 0) / n_b for k in kinds], 0.4,
           color=COLOUR_B, label=name_b)
    ax.set_xticks(x, kinds, fontsize=9)
    ax.set_ylabel("% of papers")
    ax.set_title("Paper types", fontsize=11)
    ax.grid(axis="y", alpha=0.3)

    fig.suptitle(f"{name_a} ({result['a']['papers']} papers) vs {name_b} ({result['b']['papers']} papers)",
                 fontsize=14)
    return fig


def _no_terms(ax, name: str) -> None:
    ax.set_axis_off()
    ax.set_title(f"Most distinctive of {name}", fontsize=11)
    ax.text(0.5, 0.5, "no distinctive terms:\nno term is used by several papers\nsignificantly more here than in the other",
            ha="center", va="center", fontsize=10, color="#555", transform=ax.transAxes, wrap=True)
