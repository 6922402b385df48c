"""`relabel`: titles and TL;DRs for title-less papers from the user's model (a real OpenAI-style
server on 127.0.0.1), checked before they are kept, stored apart with the model's name, shown
marked as generated, removable, and never above a real title; on both backends."""
from __future__ import annotations

import json

import pytest
from llm_server import LLMServer, Reply, Status
from typer.testing import CliRunner

from paperscope.cli import app

ABSTRACTS = {
    "lora": "We study low-rank adaptation of large language models. Instead of fine-tuning every weight, "
            "we freeze the pretrained model and train pairs of small low-rank matrices added to the "
            "attention layers, which cuts the trainable parameters by a factor of ten thousand while "
            "matching full fine-tuning on language understanding benchmarks.",
    "molecule": "Generating molecules in three dimensions is central to drug discovery. We introduce an "
                "equivariant diffusion model that learns to denoise atom coordinates and atom types "
                "jointly, respecting rotations and translations, and it generates more valid and stable "
                "molecules than earlier generative models on the QM9 and GEOM datasets.",
    "graph": "Message passing graph neural networks cannot distinguish some non-isomorphic graphs. We "
             "characterise their expressive power with the Weisfeiler-Leman test and propose a higher-order "
             "graph network that provably separates more graphs, improving accuracy on molecular property "
             "prediction and social network classification benchmarks.",
    "bandit": "We consider the stochastic multi-armed bandit problem with heavy-tailed rewards. We design "
              "a robust upper confidence bound algorithm based on median-of-means estimators and prove "
              "regret bounds that match the lower bound up to constant factors, with experiments on "
              "synthetic bandit instances confirming the theory.",
}
GOOD = {
    "lora": ("Low-Rank Adaptation of Large Language Models",
             "Freezing the model and training small low-rank matrices matches full fine-tuning."),
    "molecule": ("Equivariant Diffusion for Molecule Generation in 3D",
                 "An E(3)-equivariant diffusion model generates valid, stable 3D molecules."),
    "graph": ("Beyond Weisfeiler-Leman: Higher-Order Graph Neural Networks",
              "Higher-order message passing separates graphs that ordinary graph networks cannot."),
    "bandit": ("Robust Upper Confidence Bounds for Heavy-Tailed Bandits",
               "Median-of-means estimates give optimal regret for bandits with heavy-tailed rewards."),
}


def _which(body: dict) -> str:
    prompt = body["messages"][-1]["content"]
    return next(k for k, text in ABSTRACTS.items() if text[:60] in prompt)


def answer(titles: dict[str, tuple[str, str] | str]):
    """A reply function: each paper's JSON (or raw text) picked by the abstract in the prompt."""
    def reply(body: dict) -> str:
        got = titles[_which(body)]
        return got if isinstance(got, str) else json.dumps({"title": got[0], "tldr": got[1]})
    return reply


def ingest_untitled(lib, folder) -> None:
    path = folder / "list.txt"
    path.write_text("TEST 2024 paper list\n\n" + "\n\n".join(ABSTRACTS.values()) + "\n", "utf-8")
    lib.ingest([path], venue="TEST", year=2024, embed=False, analyse=False)


@pytest.fixture()
def untitled(lib, tmp_path):
    ingest_untitled(lib, tmp_path)
    return lib


@pytest.fixture()
def server():
    with LLMServer(models=("tiny-model",)) as s:
        yield s


def _by_key(lib) -> dict[str, dict]:
    return {k: p for p in lib.papers() for k, text in ABSTRACTS.items() if p["abstract"] == text}


