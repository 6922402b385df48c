"""The user's own language model, through the OpenAI chat API that Ollama, llama.cpp's server,
vLLM and LM Studio speak: `client` (Endpoint, chat, chat_stream, LLMError), `answer` (numbered
sources in, a checked answer with citations out). Nothing here runs unless a URL is given
(`--llm-url`, `$PAPERSCOPE_LLM_URL`): paperscope stays offline by default."""
from __future__ import annotations

from . import answer
from .client import Endpoint, LLMError, chat, chat_stream

__all__ = ["answer", "Endpoint", "LLMError", "chat", "chat_stream"]
