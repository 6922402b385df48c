"""Draw a paper map: PNG/SVG with matplotlib, or a self-contained HTML page (inline script and
data, no CDN). Topic labels sit on their clusters."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from .map_page import PAGE


# 15 colours told apart at a glance: Okabe & Ito's colour-blind-safe 8, then the 7 of Tableau 10
# farthest from them in CIELAB (= PALETTE in web/static/map.js; a test keeps the two equal).
TOPIC_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
                 "#BAB0AC", "#E15759", "#9C755F", "#76B7B2", "#FF9DA7", "#59A14F", "#F28E2B"]


def colours(n: int) -> list[str]:
    """n colours: TOPIC_COLOURS first, then evenly spaced hues (fine topics, where the legend and
    the labels carry the names)."""
    from matplotlib.colors import hsv_to_rgb, to_hex

    return (TOPIC_COLOURS + [to_hex(hsv_to_rgb(((i * 0.618034) % 1.0, 0.65, 0.85))) for i in range(max(0, n - 15))])[:n]


def short_label(label: str, most: int = 2, width: int = 34) -> str:
    """A topic's first terms, whole (never cut inside a term): up to `most` terms within
    `width` characters, and at least the first."""
    terms = [t.strip() for t in str(label).split(",") if t.strip()]
    kept = terms[:1]
    for term in terms[1:most]:
        if len(", ".join(kept + [term])) > width:
            break
        kept.append(term)
    return ", ".join(kept)


def label_positions(points: list[dict[str, Any]]) -> dict[int, tuple[float, float]]:
    """Per topic, the member point nearest the topic's median: on the cluster even when the
    topic is split over two islands."""
    by_topic: dict[int, list[tuple[float, float]]] = {}
    for p in points:
        by_topic.setdefault(int(p["topic"]), []).append((p["x"], p["y"]))
    out = {}
    for t, xy in by_topic.items():
        arr = np.array(xy)
        med = np.median(arr, axis=0)
        out[t] = tuple(arr[int(np.argmin(((arr - med) ** 2).sum(axis=1)))])
    return out


def _spread_labels(ax: Any, texts: list[Any], rounds: int = 60) -> None:
    """Nudge overlapping label boxes apart vertically (largest topic keeps its place)."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    inv = ax.transData.inverted()
    for _ in range(rounds):
        moved = False
        boxes = [t.get_window_extent(renderer).expanded(1.05, 1.15) for t in texts]
        for i in range(len(texts)):
            for j in range(i):
                if boxes[i].overlaps(boxes[j]):
                    dy = (boxes[j].y1 - boxes[i].y0) if boxes[i].y0 >= boxes[j].y0 else (boxes[j].y0 - boxes[i].y1)
                    x, y = texts[i].get_position()
                    disp = ax.transData.transform((x, y)) + (0, dy * 0.6 + np.sign(dy or 1) * 2)
                    texts[i].set_position(tuple(inv.transform(disp)))
                    boxes[i] = texts[i].get_window_extent(renderer).expanded(1.05, 1.15)
                    moved = True
        if not moved:
            break


def render_image(points: list[dict[str, Any]], topics: list[dict[str, Any]], out: Path,
                 title: str = "") -> Path:
    """PNG or SVG (by suffix): points coloured by topic, topic labels at cluster centres, a
    legend of every topic below."""
    import matplotlib.pyplot as plt

    fig = map_figure(points, topics, title)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format=out.suffix.lstrip(".").lower())
    plt.close(fig)
    return out


def map_figure(points: list[dict[str, Any]], topics: list[dict[str, Any]], title: str = "") -> Any:
    """The map as a matplotlib figure (the caller saves and closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = max([int(p["topic"]) for p in points], default=-1) + 1
    palette = colours(max(k, 1))
    rows = (min(len(topics), 30) + 1) // 2  # legend rows under the map
    fig, ax = plt.subplots(figsize=(11, 11 + 0.22 * rows), dpi=100)
    if points:
        xy = np.array([[p["x"], p["y"]] for p in points])
        c = [palette[int(p["topic"])] for p in points]
        ax.scatter(xy[:, 0], xy[:, 1], c=c, s=max(2.0, min(12.0, 12000 / len(points))),
                   alpha=0.65, linewidths=0, rasterized=True)
    where = label_positions(points)
    names = {int(t["id"]): t for t in topics}
    texts = []
    for t in sorted(where, key=lambda t: -names.get(t, {}).get("size", 0)):
        x, y = where[t]
        info = names.get(t, {"label": str(t), "size": 0})
        texts.append(ax.text(x, y, f"{short_label(info['label'])}\n({info['size']})", fontsize=8.5,
                             ha="center", va="center", color="#111",
                             bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": palette[t],
                                   "lw": 1.2, "alpha": 0.85}))
    bottom = _legend(fig, topics, palette)
    ax.set_title(title or f"{len(points)} papers, {len(where)} topics", fontsize=13)
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    fig.tight_layout(rect=(0, bottom, 1, 1))  # before spreading: it changes the data-to-pixel scale
    if texts:
        _spread_labels(ax, texts)
    return fig


def _legend(fig: Any, topics: list[dict[str, Any]], palette: list[str]) -> float:
    """Every topic (largest first, up to 30) with its colour and full label, under the map;
    returns the share of the figure's height it takes."""
    from matplotlib.lines import Line2D

    shown = sorted(topics, key=lambda t: -t.get("size", 0))[:30]
    if not shown:
        return 0.0
    handles = [Line2D([], [], marker="o", linestyle="", markersize=7, color=palette[int(t["id"]) % len(palette)])
               for t in shown]
    names = [f"{t['label']} ({t.get('size', 0)})" for t in shown]
    fig.legend(handles, names, loc="lower center", ncol=2, fontsize=8, frameon=False, title="topics",
               title_fontsize=9)
    return (0.5 + 0.22 * ((len(shown) + 1) // 2)) / fig.get_figheight()


def render_html(points: list[dict[str, Any]], topics: list[dict[str, Any]], title: str = "") -> str:
    """One self-contained page: canvas scatter with hover labels, zoom/pan, topic legend."""
    k = max([int(p["topic"]) for p in points], default=-1) + 1
    palette = colours(max(k, 1))
    where = label_positions(points)
    data = {
        "points": [[p["x"], p["y"], int(p["topic"]), p.get("label") or "", p["id"]] for p in points],
        "topics": [{"id": int(t["id"]), "label": t["label"], "size": t["size"],
                    "colour": palette[int(t["id"])], "at": list(where.get(int(t["id"]), (0, 0)))}
                   for t in topics],
    }
    # JSON inside <script>: escape "<" so no text from a paper can close the element.
    payload = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    page_title = html.escape(title or f"{len(points)} papers")
    values = {"TITLE": page_title, "DATA": payload}
    return re.sub(r"__(TITLE|DATA)__", lambda m: values[m.group(1)], PAGE)
