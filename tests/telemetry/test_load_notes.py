"""notes_records.load_notes on a cache miss: the records cache it writes (each record as its note's
text on one line) reads back to what a cold load reads, whoever wrote the notes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from support.repos import corrupt_note, git, note_key

from gitcurator.library import open_repo
from gitcurator.statefiles import RECORDS_CACHE
from gitcurator.telemetry import ledger, notes_records, recording, records, records_cache


def _load(repo: Path) -> notes_records.Loaded:
    with open_repo(repo) as r:
        return notes_records.load_notes(r.store)


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


def test_the_cache_a_cold_load_writes_is_the_one_a_flush_reads_by_line(repo: Path) -> None:
    for name in ("pdf-extract", "docker-build"):
        recording.record("use", [name], repo=repo)
    with open_repo(repo) as r:
        ledger.flush(r.store)
    doc = {"version": 1, "skill": "docker-build", "hosts": {"h": {"use_count": 3, "view_count": 0}}}
    # A note with blanks after its document: its cache text ends where the document does.
    # (`git notes -m` would strip them: the blob is given whole, with -C.)
    text = json.dumps(doc, indent=2) + " \r\n \t"
    blob = (
        subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=repo,
            input=text.encode(),
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .strip()
    )
    git(
        "notes",
        "--ref=gitcurator",
        "add",
        "-f",
        "-C",
        blob,
        note_key(repo, "docker-build"),
        cwd=repo,
    )
    cache = repo / ".git" / "gitcurator" / RECORDS_CACHE
    cache.unlink(missing_ok=True)
    cold = _load(repo)
    lines = records_cache._lines(cache.read_text())
    assert lines is not None  # laid out one record a line, not parsed whole by the next flush
    with open_repo(repo) as r:
        notes = ledger.notes_commit(r.store)
    assert notes is not None
    subset = records_cache.read_subset(cache, notes.decode(), ["docker-build", "pdf-extract"])
    assert subset is not None
    assert subset.records == cold.records
    assert subset.records["docker-build"].use_count == 3


def test_a_note_json_loads_cannot_read_says_so_though_the_scanner_read_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scanner runs a few frames above json.loads: a note nested at the depth between
    them is read by one and refused by the other. Its problem is json.loads' (as at 1b70502),
    not the schema's about a document json.loads never gave."""
    recording.record("use", ["pdf-extract"], repo=repo)
    with open_repo(repo) as r:
        ledger.flush(r.store)
    deep = '{"version": 1, "skill": "pdf-extract", "hosts": {}, "x": [[[[]]]]}'
    corrupt_note(repo, "pdf-extract", deep)
    real = json.loads

    def loads(data: Any, **kw: Any) -> Any:
        if b"[[[[" in data:
            raise RecursionError("maximum recursion depth exceeded")  # json.loads' depth
        return real(data, **kw)

    monkeypatch.setattr(records, "json", SimpleNamespace(loads=loads))
    (repo / ".git" / "gitcurator" / RECORDS_CACHE).unlink(missing_ok=True)
    cold = _load(repo)
    assert cold.problems == [
        "record of pdf-extract is invalid and was ignored: "
        "not a record (JSON nested too deeply to read)"
    ]
