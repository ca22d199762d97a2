"""`gitcurator purge --older-than DAYS`: remove long-archived skills (the only removal)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.commands.moves import archived_name, commit_move, tip_of
from gitcurator.errors import UsageError
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import plural
from gitcurator.store import trees
from gitcurator.telemetry import ledger
from gitcurator.timeutil import days_between, format_time, moment_of


@dataclass(frozen=True, slots=True)
class PurgePlan:
    due: list[tuple[str, str, str]]  # (skill, folder, archived_at)
    kept: list[tuple[str, str, str]]  # (skill, folder, why it stays)


def plan_purge(
    archived: list[tuple[str, str]], archived_at: Mapping[str, str], days: float, now: datetime
) -> PurgePlan:
    """Which archived (skill, folder)s were archived more than `days` before `now`, by the
    recorded archived_at only: file and commit times say nothing about when a skill was
    archived (an import or a clone rewrites them)."""
    due, kept = [], []
    for name, folder in archived:
        when = archived_at.get(name)
        if when is None:
            why = "no archived_at is recorded, so its time in the archive is unknown"
            kept.append((name, folder, why))
        elif days_between(when, now) > days:
            due.append((name, folder, when))
        else:
            kept.append((name, folder, f"archived {when[:10]}, less than {days:g} days before"))
    return PurgePlan(due, kept)


def purge(start: Path, days: float, *, now: str | None, dry_run: bool, yes: bool) -> Result:
    """Remove skills archived more than `days` ago, as one commit (only with `yes`)."""
    if not math.isfinite(days) or days < 0:  # nan would keep everything, silently
        raise UsageError("--older-than must be zero or more days")
    if dry_run and yes:
        raise UsageError("--dry-run and --yes contradict each other; give one of them")
    moment = moment_of(now)
    with open_repo(start) as repo:
        tip = tip_of(repo)
        records = ledger.load(repo.store).records
        stamps = {n: r.archived_at for n, r in records.items() if r.archived_at}
        archived = [(archived_name(repo, tip, s), s.folder) for s in tip.skills if s.archived]
        plan = plan_purge(archived, stamps, days, moment)
        sha: str | None = None
        notes: tuple[str, ...] = ()
        if yes and not dry_run and plan.due:
            folders = [folder for _, folder, _ in plan.due]
            new_tree = trees.remove_folders(repo.store, tip.tree, folders)
            message = _purge_message(plan, days, moment)
            moved = commit_move(repo, tip, new_tree, message, "purge", folders)
            sha, notes = moved.commit, moved.notes
    doc = {
        "purged": sha is not None,
        "commit": sha,
        "due": [{"skill": n, "path": f, "archived_at": w} for n, f, w in plan.due],
        "kept": [{"skill": n, "path": f, "reason": w} for n, f, w in plan.kept],
    }
    return Result(text=_text(plan, days, sha, dry_run), doc=doc, notes=notes)


def _text(plan: PurgePlan, days: float, sha: str | None, dry_run: bool) -> str:
    verb = "purged" if sha else "would purge"
    lines = [f"{verb} {folder} (archived {when})" for _, folder, when in plan.due]
    lines += [f"kept {folder}: {why}" for _, folder, why in plan.kept]
    if not plan.due:
        lines.append(f"nothing was archived more than {days:g} days ago")
    elif sha:
        lines.append(f"removed in commit {sha[:12]}; history keeps them (`git log --all -- PATH`)")
    elif dry_run:
        lines.append("dry run: nothing was written")
    else:
        lines.append("nothing was removed; run again with --yes to remove them")
    return "\n".join(lines)


def _purge_message(plan: PurgePlan, days: float, now: datetime) -> str:
    lines = [
        f"curator: purge {plural(len(plan.due), 'archived skill')}",
        "",
        f"Archived more than {days:g} days before {format_time(now)}:",
        *[f"- {folder} (archived {when})" for _, folder, when in plan.due],
        "",
        *[f"{trailers.PURGED}: {name}" for name, _, _ in plan.due],
    ]
    return "\n".join(lines) + "\n"
