"""The map's colours and labels, and the PNG charts: the 15 topic colours are far apart in
CIELAB and the same on the page and in the PNG; map labels are whole terms; the PNG map has a
legend naming every topic; compare.png says "no distinctive terms" instead of an empty panel."""
from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

from paperscope.cli.render_compare import compare_figure
from paperscope.cli.render_map import TOPIC_COLOURS, map_figure, short_label
from paperscope.library import Library

MAP_JS = Path(__file__).resolve().parents[1] / "src" / "paperscope" / "web" / "static" / "map.js"
MIN_DELTA_E = 18  # CIE76 distance between any two of the 15; tab20's pairs were as close as 12


def _lab(colour: str) -> tuple[float, float, float]:
    """sRGB hex to CIELAB (D65)."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def test_the_15_topic_colours_are_far_apart_and_the_same_on_page_and_png():
    page = re.search(r"var PALETTE = \[([^\]]+)\]", MAP_JS.read_text("utf-8")).group(1)
    assert [c.strip().strip('"').upper() for c in page.split(",")] == [c.upper() for c in TOPIC_COLOURS]
    assert len(set(TOPIC_COLOURS)) == 15
    closest = min(math.dist(_lab(a), _lab(b)) for a, b in itertools.combinations(TOPIC_COLOURS, 2))
    assert closest >= MIN_DELTA_E


@pytest.fixture(scope="module")
def small(tmp_path_factory, samples_dir):
    db = tmp_path_factory.mktemp("fig") / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([samples_dir], embed=False)
        yield lib


def test_png_map_labels_are_whole_terms_and_its_legend_names_every_topic(small):
    points = small.map(venue="ICML", year=2024)
    topics = small.topics(venue="ICML", year=2024)
    fig = map_figure(points, topics)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == [f"{t['label']} ({t['size']})" for t in sorted(topics, key=lambda t: -t["size"])]
    for t in topics:
        label = short_label(t["label"])
        terms = [x.strip() for x in t["label"].split(",")]
        assert label and "…" not in label and label.split(", ") == terms[:len(label.split(", "))]
    long = "diffusion models, differential equations, generative models"
    assert short_label(long) in ("diffusion models", "diffusion models, differential equations")


def test_compare_png_says_no_distinctive_terms_instead_of_an_empty_panel(small):
    result = small.compare("ICML 2024", "ICLR 2024")
    empty = [name for name, terms in result["distinctive"].items() if not terms]
    assert empty, "the samples' small sides are the reproduction: one side has no distinctive term"
    fig = compare_figure(result)
    for ax in fig.axes:
        title = ax.get_title()
        if any(title == f"Most distinctive of {name}" for name in empty):
            assert not ax.axison and any("no distinctive terms" in t.get_text() for t in ax.texts)
        elif title.startswith("Most distinctive of"):
            assert ax.patches  # bars
