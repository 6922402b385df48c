"""Expertise through the facade, the CLI and the web: authors merged across venues and years,
reviewer suggestions without conflicts of interest, experts for a topic, papers matched to a
profile given as ids, a tag, texts or a BibTeX file."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from expertise_support import BIBTEX, NEW_BANDIT, make_library
from paperscope.cli import app
from paperscope.model import InputError


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("expertise")
    lib, ids = make_library(folder)
    yield lib, ids, folder
    lib.close()


def names(found):
    return [a.name for a in found]


def test_one_author_written_three_ways_is_one_profile(small):
    lib, ids, _ = small
    idx = lib.expertise.authors()
    a = idx.find("Ana Müller")
    assert a is not None and idx.find("A. Müller") == a == idx.find("Muller, Ana")
    assert len(idx.papers_of(a)) == 3  # ICML 2021, NeurIPS 2022, ICML 2023
    assert idx.find("Nobody Here") is None


def test_reviewers_leave_out_authors_and_coauthors(small):
    lib, ids, _ = small
    out = lib.reviewers(ids[NEW_BANDIT["title"]], limit=5)
    got = names(out["reviewers"])
    assert set(out["own_authors"]) == {"Jane Roe", "Zed Newcomer"}
    first = out["reviewers"][0]
    assert {first.name, *first.also} == {"Dan Bandit", "Bea Twin"}  # same two papers: one line
    assert "Eve Stone" not in got  # one paper here
    few = names(lib.reviewers(ids[NEW_BANDIT["title"]], limit=5, min_papers=1)["reviewers"])
    assert "Eve Stone" in few
    assert not {"Jane Roe", "Zed Newcomer", "Carl Close"} & set(got + few)  # Carl wrote with Jane
    top = out["reviewers"][0]
    assert top.evidence and all("Bandit" in e["title"] or "bandit" in e["title"].lower() for e in top.evidence)


def test_reviewers_can_keep_the_authors(small):
    lib, ids, _ = small
    out = lib.reviewers(ids[NEW_BANDIT["title"]], limit=3, min_papers=1, keep_authors=True,
                        keep_coauthors=True)
    assert {"Jane Roe", "Carl Close"} & set(names(out["reviewers"]))


def test_named_conflicts_are_left_out(small):
    lib, _, _ = small
    out = lib.reviewers(text=NEW_BANDIT["abstract"], limit=5, min_papers=1, conflicts=["dan bandit"])
    shown = names(out["reviewers"]) + [n for a in out["reviewers"] for n in a.also]
    assert not {"Dan Bandit", "Eve Stone", "Bea Twin"} & set(shown)  # Dan and his co-authors


def test_min_papers_keeps_one_paper_authors_out(small):
    lib, _, _ = small
    found = lib.experts("graph neural networks for molecules", limit=10)
    assert found[0].name == "Ana Müller" and found[0].papers_count == 3
    assert all(a.papers_count >= 2 for a in found)
    assert "Rita Novel" in names(lib.experts("graph attention molecules", limit=10, min_papers=1))


def test_experts_follow_the_topic_not_a_shared_stem(small):
    lib, _, _ = small
    found = lib.experts("conformal prediction", limit=3)
    assert found[0].name == "Lena Conf"
    assert all(e["title"] for e in found[0].evidence)


def test_match_ids_ranks_the_same_topic_first_and_leaves_the_profile_out(small):
    lib, ids, _ = small
    mine = [ids["Sparse Graph Networks for Molecules"], ids["Equivariant Message Passing for Protein Graphs"]]
    hits = lib.match(mine, limit=3)
    assert not set(mine) & {h.id for h in hits}
    assert {h.id for h in hits[:2]} == {ids["Pretraining Graph Transformers on Molecular Conformers"],
                                        ids["Molecular Property Prediction with Graph Attention"]}
    ev = hits[0].to_json()["evidence"]
    assert ev["profile"][0]["id"] in mine and ev["terms"]


def test_match_within_a_venue_and_all(small):
    lib, ids, _ = small
    mine = [ids["Thompson Sampling for Linear Bandits with Delays"]]
    hits = lib.match(mine, venue="COLT", limit=None)
    assert {h.paper["venue"] for h in hits} == {"COLT"} and len(hits) == 2
    assert len(lib.match(mine, limit=None)) == len(lib.papers()) - 1


def test_match_from_texts_a_tag_and_a_bibtex_file(small):
    lib, ids, folder = small
    hits = lib.match(["image synthesis with denoising diffusion models"], limit=2)
    assert {h.id for h in hits} == {ids["Denoising Diffusion for Image Synthesis"],
                                    ids["Faster Sampling for Score-Based Generative Models"]}
    lib.tag(ids["Low-Rank Adaptation of Large Language Models"], "mine")
    assert lib.match("mine", limit=1)[0].id != ids["Low-Rank Adaptation of Large Language Models"]
    bib = folder / "ana.bib"
    bib.write_text(BIBTEX, "utf-8")
    prof = lib.profile(bib)
    assert prof.describe()["papers"] == 3 and prof.describe()["in_library"] == 2
    top = lib.match(prof, limit=2)
    assert top[0].id in {ids["Equivariant Message Passing for Protein Graphs"],
                         ids["Molecular Property Prediction with Graph Attention"]}


def test_reviewers_every_aggregate_and_never_the_paper_itself(small):
    lib, ids, _ = small
    paper = ids[NEW_BANDIT["title"]]
    for how in ("centroid", "facets", "fused"):
        out = lib.reviewers(paper, limit=6, min_papers=1, keep_authors=True, keep_coauthors=True,
                            aggregate=how)
        shown = names(out["reviewers"]) + [n for a in out["reviewers"] for n in a.also]
        assert "Zed Newcomer" not in shown  # his only paper is the one reviewers are wanted for
        assert {"Jane Roe", "Carl Close"} <= set(shown[:3])
    # with one-paper authors among the candidates the default is the fused ranking
    one = lib.reviewers(paper, limit=6, min_papers=1, keep_authors=True, keep_coauthors=True)["reviewers"]
    fused = lib.reviewers(paper, limit=6, min_papers=1, keep_authors=True, keep_coauthors=True,
                          aggregate="fused")["reviewers"]
    assert [(a.name, a.score) for a in one] == [(a.name, a.score) for a in fused] and one[0].score < 0.05
    cen = {a.name: a.score for a in lib.reviewers(paper, limit=6, min_papers=1, keep_authors=True,
                                                  keep_coauthors=True, aggregate="centroid")["reviewers"]}
    assert 0.3 < cen["Jane Roe"] < 0.99  # her other paper alone (a cosine), not her copy of the query
    kw = dict(limit=6, min_papers=2, keep_authors=True, keep_coauthors=True)
    two = [(a.name, a.score) for a in lib.reviewers(paper, **kw)["reviewers"]]  # authors of 2+ papers: facets
    assert two and two == [(a.name, a.score) for a in lib.reviewers(paper, aggregate="facets", **kw)["reviewers"]]
    assert two != [(a.name, a.score) for a in lib.reviewers(paper, aggregate="centroid", **kw)["reviewers"]]
    assert two != [(a.name, a.score) for a in lib.reviewers(paper, aggregate="fused", **kw)["reviewers"]]
    with pytest.raises(InputError):
        lib.reviewers(paper, aggregate="median")
    with pytest.raises(InputError):
        lib.reviewers(paper, recency=-2)
    with pytest.raises(InputError):
        lib.match([paper], recency="soon")


def test_recency_weighs_a_profiles_older_papers_less(small):
    lib, ids, _ = small
    old, new = ids["Denoising Diffusion for Image Synthesis"], ids["Conformal Prediction Sets under Label Shift"]
    diffusion, conformal = ids["Faster Sampling for Score-Based Generative Models"], \
        ids["Distribution-Free Uncertainty with Conformal Calibration"]
    plain = {h.id: (h.rank, h.score) for h in lib.match([old, new], limit=None)}
    recent = {h.id: (h.rank, h.score) for h in lib.match([old, new], limit=None, recency=1.0)}
    assert plain[diffusion][0] == 2 and recent[diffusion][0] > 2  # the 2020 paper counts 1/16
    assert recent[diffusion][1] < plain[diffusion][1]
    assert recent[conformal][0] == 1 and recent[conformal][1] == pytest.approx(plain[conformal][1], abs=0.02)
    # reviewers: within an author the recent papers weigh more (Bea Twin: 2023 and 2024)
    paper = ids[NEW_BANDIT["title"]]
    kw = dict(limit=6, min_papers=1, keep_coauthors=True, aggregate="centroid")
    by = {a.name: a.score for a in lib.reviewers(paper, **kw)["reviewers"]}
    by_recent = {a.name: a.score for a in lib.reviewers(paper, recency=1.0, **kw)["reviewers"]}
    assert by_recent["Bea Twin"] > by["Bea Twin"]  # her 2024 paper is the closer one


def test_bad_profiles_are_user_errors(small):
    lib, _, folder = small
    with pytest.raises(InputError):
        lib.match("no-such-tag")
    with pytest.raises(InputError):
        lib.match([])
    empty = folder / "empty.bib"
    empty.write_text("", "utf-8")
    with pytest.raises(InputError):
        lib.match(empty)


runner = CliRunner()


def test_cli_match_reviewers_experts(small):
    lib, ids, folder = small
    db = str(lib.path)
    bib = folder / "ana-cli.bib"
    bib.write_text(BIBTEX, "utf-8")
    res = runner.invoke(app, ["--db", db, "match", "--profile", str(bib), "-n", "3", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["profile"]["in_library"] == 2 and len(data["results"]) == 3
    assert {"rank", "score", "evidence"} <= set(data["results"][0])
    res = runner.invoke(app, ["--db", db, "match", "--profile", str(bib), "--explain"])
    assert res.exit_code == 0 and "near" in res.stdout and "shared words" in res.stdout
    res = runner.invoke(app, ["--db", db, "reviewers", ids[NEW_BANDIT["title"]], "--json"])
    assert res.exit_code == 0, res.output
    first = json.loads(res.stdout)["reviewers"][0]
    assert {first["name"], *first["also"]} == {"Dan Bandit", "Bea Twin"}
    draft = folder / "draft.txt"
    draft.write_text(NEW_BANDIT["abstract"], "utf-8")
    res = runner.invoke(app, ["--db", db, "reviewers", "--file", str(draft), "--json"])
    by_text = runner.invoke(app, ["--db", db, "reviewers", "--text", NEW_BANDIT["abstract"], "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["reviewers"] == json.loads(by_text.stdout)["reviewers"]
    assert runner.invoke(app, ["--db", db, "reviewers", "--file", str(folder / "absent.txt")]).exit_code == 1
    assert runner.invoke(app, ["--db", db, "reviewers"]).exit_code == 2
    res = runner.invoke(app, ["--db", db, "experts", "diffusion", "image", "synthesis"])
    assert res.exit_code == 0 and "Wei Chen" in res.stdout
    res = runner.invoke(app, ["--db", db, "reviewers", ids[NEW_BANDIT["title"]], "--aggregate", "fused",
                              "--recency", "2", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["reviewers"]
    res = runner.invoke(app, ["--db", db, "match", "--profile", str(bib), "--aggregate", "centroid",
                              "--recency", "3", "-n", "2", "--json"])
    assert res.exit_code == 0 and len(json.loads(res.stdout)["results"]) == 2
    res = runner.invoke(app, ["--db", db, "match", "--profile", str(bib), "--aggregate", "median"])
    assert res.exit_code != 0 and "aggregate must be one of" in res.output
    res = runner.invoke(app, ["--db", db, "match", "--tag", "x", "--ids", "y"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["--db", db, "match", "--profile", str(folder / "missing.bib")])
    assert res.exit_code == 1 and "no such file" in res.output


def test_web_match_page_escapes_pasted_text(small):
    from fastapi.testclient import TestClient

    from paperscope.web.app import create_app

    lib, ids, _ = small
    with TestClient(create_app(lib.path), base_url="http://127.0.0.1:8000") as client:
        _web_checks(client, ids)


def _web_checks(client, ids):
    page = client.get("/match")
    assert page.status_code == 200 and 'id="profile-file"' in page.text and "<script>" not in page.text.split("</main>")[0]
    hostile = "@article{x, title = {<script>alert(1)</script> Graph networks for molecules},\n abstract = {Graph neural networks for molecular property prediction.}, year = {2024}}"
    res = client.post("/match", data={"text": hostile, "collection": ""})
    assert res.status_code == 200
    assert "<script>alert(1)</script>" not in res.text and "&lt;script&gt;" in res.text
    assert "Sparse Graph Networks for Molecules" in res.text
    assert "Content-Security-Policy" in res.headers or "content-security-policy" in res.headers
    res = client.get("/experts", params={"q": "bandits regret"})
    assert res.status_code == 200 and "Dan Bandit" in res.text and "Bea Twin" in res.text
    res = client.get("/reviewers", params={"paper_id": ids[NEW_BANDIT["title"]]})
    assert res.status_code == 200 and "Jane Roe" in res.text
    old = client.get("/reviewers", params={"paper": ids[NEW_BANDIT["title"]]})  # the old name
    assert old.status_code == 200 and "Jane Roe" in old.text
    api = client.get("/api/experts", params={"query": "diffusion image synthesis"}).json()
    assert api[0]["name"] == "Wei Chen"
    assert client.get("/api/experts", params={"q": "diffusion image synthesis"}).json() == api  # old name
    by_id = client.get("/api/reviewers", params={"paper_id": ids[NEW_BANDIT["title"]]}).json()
    assert "Jane Roe" not in [a["name"] for a in by_id["reviewers"]]  # her own paper: a conflict
    kept = client.get("/api/reviewers", params={"paper": ids[NEW_BANDIT["title"]], "keep_authors": True}).json()
    assert kept["own_authors"] == by_id["own_authors"] and kept["conflicts_excluded"] <= by_id["conflicts_excluded"]
    api = client.post("/api/match", json={"ids": [ids["Sparse Graph Networks for Molecules"]]}).json()
    assert api["profile"]["in_library"] == 1 and api["results"]
    assert client.post("/api/match", json={"nothing": 1}).status_code == 400


def test_without_embeddings_words_alone_rank(tmp_path):
    from expertise_support import write
    from paperscope.library import Library

    with Library.open(tmp_path / "words.db") as lib:
        lib.ingest([write(tmp_path / "papers.jsonl")], embed=False)
        ids = {p["title"]: p["id"] for p in lib.papers()}
        lib.engine._embedder = _Refuse()  # nothing may be embedded
        hits = lib.match([ids["Denoising Diffusion for Image Synthesis"]], limit=1)
        assert hits[0].id == ids["Faster Sampling for Score-Based Generative Models"]
        assert lib.experts("thompson sampling linear bandits delays", limit=1)[0].name in {"Dan Bandit", "Bea Twin"}
        found = lib.reviewers(ids["Optimal Regret for Adversarial Bandits"], min_papers=1, limit=3)["reviewers"]
        assert {found[0].name, *found[0].also} & {"Dan Bandit", "Bea Twin", "Eve Stone"}  # by words alone
    with Library.open(tmp_path / "empty.db") as empty:
        assert empty.experts("anything", limit=3) == []


class _Refuse:
    def embed(self, texts):
        raise AssertionError("embedded without vectors in the library")

    def token_counts(self, texts):
        return [len(t.split()) for t in texts]


def test_match_pair_cosines_against_brute_force(small):
    """The adjacent-term-pair cosines `match` mixes in equal a direct computation (sublinear
    tf x idf over the scope, pairs held by one paper only dropped), for a library paper and for a
    text; without them (pair_weight 0) the scores change but the topic still ranks first."""
    import math
    from collections import Counter

    import numpy as np

    from paperscope.expertise.scoring import MATCH_RECIPE
    from paperscope.expertise.service import Expertise
    from paperscope.filters import Filter
    from paperscope.search.related import pair_counts

    lib, ids, _ = small
    assert MATCH_RECIPE.pair_weight > 0
    exp = lib.expertise
    index = lib.engine.lexical()
    cand = exp._scope_positions(Filter())
    texts = lib.store.texts_of_rowids([int(r) for r in index.rowids[cand]])
    counts = [pair_counts(*texts[int(r)]) for r in index.rowids[cand]]
    df = Counter(p for c in counts for p in c)
    n = len(counts)

    def unit(c):
        w = {p: (1 + math.log(tf)) * (math.log((1 + n) / (1 + df[p])) + 1) for p, tf in c.items() if df[p] >= 2}
        norm = math.sqrt(sum(v * v for v in w.values())) or 1.0
        return {p: v / norm for p, v in w.items()}

    vecs = [unit(c) for c in counts]
    query = "Graph attention networks over atoms predict molecular properties"
    rowid = lib.store.rowid_of(ids["Sparse Graph Networks for Molecules"])
    got = exp._pairs.cosines(Filter(), cand, ["", query], [rowid, None])
    mine = vecs[int(np.flatnonzero(index.rowids[cand] == rowid)[0])]
    text = unit(pair_counts("", query))
    for j, v in enumerate(vecs):
        assert got[0, j] == pytest.approx(sum(w * v.get(p, 0.0) for p, w in mine.items()), abs=1e-5)
        assert got[1, j] == pytest.approx(sum(w * v.get(p, 0.0) for p, w in text.items()), abs=1e-5)
    assert got[1].max() > 0  # "graph attention", "molecular properties" are shared

    mine_ids = [ids["Sparse Graph Networks for Molecules"], ids["Equivariant Message Passing for Protein Graphs"]]
    topic = {ids["Pretraining Graph Transformers on Molecular Conformers"],
             ids["Molecular Property Prediction with Graph Attention"]}
    without = Expertise(lib.store, lib.engine, match_recipe=MATCH_RECIPE.but(pair_weight=0.0))
    with_pairs = {h.paper["id"]: h.score for h in exp.match(lib.profile(mine_ids), limit=None)}
    plain = {h.paper["id"]: h.score for h in without.match(lib.profile(mine_ids), limit=None)}
    assert not set(mine_ids) & set(with_pairs)
    assert set(list(with_pairs)[:2]) == set(list(plain)[:2]) == topic
    assert with_pairs != plain
