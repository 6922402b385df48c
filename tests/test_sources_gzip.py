"""gzip-compressed inputs: read like the plain file, detected by content, damage reported."""
from __future__ import annotations

import gzip
import json

from paperscope import sources
from paperscope.model import Problem, Record

ABSTRACT = ("We propose a sampler for diffusion models that halves the number of network "
            "evaluations while keeping sample quality on image benchmarks.")


def events(n: int) -> list[dict]:
    out = [{"type": "Poster", "name": f"Paper {i}", "speakers/authors": f"Ada Lovelace, Author {i}",
            "abstract": f"Study {i}: " + ABSTRACT + " Ünïcode ✓.",
            "virtualsite_url": f"https://ICML.cc//virtual/2024/poster/{1000 + i}"} for i in range(n)]
    return out + [{"type": "Workshop", "name": "A workshop", "speakers/authors": "",
                   "abstract": "A workshop on things. " * 5, "virtualsite_url": "https://ICML.cc//virtual/2024/workshop/1"}]


def split(items):
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Problem)]


def fields(records):
    return [(r.title, r.abstract, r.authors, r.venue, r.year) for r in records]


def test_gzip_json_reads_like_the_plain_file(tmp_path):
    text = json.dumps(events(300), ensure_ascii=False)
    plain = tmp_path / "icml.json"
    plain.write_text(text, encoding="utf-8")
    packed = tmp_path / "icml.json.gz"
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    assert sources.detect(packed) == sources.detect(plain) == "json"
    want, _ = split(sources.read(plain))
    reading = sources.read(packed)
    got, problems = split(reading)
    assert len(got) == 300 and fields(got) == fields(want)
    assert got[0].venue == "ICML" and got[0].year == 2024 and got[0].title == "Paper 0"
    assert not [p for p in problems if not p.warning]
    # progress counts compressed bytes: it ends at the file's size, not the decompressed size
    assert reading.bytes_read == packed.stat().st_size < len(text.encode("utf-8"))


def test_gzip_detected_by_content_whatever_the_name(tmp_path):
    listing = "ICML 2024 论文列表\n\n" + "\n\n".join(f"Study {i}: {ABSTRACT}" for i in range(3)) + "\n"
    path = tmp_path / "papers.txt"  # no .gz suffix
    path.write_bytes(gzip.compress(listing.encode("utf-8")))
    assert sources.detect(path) == "list"
    got, _ = split(sources.read(path))
    assert [r.abstract for r in got] == [f"Study {i}: {ABSTRACT}" for i in range(3)]


def test_truncated_gzip_keeps_what_was_read_and_says_so(tmp_path):
    data = gzip.compress(json.dumps(events(2000)).encode("utf-8"))
    path = tmp_path / "cut.json.gz"
    path.write_bytes(data[: len(data) * 2 // 3])
    got, problems = split(sources.read(path))
    assert 0 < len(got) < 2000
    assert any("gzip" in p.reason for p in problems)


def test_damaged_gzip_header_is_one_fatal_problem(tmp_path):
    path = tmp_path / "bad.json.gz"
    path.write_bytes(b"\x1f\x8b" + b"not really gzip data at all" * 4)
    got, problems = split(sources.read(path))
    assert got == [] and len(problems) == 1 and problems[0].fatal
    assert "damaged gzip" in problems[0].reason


def test_gzip_of_a_binary_file_is_still_refused(tmp_path):
    path = tmp_path / "blob.gz"
    path.write_bytes(gzip.compress(bytes(range(256)) * 50))
    got, problems = split(sources.read(path))
    assert got == [] and problems and problems[0].fatal
