"""The web shows where a title came from: the source's name (or the list file's), or "derived"."""
from __future__ import annotations

import json

from fastapi.testclient import TestClient

from paperscope.library import Library


def test_cards_and_paper_page_name_the_title_origin(tmp_path, samples_dir):
    from paperscope.web.app import create_app

    db = tmp_path / "lib.db"
    iclr = next(f for f in sorted(samples_dir.glob("*.txt")) if "ICLR" in f.read_text("utf-8")[:40])
    abstracts = [" ".join(p.split()) for p in iclr.read_text("utf-8").split("\n\n")[1:] if p.strip()]
    source = tmp_path / "openreview-page.json"
    source.write_text(json.dumps([{"title": "A <blink>Bold</blink> Real Title", "abstract": abstracts[0][:-30] + ".",
                                   "venue": "ICLR", "year": 2024}]), encoding="utf-8")
    with Library.open(db) as lib:
        lib.ingest([iclr], embed=False)
        lib.ingest([source], embed=False)
        titled = next(p for p in lib.papers() if p["title"])
        untitled = next(p for p in lib.papers() if not p["title"])
    with TestClient(create_app(db), base_url="http://127.0.0.1:8000") as c:
        page = c.get(f"/paper/{titled['id']}").text
        assert "openreview-page.json" in page and "A &lt;blink&gt;Bold&lt;/blink&gt; Real Title" in page
        assert "matched by abstract, score" in page  # the title came by a fuzzy match
        assert "derived from the abstract" in c.get(f"/paper/{untitled['id']}").text
        listing = c.get("/c/ICLR%202024").text
        assert "title: openreview-page.json" in listing and "title: derived" in listing
