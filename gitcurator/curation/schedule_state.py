"""This clone's schedule file, `.git/gitcurator/schedule.json`: read, parsed, changed, written.

The file is small and replaced atomically, under a lock held for one read and one write; a
damaged one resets to the defaults (gitcurator.lifecycle.schedule says why that is safe), and
the caller is told, through `warn`, so it can say so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gitcurator.errors import UsageError
from gitcurator.lifecycle.schedule import ScheduleState
from gitcurator.locks import file_lock
from gitcurator.statefiles import SCHEDULE_FILE, SCHEDULE_LOCK, read_json, write_json
from gitcurator.timeutil import parse_time

_VERSION = 1
_KEYS = {"version", "last_pass_at", "paused", "paused_at"}
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


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


def read_state(state_dir: Path, *, warn: Callable[[str], None]) -> ScheduleState:
    """This clone's schedule; defaults if there is none, and if it is damaged (said to `warn`)."""
    path = state_dir / SCHEDULE_FILE
    if not path.exists():
        return ScheduleState()
    doc = read_json(path)
    try:
        if doc is None:
            raise ValueError("not JSON")
        return parse_state(doc)
    except ValueError as exc:
        warn(
            f"{path} is damaged ({exc}); the schedule was reset: not paused, and the next "
            "`maybe-run` restarts the clock (run `gitcurator pause` again if you had paused)"
        )
        return ScheduleState()


def update_state(
    state_dir: Path,
    change: Callable[[ScheduleState], ScheduleState],
    *,
    warn: Callable[[str], None],
) -> tuple[ScheduleState, ScheduleState]:
    """Read, change and write the schedule under its lock (so `pause` during a pass is not
    lost when the pass records its end); returns (before, after)."""
    # Held for a read and a write: microseconds, so waiting for it never needs a timeout.
    with file_lock(state_dir / SCHEDULE_LOCK):
        before = read_state(state_dir, warn=warn)
        after = change(before)
        if after != before or not (state_dir / SCHEDULE_FILE).exists():
            write_json(state_dir / SCHEDULE_FILE, state_doc(after))
    return before, after
