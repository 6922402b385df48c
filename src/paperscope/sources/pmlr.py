"""PMLR proceedings posts (`_posts/*.md` in an mlresearch/vNNN repository): one paper per file,
its metadata in YAML front matter (title, abstract, author given/family, openreview, software,
pdf).

Venue and year: --venue/--year, else the volume's `_config.yml` beside `_posts/` (`shortname`,
`year`; the `booktitle` when there is no short name), else the post itself (`container-title`,
`issued`). Prefaces (`section: Preface`) are front matter, not papers: reported as a Problem.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Iterator

import yaml

from ..model import Problem, Record
from .base import ReadContext
from .fields import openreview_url, parse_authors, parse_year
from .textio import TextSource
from .venues import canonical_venue, venue_in

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FRONT_MATTER = 1 << 20  # characters


def config_for(post: Path) -> Path | None:
    """The volume's `_config.yml` of a post (`<volume>/_posts/x.md` -> `<volume>/_config.yml`)."""
    for folder in (post.parent.parent, post.parent):
        candidate = folder / "_config.yml"
        if candidate.is_file():
            return candidate
    return None


@functools.lru_cache(maxsize=64)
def _volume(config: str, mtime: float) -> tuple[str | None, int | None, str | None]:
    """(venue, year, volume) from a volume's `_config.yml`."""
    try:
        with open(config, encoding="utf-8") as f:
            data = yaml.load(f, Loader=_Loader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None, None, None
    if not isinstance(data, dict):
        return None, None, None
    venue = canonical_venue(str(data["shortname"])) if data.get("shortname") else None
    if not venue and data.get("booktitle"):
        venue = venue_in(str(data["booktitle"])) or canonical_venue(str(data["booktitle"]))
    volume = str(data["volume"]) if data.get("volume") is not None else None
    return venue, parse_year(data.get("year")), volume


def volume_info(post: Path) -> tuple[str | None, int | None, str | None]:
    config = config_for(post)
    if config is None:
        return None, None, None
    return _volume(str(config), config.stat().st_mtime)


def read_front_matter(text: TextSource) -> tuple[str | None, int]:
    """(the YAML between the opening and closing `---`, or None, line of the failure)."""
    first = text.readline()
    if first.strip() != "---":
        return None, 1
    lines: list[str] = []
    size = 0
    for line in text.lines():
        if line.strip() in ("---", "..."):
            return "".join(lines), 0
        size += len(line)
        if size > MAX_FRONT_MATTER:
            return None, text.line
        lines.append(line)
    return None, text.line + 1


def read_pmlr(path, ctx: ReadContext) -> Iterator[Record | Problem]:
    post = Path(path)
    ctx.file_venue, ctx.file_year, volume = volume_info(post)
    with TextSource(path, ctx.source) as text:
        front, bad_line = read_front_matter(text)
        warnings = text.take_problems()
    if front is None:
        why = "does not start with '---'" if bad_line == 1 else "is not closed by a '---' line"
        yield ctx.fatal(bad_line, f"no front matter: the YAML front matter {why}")
        return
    try:
        meta = yaml.load(front, Loader=_Loader)
    except yaml.YAMLError as exc:
        # where the broken construct starts (an unclosed quote) beats where parsing gave up
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1  # +1: 1-based, +1: the opening '---'
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context = getattr(exc, "context", None)
        yield ctx.fatal(line, f"invalid YAML: {context + ': ' if context else ''}{problem} (line {line})")
        return
    if not isinstance(meta, dict):
        yield ctx.fatal(2, "no front matter fields: the YAML is not a mapping")
        return
    for warning in warnings:
        yield ctx.counted(warning)
    if str(meta.get("section", "")).strip().casefold() == "preface":
        yield ctx.problem(1, f"not a paper: {post.name} is the volume's preface")
        return
    yield ctx.finish(_record(meta, ctx, volume), f"post {post.name}")


def _record(meta: dict[str, Any], ctx: ReadContext, volume: str | None) -> Record:
    rec = Record(abstract=str(meta.get("abstract") or ""), source=ctx.source, line=1,
                 title=str(meta["title"]) if meta.get("title") else None)
    rec.authors = parse_authors(meta.get("author"))
    if not ctx.file_venue and meta.get("container-title"):
        rec.venue = venue_in(str(meta["container-title"]))
    issued = meta.get("issued")
    if isinstance(issued, dict) and issued.get("date-parts"):
        first = issued["date-parts"][0]
        rec.year = parse_year(first[0] if isinstance(first, list) and first else first)
    rec.year = rec.year or parse_year(meta.get("date"))
    if ctx.file_year:
        rec.year = None  # the volume's year (conference year) wins over the publication date
    volume = volume or (str(meta["volume"]) if meta.get("volume") else None)
    paper_id = str(meta["id"]) if meta.get("id") else None
    urls = {"pdf": meta.get("pdf"), "code": meta.get("software"),
            "openreview": openreview_url(meta.get("openreview"))}
    if volume and paper_id:
        urls["paper"] = f"https://proceedings.mlr.press/v{volume}/{paper_id}.html"
        rec.external_id = f"pmlr-v{volume}-{paper_id}"
    rec.urls = {k: str(v) for k, v in urls.items() if v}
    return rec
