"""When automatic passes run: the rules of `maybe-run` (pure: they take the state and `now`).

The state is this clone's clock, kept in `.git/gitcurator/schedule.json` by
gitcurator.curation.schedule_state (two machines syncing one library each keep their own).
The defaults are safe: not paused, and the next `maybe-run` only restarts the clock, so
nothing runs at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from gitcurator.config import CuratorPolicy
from gitcurator.timeutil import format_time, parse_time


@dataclass(frozen=True, slots=True)
class ScheduleState:
    last_pass_at: str | None = None  # None: the clock has not started (no maybe-run yet)
    paused: bool = False
    paused_at: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    run: bool
    reason: str
    next_due: str | None  # when a pass is next due; None while disabled or paused
    first_call: bool = False  # this call starts the clock (record now as the last pass)


def next_due(state: ScheduleState, policy: CuratorPolicy) -> str | None:
    """When the interval since the last pass is over; None if nothing will run by itself."""
    if not policy.enabled or state.paused or state.last_pass_at is None:
        return None
    return _plus_hours(parse_time(state.last_pass_at), policy.interval_hours)


def due(
    state: ScheduleState, policy: CuratorPolicy, now: datetime, idle_seconds: float | None
) -> Decision:
    """Whether `maybe-run` runs a pass at `now`: enabled, not paused, the interval over since
    the last pass, and (when the idle time is known) idle at least `min_idle_hours`.

    The first call ever (no last pass) runs nothing: it starts the clock, so a new user has a
    full interval to pin what they care about before anything is archived.
    """
    if not policy.enabled:
        return Decision(False, "automatic passes are off (curator.enabled: false)", None)
    if state.paused:
        since = f" since {state.paused_at}" if state.paused_at else ""
        return Decision(False, f"paused{since}; `gitcurator resume` allows passes again", None)
    interval = f"every {policy.interval_hours:g} h"
    if state.last_pass_at is None:
        return Decision(
            False,
            f"first call: the clock starts now; the first pass is due in "
            f"{policy.interval_hours:g} h",
            _plus_hours(now, policy.interval_hours),
            first_call=True,
        )
    due_at = _plus_hours(parse_time(state.last_pass_at), policy.interval_hours)
    if format_time(now) < due_at:
        return Decision(False, f"not due: last pass {state.last_pass_at}, {interval}", due_at)
    if idle_seconds is not None and idle_seconds < policy.min_idle_hours * 3600:
        return Decision(
            False,
            f"due, but the agent was idle only {_hours(idle_seconds)} "
            f"(curator.min_idle_hours: {policy.min_idle_hours:g})",
            due_at,
        )
    idle = f", idle {_hours(idle_seconds)}" if idle_seconds is not None else ""
    return Decision(
        True,
        f"due: last pass {state.last_pass_at}, {interval}{idle}",
        _plus_hours(now, policy.interval_hours),
    )


def _plus_hours(moment: datetime, hours: float) -> str:
    try:
        return format_time(moment + timedelta(hours=hours))
    except OverflowError:
        return "9999-12-31T23:59:59Z"  # a replay at the end of time: never due again


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.2g} h" if seconds < 36000 else f"{seconds / 3600:.0f} h"


def summary(state: ScheduleState, policy: CuratorPolicy, now: datetime) -> dict[str, Any]:
    """{last_pass_at, paused, next_due, due} for `status`. next_due is None while nothing runs
    by itself (disabled, paused, or before the first `maybe-run` starts the clock); `due`
    says whether a `maybe-run` at `now` would run a pass (idle time aside)."""
    return {
        "last_pass_at": state.last_pass_at,
        "paused": state.paused,
        "next_due": next_due(state, policy),
        "due": due(state, policy, now, None).run,
    }
