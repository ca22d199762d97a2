"""`track`, `adopt`, `pin`, `unpin`: provenance and protection, written to the notes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from gitcurator.errors import EXIT_OK, CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.telemetry import ledger
from gitcurator.telemetry.events import invalid_name_hint
from gitcurator.telemetry.names import known_names
from gitcurator.telemetry.records import Stamped, UsageRecord
from gitcurator.timeutil import format_time, utc_now


def resolve_names(repo: SkillsRepo, names: Sequence[str]) -> list[str]:
    """Each name's skill identity; any unknown name is an error naming them all."""
    known = known_names(repo, include_worktree=True)
    missing = [n for n in names if n not in known]
    if missing:
        raise CuratorError(
            f"no skill named {', '.join(missing)} in this repository; nothing was changed "
            f"(see `gitcurator list`){invalid_name_hint(missing)}"
        )
    return [known[n] for n in names]


def _set_field(start: Path, names: Sequence[str], field: str, value: object, subject: str) -> int:
    with open_repo(start) as repo:
        skills = resolve_names(repo, names)
        stamp = Stamped(value, format_time(utc_now()))
        changed: list[str] = []

        def change(records: dict[str, UsageRecord]) -> set[str]:
            for skill in skills:
                record = records.get(skill) or UsageRecord(skill)
                current = getattr(record, field)
                if current is not None and current.value == value:
                    continue
                records[skill] = (
                    replace(record, pinned=stamp)
                    if field == "pinned"
                    else replace(record, origin=stamp)
                )
                changed.append(skill)
            return set(changed)

        result = ledger.update(repo.store, change, subject)
    for warning in result.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    unchanged = [s for s in skills if s not in changed]
    if changed:
        print(f"{subject.removeprefix('gitcurator: ')}: {', '.join(changed)}")
    if unchanged:
        print(f"already so: {', '.join(unchanged)}")
    return EXIT_OK


def pin(start: Path, name: str) -> int:
    """Keep a skill from being archived or merged."""
    return _set_field(start, [name], "pinned", True, "gitcurator: pin")


def unpin(start: Path, name: str) -> int:
    """Let the curator manage the skill again."""
    return _set_field(start, [name], "pinned", False, "gitcurator: unpin")


def track(start: Path, names: Sequence[str], origin: str) -> int:
    """Record who made these skills."""
    return _set_field(start, names, "origin", origin, f"gitcurator: origin {origin}")


def adopt(start: Path, name: str) -> int:
    """Hand a user skill over to the curator: its origin becomes agent."""
    with open_repo(start) as repo:
        (skill,) = resolve_names(repo, [name])
        record = ledger.load(repo.store).records.get(skill) or UsageRecord(skill)
    if record.origin_value in ("hub", "bundled"):
        raise CuratorError(
            f"{skill} came from a {record.origin_value} source; gitcurator curates only skills "
            f"your agents wrote. If you really own it, run "
            f"`gitcurator track {skill} --origin user` first, then adopt it"
        )
    return _set_field(start, [skill], "origin", "agent", "gitcurator: adopt")
