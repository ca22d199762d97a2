"""The import's commit: validate what the import brought and commit it, and nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.config import CONFIG_FILE, DEFAULT_CONFIG_TEXT
from gitcurator.errors import CuratorError, ValidationFailed
from gitcurator.importers.hermes.target import Target, write_file
from gitcurator.progress import NO_PROGRESS, Progress, step
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_tree import check_tree
from gitcurator.skills.document import SkillLocation
from gitcurator.store.notes import NOTES_REF


def commit_import(
    target: Target,
    source: Path,
    locations: Sequence[SkillLocation],
    brought: list[str],
    state: list[str],
    verify: bool,
    progress: Progress = NO_PROGRESS,
) -> tuple[str | None, dict[str, int]]:
    """Validate and commit what the import brought; None when nothing changed."""
    store = target.store
    head = store.head_paths()
    if not head and not (store.root / CONFIG_FILE).exists():
        write_file(target.undo, store.root / CONFIG_FILE, DEFAULT_CONFIG_TEXT)
    scan = store.scan_worktree(progress)
    if state:
        # Hermes' state stays out even where a person's .gitignore rule lets it back in.
        scan.files[:] = [f for f in scan.files if not _is_state(f.path, target.prefix, state)]
    staged = {f.path: f.sha for f in scan.files}
    changed = sorted(p for p in staged.keys() | head.keys() if staged.get(p) != head.get(p))
    _refuse_unrelated(target, changed, brought, bool(head))
    result = check_tree(
        store.scan_tree(scan),
        skills_dir=target.config.skills_dir,
        only=changed if head else None,
        progress=progress,
    )
    if result.errors and verify:
        raise ValidationFailed(
            f"{plural(result.errors, 'error')} in the skills of {source}; nothing was written. "
            "Fix them, or run `gitcurator import hermes --no-verify` to import them as they are",
            details=findings_text(result.findings, show_warnings=False),
        )
    checked = {"errors": result.errors, "warnings": result.warnings}
    if head and not changed:
        return None, checked
    with step("writing the commit", progress):
        commit = store.commit_scan(scan, _message(source, locations, len(changed)))
    return commit.decode(), checked


def _is_state(path: str, prefix: str, state: list[str]) -> bool:
    return path.startswith(prefix) and path[len(prefix) :].split("/")[0] in state


def _refuse_unrelated(
    target: Target, changed: list[str], brought: list[str], has_head: bool
) -> None:
    # The import commit must hold the import only: uncommitted work elsewhere stays the
    # person's to commit. In place, the whole skills folder is the import.
    if not has_head:
        return
    areas = [target.config.skills_dir] if target.in_place else brought
    unrelated = [
        p for p in changed if not any(not a or p == a or p.startswith(a + "/") for a in areas)
    ]
    if unrelated:
        raise CuratorError(
            f"{target.store.root} has uncommitted changes outside the import "
            f"({', '.join(unrelated[:5])}{' ...' if len(unrelated) > 5 else ''}); nothing was "
            "written. Commit or stash them first, so the import commit holds only the import"
        )


def _message(source: Path, locations: Sequence[SkillLocation], changed: int) -> str:
    live = [loc for loc in locations if not loc.archived]
    categories = {loc.category for loc in live if loc.category}
    return (
        f"gitcurator: import {plural(len(live), 'skill')} from Hermes\n\n"
        f"Committed by `gitcurator import hermes {source}`: {plural(len(live), 'skill')} in "
        f"{plural(len(categories), 'category', 'categories')}, "
        f"{len(locations) - len(live)} archived; {plural(changed, 'file')} added or changed.\n"
        f"Hermes' usage, pins and origins are in the notes ({NOTES_REF.decode()}); its own "
        "state files are not committed.\n\n"
        # Lets history tell an import (whose edits Hermes already counted) from a person's patch.
        f"{trailers.IMPORT}: hermes\n"
    )
