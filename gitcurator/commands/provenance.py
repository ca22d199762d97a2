"""What `track`, `adopt`, `pin` and `unpin` share: naming skills and stamping their records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.output import Result, warning_line
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


def set_field(
    repo: SkillsRepo, names: Sequence[str], field: str, value: object, subject: str
) -> Result:
    """Stamp `field` ("pinned" or "origin") of the skills' records with `value`, in one notes
    commit titled `subject`; skills that already have that value are left alone."""
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

    flushed = ledger.update(repo.store, change, subject)
    unchanged = [s for s in skills if s not in changed]
    lines = [f"{subject.removeprefix('gitcurator: ')}: {', '.join(changed)}"] if changed else []
    if unchanged:
        lines.append(f"already so: {', '.join(unchanged)}")
    return Result(text="\n".join(lines), notes=tuple(warning_line(w) for w in flushed.warnings))
