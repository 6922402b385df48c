"""Generated answers: the prompt carries the numbered sources and the question; invented
citations never reach the user, claims without one are marked."""
from __future__ import annotations

import pytest
from llm_server import LLMServer, Reply, source_numbers

from paperscope.llm import Endpoint, LLMError
from paperscope.llm.answer import Source, build_messages, check_citations, generate

SOURCES = [
    Source(1, "p-aaa", "Equivariant diffusion for molecule generation in 3D",
           "We introduce an E(3) equivariant diffusion model which learns to denoise atom coordinates."),
    Source(2, "p-bbb", "Geometric latent diffusion models",
           "We propose a latent diffusion model for 3D molecule generation with an autoencoder."),
]


@pytest.fixture()
def server():
    with LLMServer() as s:
        yield s


def test_prompt_holds_the_numbered_sources_and_the_question(server):
    server.script(Reply("EDM denoises atom coordinates [1] and GeoLDM works in a latent space [2]."))
    got = generate(Endpoint(server.url, "tiny-model"), "Which papers generate molecules with diffusion?", SOURCES)
    assert got.text == "EDM denoises atom coordinates [1] and GeoLDM works in a latent space [2]."
    assert (got.cited, got.removed, got.uncited) == ([1, 2], [], [])
    sent = server.chats[0]
    assert source_numbers(sent.body) == [1, 2]
    assert "[1] Equivariant diffusion for molecule generation in 3D\nWe introduce an E(3)" in sent.prompt
    assert "Question: Which papers generate molecules with diffusion?" in sent.prompt
    assert "cite" in sent.system.lower() and sent.body["max_tokens"] > 0


def test_invented_citations_are_removed_and_reported(server):
    server.script(Reply("EDM denoises coordinates [1][7]. GeoLDM uses a latent space [2, 9]. "
                        "A third approach uses flows [12]."))
    got = generate(Endpoint(server.url, "tiny-model"), "diffusion for molecules?", SOURCES)
    assert "[7]" not in got.text and "[9]" not in got.text and "[12]" not in got.text
    assert got.removed == ["[7]", "[9]", "[12]"]
    assert got.cited == [1, 2]
    assert got.text.startswith("EDM denoises coordinates [1]. GeoLDM uses a latent space [2].")
    assert got.uncited == ["A third approach uses flows."]
    assert "A third approach uses flows. [citation needed]" in got.text


def test_answer_without_citations_is_marked_sentence_by_sentence(server):
    server.script(Reply("Both papers use diffusion to generate molecules. They work in three dimensions."))
    got = generate(Endpoint(server.url, "tiny-model"), "diffusion?", SOURCES)
    assert got.cited == [] and len(got.uncited) == 2
    assert got.text == ("Both papers use diffusion to generate molecules. [citation needed] "
                        "They work in three dimensions. [citation needed]")


def test_streamed_pieces_never_show_an_invented_citation(server):
    text = "EDM denoises coordinates [1] [7]. GeoLDM [2] uses a latent space [2, 8]."
    server.script(Reply(text, chunk_chars=2))  # markers split across chunks
    shown: list[str] = []
    got = generate(Endpoint(server.url, "tiny-model"), "diffusion?", SOURCES, stream=shown.append)
    assert len(shown) > 5
    assert "".join(shown) == "EDM denoises coordinates [1]. GeoLDM [2] uses a latent space [2]."
    assert got.removed == ["[7]", "[8]"] and got.cited == [1, 2]
    assert server.chats[0].body["stream"] is True


def test_chinese_question_asks_for_a_chinese_answer(server):
    server.script(Reply("两篇论文都使用扩散模型生成三维分子【1】【2】。"))
    got = generate(Endpoint(server.url, "tiny-model"), "有哪些论文用扩散模型生成分子？", SOURCES)
    assert got.text == "两篇论文都使用扩散模型生成三维分子[1][2]。" and got.cited == [1, 2]
    assert "answer in Chinese" in server.chats[0].prompt


def test_endpoint_fault_reaches_the_caller_as_llm_error():
    with pytest.raises(LLMError):
        generate(Endpoint("http://127.0.0.1:9/v1", "m", timeout_s=2), "q", SOURCES)


@pytest.mark.parametrize("text, cited, removed", [
    ("Shown in [1-2].", [1, 2], []),
    ("Shown in [Source 2] and [sources 1, 3].", [2, 1], ["[3]"]),
    ("See [0] and [２].", [2], ["[0]"]),
])
def test_marker_forms(text, cited, removed):
    got = check_citations(text, SOURCES)
    assert (got.cited, got.removed) == (cited, removed)


def test_a_short_claim_citing_only_an_invented_source_is_marked():
    got = check_citations("Flows help too [7]. EDM [9] works well. Latents help [2][8].", SOURCES)
    assert got.removed == ["[7]", "[9]", "[8]"]
    assert got.text == "Flows help too. [citation needed] EDM works well. [citation needed] Latents help [2]."
    assert got.uncited == ["Flows help too.", "EDM works well."]


def test_lead_ins_and_headings_are_not_claims():
    got = check_citations("## Answer\nThe sources say:\n- EDM denoises atom coordinates [1].", SOURCES)
    assert got.uncited == [] and got.text == "## Answer\nThe sources say:\n- EDM denoises atom coordinates [1]."


def test_build_messages_numbers_every_source():
    messages = build_messages("What is EDM?", SOURCES)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "[1] Equivariant" in messages[1]["content"] and "[2] Geometric" in messages[1]["content"]
