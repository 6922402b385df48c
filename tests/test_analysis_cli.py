"""`paperscope topics | map | compare` in real subprocesses on copies of the samples library."""
from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # several subprocesses per test


def run(db, *args, check=True):
    env = {k: v for k, v in os.environ.items() if k != "PAPERSCOPE_DB"}
    cmd = [sys.executable, "-m", "paperscope", "--db", str(db), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"{cmd} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def fresh_copy(samples_lib, path):
    src, dst = sqlite3.connect(samples_lib.path), sqlite3.connect(path)
    src.backup(dst)
    dst.execute("DELETE FROM analysis_points")  # no cached analysis: each copy fits anew
    dst.execute("DELETE FROM analysis_runs")
    dst.commit()
    src.close()
    dst.close()
    return path


@pytest.fixture()
def db(samples_lib, tmp_path):
    return fresh_copy(samples_lib, tmp_path / "lib.db")


def test_topics_json_is_identical_across_processes(samples_lib, tmp_path):
    one = run(fresh_copy(samples_lib, tmp_path / "one.db"), "topics", "--json", "--level", "fine").stdout
    two = run(fresh_copy(samples_lib, tmp_path / "two.db"), "topics", "--json", "--level", "fine").stdout
    assert one == two
    topics = json.loads(one)
    assert all({"id", "label", "size", "papers"} <= set(t) for t in topics)
    assert sum(t["size"] for t in topics) == 95


def test_topics_table_reports_the_unassigned_share(db):
    out = run(db, "topics", "--venue", "ICLR").stdout
    assert re.search(r"unassigned: 0 of 38 \(0\.0 %\)", out)
    assert run(db, "topics", "--level", "medium", check=False).returncode == 2


def test_map_writes_png_svg_and_a_self_contained_page(db, tmp_path):
    for name in ("map.png", "map.svg"):
        out = tmp_path / name
        run(db, "map", "--out", str(out))
        assert out.stat().st_size > 5000
    assert (tmp_path / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "map.svg").read_bytes()[:2000]
    page = tmp_path / "map.html"
    run(db, "map", "--venue", "ICML", "--out", str(page))
    html = page.read_text("utf-8")
    assert "<canvas" in html
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", html)  # nothing fetched
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))
    assert len(data["points"]) == 57 and data["topics"]
    bad = run(db, "map", "--out", str(tmp_path / "map.txt"), check=False)
    assert bad.returncode == 1 and "png" in bad.stderr


def test_map_page_escapes_paper_text(db, tmp_path):
    hostile = tmp_path / "hostile.jsonl"  # the map labels points with their titles
    hostile.write_text(json.dumps({
        "title": "</script><script>alert('x')</script> <img src=x onerror=alert(1)>", "venue": "ICML", "year": 2024,
        "abstract": "We study gradient descent for deep networks and prove that it converges to a global "
                    "minimum at a linear rate under mild assumptions on the data."}) + "\n", encoding="utf-8")
    run(db, "ingest", str(hostile))
    page = tmp_path / "map.html"
    run(db, "map", "--out", str(page))
    html = page.read_text("utf-8")
    assert "\\u003cscript>alert" in html  # the hostile text is on the page, escaped...
    assert "<script>alert" not in html and "<img src=x" not in html  # ...and never live
    assert html.count("</script>") == 2  # the data block and the code block, nothing injected


def test_compare_json_and_chart(db, tmp_path):
    chart = tmp_path / "compare.png"
    out = json.loads(run(db, "compare", "ICML 2024", "ICLR 2024", "--json", "--out", str(chart)).stdout)
    assert chart.read_bytes()[:4] == b"\x89PNG"
    assert out["a"]["name"] == "ICML 2024" and out["b"]["papers"] == 38
    assert {"topics", "distinctive", "paper_types"} <= set(out)
    text = run(db, "compare", "ICML 2024", "ICLR 2024").stdout
    assert "most distinctive of ICML 2024" in text
    missing = run(db, "compare", "ICML 2024", "NeurIPS 1999", check=False)
    assert missing.returncode == 1 and "no papers" in missing.stderr
