"""curation/schedule_state.py: the schedule file, its format, a damaged one, its update."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcurator.curation.schedule_state import parse_state, read_state, state_doc, update_state
from gitcurator.lifecycle.schedule import ScheduleState
from gitcurator.statefiles import SCHEDULE_FILE

GOOD = {"version": 1, "last_pass_at": None, "paused": False, "paused_at": None}


@pytest.mark.parametrize(
    ("doc", "state"),
    [
        (GOOD, ScheduleState()),
        ({**GOOD, "last_pass_at": "2026-11-30T08:00:00Z"}, ScheduleState("2026-11-30T08:00:00Z")),
        (
            {**GOOD, "paused": True, "paused_at": "2026-11-30T08:00:00Z"},
            ScheduleState(None, True, "2026-11-30T08:00:00Z"),
        ),
    ],
)
def test_parse_state_round_trips(doc: dict[str, object], state: ScheduleState) -> None:
    assert parse_state(doc) == state
    assert state_doc(state) == doc


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        ([], "not a JSON object"),
        ({}, "keys must be"),
        ({**GOOD, "extra": 1}, "keys must be"),
        ({k: v for k, v in GOOD.items() if k != "paused_at"}, "keys must be"),
        ({**GOOD, "version": 2}, "unknown version 2"),
        ({**GOOD, "paused": "yes"}, "paused must be true or false"),
        ({**GOOD, "paused": 1}, "paused must be true or false"),
        ({**GOOD, "last_pass_at": "yesterday"}, "last_pass_at must be null or a time"),
        ({**GOOD, "last_pass_at": "2026-11-30 08:00:00"}, "last_pass_at must be null or a time"),
        ({**GOOD, "last_pass_at": "2026-13-45T08:00:00Z"}, "last_pass_at must be null or a time"),
        ({**GOOD, "last_pass_at": "0000-01-01T00:00:00Z"}, "last_pass_at must be null or a time"),
        ({**GOOD, "paused_at": 12}, "paused_at must be null or a time"),
    ],
)
def test_parse_state_rejects(doc: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_state(doc)


def test_missing_file_reads_as_defaults_quietly(tmp_path: Path) -> None:
    warned: list[str] = []
    assert read_state(tmp_path, warn=warned.append) == ScheduleState()
    assert warned == []


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "",
        "\x00\x01",
        json.dumps({**GOOD, "paused": "no"}),
        json.dumps([1, 2]),
    ],
)
def test_damaged_file_resets_with_a_warning_naming_it(tmp_path: Path, text: str) -> None:
    (tmp_path / SCHEDULE_FILE).write_text(text)
    warned: list[str] = []
    assert read_state(tmp_path, warn=warned.append) == ScheduleState()
    [warning] = warned
    assert str(tmp_path / SCHEDULE_FILE) in warning
    assert "reset" in warning and "gitcurator pause" in warning


def test_update_state_writes_the_documented_shape(tmp_path: Path) -> None:
    before, after = update_state(
        tmp_path, lambda s: ScheduleState("2026-11-30T08:00:00Z"), warn=pytest.fail
    )
    assert before == ScheduleState()
    assert after == ScheduleState("2026-11-30T08:00:00Z")
    doc = json.loads((tmp_path / SCHEDULE_FILE).read_text())
    assert doc == {**GOOD, "last_pass_at": "2026-11-30T08:00:00Z"}
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_update_state_keeps_a_change_made_meanwhile(tmp_path: Path) -> None:
    update_state(tmp_path, lambda s: ScheduleState("2026-11-30T08:00:00Z"), warn=pytest.fail)
    _, after = update_state(
        tmp_path,
        lambda s: ScheduleState(s.last_pass_at, True, "2026-11-30T09:00:00Z"),
        warn=pytest.fail,
    )
    assert read_state(tmp_path, warn=pytest.fail) == after
    assert after.last_pass_at == "2026-11-30T08:00:00Z" and after.paused
