"""When automatic passes run: the rules of `maybe-run` (pure) and the per-clone schedule file.

The schedule lives in `.git/gitcurator/schedule.json`, not in the repository: it is this
clone's clock (two machines syncing one library each keep their own). The file is small and
replaced atomically; a damaged one resets to the defaults with a warning, and the defaults are
safe (not paused, and the next `maybe-run` only restarts the clock, so nothing runs at once).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from gitcurator.config import CuratorPolicy
from gitcurator.errors import UsageError
from gitcurator.statefiles import read_json, write_json
from gitcurator.timeutil import format_time, parse_time

SCHEDULE_FILE = "schedule.json"
_LOCK_FILE = "schedule.lock"
_VERSION = 1
_KEYS = {"version", "last_pass_at", "paused", "paused_at"}
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


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


# -- the rules (pure) ---------------------------------------------------------------------


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


def parse_state(doc: object) -> ScheduleState:
    """The state in a schedule.json document; ValueError says what breaks the format."""
    if not isinstance(doc, dict):
        raise ValueError("not a JSON object")
    if set(doc) != _KEYS:
        raise ValueError(f"keys must be {', '.join(sorted(_KEYS))}")
    if doc["version"] != _VERSION:
        raise ValueError(f"unknown version {doc['version']!r}")
    if not isinstance(doc["paused"], bool):
        raise ValueError("paused must be true or false")
    for key in ("last_pass_at", "paused_at"):
        value = doc[key]
        if value is not None and not (isinstance(value, str) and _is_time(value)):
            raise ValueError(f"{key} must be null or a time like 2026-11-30T08:00:00Z")
    return ScheduleState(doc["last_pass_at"], doc["paused"], doc["paused_at"])


def _is_time(text: str) -> bool:
    if not _TIME.fullmatch(text):
        return False
    try:
        parse_time(text)
    except UsageError:
        return False
    return True


def state_doc(state: ScheduleState) -> dict[str, Any]:
    """The schedule.json document of `state`."""
    return {
        "version": _VERSION,
        "last_pass_at": state.last_pass_at,
        "paused": state.paused,
        "paused_at": state.paused_at,
    }


# -- the file (small I/O helpers) ---------------------------------------------------------


def read_state(state_dir: Path) -> ScheduleState:
    """This clone's schedule; defaults if there is none, with a warning if it is damaged."""
    path = state_dir / SCHEDULE_FILE
    if not path.exists():
        return ScheduleState()
    doc = read_json(path)
    try:
        if doc is None:
            raise ValueError("not JSON")
        return parse_state(doc)
    except ValueError as exc:
        print(
            f"gitcurator: warning: {path} is damaged ({exc}); the schedule was reset: not "
            "paused, and the next `maybe-run` restarts the clock (run `gitcurator pause` "
            "again if you had paused)",
            file=sys.stderr,
        )
        return ScheduleState()


def update_state(
    state_dir: Path, change: Callable[[ScheduleState], ScheduleState]
) -> tuple[ScheduleState, ScheduleState]:
    """Read, change and write the schedule under its lock (so `pause` during a pass is not
    lost when the pass records its end); returns (before, after)."""
    with _locked(state_dir):
        before = read_state(state_dir)
        after = change(before)
        if after != before or not (state_dir / SCHEDULE_FILE).exists():
            write_json(state_dir / SCHEDULE_FILE, state_doc(after))
    return before, after


@contextlib.contextmanager
def _locked(state_dir: Path) -> Iterator[None]:
    state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(state_dir / _LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # held for a read and a write: microseconds
        yield
    finally:
        os.close(fd)


def schedule_summary(state_dir: Path, policy: CuratorPolicy, now: datetime) -> dict[str, Any]:
    """{last_pass_at, paused, next_due, due} for `status`. next_due is None while nothing runs
    by itself (disabled, paused, or before the first `maybe-run` starts the clock); `due`
    says whether a `maybe-run` at `now` would run a pass (idle time aside)."""
    state = read_state(state_dir)
    return {
        "last_pass_at": state.last_pass_at,
        "paused": state.paused,
        "next_due": next_due(state, policy),
        "due": due(state, policy, now, None).run,
    }
