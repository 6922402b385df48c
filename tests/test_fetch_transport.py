"""The fetch transport against a real misbehaving HTTP server: retries, back-off, 429 +
Retry-After, resets, cut answers, refusals, and saved responses read instead of the network."""
from __future__ import annotations

import pytest
from source_servers import Fault, from_corpora

from paperscope.sources.remote.openreview import _notes
from paperscope.sources.remote.transport import FetchError, Transport

VENUE = {"content.venueid": "ICLR.cc/2024/Conference", "limit": 25, "offset": 0}


@pytest.fixture()
def server():
    with from_corpora(None) as s:
        yield s


def transport(tmp_path, waits=None, **options):
    return Transport("openreview", save_dir=tmp_path / "saved", min_interval=0, backoff=0.01,
                     on_wait=(waits.append if waits is not None else None), **options)


def test_retries_server_errors_resets_and_cut_answers_then_gets_the_page(server, tmp_path):
    server.add(Fault("500", times=2), Fault("reset", times=1), Fault("truncate", times=1))
    waits = []
    with transport(tmp_path, waits) as t:
        got = t.get(f"{server.url}/notes", params=VENUE, save_as="page.json", check=_notes)
    assert len(got.data["notes"]) == 25
    assert server.requests[("openreview", 0)] == 5 and server.served[("openreview", 0)] == 1
    assert len(waits) == 4 and all("; retrying in" in w for w in waits)
    assert sum("server error (500)" in w for w in waits) == 2
    assert sum("connection reset" in w or "connection closed" in w for w in waits) == 1
    assert sum("unusable answer (not valid JSON" in w for w in waits) == 1


def test_429_waits_what_retry_after_says(server, tmp_path):
    server.add(Fault("429", times=1, value=2))
    slept = []
    t = Transport("openreview", min_interval=0, backoff=0.01, sleep=slept.append)
    got = t.get(f"{server.url}/notes", params=VENUE, check=_notes)
    assert len(got.data["notes"]) == 25
    assert slept == [2.0]


def test_a_source_that_keeps_failing_is_a_clear_error(server, tmp_path):
    server.add(Fault("500", times=None))
    with transport(tmp_path, retries=2) as t, pytest.raises(FetchError) as err:
        t.get(f"{server.url}/notes", params=VENUE, check=_notes)
    assert "server error (500); gave up after 3 attempts" in str(err.value)
    assert "content.venueid=ICLR.cc%2F2024%2FConference" in err.value.url
    assert server.requests[("openreview", 0)] == 3


def test_refused_access_names_the_way_in(server, tmp_path):
    server.add(Fault("login", times=None))
    t = transport(tmp_path, label="OpenReview", hint="set OPENREVIEW_USERNAME/OPENREVIEW_PASSWORD or pass --token")
    with pytest.raises(FetchError) as err:
        t.get(f"{server.url}/notes", params=VENUE, check=_notes)
    assert err.value.refused
    assert "OpenReview refused anonymous access (403): set OPENREVIEW_USERNAME/OPENREVIEW_PASSWORD or pass --token" in str(err.value)


def test_not_found_is_told_apart(server, tmp_path):
    with transport(tmp_path) as t, pytest.raises(FetchError) as err:
        t.get(f"{server.url}/static/virtual/data/icml-1999-orals-posters.json")
    assert err.value.not_found and "404" in err.value.reason


def test_a_saved_answer_is_read_instead_of_the_network(server, tmp_path):
    with transport(tmp_path) as t:
        first = t.get(f"{server.url}/notes", params=VENUE, save_as="page.json", check=_notes)
        again = t.get(f"{server.url}/notes", params=VENUE, save_as="page.json", check=_notes)
    assert not first.cached and again.cached and again.data == first.data
    assert server.requests[("openreview", 0)] == 1
    assert (tmp_path / "saved" / "page.json").read_bytes() == first.body
    assert not [p for p in (tmp_path / "saved").iterdir() if p.name != "page.json"]  # no temporary left


def test_a_slow_answer_within_the_timeout_is_waited_for_and_a_late_one_retried(server, tmp_path):
    server.add(Fault("slow", times=1, value=1.5))
    with transport(tmp_path, timeout=0.5) as t:
        got = t.get(f"{server.url}/notes", params=VENUE, check=_notes)
    assert len(got.data["notes"]) == 25 and server.requests[("openreview", 0)] == 2
    server.add(Fault("slow", times=1, value=0.3))
    with transport(tmp_path, timeout=5) as t:
        assert len(t.get(f"{server.url}/notes", params=VENUE, check=_notes).data["notes"]) == 25


def test_the_pace_between_requests_comes_from_the_source_or_an_explicit_setting(monkeypatch):
    monkeypatch.delenv("PAPERSCOPE_FETCH_INTERVAL", raising=False)
    assert Transport("arxiv").min_interval == 3.0
    assert Transport("openreview").min_interval == 1.0
    assert Transport("arxiv", min_interval=0.1).min_interval == 0.1
    monkeypatch.setenv("PAPERSCOPE_FETCH_INTERVAL", "0")
    assert Transport("arxiv").min_interval == 0.0
