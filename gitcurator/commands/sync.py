"""`gitcurator sync [REMOTE]`: exchange telemetry notes and curator branches with a remote."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from gitcurator.errors import EXIT_OK
from gitcurator.library import open_repo
from gitcurator.render import emit_json, name_list, plural
from gitcurator.sync.session import SyncResult
from gitcurator.sync.session import sync as sync_with


def sync(start: Path, remote: str, *, as_json: bool) -> int:
    """Sync with `remote` (a configured name, a URL or a path) and print what happened."""
    with open_repo(start) as repo:
        result = sync_with(repo.store, remote, progress=_progress())
    for warning in result.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    if as_json:
        emit_json(result.to_json())
    else:
        print("\n".join(summary(result)))
    return EXIT_OK


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


def _progress() -> Callable[[bytes], None] | None:
    """dulwich's progress lines, for a person watching a terminal only."""
    if not sys.stderr.isatty():
        return None

    def show(data: bytes) -> None:
        sys.stderr.write(data.decode("utf-8", "replace"))
        sys.stderr.flush()

    return show
