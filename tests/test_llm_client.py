"""The OpenAI-compatible client against a real server on 127.0.0.1: what it sends, what it gives
back, and a clear LLMError for every way the server can fail."""
from __future__ import annotations

import socket

import pytest
from llm_server import Cut, LLMServer, Malformed, NoChoices, Reply, Stall, Status

from paperscope.llm import Endpoint, LLMError, chat, chat_stream

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "What is LoRA?"}]


@pytest.fixture()
def server():
    with LLMServer(models=("tiny-model",)) as s:
        yield s


def endpoint(server, **kw) -> Endpoint:
    return Endpoint(server.url, kw.pop("model", "tiny-model"), timeout_s=kw.pop("timeout_s", 5.0), **kw)


def test_plain_reply_sends_model_messages_and_limits(server):
    server.script(Reply("Low-rank adapters [1]."))
    assert chat(endpoint(server), MESSAGES, max_tokens=77) == "Low-rank adapters [1]."
    (got,) = server.chats
    assert got.path == "/v1/chat/completions"
    assert got.body["model"] == "tiny-model"
    assert got.body["messages"] == MESSAGES
    assert got.body["max_tokens"] == 77 and got.body["temperature"] == 0.0 and got.body["stream"] is False
    assert "Authorization" not in got.headers


def test_stream_yields_the_pieces_in_order(server):
    text = "Low-rank adaptation freezes the weights and trains two small matrices [1]."
    server.script(Reply(text, chunk_chars=5))
    pieces = list(chat_stream(endpoint(server), MESSAGES, max_tokens=50))
    assert "".join(pieces) == text and len(pieces) > 5
    assert server.chats[0].body["stream"] is True and server.chats[0].body["max_tokens"] == 50


def test_key_is_sent_as_bearer_and_a_missing_one_says_what_to_set():
    with LLMServer(key="sk-local") as s:
        with pytest.raises(LLMError) as err:
            chat(Endpoint(s.url, "tiny-model"), MESSAGES)
        assert "401" in str(err.value) and "$PAPERSCOPE_LLM_KEY" in str(err.value) and s.url in str(err.value)
        s.script(Reply("fine [1]."))
        assert chat(Endpoint(s.url, "tiny-model", key="sk-local"), MESSAGES) == "fine [1]."
        assert s.chats[-1].headers["Authorization"] == "Bearer sk-local"


def test_unknown_model_and_wrong_url_say_404_and_what_to_check(server):
    with pytest.raises(LLMError) as err:
        chat(endpoint(server, model="llama9"), MESSAGES)
    assert "404" in str(err.value) and "'llama9'" in str(err.value) and "URL" in str(err.value)
    with pytest.raises(LLMError) as err:
        chat(Endpoint(server.base + "/api", "tiny-model"), MESSAGES)
    assert "404" in str(err.value) and server.base + "/api" in str(err.value)


def test_connection_refused_names_the_endpoint():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(LLMError) as err:
        chat(Endpoint(f"http://127.0.0.1:{port}/v1", "m"), MESSAGES)
    assert f"127.0.0.1:{port}/v1" in str(err.value) and "cannot reach" in str(err.value)


def test_short_retry_after_is_waited_for_and_a_long_one_reported(server):
    server.script(Status(429, retry_after=1), Reply("after the pause [1]."))
    assert chat(endpoint(server), MESSAGES) == "after the pause [1]."
    assert len(server.chats) == 2
    server.script(Status(429, retry_after=120))
    with pytest.raises(LLMError) as err:
        chat(endpoint(server), MESSAGES)
    assert "429" in str(err.value) and "120 s" in str(err.value) and err.value.retry_after == 120
    assert len(server.chats) == 3  # not retried


@pytest.mark.parametrize("code", [500, 503])
def test_server_error(server, code):
    server.script(Status(code))
    with pytest.raises(LLMError) as err:
        chat(endpoint(server), MESSAGES)
    assert f"server error ({code}" in str(err.value) and err.value.status == code


def test_reply_that_is_not_json(server):
    server.script(Malformed())
    with pytest.raises(LLMError) as err:
        chat(endpoint(server), MESSAGES)
    assert "not JSON" in str(err.value) and "502 Bad Gateway" in str(err.value)


def test_reply_with_no_choices(server):
    server.script(NoChoices())
    with pytest.raises(LLMError, match="no choices"):
        chat(endpoint(server), MESSAGES)


def test_plain_reply_cut_short(server):
    server.script(Cut("a long answer that never arrives whole " * 5))
    with pytest.raises(LLMError, match="connection to the language model at .* broke"):
        chat(endpoint(server), MESSAGES)


def test_stream_cut_midway_keeps_what_came(server):
    server.script(Cut("Diffusion models generate molecules in 3D [1].", after=3))
    pieces = []
    with pytest.raises(LLMError) as err:
        for piece in chat_stream(endpoint(server), MESSAGES):
            pieces.append(piece)
    assert "cut off mid-stream" in str(err.value)
    assert err.value.partial == "".join(pieces) == "Diffusion models g"


@pytest.mark.parametrize("stream", [False, True])
def test_finish_reason_length_is_a_cut_off_answer(server, stream):
    server.script(Reply("An answer that stops in the mid", finish_reason="length"))
    with pytest.raises(LLMError) as err:
        if stream:
            list(chat_stream(endpoint(server), MESSAGES, max_tokens=8))
        else:
            chat(endpoint(server), MESSAGES, max_tokens=8)
    assert "cut off at the limit of 8 tokens" in str(err.value)
    assert err.value.partial == "An answer that stops in the mid"


@pytest.mark.parametrize("after", [None, 2])
def test_a_30_s_stall_is_cut_by_the_timeout(server, after):
    server.script(Stall(30, after=after))
    with pytest.raises(LLMError) as err:
        list(chat_stream(endpoint(server, timeout_s=1.0), MESSAGES))
    assert "for 1 s (timed out" in str(err.value) and "$PAPERSCOPE_LLM_TIMEOUT" in str(err.value)
    assert ("stopped sending" if after else "sent no answer") in str(err.value)


def test_from_env_explicit_arguments_win(monkeypatch):
    monkeypatch.delenv("PAPERSCOPE_LLM_URL", raising=False)
    assert Endpoint.from_env() is None
    monkeypatch.setenv("PAPERSCOPE_LLM_URL", "http://localhost:11434/v1/")
    monkeypatch.setenv("PAPERSCOPE_LLM_MODEL", "qwen2.5:7b")
    monkeypatch.setenv("PAPERSCOPE_LLM_KEY", "k1")
    monkeypatch.setenv("PAPERSCOPE_LLM_TIMEOUT", "12")
    assert Endpoint.from_env() == Endpoint("http://localhost:11434/v1", "qwen2.5:7b", "k1", 12.0)
    got = Endpoint.from_env(url="http://127.0.0.1:8080/v1/chat/completions", model="llama", key="k2")
    assert (got.url, got.model, got.key) == ("http://127.0.0.1:8080/v1", "llama", "k2")
    monkeypatch.delenv("PAPERSCOPE_LLM_MODEL")
    with pytest.raises(LLMError, match=r"--model NAME or set \$PAPERSCOPE_LLM_MODEL"):
        Endpoint.from_env()
    with pytest.raises(LLMError, match="must start with http"):
        Endpoint.from_env(url="localhost:11434", model="m")
