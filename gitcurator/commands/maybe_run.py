"""`gitcurator maybe-run`: run a curator pass only when one is due (interval, idle, not paused)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator.config import CuratorPolicy
from gitcurator.curation.schedule_state import read_state, update_state
from gitcurator.errors import EXIT_OK, CuratorError, UsageError
from gitcurator.library import open_repo
from gitcurator.lifecycle.schedule import Decision, ScheduleState, due, next_due
from gitcurator.locks import PassBusy, pass_lock
from gitcurator.output import Result, failed, lines_of, warning_line
from gitcurator.timeutil import format_time, moment_of


def maybe_run(start: Path, *, idle_for: float | None, now: str | None, as_json: bool) -> Result:
    """Run a pass if one is due; exit 0 whether or not it ran, non-zero only if it failed."""
    if idle_for is not None and math.isnan(idle_for):  # nan compares false: "never idle"
        raise UsageError("--idle-for must be a number of seconds, zero or more")
    moment = moment_of(now)
    with open_repo(start) as repo:
        policy, state_dir = repo.config.curator, repo.store.state_dir()
    damaged: list[str] = []
    with contextlib.ExitStack() as stack:
        try:
            # Held across decide → run → record, so two schedulers never both find a pass due.
            stack.enter_context(pass_lock(state_dir, wait_seconds=0))
        except PassBusy as exc:
            holder = exc.holder
        else:
            result = _decide_and_run(
                start, policy, state_dir, moment, idle_for, as_json, damaged.append
            )
            return replace(result, notes=(*map(warning_line, damaged), *result.notes))
    busy = f"another curator pass is running ({holder})"
    result = _shown(
        Decision(False, busy, next_due(read_state(state_dir, warn=damaged.append), policy))
    )
    return replace(result, notes=tuple(map(warning_line, damaged)))


def _decide_and_run(
    start: Path,
    policy: CuratorPolicy,
    state_dir: Path,
    moment: datetime,
    idle_for: float | None,
    as_json: bool,
    warn: Callable[[str], None],
) -> Result:
    stamp = format_time(moment)
    decision = due(read_state(state_dir, warn=warn), policy, moment, idle_for)
    if decision.first_call:
        update_state(state_dir, lambda s: s if s.last_pass_at else _passed(s, stamp), warn=warn)
    if not decision.run:
        return _shown(decision)
    started = f"running a curator pass: {decision.reason}\n"
    from gitcurator.commands.run import TerminalProgress, run

    try:
        ran = run(
            start,
            now=stamp,
            dry_run=False,
            consolidate=False,
            progress=None if as_json else TerminalProgress(),
        )
    except CuratorError as exc:
        return failed(str(exc), code=exc.exit_code, text="" if as_json else started)
    if ran.code == EXIT_OK:
        update_state(state_dir, lambda s: _passed(s, stamp), warn=warn)
    else:
        decision = replace(
            decision,
            reason=f"{decision.reason}; the pass failed, so the schedule is unchanged and the "
            "next maybe-run tries again",
            next_due=None,
        )
    return _shown(decision, ran, started + lines_of(ran.text))


def _passed(state: ScheduleState, stamp: str) -> ScheduleState:
    return replace(state, last_pass_at=stamp)


def _shown(decision: Decision, ran: Result | None = None, said: str = "") -> Result:
    """The decision in words (after `said`, what the pass said) and as a document."""
    doc: dict[str, Any] = {
        "ran": ran is not None,
        "reason": decision.reason,
        "next_due": decision.next_due,
        "first_call": decision.first_call,
    }
    text = said
    if ran is None:
        text += f"not running a pass: {decision.reason}\n"
    else:
        # The pass's own --json document, whole: its run id, branch, what it changed.
        doc["run_id"] = ran.doc.get("run_id") if isinstance(ran.doc, dict) else None
        doc["pass"] = ran.doc
    if decision.next_due:
        text += f"next pass due: {decision.next_due}\n"
    if ran is None:
        return Result(text=text, doc=doc)
    return Result(ran.code, text=text, doc=doc, notes=ran.notes)