def test_relabel_writes_checked_titles_marked_with_the_model(untitled, server):
    lib = untitled
    server.default = Reply(answer(GOOD))
    report = lib.relabel(llm_url=server.url, model="tiny-model")
    assert (report["untitled"], report["asked"], report["written"], report["error"]) == (4, 4, 4, None)
    sent = server.chats[0].body
    assert sent["model"] == "tiny-model" and sent["max_tokens"] == 200 and sent["stream"] is False
    assert any(text in sent["messages"][-1]["content"] for text in ABSTRACTS.values())
    papers = _by_key(lib)
    for key, (title, tldr) in GOOD.items():
        p = papers[key]
        assert p["title"] is None  # the real-title field stays empty
        assert p["generated"]["title"] == title and p["generated"]["tldr"] == tldr
        assert p["generated"]["model"] == "tiny-model" and p["generated"]["created_at"]
    again = lib.relabel(llm_url=server.url, model="tiny-model")
    assert (again["had_one"], again["asked"]) == (4, 0) and len(server.chats) == 4


def test_bad_titles_are_rejected_and_counted(untitled, server):
    server.default = Reply(answer({
        "lora": ("This paper proposes a way to fine-tune language models cheaply.", "A sentence as a title."),
        "molecule": ("A Recipe for Slow-Cooked Tomato Pasta Sauce", "Simmer tomatoes with garlic for two hours."),
        "graph": ("GNN", "Graph networks."),
        "bandit": "I am sorry, I cannot help with that.",
    }))
    report = untitled.relabel(llm_url=server.url, model="tiny-model")
    assert report["written"] == 0
    assert report["rejected"] == {"sentence": 1, "off_topic": 1, "length": 1, "unreadable": 1}
    off = next(e for e in report["examples"] if e["reason"] == "off_topic")
    assert off["title"] == "A Recipe for Slow-Cooked Tomato Pasta Sauce" and float(off["cosine"]) < 0.35
    assert not any("generated" in p for p in untitled.papers())


def test_a_real_title_wins_over_a_generated_one(untitled, server, tmp_path):
    lib = untitled
    server.default = Reply(answer(GOOD))
    lib.relabel(llm_url=server.url, model="tiny-model")
    real = tmp_path / "titled.json"
    real.write_text(json.dumps([{"title": "LoRA: Low-Rank Adaptation of Large Language Models",
                                 "abstract": ABSTRACTS["lora"]}]), "utf-8")
    lib.ingest([real], venue="TEST", year=2024, embed=False, analyse=False)
    papers = _by_key(lib)
    assert papers["lora"]["title"] == "LoRA: Low-Rank Adaptation of Large Language Models"
    assert "generated" not in papers["lora"]
    assert papers["molecule"]["generated"]["title"] == GOOD["molecule"][0]
    rows = {r["abstract"][:40]: r for r in map(json.loads, lib.export(fmt="jsonl").splitlines())}
    assert rows[ABSTRACTS["lora"][:40]]["title"] == "LoRA: Low-Rank Adaptation of Large Language Models"
    md = lib.export(fmt="markdown")
    assert "LoRA: Low-Rank Adaptation of Large Language Models" in md and GOOD["lora"][0] + "\n" not in md
    assert GOOD["molecule"][0] in md and "generated by the model tiny-model" in md
    bib = lib.export(fmt="bibtex")
    assert "Equivariant Diffusion for Molecule Generation" in bib and "generated by the model tiny-model" in bib


def test_undo_removes_the_generated_titles_only(untitled, server):
    lib = untitled
    server.default = Reply(answer(GOOD))
    lib.relabel(llm_url=server.url, model="tiny-model")
    labels = {p["id"]: p.get("label") for p in lib.papers()}
    assert lib.relabel(undo=True) == {"undone": 4, "collection": None}
    assert not any("generated" in p for p in lib.papers())
    assert {p["id"]: p.get("label") for p in lib.papers()} == labels  # derived labels untouched


def test_an_endpoint_fault_stops_the_run_and_keeps_what_was_written(untitled, server):
    server.default = Reply(answer(GOOD))
    server.script(Reply(answer(GOOD)), Reply(answer(GOOD)), Status(500))
    report = untitled.relabel(llm_url=server.url, model="tiny-model")
    assert report["written"] == 2 and report["asked"] == 2
    assert "server error (500" in report["error"] and server.url in report["error"]
    assert sum("generated" in p for p in untitled.papers()) == 2


