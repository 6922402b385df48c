"""What `paperscope ingest` tells the user: a rejected file counts as skipped and is said once,
records a reader leaves out on purpose are counted, file names are shown whole."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ABSTRACT = ("We study the problem of learning sparse representations from noisy data and show "
            "that a simple thresholding rule recovers the support with high probability [1].")
# a different paper of the same venue: near-identical abstracts would meet by fuzzy identity
OTHER_ABSTRACT = ("We introduce a benchmark of long-horizon planning tasks for language agents and find "
                  "that tool use, not model size, explains most of the variance in success rates.")
LONG_NAME = "icml2024_events_exported_from_the_virtual_site_in_july.json"


def ingest(tmp_path, *names, json_out=False):
    env = {**os.environ, "PAPERSCOPE_DB": str(tmp_path / "lib.db"), "COLUMNS": "80"}
    cmd = [sys.executable, "-m", "paperscope", "ingest", "--no-embed", *(["--json"] if json_out else []),
           *(str(tmp_path / n) for n in names)]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


def files(tmp_path):
    (tmp_path / "good.txt").write_text(f"ICML 2024\n\n{ABSTRACT}\n\nshort one\n", encoding="utf-8")
    (tmp_path / "figure.bin").write_bytes(b"\x00\x01\x02binary")
    events = [{"type": "Workshop", "name": "W", "abstract": "x", "virtualsite_url": "https://icml.cc/virtual/2024/workshop/1"},
              {"type": "Tutorial", "name": "T", "abstract": "y", "virtualsite_url": "https://icml.cc/virtual/2024/tutorial/2"},
              {"type": "Poster", "name": "P", "abstract": OTHER_ABSTRACT,
               "virtualsite_url": "https://icml.cc/virtual/2024/poster/3"}]
    (tmp_path / LONG_NAME).write_text(json.dumps(events), encoding="utf-8")
    return "good.txt", "figure.bin", LONG_NAME


def test_report_counts_rejected_files_and_left_out_records_and_says_each_problem_once(tmp_path):
    proc = ingest(tmp_path, *files(tmp_path))
    out, err = proc.stdout, proc.stderr
    assert proc.returncode == 1  # a file was rejected
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.strip().startswith(("good", "figure"))}
    assert rows["good.txt"][-1] == "1" and rows["figure.bin"][-1] == "rejected"
    assert "skipped 1 record and 1 whole file" in out
    assert "left out 2 (not papers" in out
    flat = " ".join(err.split())  # the terminal wraps long lines
    assert flat.count("figure.bin") == 1 and "rejected" in flat and "binary file" in flat  # said once
    assert "good.txt:5: too short" in flat
    # the whole file name is there, folded over lines when the terminal is narrow
    assert LONG_NAME in "".join(line.strip().split(" ")[0] for line in out.splitlines() if line.strip())


def test_json_report_lists_left_out_records(tmp_path):
    proc = ingest(tmp_path, *files(tmp_path), json_out=True)
    report = json.loads(proc.stdout)
    assert report["left_out"] == 2 and report["added"] == 2
    [events] = [f for f in report["files"] if f["path"].endswith(LONG_NAME)]
    assert [p["line"] for p in events["left_out"]] == [1, 2]
    assert "event of type 'Workshop'" in events["left_out"][0]["reason"]
