"""Details a user reads: a paper merged from a list and a proceedings file says which file each
membership came from; topics on a small sample say their terms are weak evidence, in the CLI,
the API and the page alike."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from paperscope.cli import app
from paperscope.library import Library

ABSTRACT = ("We study merged records: the same paper appears in a conference list and in the "
            "proceedings of that conference, with its position in each, and the reader must tell them apart.")


@pytest.fixture(scope="module")
def merged(tmp_path_factory, samples_dir):
    root = tmp_path_factory.mktemp("merged")
    (root / "icml2024_list.txt").write_text("ICML 2024 Papers\n\n" + ABSTRACT + "\n", encoding="utf-8")
    filler = [{"title": f"Filler paper {i}", "abstract": f"Filler abstract number {i}: " + " ".join(["kernels", "graphs", "bounds"][i:] * 12) + ".",
               "venue": "ICML", "year": 2024} for i in range(3)]
    record = {"title": "Telling Lists From Proceedings", "abstract": ABSTRACT, "venue": "ICML", "year": 2024}
    (root / "icml2024_proceedings.json").write_text(json.dumps(filler + [record]), encoding="utf-8")
    db = root / "lib.db"
    with Library.open(db) as lib:
        lib.ingest([root / "icml2024_list.txt", root / "icml2024_proceedings.json", samples_dir], embed=False)
        pid = next(p["id"] for p in lib.papers() if p["abstract"].startswith("We study merged records"))
        assert len(lib.show(pid)["collections"]) == 2
    return db, pid


def test_a_merged_paper_says_which_file_each_position_is_in(merged):
    db, pid = merged
    with TestClient(__import__("paperscope.web.app", fromlist=["create_app"]).create_app(db),
                    base_url="http://127.0.0.1:8000") as client:
        html = client.get(f"/paper/{pid}").text
    assert "#1 in icml2024_list.txt" in html
    assert "#4 in icml2024_proceedings.json" in html
    assert str(db.parent) not in html  # the file's name, never the folders above it


def test_topics_on_a_small_sample_warn_in_cli_api_and_page(merged):
    db, _ = merged
    from paperscope.web.app import create_app

    result = CliRunner().invoke(app, ["--db", str(db), "topics", "--venue", "ICML", "--level", "fine", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)  # --json output stays clean JSON
    assert "weak evidence" in result.stderr
    with TestClient(create_app(db), base_url="http://127.0.0.1:8000") as client:
        r = client.get("/api/topics", params={"collection": "ICML 2024", "level": "fine"})
        assert r.status_code == 200 and "weak evidence" in r.headers["x-paperscope-warning"]
        page = client.get("/topics", params={"collection": "ICML 2024", "level": "fine"}).text
        assert 'class="warning small-sample"' in page and "weak evidence" in page


def test_the_rule_is_papers_in_all_and_papers_a_topic():
    def topics(*sizes):
        return [{"size": s} for s in sizes]

    assert Library.topic_warnings(topics(30, 30, 30)) and "90 papers" in Library.topic_warnings(topics(30, 30, 30))[0]
    assert Library.topic_warnings(topics(*[9] * 20))  # 180 papers, 9 a topic
    assert Library.topic_warnings(topics(40, 40, 40)) == []
    assert Library.topic_warnings(topics(*[12] * 20)) == []
    assert Library.topic_warnings([]) == []
