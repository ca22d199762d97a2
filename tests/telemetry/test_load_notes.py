"""ledger.load_notes on a cache miss: the records cache it writes (each record as its note's
text on one line) reads back to what a cold load reads, whoever wrote the notes."""

from __future__ import annotations

import json
from pathlib import Path

from support.repos import corrupt_note

from gitcurator.library import open_repo
from gitcurator.statefiles import RECORDS_CACHE
from gitcurator.telemetry import ledger, recording


def _load(repo: Path) -> ledger.Loaded:
    with open_repo(repo) as r:
        return ledger.load_notes(r.store)


def test_the_cache_a_cold_load_writes_reads_back_to_the_same_records(repo: Path) -> None:
    for name in ("pdf-extract", "docker-build", "helm-deploy"):
        recording.record("use", [name], repo=repo)
    with open_repo(repo) as r:
        ledger.flush(r.store)
    # Notes written by hand: a compact one, one spread over lines with tabs, and a bad one.
    doc = {"version": 1, "skill": "docker-build", "hosts": {"h": {"use_count": 7, "view_count": 0}}}
    corrupt_note(repo, "docker-build", json.dumps(doc, separators=(",", ":")))
    doc["skill"] = "helm-deploy"
    corrupt_note(repo, "helm-deploy", json.dumps(doc, indent="\t").replace("\n", "\r\n"))
    corrupt_note(repo, "pdf-extract", '{"version": 1, "skill": "pdf-extract"')
    cache = repo / ".git" / "gitcurator" / RECORDS_CACHE
    cache.unlink(missing_ok=True)
    cold = _load(repo)
    kept = json.loads(cache.read_text())
    assert sorted(kept["records"]) == ["docker-build", "helm-deploy"]
    assert all("\n" not in text for text in kept["records"].values())
    warm = _load(repo)  # from the cache
    assert warm.records == cold.records and warm.problems == cold.problems
    assert warm.unreadable == cold.unreadable == {"pdf-extract": kept["unreadable"]["pdf-extract"]}
    assert cold.records["helm-deploy"].use_count == 7
    assert any("record of pdf-extract is invalid" in p for p in cold.problems)
