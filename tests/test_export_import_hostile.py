"""Library files a user (or an attacker) hands to `import-library` and `match --profile`:
JSON nested deeper than Python's stack, a CSL date with no parts, a CSV field over the csv
module's 128 KiB limit. Each ends in a message that names the file and exit
code 1 (the CLI) or an InputError (the facade), never a traceback."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from paperscope.cli import app
from paperscope.library import Library
from paperscope.model import InputError

HOSTILE = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "deep.jsonl": '{"a": ' * 50_000 + "1" + "}" * 50_000 + "\n",
    "deep.bib": "@article{a, title={" + "{" * 20_000 + "x" + "}" * 20_000 + "}}\n",
    "huge.csv": "title,abstract\nA title," + "x" * 200_000 + "\n",
}
READABLE = {  # odd but readable: entries come back, the missing parts are just missing
    "nul.csv": "title,abstract\nA\0title,x\n",
    "empty-date.json": '[{"title": "Attention on graphs", "issued": {"date-parts": [[]]}}]',
    "no-date.json": '[{"title": "Attention on graphs", "issued": {"date-parts": []}}, '
                    '{"title": "Other", "issued": {"date-parts": "2024"}}, {"title": "Third", "issued": 7}]',
}


@pytest.fixture(scope="module")
def small(tmp_path_factory, samples_dir):
    path = tmp_path_factory.mktemp("imp") / "lib.db"
    with Library.open(path) as lib:
        lib.ingest([samples_dir], embed=False)
    return path


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_library_files_give_a_message_naming_the_file(small, tmp_path, name):
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    with Library.open(small) as lib, pytest.raises(InputError) as info:
        lib.import_library(path)
    assert name in str(info.value)
    result = CliRunner().invoke(app, ["--db", str(small), "import-library", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and name in result.output.replace("\n", "")


@pytest.mark.parametrize("name", sorted(READABLE))
def test_odd_but_readable_files_are_read(small, tmp_path, name):
    path = tmp_path / name
    path.write_text(READABLE[name], encoding="utf-8")
    with Library.open(small) as lib:
        report = lib.import_library(path, tag="mine")
    assert report["entries"] >= 1 and len(report["matched"]) + len(report["unmatched"]) == report["entries"]
