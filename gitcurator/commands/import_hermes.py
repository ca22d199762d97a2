"""`gitcurator import hermes PATH`: take over a Hermes skills folder as one commit plus notes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitcurator.importers.hermes.state_files import USAGE_FILE
from gitcurator.importers.hermes.takeover import take_over
from gitcurator.output import Result
from gitcurator.progress import NO_PROGRESS, Progress
from gitcurator.render import plural
from gitcurator.timeutil import utc_now


def import_hermes(
    source: Path, repo_dir: Path | None, *, verify: bool = True, progress: Progress = NO_PROGRESS
) -> Result:
    """Import the Hermes folder `source` into `repo_dir` (None: into `source` itself);
    `progress` hears how the copy, the check and the commit get on."""
    done = take_over(source, repo_dir, verify=verify, now=utc_now(), progress=progress)
    report = done.report
    warnings = [*done.warnings, *report["problems"]]
    return Result(
        text=report_text(report),
        doc=report,
        notes=tuple(f"gitcurator: warning: {w}" for w in warnings),
    )


def report_text(report: dict[str, Any]) -> str:
    """The lines a person reads after an import."""
    where = "in place" if report["in_place"] else f"into {report['repository']}"
    commit = report["commit"]
    lines = [
        f"imported {plural(report['skills'], 'skill')} ({report['archived']} archived) from "
        f"{report['source']} {where}: "
        + (f"commit {commit[:12]}" if commit else "no changes to commit")
    ]
    origins = ", ".join(f"{n} {o}" for o, n in report["by_origin"].items() if n)
    lines.append(f"origins: {origins or 'none'}; pinned: {report['pinned']}")
    usage = report["usage_records"]
    notes = report["notes_commit"]
    lines.append(
        f"usage: {usage['imported']} of {plural(usage['read'], 'record')} in "
        f"{USAGE_FILE} imported; "
        + (f"notes commit {notes[:12]}" if notes else "records already up to date")
    )
    if report["hermes_state_ignored"]:
        lines.append(f"not committed (Hermes' state): {', '.join(report['hermes_state_ignored'])}")
    checked = report["validation"]
    lines.append(
        f"validation: {plural(checked['errors'], 'error')}, "
        f"{plural(checked['warnings'], 'warning')}; "
        f"{plural(len(report['problems']), 'problem')} reported"
    )
    return "\n".join(lines)
