"""UI strings in English (default) and Chinese. Only the interface is translated; paper text is
shown as the lists give it. Pick the language from the `lang` cookie set by `/lang`."""
from __future__ import annotations

from typing import Callable

LANGUAGES = {"en": "English", "zh": "中文"}
DEFAULT = "en"

_STRINGS: dict[str, tuple[str, str]] = {
    # navigation
    "app.tagline": ("offline explorer for conference paper lists", "离线浏览会议论文列表"),
    "nav.home": ("Home", "首页"),
    "nav.search": ("Search", "搜索"),
    "nav.topics": ("Topics", "主题"),
    "nav.map": ("Map", "地图"),
    "nav.compare": ("Compare", "对比"),
    "nav.trends": ("Trends", "趋势"),
    "trends.title": ("Trends", "趋势"),
    "trends.query": ("Papers containing", "包含以下词语的论文"),
    "trends.button": ("Show", "显示"),
    "trends.hint": ("Every word must occur (\"phrases\" too); the share is of each year's papers.",
                    "每个词都须出现（\"短语\"亦然）；占比按当年论文数计算。"),
    "trends.share": ("share of papers", "论文占比"),
    "trends.matching": ("matching", "匹配"),
    "trends.growth": ("Which topics grew", "哪些主题在增长"),
    "trends.from": ("from", "从"),
    "trends.to": ("to", "到"),
    "trends.change": ("change", "变化"),
    "trends.none": ("Type words to count, e.g. adversarial examples.", "请输入要统计的词语，例如 adversarial examples。"),
    "nav.related": ("Related to my draft", "相关论文"),
    "nav.ask": ("Ask", "提问"),
    "ask.title": ("Ask the library", "向文库提问"),
    "ask.placeholder": ("e.g. which papers recover the weights of LoRA fine-tunes?", "例如：有哪些论文研究 LoRA 权重恢复？"),
    "ask.button": ("Ask", "提问"),
    "ask.hint": ("The answer quotes the abstracts of the papers found, each cited [n]; click a citation to open the paper.",
                 "答案引用所找到论文的摘要原句，每段标注 [n]；点击引用可打开论文。"),
    "ask.searched_as": ("searched as:", "检索词："),
    "ask.sources": ("Sources", "来源"),
    "ask.quoted": ("Quoted from the abstracts", "摘要原句"),
    "ask.generating": ("The model is writing an answer from these sources…", "模型正在根据这些来源撰写答案…"),
    "ask.written_by": ("written by {model} from the sources below", "由 {model} 根据以下来源撰写"),
    "ask.failed": ("the model gave no answer: {reason}; the quoted answer below stands.", "模型未能作答：{reason}；以下为摘要原句。"),
    "ask.broke": ("the connection to the model broke off; the quoted answer below stands.", "与模型的连接中断；以下为摘要原句。"),
    "ask.removed": ("citations removed (not among the sources):", "已删除不在来源中的引用："),
    "ask.uncited": ("claims without a citation:", "无引用的陈述："),
    "nav.library": ("My library", "我的文库"),
    "nav.api": ("API", "API"),
    "lang.switch": ("中文", "English"),
    # home
    "home.collections": ("Collections", "论文集"),
    "home.papers": ("papers", "篇论文"),
    "home.lists": ("lists", "个列表"),
    "home.total": ("{n} papers in {c} collections", "共 {n} 篇论文，{c} 个论文集"),
    "home.empty": ("The library is empty. Add lists with: paperscope ingest FOLDER",
                   "文库为空。请先运行：paperscope ingest 文件夹"),
    "home.tags": ("Tags", "标签"),
    "home.no_tags": ("No tags yet: tag papers from their cards.", "还没有标签：可在论文卡片上添加。"),
    # search
    # placeholders stay short enough to show whole in a phone-width box (tests/test_web_browser_layout.py)
    "search.placeholder": ("Topic, title or \"phrase\"…", "主题、标题或\"短语\"…"),
    "search.short": ("Search papers…", "搜索论文…"),
    "search.button": ("Search", "搜索"),
    "search.mode": ("Mode", "方式"),
    "search.mode.hybrid": ("hybrid", "混合"),
    "search.mode.lexical": ("exact words", "关键词"),
    "search.mode.semantic": ("meaning", "语义"),
    "search.results": ("{n} results for", "{n} 条结果："),
    "search.result_one": ("1 result for", "1 条结果："),
    "search.none": ("No papers match.", "没有匹配的论文。"),
    "search.top_of": ("top {n} of {m} matching papers for", "{m} 篇匹配论文中的前 {n} 篇："),
    "search.weaker": ("Weaker matches", "较弱的匹配"),
    "search.only_weak": ("Nothing matches this query well; the closest papers:", "没有与查询很好匹配的论文；最接近的论文："),
    "search.weak": ("weak match", "弱匹配"),
    "search.weak_hint": ("little of the query's words and little of its meaning: listed after the closer matches",
                         "查询词和语义都只匹配了一小部分：排在较接近的结果之后"),
    "search.why": ("why", "原因"),
    "search.score": ("score", "得分"),
    "search.hint": ("Type to search; results update as you type.", "输入即可搜索，结果实时更新。"),
    # filters
    "filter.venue": ("Venue", "会议"),
    "filter.year": ("Year", "年份"),
    "filter.type": ("Type", "类型"),
    "filter.any": ("any", "全部"),
    "filter.has_code": ("has code", "有代码"),
    "filter.status": ("Status", "状态"),
    "filter.exclude_type": ("Exclude type", "排除类型"),
    "filter.topic": ("Topic", "主题"),
    "filter.apply": ("Apply", "应用"),
    "sort.label": ("Sort", "排序"),
    "sort.list": ("list order", "列表顺序"),
    "sort.type": ("paper type", "论文类型"),
    "sort.topic": ("topic", "主题"),
    "sort.title": ("title", "标题"),
    # cards
    "card.abstract": ("abstract", "摘要"),
    "card.code": ("code", "代码"),
    "card.tldr": ("TL;DR", "要点"),
    "card.methods": ("methods", "方法"),
    "card.untitled": ("(untitled)", "（无标题）"),
    "card.label_hint": ("derived label: the list gives no title", "自动生成的标题：列表中没有标题"),
    "card.et_al": (" et al.", " 等"),
    "card.title_from": ("title: {origin}", "标题来源：{origin}"),
    "card.title_derived": ("title: derived", "标题：自动生成"),
    "card.title_generated": ("title: generated by {model}", "标题：由 {model} 生成"),
    "card.generated_hint": ("generated by the model {model}: the list gives no title",
                            "由模型 {model} 生成：列表中没有标题"),
    "paper.title_generated": ("generated by the model {model} on {date} (paperscope relabel)",
                              "由模型 {model} 于 {date} 生成（paperscope relabel）"),
    "paper.tldr_generated": ("TL;DR by {model}", "TL;DR（{model} 生成）"),
    "card.title_score": ("matched by abstract, score {score}", "按摘要匹配，得分 {score}"),
    "paper.title_from": ("Title from", "标题来源"),
    "paper.title_derived": ("derived from the abstract (the list gives none)", "由摘要生成（列表未给出）"),
    "card.star": ("star", "收藏"),
    "card.read": ("read", "已读"),
    "card.tags": ("tags", "标签"),
    "card.add_tag": ("add tag", "添加标签"),
    "card.not_relevant": ("not relevant", "不相关"),
    "card.remove_tag": ("remove tag", "移除标签"),
    # why
    "why.terms": ("matched terms", "匹配词"),
    "why.fields": ("in fields", "所在字段"),
    "why.lexical": ("words", "词匹配"),
    "why.semantic": ("meaning", "语义"),
    "why.fusion": ("fusion", "融合"),
    "why.cosine": ("cosine", "余弦"),
    "why.rerank": ("second stage", "二次排序"),
    "why.coverage": ("share of the query's words", "查询词覆盖率"),
    "why.gap": ("cosine gap to the best", "与最佳余弦的差"),
    "why.bigrams": ("word pairs in order", "相邻词对"),
    "why.phrases": ("exact phrases", "精确短语"),
    "why.weak": ("meaning (cosine {cosine}) under {max_cosine} and under {coverage} % of the query's words: "
                 "listed after the closer matches, whatever its score",
                 "语义（余弦 {cosine}）低于 {max_cosine}，且查询词覆盖不足 {coverage}%：无论得分高低，都排在较接近的结果之后"),
    "why.nearest": ("like your", "相似的已标注论文"),
    "why.parts": ("scores", "得分"),
    "why.similarity": ("similarity", "相似度"),
    # paging
    "page.prev": ("‹ previous", "‹ 上一页"),
    "page.next": ("next ›", "下一页 ›"),
    "page.range": ("{a}–{b} of {n}", "第 {a}–{b} 篇，共 {n} 篇"),
    # paper
    "paper.facts": ("Facts", "信息"),
    "paper.authors": ("Authors", "作者"),
    "paper.links": ("Links", "链接"),
    "paper.related": ("Related papers", "相关论文"),
    "paper.topic": ("Topic", "主题"),
    "paper.collections": ("In collections", "所属论文集"),
    "paper.position": ("#{n} in {file}", "{file} 第 {n} 篇"),
    "paper.note": ("Note", "笔记"),
    "paper.save_note": ("Save note", "保存笔记"),
    "paper.saved": ("saved", "已保存"),
    "paper.keyphrases": ("keyphrases", "关键词"),
    "paper.keywords": ("keywords", "列表关键词"),
    "paper.artifacts": ("benchmarks & datasets", "基准与数据集"),
    "paper.type": ("type", "类型"),
    "paper.not_found": ("No paper with this id.", "没有这个编号的论文。"),
    "paper.on_map": ("show on map", "在地图上显示"),
    "paper.reviewers_hint": ("authors in this library who could review this paper (its authors and their co-authors left out)",
                             "本文库中可以审阅这篇论文的作者（排除本文作者及其合作者）"),
    # paper types (enrich.paper_type.TYPES): badges, facts, filters, comparisons
    "type.method": ("method", "方法"),
    "type.theory": ("theory", "理论"),
    "type.benchmark": ("benchmark", "基准"),
    "type.empirical": ("empirical", "实证"),
    "type.position": ("position", "立场"),
    "type.survey": ("survey", "综述"),
    # topics / map / compare
    "topics.title": ("Topics", "主题"),
    "topics.level": ("Level", "层级"),
    "topics.coarse": ("coarse", "粗粒度"),
    "topics.fine": ("fine", "细粒度"),
    "topics.size": ("papers", "篇"),
    "topics.unassigned": ("unassigned", "未归类"),
    "topics.count": ("topics", "个主题"),
    "topics.all": ("all topics", "全部主题"),
    "topics.all_papers": ("all papers", "全部论文"),
    "topics.on_map": ("see them on the map", "在地图上查看"),
    "topics.none": ("No papers to group yet: ingest a list first.", "还没有可以归类的论文：请先导入论文列表。"),
    "map.title": ("Map", "地图"),
    "map.hint": ("Hover a point to see its paper, click to open it; search to highlight.",
                 "悬停查看论文，点击打开；搜索可高亮结果。"),
    "map.highlight": ("Highlight", "高亮"),
    "map.loading": ("loading map…", "正在加载地图…"),
    "compare.title": ("Compare two collections", "对比两个论文集"),
    "compare.button": ("Compare", "对比"),
    "compare.shares": ("Topic shares", "主题占比"),
    "compare.terms": ("Distinctive terms", "特色词"),
    "compare.types": ("Paper types", "论文类型"),
    "compare.pick": ("Pick two collections.", "请选择两个论文集。"),
    "compare.vs": ("vs", "对比"),
    "compare.same": ("Pick two different collections: both sides are the same papers.",
                     "请选择两个不同的论文集：两边是同一批论文。"),
    "compare.small": ("{name} has fewer than 100 papers: its shares and distinctive terms are weak evidence.",
                      "{name} 不足 100 篇论文：其主题占比和特色词的统计依据较弱。"),
    "compare.no_terms": ("No term stands out significantly.", "没有显著突出的特色词。"),
    # related
    "related.title": ("Related to my draft", "与我的草稿相关的论文"),
    "related.placeholder": ("Paste an abstract or a few paragraphs of your draft…", "粘贴摘要或草稿段落…"),
    "related.button": ("Find related papers", "查找相关论文"),
    # library
    "library.title": ("My library", "我的文库"),
    "library.starred": ("Starred", "已收藏"),
    "library.notes": ("Notes", "笔记"),
    "library.recommend": ("Recommended for tag", "按标签推荐"),
    "library.empty": ("Nothing here yet: star or tag papers to build your reading list.",
                      "这里还没有内容：收藏或标注论文来建立阅读列表。"),
    "library.export": ("Export", "导出"),
    "export.untitled": ("No real title: {n} of {total} papers (a derived label stands in; the export marks it).",
                        "没有真实标题：{total} 篇论文中的 {n} 篇（以自动生成的标题代替，导出文件中会注明）。"),
    "export.no_authors": ("No authors: {n} of {total} papers (the export marks it).",
                          "没有作者：{total} 篇论文中的 {n} 篇（导出文件中会注明）。"),
    "export.hint": ("Ingesting the proceedings (an OpenReview, PMLR or virtual-site export) fills in titles "
                    "and authors by merging.",
                    "导入会议论文集（OpenReview、PMLR 或会议网站的导出文件）后，合并会补全标题和作者。"),
    "export.skip": ("Export only the {n} papers with a real title:", "只导出有真实标题的 {n} 篇论文："),
    # expertise
    "nav.match": ("Match my papers", "匹配我的论文"),
    "match.title": ("Match my papers", "匹配我的论文"),
    "match.hint": ("Paste your papers (BibTeX from Zotero, RIS, JSON, or abstracts separated by blank lines) or pick a file: the papers of the collection are ranked by how well they fit your work.",
                   "粘贴你的论文（Zotero 导出的 BibTeX、RIS、JSON，或以空行分隔的摘要）或选择文件：按与你的工作的契合度为论文集中的论文排序。"),
    "match.file": ("BibTeX file", "BibTeX 文件"),
    "match.button": ("Match", "匹配"),
    "match.profile": ("Profile: {papers} papers, {linked} found in the library", "档案：{papers} 篇论文，其中 {linked} 篇在文库中"),
    "match.near": ("Closest of yours", "最接近的你的论文"),
    "match.words": ("Shared words", "共同词"),
    "experts.title": ("Who works on…", "谁在研究…"),
    "experts.placeholder": ("e.g. conformal prediction", "例如 conformal prediction"),
    "experts.button": ("Find authors", "查找作者"),
    "reviewers.title": ("Reviewer suggestions", "审稿人建议"),
    "reviewers.for": ("for", "论文"),
    "reviewers.authors": ("Authors (left out with their co-authors: {n})", "作者（连同合作者排除：{n} 人）"),
    "reviewers.link": ("Suggest reviewers", "推荐审稿人"),
    "reviewers.none": ("No author to suggest: the lists give no authors, or no author other than this paper's own "
                        "(and their co-authors) has at least two papers in the library.",
                        "没有可推荐的作者：列表中没有作者信息，或除本文作者（及其合作者）外没有作者在文库中有至少两篇论文。"),
    "authors.papers": ("papers", "篇论文"),
    "authors.also": ("with the same papers", "论文相同的合作者"),
    # misc
    "error.title": ("Something is wrong with this request", "请求有误"),
    "error.not_found": ("Page not found.", "页面不存在。"),
    "writes.disabled": ("read-only server", "只读服务器"),
}


def normalise(lang: str | None) -> str:
    return lang if lang in LANGUAGES else DEFAULT


def translator(lang: str) -> Callable[..., str]:
    """`t(key, **values)` for one language; unknown keys show as themselves (easy to spot)."""
    index = 1 if normalise(lang) == "zh" else 0

    def t(key: str, **values: object) -> str:
        pair = _STRINGS.get(key)
        text = pair[index] if pair else key
        return text.format(**values) if values else text

    return t


def type_label(name: str | None, t: Callable[..., str]) -> str:
    """A paper type as the interface language says it (an unknown type shows as stored)."""
    if not name:
        return ""
    key = f"type.{name}"
    text = t(key)
    return name if text == key else text


def keys() -> list[str]:
    return list(_STRINGS)
