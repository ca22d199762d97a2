"""`gitcurator pause` and `resume`: stop automatic passes (maybe-run), and allow them again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gitcurator.curation.schedule_state import update_state
from gitcurator.library import open_repo
from gitcurator.lifecycle.schedule import next_due
from gitcurator.output import Result, warning_line
from gitcurator.timeutil import format_time, utc_now


def pause(start: Path) -> Result:
    """Stop automatic passes until `resume` (idempotent)."""
    with open_repo(start) as repo:
        state_dir, root = repo.store.state_dir(), repo.root
    stamp = format_time(utc_now())
    damaged: list[str] = []
    before, _ = update_state(
        state_dir,
        lambda s: s if s.paused else replace(s, paused=True, paused_at=stamp),
        warn=damaged.append,
    )
    notes = tuple(map(warning_line, damaged))
    if before.paused:
        since = f" since {before.paused_at}" if before.paused_at else ""
        text = f"automatic passes are already paused{since}; nothing changed"
        return Result(text=text, notes=notes)
    return Result(
        text=f"paused automatic passes (maybe-run) in {root}; `gitcurator run` still works by "
        "hand, `gitcurator resume` undoes this",
        notes=notes,
    )


def resume(start: Path) -> Result:
    """Allow automatic passes again (idempotent)."""
    with open_repo(start) as repo:
        state_dir, root, policy = repo.store.state_dir(), repo.root, repo.config.curator
    damaged: list[str] = []
    before, after = update_state(
        state_dir,
        lambda s: replace(s, paused=False, paused_at=None) if s.paused else s,
        warn=damaged.append,
    )
    notes = tuple(map(warning_line, damaged))
    if not before.paused:
        return Result(text="automatic passes are not paused; nothing changed", notes=notes)
    lines = [f"resumed automatic passes in {root}"]
    due_at = next_due(after, policy)
    if not policy.enabled:
        lines.append("note: curator.enabled is false in .gitcurator.yaml, so none will run")
    elif due_at:
        lines.append(f"next pass due: {due_at}")
    else:
        lines.append("the next `gitcurator maybe-run` starts the clock")
    return Result(text="\n".join(lines), notes=notes)
