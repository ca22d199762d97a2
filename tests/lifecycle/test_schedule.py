"""lifecycle/schedule.py: the rules of `maybe-run` (table-driven) and the status summary."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from gitcurator.config import CuratorPolicy
from gitcurator.lifecycle.schedule import ScheduleState, due, summary
from gitcurator.timeutil import format_time, parse_time

NOW = parse_time("2026-11-30T12:00:00Z")


POLICY = CuratorPolicy()  # 168 h interval, 2 h idle


def _ago(hours: float) -> str:
    return format_time(NOW - timedelta(hours=hours))


def _after(hours: float) -> str:
    return format_time(NOW + timedelta(hours=hours))


DUE_CASES = [
    # (case, state, policy, idle seconds, run, first_call, next_due, words in the reason)
    (
        "disabled",
        ScheduleState(_ago(500)),
        CuratorPolicy(enabled=False),
        None,
        False,
        False,
        None,
        "curator.enabled: false",
    ),
    (
        "disabled before the first call starts no clock",
        ScheduleState(),
        CuratorPolicy(enabled=False),
        None,
        False,
        False,
        None,
        "off",
    ),
    (
        "paused",
        ScheduleState(_ago(500), paused=True, paused_at=_ago(10)),
        POLICY,
        None,
        False,
        False,
        None,
        f"paused since {_ago(10)}",
    ),
    (
        "paused before the first call starts no clock",
        ScheduleState(paused=True),
        POLICY,
        None,
        False,
        False,
        None,
        "resume",
    ),
    (
        "first call starts the clock",
        ScheduleState(),
        POLICY,
        None,
        False,
        True,
        _after(168),
        "first",
    ),
    (
        "first call ignores idle time",
        ScheduleState(),
        POLICY,
        99999.0,
        False,
        True,
        _after(168),
        "clock starts",
    ),
    (
        "interval not over",
        ScheduleState(_ago(100)),
        POLICY,
        None,
        False,
        False,
        _after(68),
        "not due",
    ),
    (
        "one second short of the interval",
        ScheduleState(format_time(NOW - timedelta(hours=168) + timedelta(seconds=1))),
        POLICY,
        None,
        False,
        False,
        format_time(NOW + timedelta(seconds=1)),
        "not due",
    ),
    (
        "interval exactly over",
        ScheduleState(_ago(168)),
        POLICY,
        None,
        True,
        False,
        _after(168),
        "due",
    ),
    ("long overdue", ScheduleState(_ago(5000)), POLICY, None, True, False, _after(168), "due"),
    (
        "last pass in the future (clock went back)",
        ScheduleState(_after(5)),
        POLICY,
        None,
        False,
        False,
        _after(173),
        "not due",
    ),
    (
        "due but not idle long enough",
        ScheduleState(_ago(200)),
        POLICY,
        3600.0,
        False,
        False,
        _ago(32),
        "min_idle_hours: 2",
    ),
    (
        "due and idle exactly enough",
        ScheduleState(_ago(200)),
        POLICY,
        7200.0,
        True,
        False,
        _after(168),
        "idle 2 h",
    ),
    (
        "due and idle for days",
        ScheduleState(_ago(200)),
        POLICY,
        400000.0,
        True,
        False,
        _after(168),
        "due",
    ),
    (
        "no idle requirement",
        ScheduleState(_ago(200)),
        CuratorPolicy(min_idle_hours=0),
        0.0,
        True,
        False,
        _after(168),
        "due",
    ),
    (
        "a short interval",
        ScheduleState(_ago(1)),
        CuratorPolicy(interval_hours=0.5),
        None,
        True,
        False,
        _after(0.5),
        "every 0.5 h",
    ),
    (
        "a long interval",
        ScheduleState(_ago(200)),
        CuratorPolicy(interval_hours=720),
        None,
        False,
        False,
        _after(520),
        "every 720 h",
    ),
]


@pytest.mark.parametrize(
    ("state", "policy", "idle", "run", "first_call", "next_due", "words"),
    [case[1:] for case in DUE_CASES],
    ids=[case[0] for case in DUE_CASES],
)
def test_due(
    state: ScheduleState,
    policy: CuratorPolicy,
    idle: float | None,
    run: bool,
    first_call: bool,
    next_due: str | None,
    words: str,
) -> None:
    decision = due(state, policy, NOW, idle)
    assert (decision.run, decision.first_call, decision.next_due) == (run, first_call, next_due)
    assert words in decision.reason


def test_due_at_the_end_of_time_is_never_due_again() -> None:
    end = datetime(9999, 12, 31, 23, 0, tzinfo=NOW.tzinfo)
    decision = due(ScheduleState(), POLICY, end, None)
    assert decision.first_call and decision.next_due == "9999-12-31T23:59:59Z"


def test_summary() -> None:
    assert summary(ScheduleState(), POLICY, NOW) == {
        "last_pass_at": None,
        "paused": False,
        "next_due": None,
        "due": False,
    }
    assert summary(ScheduleState(_ago(200)), POLICY, NOW) == {
        "last_pass_at": _ago(200),
        "paused": False,
        "next_due": _ago(32),
        "due": True,
    }
    paused = summary(ScheduleState(_ago(200), True, _ago(1)), POLICY, NOW)
    assert paused["paused"] is True and paused["next_due"] is None and not paused["due"]
