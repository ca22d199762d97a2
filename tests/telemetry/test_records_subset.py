"""records_subset: a flush decodes only the records its events name, and the records cache it
moves to its notes commit is what loading every note gives."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from support.repos import corrupt_note, git, note_key

from gitcurator.errors import CuratorError
from gitcurator.library import open_repo
from gitcurator.statefiles import ABSORBED_NAMES, RECORDS_CACHE
from gitcurator.store import Store
from gitcurator.telemetry import ledger, names_index, recording, records_subset

T = TypeVar("T")


def _on(repo: Path, call: Callable[[Store], T]) -> T:
    with open_repo(repo) as r:
        return call(r.store)


def _loaded(repo: Path) -> ledger.Loaded:
    return _on(repo, ledger.load_notes)


def _flush(repo: Path) -> ledger.FlushResult:
    return _on(repo, ledger.flush)


def _cold(repo: Path) -> ledger.Loaded:
    state = repo / ".git" / "gitcurator"
    (state / RECORDS_CACHE).unlink(missing_ok=True)
    return _loaded(repo)


def test_the_moved_cache_is_what_a_cold_load_reads(repo: Path) -> None:
    for name in ("pdf-extract", "docker-build", "helm-deploy"):
        recording.record("use", [name], repo=repo)
    _flush(repo)
    _loaded(repo)  # the cache, for this notes commit
    for _ in range(3):
        recording.record("use", ["pdf-extract"], repo=repo)
    recording.record("view", ["helm-deploy"], repo=repo)
    result = _flush(repo)
    assert result.events == 4 and result.skills == 2
    cache = json.loads((repo / ".git" / "gitcurator" / RECORDS_CACHE).read_text())
    assert cache["notes"] == result.commit, "moved to the flush's commit"
    warm = _loaded(repo)
    cold = _cold(repo)
    assert warm.records == cold.records and warm.problems == cold.problems
    assert warm.records["pdf-extract"].use_count == 4


def test_an_unreadable_note_is_kept_and_reported_as_a_full_load_does(repo: Path) -> None:
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    corrupt_note(repo, "docker-build", "{not json")
    assert "docker-build" in _loaded(repo).unreadable
    recording.record("use", ["docker-build"], repo=repo)
    result = _flush(repo)
    assert any("unreadable" in w for w in result.warnings)
    warm = _loaded(repo)
    cold = _cold(repo)
    assert warm.records == cold.records and warm.unreadable == cold.unreadable == {}


def test_the_absorbed_names_follow_the_flush(repo: Path) -> None:
    recording.record("use", ["pdf-extract"], repo=repo)
    _flush(repo)
    notes, absorbed = _on(repo, names_index.absorbed_names)
    recording.record("use", ["pdf-extract"], repo=repo)
    result = _flush(repo)
    doc = json.loads((repo / ".git" / "gitcurator" / ABSORBED_NAMES).read_text())
    assert doc["notes"] == result.commit != notes and doc["absorbed"] == absorbed == {}


def test_a_plain_git_notes_edit_during_a_flush_is_refused_not_overwritten(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # git takes no gitcurator lock: its notes commit can land after the flush read the
    # records and before it writes. The flush must then refuse (compare-and-swap from the
    # commit it read), not write its records over git's edit.
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    _loaded(repo)  # the records cache: the flush reads its records from it
    recording.record("use", ["pdf-extract"], repo=repo)
    real_read = records_subset.read_subset

    def read_then_git(*args: Any) -> records_subset.Subset | None:
        subset = real_read(*args)
        corrupt_note(repo, "pdf-extract", '{"edited": "by git"}')
        return subset

    monkeypatch.setattr(records_subset, "read_subset", read_then_git)
    with pytest.raises(CuratorError, match="moved"):
        _flush(repo)
    monkeypatch.setattr(records_subset, "read_subset", real_read)
    key = note_key(repo, "pdf-extract")
    shown = git("notes", "--ref=gitcurator", "show", key, cwd=repo).stdout
    assert "by git" in shown, "git's edit is still the note"
    result = _flush(repo)  # the events were kept for the next flush
    assert result.events == 1
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert git("fsck", "--strict", cwd=repo).returncode == 0


def test_a_flush_after_plain_git_rewound_or_edited_the_notes_caches_what_a_cold_load_reads(
    repo: Path,
) -> None:
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    older = _flush(repo).commit
    assert older is not None
    recording.record("use", ["pdf-extract", "helm-deploy"], repo=repo)
    _flush(repo)
    _loaded(repo)  # the cache, for the newer commit
    git("update-ref", "refs/notes/gitcurator", older, cwd=repo)
    recording.record("view", ["docker-build"], repo=repo)
    _flush(repo)
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert warm.records["pdf-extract"].use_count == 1 and "helm-deploy" not in warm.records
    corrupt_note(repo, "helm-deploy", "{by git")  # a note git added, for a skill
    recording.record("use", ["pdf-extract"], repo=repo)
    _flush(repo)
    warm = _loaded(repo)
    cold = _cold(repo)
    assert warm.records == cold.records and warm.unreadable == cold.unreadable
    assert warm.problems == cold.problems
    assert git("fsck", "--strict", cwd=repo).returncode == 0


@pytest.mark.parametrize("damage", ["nested", "torn", "number"])
def test_a_cache_of_the_older_layout_or_with_a_damaged_record_is_not_used(
    repo: Path, damage: str
) -> None:
    """Records are cached as their JSON text; a cache holding them nested (the layout before)
    or a record's text damaged is read as no cache, by a flush and by a load alike."""
    recording.record("use", ["pdf-extract", "docker-build"], repo=repo)
    _flush(repo)
    _loaded(repo)
    path = repo / ".git" / "gitcurator" / RECORDS_CACHE
    cache = json.loads(path.read_text())
    texts = cache["records"]
    if damage == "nested":
        cache["records"] = {name: json.loads(text) for name, text in texts.items()}
    else:
        texts["docker-build"] = texts["docker-build"][:-5] if damage == "torn" else 7
    path.write_text(json.dumps(cache))
    assert _loaded(repo).records == _cold(repo).records
    path.write_text(json.dumps(cache))
    recording.record("use", ["pdf-extract"], repo=repo)
    assert _flush(repo).skills == 1
    warm = _loaded(repo)
    assert warm.records == _cold(repo).records
    assert warm.records["pdf-extract"].use_count == 2
    assert warm.records["docker-build"].use_count == 1
