"""A use taken while a skill existed stays real when the skill is renamed or removed before
the flush: kept under the name it was recorded by, not dropped as a hand-made line."""

from __future__ import annotations

import json
from pathlib import Path

from support.repos import git, run_cli, write_skill

from gitcurator.telemetry import events, journal


def test_an_event_of_a_skill_renamed_before_the_flush_is_kept(repo: Path) -> None:
    write_skill(repo, "csv-clean")  # new: no usage record yet
    git("add", "csv-clean", cwd=repo)
    git("commit", "-qm", "add csv-clean", cwd=repo)
    line = events.event_line("use", ["csv-clean"], "2026-01-02T00:00:00Z", "host-a", "cli", None)
    journal.append(repo / ".git" / "gitcurator", line)  # as an agent's hook writes it
    git("mv", "csv-clean", "csv-tidy", cwd=repo)
    skill_md = repo / "csv-tidy/SKILL.md"  # renamed as the spec has it: folder and name: both
    skill_md.write_text(skill_md.read_text().replace("csv-clean", "csv-tidy"))
    git("commit", "-qam", "rename csv-clean", cwd=repo)
    assert run_cli("record", "view", "csv-tidy", "-C", str(repo)).code == 0
    flushed = run_cli("flush", "-C", str(repo), "--json")
    assert flushed.code == 0, flushed
    doc = json.loads(flushed.out)
    assert (doc["events"], doc["dropped"]["unknown_skills"]) == (2, {})
    assert "dropped" not in flushed.err
