"""`gitcurator record`: the command's Result, and the error of a name that is no skill."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator.commands.record import record, record_events
from gitcurator.errors import CuratorError, NotARepository
from gitcurator.output import Result


def test_recording_shows_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert record(repo, "use", ["pdf-extract"], "2026-01-02T00:00:00Z") == Result()
    assert capsys.readouterr() == ("", "")


def test_an_unknown_name_is_an_error_naming_it(repo: Path) -> None:
    with pytest.raises(CuratorError, match="no skill named nope in this repository"):
        record_events(repo, "use", ["pdf-extract", "nope"], None)


def test_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(NotARepository, match=f"run `gitcurator init {tmp_path}` first"):
        record_events(tmp_path, "use", ["x"], None)
