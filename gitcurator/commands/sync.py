"""`gitcurator sync [REMOTE]`: exchange telemetry notes and curator branches with a remote."""

from __future__ import annotations

from pathlib import Path

from gitcurator.library import open_repo
from gitcurator.output import Result, warning_line
from gitcurator.progress import NO_PROGRESS, GitProgress, Progress
from gitcurator.render import name_list, plural
from gitcurator.sync.session import SyncResult
from gitcurator.sync.session import sync as sync_with


def sync(
    start: Path, remote: str, *, progress: Progress = NO_PROGRESS, force: bool = False
) -> Result:
    """Sync with `remote` (a configured name, a URL or a path): what happened, in words and
    as a document; the object counts git and dulwich report go to `progress` as they come.
    `force` syncs repositories that are not skills repositories too."""
    # No callback at all when nobody watches: dulwich then asks the remote to stay quiet.
    shown = None if progress is NO_PROGRESS else GitProgress(progress)
    with open_repo(start) as repo:
        result = sync_with(repo.store, remote, progress=shown, force=force)
        # Taken in as git would, but never left to look like a pass: merge will refuse it.
        if result.branches_fetched:
            # Only then: its checks import the umbrella rules (0.18 s of every sync's start).
            from gitcurator.curation.branch_verify import branch_warning
        for branch in result.branches_fetched:
            warning = branch_warning(repo.store, branch)
            if warning is not None:
                result.warnings.append(warning)
    return Result(
        text="\n".join(summary(result)),
        doc=result.to_json(),
        notes=tuple(warning_line(w) for w in result.warnings),
    )


def summary(result: SyncResult) -> list[str]:
    """The lines a person reads after a sync."""
    where = result.url if result.remote == result.url else f"{result.remote} ({result.url})"
    lines = [f"synced with {where}"]
    if not result.notes_fetched and not result.notes_pushed:
        lines.append("notes: already in sync, nothing changed")
    else:
        how = f" (merge commit {result.merge_commit[:12]})" if result.merge_commit else ""
        lines.append(
            f"notes: {plural(result.records_updated, 'skill record')} updated from the remote, "
            f"{plural(result.records_sent, 'skill record')} sent to it{how}"
        )
    if result.events_flushed:
        lines.append(f"folded {plural(result.events_flushed, 'buffered event')} first")
    if result.branches_pushed:
        lines.append(
            f"pushed {plural(len(result.branches_pushed), 'curator branch', 'curator branches')}:"
            f" {name_list(result.branches_pushed)}"
        )
    if result.branches_fetched:
        lines.append(
            f"fetched {plural(len(result.branches_fetched), 'curator branch', 'curator branches')}"
            f": {name_list(result.branches_fetched)}"
        )
    if result.tries > 1:
        lines.append(f"the remote moved meanwhile; took {plural(result.tries, 'try', 'tries')}")
    if result.warnings:
        lines.append(f"{plural(len(result.warnings), 'warning')} (above)")
    return lines
