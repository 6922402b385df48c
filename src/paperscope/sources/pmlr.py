"""PMLR proceedings posts (`_posts/*.md` in an mlresearch/vNNN repository): one paper per file,
its metadata in YAML front matter (title, abstract, author given/family, openreview, software,
pdf).

Venue and year: --venue/--year, else the volume's `_config.yml` beside `_posts/` (`shortname`,
`year`; the `booktitle` when there is no short name), else the post itself (`container-title`,
`issued`). Prefaces (`section: Preface`) are front matter, not papers: left out with a note.

YAML aliases are refused in posts (a few hundred bytes of nested aliases stand for gigabytes of
text once walked: the "billion laughs"); PMLR posts never hold them. A volume's `_config.yml` may
(UAI 2024's does): it is loaded with them, as shared objects that nothing here walks, and only
its scalar fields are read. Title and abstract must be plain text.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Iterator

import yaml

from ..model import Problem, Record
from .base import ReadContext, describe_error
from .fields import MAX_VENUE_TEXT, NotAPaper, openreview_url, parse_authors, parse_year, text_field
from .textio import TextSource
from .venues import canonical_venue, venue_in

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FRONT_MATTER = 1 << 20  # characters


class AliasRefused(yaml.YAMLError):
    def __init__(self, mark):
        super().__init__("aliases are not accepted")
        self.problem, self.context, self.problem_mark, self.context_mark = (
            "YAML aliases (*name) are not accepted in front matter", None, mark, None)


def load_yaml(text: str, aliases: bool = False) -> Any:
    """`yaml.safe_load`; without `aliases` the events are checked first (linear in the text, no
    expansion) and an alias is refused. Raises yaml.YAMLError."""
    if not aliases:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                raise AliasRefused(event.start_mark)
    return yaml.load(text, Loader=_Loader)


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
            data = load_yaml(f.read(MAX_FRONT_MATTER), aliases=True)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, yaml.YAMLError):
        return None, None, None
    if not isinstance(data, dict):
        return None, None, None
    short, booktitle, volume = (text_field(data.get(k), k, None) for k in ("shortname", "booktitle", "volume"))
    venue = canonical_venue(short[:MAX_VENUE_TEXT]) if short else None
    if not venue and booktitle:
        booktitle = booktitle[:MAX_VENUE_TEXT]
        venue = venue_in(booktitle) or canonical_venue(booktitle)
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
    with ctx.open(path) as text:
        front, bad_line = read_front_matter(text)
        warnings = text.take_problems()
    if front is None:
        why = "does not start with '---'" if bad_line == 1 else "is not closed by a '---' line"
        yield ctx.fatal(bad_line, f"no front matter: the YAML front matter {why}")
        return
    try:
        meta = load_yaml(front)
    except (RecursionError, ValueError) as exc:  # nesting or a value the loader refuses
        yield ctx.fatal(2, f"invalid YAML: {describe_error(exc)}")
        return
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
    yield from ctx.emit(lambda notes: _record(meta, ctx, volume, notes), 1, f"post {post.name}")


def _record(meta: dict[str, Any], ctx: ReadContext, volume: str | None, notes: list[str]) -> Record:
    if str(meta.get("section", "")).strip().casefold() == "preface":
        raise NotAPaper("the volume's preface")
    rec = Record(abstract=text_field(meta.get("abstract"), "abstract", notes) or "",
                 source=ctx.source, line=1, title=text_field(meta.get("title"), "title", notes))
    rec.authors = parse_authors(meta.get("author"))
    container = text_field(meta.get("container-title"), "container-title", notes)
    if not ctx.file_venue and container:
        rec.venue = venue_in(container[:MAX_VENUE_TEXT])
    issued = meta.get("issued")
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    if isinstance(parts, list) and parts:
        first = parts[0]
        rec.year = parse_year(first[0] if isinstance(first, list) and first else first)
    rec.year = rec.year or parse_year(meta.get("date"))
    if ctx.file_year:
        rec.year = None  # the volume's year (conference year) wins over the publication date
    volume = volume or text_field(meta.get("volume"), "volume", notes)
    paper_id = text_field(meta.get("id"), "id", notes)
    urls = {"pdf": text_field(meta.get("pdf"), "pdf", notes),
            "code": text_field(meta.get("software"), "software", notes),
            "openreview": openreview_url(text_field(meta.get("openreview"), "openreview", notes))}
    if volume and paper_id:
        urls["paper"] = f"https://proceedings.mlr.press/v{volume}/{paper_id}.html"
        rec.external_id = f"pmlr-v{volume}-{paper_id}"
    rec.urls = {k: v for k, v in urls.items() if v}
    return rec
