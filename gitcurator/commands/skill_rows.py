"""The rows the reading commands start from: every committed skill with its record and history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.inventory import SkillRow, build_rows
from gitcurator.output import warning_line
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.store.history import skill_histories
from gitcurator.telemetry import ledger
from gitcurator.timeutil import moment_of


@dataclass(frozen=True, slots=True)
class LoadedRows:
    rows: list[SkillRow]
    problems: list[str]  # records that could not be read, each worth a warning
    now: datetime

    @property
    def warnings(self) -> tuple[str, ...]:
        """The problems as the notes a command shows."""
        return tuple(warning_line(p) for p in self.problems)


def load_rows(repo: SkillsRepo, now: str | None) -> LoadedRows:
    """Every committed skill (live and archived) joined with its record and its history."""
    moment = moment_of(now)
    store = repo.store
    locations = find_skills(store.head_paths(), repo.config.skills_dir)
    loaded = ledger.load(store)
    histories = skill_histories(
        store, {loc.folder: identity(loc) for loc in locations}, repo.config.skills_dir
    )
    rows = build_rows(locations, loaded.records, histories, repo.config.curator, moment)
    return LoadedRows(rows, loaded.problems, moment)
