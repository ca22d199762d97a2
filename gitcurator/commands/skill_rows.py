"""The rows the reading commands start from: every committed skill with its record and history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from gitcurator.curation.pass_inputs import skill_rows_at
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.inventory import SkillRow
from gitcurator.output import warning_line
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import UsageRecord
from gitcurator.timeutil import moment_of


@dataclass(frozen=True, slots=True)
class LoadedRows:
    rows: list[SkillRow]
    problems: list[str]  # records that could not be read, each worth a warning
    now: datetime
    records: Mapping[str, UsageRecord] = field(default_factory=dict)  # what the rows joined

    @property
    def warnings(self) -> tuple[str, ...]:
        """The problems as the notes a command shows."""
        return tuple(warning_line(p) for p in self.problems)


def load_rows(repo: SkillsRepo, now: str | None) -> LoadedRows:
    """Every committed skill (live and archived) joined with its record and its history."""
    moment = moment_of(now)
    loaded = ledger.load(repo.store)
    rows = skill_rows_at(repo, repo.store.head_paths(), loaded.records, moment)
    return LoadedRows(rows, loaded.problems, moment, loaded.records)