def test_cli_and_pages_show_generated_titles_and_faults_cleanly(server, tmp_path):
    from fastapi.testclient import TestClient

    from paperscope.library import Library
    from paperscope.web.app import create_app

    path = tmp_path / "lib.db"
    with Library.open(path) as lib:
        ingest_untitled(lib, tmp_path)
    runner = CliRunner()
    server.default = Reply(answer({**GOOD, "graph": ("GNN", "Graph networks.")}))
    out = runner.invoke(app, ["--db", str(path), "relabel", "--llm-url", server.url, "--model", "tiny-model"])
    assert out.exit_code == 0, out.output
    assert "3 written, 1 rejected (sentence 0, length 1" in " ".join(out.output.split())
    shown = runner.invoke(app, ["--db", str(path), "search", "equivariant diffusion molecules", "--mode", "lexical"])
    assert "Equivariant Diffusion for Molecule Generation in 3D (generated by tiny-model)" in " ".join(shown.output.split())
    with TestClient(create_app(path), base_url="http://127.0.0.1:8000") as c:
        page = c.get("/search", params={"q": "equivariant diffusion molecules", "mode": "lexical"}).text
        assert "Equivariant Diffusion for Molecule Generation in 3D" in page and "title: generated by tiny-model" in page
        pid = c.get("/api/search", params={"query": "equivariant diffusion molecules", "mode": "lexical"}).json()
        pid = (pid["results"] if isinstance(pid, dict) else pid)[0]["id"]
        page = c.get(f"/paper/{pid}").text
        assert "generated by the model tiny-model on" in page and GOOD["molecule"][1] in page
    one = runner.invoke(app, ["--db", str(path), "show", pid])
    assert f"tldr (generated by tiny-model): {GOOD['molecule'][1]}" in " ".join(one.output.split())
    dead = runner.invoke(app, ["--db", str(path), "relabel", "--llm-url", "http://127.0.0.1:9/v1", "--model", "m"])
    text = " ".join(dead.output.split())
    assert dead.exit_code == 1 and "cannot reach the language model at http://127.0.0.1:9/v1" in text
    assert "Traceback" not in dead.output
    missing = runner.invoke(app, ["--db", str(path), "relabel"], env={"PAPERSCOPE_LLM_URL": ""})
    assert missing.exit_code == 2 and "--llm-url" in missing.output
    undone = runner.invoke(app, ["--db", str(path), "relabel", "--undo"])
    assert undone.exit_code == 0 and "removed 3 generated titles" in undone.output


def test_an_interruption_keeps_the_batches_written_before_it(untitled, server, monkeypatch):
    from paperscope.llm import relabel

    monkeypatch.setattr(relabel, "BATCH", 2)
    server.default = Reply(answer(GOOD))

    def progress(phase: str, done: int, total: int) -> None:
        if done == 2:  # Ctrl-C right after the first batch was written
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stopped:
        untitled.relabel(llm_url=server.url, model="tiny-model", progress=progress)
    assert stopped.value.relabel_report["written"] == 2
    assert sum("generated" in p for p in untitled.papers()) == 2
    rest = untitled.relabel(llm_url=server.url, model="tiny-model")
    assert (rest["had_one"], rest["asked"], rest["written"]) == (2, 2, 2)


def test_generated_titles_move_with_a_copied_library(untitled, server, tmp_path):
    from paperscope.library import Library

    server.default = Reply(answer(GOOD))
    untitled.relabel(llm_url=server.url, model="tiny-model")
    with Library.open(tmp_path / "copy.db") as dest:
        dest.copy(untitled)
        made = {p["abstract"][:40]: p["generated"] for p in dest.papers()}
    assert made[ABSTRACTS["bandit"][:40]]["title"] == GOOD["bandit"][0]
    assert {m["model"] for m in made.values()} == {"tiny-model"} and len(made) == 4
