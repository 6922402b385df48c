"""The /ask page in a real browser (Debian chromium through Playwright) against a real
`paperscope serve`: ask a question in the box, read the answer, click its first citation to
open the cited paper; a hostile paper cited stays inert; the Chinese interface."""
from __future__ import annotations

import re

import pytest

from test_web_browser import browser, page, shot  # noqa: F401  (fixtures)
from web_support import server, web_db, xss_id  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
QUESTION = "How can one recover the original weights of a model from several LoRA fine-tunes of it?"


def test_ask_a_question_and_follow_a_citation(page, server):  # noqa: F811
    page.goto(server.url + "/")
    page.get_by_role("link", name="Ask", exact=True).click()
    page.wait_for_url(re.compile(r"/ask$"))
    page.locator("#question").fill(QUESTION)
    page.locator("#question").press("Enter")
    page.wait_for_url(re.compile(r"/ask\?question="))
    assert page.locator("#answer-summary").inner_text().startswith("Found")
    first_source = page.locator("#sources li").first
    title = first_source.locator("a").inner_text()
    assert page.locator("#sources li").count() >= 1
    shot(page, "ask")
    cite = page.locator("#quoted a.cite").first
    assert cite.inner_text() == "[1]" and cite.get_attribute("title") == title
    cite.click()
    page.wait_for_url(re.compile(r"/paper/"))
    assert "Spectral DeTuning" in page.locator("main").inner_text()
    assert not page.problems, page.problems


def test_a_cited_hostile_paper_stays_inert_and_the_chinese_interface(page, server, xss_id):  # noqa: F811
    page.goto(server.url + "/ask?question=" + "a sanitiser benchmark for scholarly front ends")
    assert page.locator(f'#sources li[data-id="{xss_id}"]').count() == 1
    assert "<script>" in page.locator(f'#sources li[data-id="{xss_id}"] a').inner_text()  # shown as text
    assert page.evaluate("() => window.__xss === undefined")
    page.goto(server.url + "/lang/zh?next=/ask")
    assert page.locator("h1").inner_text() == "向文库提问"
    page.locator("#question").fill("有哪些论文研究从 LoRA 微调模型恢复预训练权重？")
    page.locator("#question").press("Enter")
    page.wait_for_url(re.compile(r"/ask\?question="))
    assert "LoRA" in page.locator("#searched-as").inner_text()
    assert page.locator("#quoted a.cite").count() >= 1
    page.goto(server.url + "/lang/en?next=/ask")
    assert not page.problems, page.problems


def test_the_model_answer_streams_in_with_clickable_citations_and_a_failure_keeps_the_quotes(page, web_db):  # noqa: F811
    from llm_server import LLMServer, Reply, Status

    from web_support import start_server, stop_server

    with LLMServer() as llm:
        srv = start_server(web_db, env={"PAPERSCOPE_LLM_URL": llm.url, "PAPERSCOPE_LLM_MODEL": "tiny-model",
                                        "PAPERSCOPE_LLM_TIMEOUT": "5"})
        try:
            llm.script(Reply("Spectral DeTuning recovers the weights before fine-tuning [1]. Flows help too [7].",
                             chunk_chars=4), Status(500))
            page.goto(srv.url + "/ask?question=" + QUESTION)
            done = "() => document.getElementById('generated').classList.contains('done')"
            for _ in range(300):
                if page.evaluate(done):
                    break
                page.wait_for_timeout(100)
            generated = page.locator("#generated-text")
            assert "recovers the weights before fine-tuning" in generated.inner_text()
            assert "[7]" not in generated.inner_text()
            assert "tiny-model" in page.locator("#generated-status").inner_text()
            assert "[7]" in page.locator("#generated-notes").inner_text()  # reported as removed
            shot(page, "ask-generated")
            generated.locator("a.cite").first.click()
            page.wait_for_url(re.compile(r"/paper/"))
            assert "Spectral DeTuning" in page.locator("main").inner_text()
            page.goto(srv.url + "/ask?question=" + QUESTION)  # the model fails: the quotes stand
            failed = "() => document.getElementById('generated').classList.contains('failed')"
            for _ in range(300):
                if page.evaluate(failed):
                    break
                page.wait_for_timeout(100)
            assert "500" in page.locator("#generated-status").inner_text()
            assert page.locator("#quoted a.cite").count() >= 1
            assert not page.problems, page.problems
        finally:
            stop_server(srv)
