"""`maybe-run`, `pause`, `resume`: automatic passes, run only when one is due."""

from __future__ import annotations

import contextlib
import io
import json
import math
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator.config import CuratorPolicy
from gitcurator.curation.schedule_state import read_state, update_state
from gitcurator.errors import EXIT_OK, UsageError
from gitcurator.library import open_repo
from gitcurator.lifecycle.schedule import Decision, ScheduleState, due, next_due
from gitcurator.locks import PassBusy, pass_lock
from gitcurator.output import warn
from gitcurator.render import emit_json
from gitcurator.telemetry import ledger
from gitcurator.timeutil import format_time, moment_of, utc_now


@dataclass(frozen=True, slots=True)
class _Clone:
    policy: CuratorPolicy
    state_dir: Path
    root: Path


def _open(start: Path) -> _Clone:
    with open_repo(start) as repo:
        return _Clone(repo.config.curator, ledger.state_of(repo.store), repo.root)


def maybe_run(start: Path, *, idle_for: float | None, now: str | None, as_json: bool) -> int:
    """Run a pass if one is due; exit 0 whether or not it ran, non-zero only if it failed."""
    if idle_for is not None and math.isnan(idle_for):  # nan compares false: "never idle"
        raise UsageError("--idle-for must be a number of seconds, zero or more")
    moment = moment_of(now)
    clone = _open(start)
    with contextlib.ExitStack() as stack:
        try:
            # Held across decide → run → record, so two schedulers never both find a pass due.
            stack.enter_context(pass_lock(clone.state_dir, wait_seconds=0))
        except PassBusy as exc:
            holder = exc.holder
        else:
            return _decide_and_run(start, clone, moment, idle_for, as_json)
    state = read_state(clone.state_dir, warn=_warn)
    busy = Decision(
        False, f"another curator pass is running ({holder})", next_due(state, clone.policy)
    )
    _emit(busy, as_json)
    return EXIT_OK


def _decide_and_run(
    start: Path, clone: _Clone, moment: datetime, idle_for: float | None, as_json: bool
) -> int:
    stamp = format_time(moment)
    decision = due(read_state(clone.state_dir, warn=_warn), clone.policy, moment, idle_for)
    if decision.first_call:
        update_state(
            clone.state_dir, lambda s: s if s.last_pass_at else _passed(s, stamp), warn=_warn
        )
    if not decision.run:
        _emit(decision, as_json)
        return EXIT_OK
    from gitcurator.commands.run import TerminalProgress, run
    from gitcurator.output import emit

    if not as_json:
        print(f"running a curator pass: {decision.reason}")
    output = io.StringIO()
    with contextlib.redirect_stdout(output) if as_json else contextlib.nullcontext():
        code = emit(
            run(start, now=stamp, dry_run=False, consolidate=False, progress=TerminalProgress()),
            as_json=as_json,
        )
    if code == EXIT_OK:
        update_state(clone.state_dir, lambda s: _passed(s, stamp), warn=_warn)
    else:
        decision = replace(
            decision,
            reason=f"{decision.reason}; the pass failed, so the schedule is unchanged and the "
            "next maybe-run tries again",
            next_due=None,
        )
    _emit(decision, as_json, ran=True, pass_output=output.getvalue())
    return code


def _warn(message: str) -> None:
    warn(f"gitcurator: warning: {message}")


def _passed(state: ScheduleState, stamp: str) -> ScheduleState:
    return replace(state, last_pass_at=stamp)


def _emit(
    decision: Decision,
    as_json: bool,
    *,
    ran: bool = False,
    pass_output: str = "",
) -> None:
    if as_json:
        doc: dict[str, Any] = {
            "ran": ran,
            "reason": decision.reason,
            "next_due": decision.next_due,
            "first_call": decision.first_call,
        }
        if ran:
            # The pass's own --json document, whole: its run id, branch, what it changed.
            report = _parsed(pass_output)
            doc["run_id"] = report.get("run_id") if isinstance(report, dict) else None
            doc["pass"] = report
        emit_json(doc)
        return
    if not ran:
        print(f"not running a pass: {decision.reason}")
    if decision.next_due:
        print(f"next pass due: {decision.next_due}")


def _parsed(output: str) -> object:
    """The pass's own --json document, or its text if it printed something else."""
    try:
        return json.loads(output)
    except ValueError:
        return output or None


def pause(start: Path) -> int:
    """Stop automatic passes until `resume` (idempotent)."""
    clone = _open(start)
    stamp = format_time(utc_now())
    before, _ = update_state(
        clone.state_dir,
        lambda s: s if s.paused else replace(s, paused=True, paused_at=stamp),
        warn=_warn,
    )
    if before.paused:
        since = f" since {before.paused_at}" if before.paused_at else ""
        print(f"automatic passes are already paused{since}; nothing changed")
    else:
        print(
            f"paused automatic passes (maybe-run) in {clone.root}; `gitcurator run` still "
            "works by hand, `gitcurator resume` undoes this"
        )
    return EXIT_OK


def resume(start: Path) -> int:
    """Allow automatic passes again (idempotent)."""
    clone = _open(start)
    before, after = update_state(
        clone.state_dir,
        lambda s: replace(s, paused=False, paused_at=None) if s.paused else s,
        warn=_warn,
    )
    if not before.paused:
        print("automatic passes are not paused; nothing changed")
        return EXIT_OK
    print(f"resumed automatic passes in {clone.root}")
    due_at = next_due(after, clone.policy)
    if not clone.policy.enabled:
        print("note: curator.enabled is false in .gitcurator.yaml, so none will run")
    elif due_at:
        print(f"next pass due: {due_at}")
    else:
        print("the next `gitcurator maybe-run` starts the clock")
    return EXIT_OK
