"""Every skill of a tree as a row: its record joined with its history (reads the history).

What a pass (`pass_inputs`) and the reading commands (`commands/skill_rows`) start from. Kept
apart from the pass's load so `list` and `status` import only this.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.inventory import SkillRow, build_rows
from gitcurator.skills.document import SkillLocation, find_skills
from gitcurator.skills.identity import identity
from gitcurator.store import ObjectID
from gitcurator.store.history import skill_histories
from gitcurator.telemetry.records import UsageRecord


def skill_rows_at(
    repo: SkillsRepo,
    paths: Iterable[str],
    records: Mapping[str, UsageRecord],
    now: datetime,
    head: ObjectID | None = None,
    locations: Sequence[SkillLocation] | None = None,
) -> list[SkillRow]:
    """Every skill among `paths` (live and archived) joined with its record and its history
    up to `head` (default HEAD): what a pass and the reading commands start from.
    `locations`, when the caller has them, are find_skills(paths) already walked."""
    if locations is None:
        locations = find_skills(paths, repo.config.skills_dir, repo.config.include)
    histories = skill_histories(
        repo.store,
        {loc.folder: identity(loc) for loc in locations},
        repo.config.skills_dir,
        head=head,
    )
    return build_rows(locations, records, histories, repo.config.curator, now)
