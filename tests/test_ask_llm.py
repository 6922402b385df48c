"""Generated answers through the user's own model, against a real OpenAI-compatible server on
127.0.0.1 (tests/llm_server.py): what `ask` sends (the cited papers' abstracts as numbered
sources, the question), what the user gets (the model's answer, invented citations removed and
reported), that weak evidence never reaches the model, and that every fault of the endpoint ends
in a message and the quoted answer; through the library, the command line, the HTTP API and
its event stream, and MCP."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest
from llm_server import Cut, LLMServer, Malformed, NoChoices, Reply, Stall, Status, source_numbers
from mcp_support import data, run_mcp
from test_ask import LORA_EN, LORA_ZH, NOTHING, paper_with
from web_support import server, start_server, stop_server, web_db  # noqa: F401  (fixtures)

from paperscope.llm import Endpoint

INVENTED = "Spectral DeTuning recovers the weights of the model before fine-tuning [1]. Quantization also helps [9]."


@pytest.fixture()
def llm():
    with LLMServer() as s:
        yield s


def _folded(text: str) -> str:
    return " ".join(text.split())


def test_the_model_answers_from_the_cited_abstracts_and_invented_citations_are_removed(samples_lib, llm):
    target = paper_with(samples_lib, "Spectral DeTuning")
    quoted = samples_lib.ask(LORA_EN)
    llm.script(Reply(INVENTED))
    answer = samples_lib.ask(LORA_EN, llm=Endpoint(llm.url, "tiny-model"))
    out = answer.to_json()
    assert (out["mode"], out["model"], out["fallback"]) == ("generated", "tiny-model", None)
    assert out["citations"] == quoted.to_json()["citations"]  # the same papers, numbered alike
    assert out["citations"][0]["id"] == target["id"]
    assert "recovers the weights of the model before fine-tuning [1]" in out["answer"]
    assert "[9]" not in out["answer"] and out["removed"] == ["[9]"]
    assert out["answer"].startswith(quoted.summary)
    sent = llm.chats[-1]
    assert source_numbers(sent.body) == [c["n"] for c in out["citations"]]
    assert f"Question: {LORA_EN}" in sent.prompt
    assert _folded(target["abstract"])[:300] in sent.prompt


def test_the_stream_shows_no_invented_citation_and_a_chinese_question_is_sent_as_asked(samples_lib, llm):
    llm.script(Reply(INVENTED, chunk_chars=3))
    pieces: list[str] = []
    answer = samples_lib.ask(LORA_ZH, llm=Endpoint(llm.url, "tiny-model"), stream=pieces.append)
    assert answer.mode == "generated" and len(pieces) > 3
    assert "[9]" not in "".join(pieces) and "[1]" in "".join(pieces)
    assert f"Question: {LORA_ZH}" in llm.chats[-1].prompt and llm.chats[-1].body.get("stream") is True


def test_weak_evidence_never_reaches_the_model(samples_lib, llm):
    answer = samples_lib.ask(NOTHING, llm=Endpoint(llm.url, "tiny-model"))
    assert answer.weak and answer.mode == "extractive" and answer.model is None
    assert "not asked" in answer.fallback and "weak" in answer.fallback
    assert llm.chats == []


FAULTS = [
    ("rate limited", Status(429), "429"),
    ("server error", Status(500), "500"),
    ("overloaded", Status(503), "503"),
    ("not JSON", Malformed(), "JSON"),
    ("no choices", NoChoices(), "choice"),
    ("cut off", Cut("Spectral DeTuning recovers weights [1] and more", after=2), ""),
    ("stalled", Stall(30), "timed out"),
]


@pytest.mark.parametrize("name,fault,says", FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("streamed", [False, True], ids=["plain", "streamed"])
def test_every_endpoint_fault_gives_a_message_and_the_quoted_answer(samples_lib, llm, name, fault, says, streamed):
    quoted = samples_lib.ask(LORA_EN).to_json()
    llm.script(fault)
    pieces: list[str] = []
    out = samples_lib.ask(LORA_EN, llm=Endpoint(llm.url, "tiny-model", timeout_s=2),
                          stream=pieces.append if streamed else None).to_json()
    assert out["mode"] == "extractive" and out["model"] is None
    assert out["fallback"] and llm.url.split("/v1")[0] in out["fallback"], out["fallback"]  # names the endpoint
    if not streamed:  # (a stream that is not one reads as cut off)
        assert says.lower() in out["fallback"].lower(), out["fallback"]
    assert (out["answer"], out["citations"]) == (quoted["answer"], quoted["citations"])


def test_a_wrong_key_an_unknown_model_and_a_bad_url_are_messages(samples_lib):
    with LLMServer(key="secret") as guarded:
        no_key = samples_lib.ask(LORA_EN, llm=Endpoint(guarded.url, "tiny-model"))
        unknown = samples_lib.ask(LORA_EN, llm=Endpoint(guarded.url, "no-such-model", key="secret"))
    assert no_key.mode == "extractive" and "401" in no_key.fallback
    assert unknown.mode == "extractive" and "404" in unknown.fallback
    no_model = samples_lib.ask(LORA_EN, llm="http://127.0.0.1:9/v1", model="")
    assert no_model.mode == "extractive" and "model" in no_model.fallback
    bad_url = samples_lib.ask(LORA_EN, llm="ftp://example.org", model="m")
    assert bad_url.mode == "extractive" and "http" in bad_url.fallback


def _cli(db, llm_env: dict, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERSCOPE_LLM")}
    return subprocess.run([sys.executable, "-m", "paperscope", "--db", str(db), "ask", *args], capture_output=True,
                          text=True, timeout=300, env={**env, **llm_env, "COLUMNS": "200"})


@pytest.mark.slow
def test_the_command_line_uses_the_flags_or_the_environment(samples_lib, llm):
    llm.script(Reply(INVENTED))
    flags = _cli(samples_lib.path, {}, "--llm-url", llm.url, "--model", "tiny-model", LORA_EN)
    assert flags.returncode == 0, flags.stderr
    assert "recovers the weights of the model before fine-tuning [1]" in flags.stdout
    assert "answer written by tiny-model" in flags.stdout and "[9]" in flags.stdout.split("citations removed")[1]
    llm.script(Status(500))
    env = _cli(samples_lib.path, {"PAPERSCOPE_LLM_URL": llm.url, "PAPERSCOPE_LLM_MODEL": "tiny-model"}, "--json",
               LORA_EN)
    out = json.loads(env.stdout)
    assert env.returncode == 0 and out["mode"] == "extractive" and "500" in out["fallback"]
    shown = _cli(samples_lib.path, {"PAPERSCOPE_LLM_URL": llm.url}, LORA_EN)  # no model named
    assert shown.returncode == 0 and "the answer quotes the abstracts instead" in shown.stderr
    assert "--model" in shown.stderr
    assert "[1]" in shown.stdout and "Traceback" not in shown.stderr


@pytest.fixture()
def llm_server(web_db, llm):  # noqa: F811
    srv = start_server(web_db, env={"PAPERSCOPE_LLM_URL": llm.url, "PAPERSCOPE_LLM_MODEL": "tiny-model",
                                    "PAPERSCOPE_LLM_TIMEOUT": "3"})
    yield srv
    stop_server(srv)


def _events(response: httpx.Response) -> list[tuple[str, dict]]:
    out, kind = [], None
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            out.append((kind, json.loads(line[6:])))
    return out


def test_the_server_answers_with_its_model_streams_it_and_never_caches_it(llm_server, llm):
    llm.script(Reply(INVENTED), Status(500))
    first = httpx.get(llm_server.url + "/api/ask", params={"question": LORA_EN}, timeout=60)
    assert first.json()["mode"] == "generated" and first.json()["removed"] == ["[9]"]
    assert first.headers["cache-control"] == "no-store"
    again = httpx.get(llm_server.url + "/api/ask", params={"question": LORA_EN}, timeout=60).json()
    assert again["mode"] == "extractive" and "500" in again["fallback"]  # asked again, not replayed
    assert len(llm.chats) == 2
    llm.script(Reply(INVENTED, chunk_chars=4))
    with httpx.stream("GET", llm_server.url + "/ask/stream", params={"question": LORA_EN}, timeout=60) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        events = _events(r)
    tokens = "".join(d["text"] for kind, d in events if kind == "token")
    assert len(events) > 3 and events[-1][0] == "answer" and events[-1][1]["mode"] == "generated"
    assert "[1]" in tokens and "[9]" not in tokens
    page = httpx.get(llm_server.url + "/ask", params={"question": LORA_EN}, timeout=60).text
    assert 'data-stream="/ask/stream?question=' in page
    weak = httpx.get(llm_server.url + "/ask", params={"question": NOTHING}, timeout=60).text
    assert "data-stream" not in weak


def test_the_mcp_tool_uses_the_model_in_the_environment(web_db, llm, monkeypatch):  # noqa: F811
    monkeypatch.setenv("PAPERSCOPE_LLM_URL", llm.url)
    monkeypatch.setenv("PAPERSCOPE_LLM_MODEL", "tiny-model")
    llm.script(Reply(INVENTED))

    async def body(session):
        return data(await session.call_tool("ask", {"question": LORA_EN}))

    out = run_mcp(web_db, body)
    assert out["mode"] == "generated" and out["removed"] == ["[9]"] and "[9]" not in out["answer"]
