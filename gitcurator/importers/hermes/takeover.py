"""Taking over a Hermes skills folder: read it, plan, commit the skills, write the notes.

The skills (live and `.archive/`) become one commit on the checked-out branch, in place or
copied into another repository; what Hermes knew about them (usage counts, history, pins,
origins) becomes one notes commit. Hermes' own state files are never committed: in place
they are added to a .gitignore. Any refusal before the commit leaves everything as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from gitcurator.importers.hermes.import_commit import commit_import
from gitcurator.importers.hermes.plan import ImportPlan, plan_import
from gitcurator.importers.hermes.skill_copy import copy_skills
from gitcurator.importers.hermes.source import (
    frontmatter_names,
    list_source,
    read_files,
    source_folder,
)
from gitcurator.importers.hermes.target import ignore_state, open_target
from gitcurator.importers.hermes.usage_records import merge_facts, summarise
from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.skills.document import find_skills
from gitcurator.store import Store
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import UsageRecord
from gitcurator.timeutil import format_time


@dataclass(frozen=True, slots=True)
class Takeover:
    """What an import did: its report (the --json document) and the notes writer's warnings."""

    report: dict[str, Any]
    warnings: list[str] = field(default_factory=list)


def take_over(
    source: Path,
    repo_dir: Path | None,
    *,
    verify: bool,
    now: datetime,
    progress: Progress = NO_PROGRESS,
) -> Takeover:
    """Import the Hermes folder `source` into `repo_dir` (None: into `source` itself);
    `progress` hears how copying, reading and checking the skills get on."""
    source = source_folder(source)
    listing = list_source(source)
    locations = find_skills(listing.files)
    files, problems = read_files(source)
    plan = plan_import(locations, frontmatter_names(source, locations), files, now)
    problems += plan.problems
    target = open_target(source, repo_dir)
    records: dict[str, UsageRecord] = {}
    try:
        with target.store:
            ignored = ignore_state(target, source, listing) if target.in_place else []
            brought: list[str] = []
            if not target.in_place:
                brought, kept = copy_skills(target, source, listing, locations, progress)
                problems += kept
            commit, checked = commit_import(
                target, source, locations, brought, ignored, verify, progress
            )
            target.undo.forget()
            notes, warnings = _write_notes(target.store, plan, format_time(now), records)
            root = target.store.root
    except BaseException:
        target.undo.run()
        raise
    report: dict[str, Any] = {
        "source": str(source),
        "repository": str(root),
        "in_place": target.in_place,
        "commit": commit,
        "notes_commit": notes,
        **summarise(locations, plan, records),
        "validation": checked,
        "hermes_state_ignored": ignored,
        "problems": problems,
    }
    return Takeover(report, warnings)


def _write_notes(
    store: Store, plan: ImportPlan, now: str, seen: dict[str, UsageRecord]
) -> tuple[str | None, list[str]]:
    """Merge Hermes' facts into the records in one notes commit; `seen` gets the records.
    Returns the notes commit (None: nothing changed) and the warnings of the write."""

    def change(records: dict[str, UsageRecord]) -> set[str]:
        touched = set()
        for skill, facts in plan.facts.items():
            base = records.get(skill) or UsageRecord(skill)
            new = merge_facts(base, skill, facts, now)
            if new != base:
                records[skill] = new
                touched.add(skill)
        seen.update(records)
        return touched

    result = ledger.update(store, change, "gitcurator: import Hermes usage, pins and origins")
    return result.commit, result.warnings
