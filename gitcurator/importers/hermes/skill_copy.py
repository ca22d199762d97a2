"""Copying a Hermes folder's skills into another repository (`import hermes PATH -C REPO`).

Skill folders and loose files (category notes) are copied; a skill the repository already
has is refused unless it is the same, and a loose file that differs is kept as it is.
"""

from __future__ import annotations

import filecmp
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from gitcurator.errors import CuratorError
from gitcurator.importers.hermes.source import SourceListing
from gitcurator.importers.hermes.target import Target, Undo
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.render import plural
from gitcurator.skills.document import ARCHIVE_DIR, SkillLocation, find_skills, has_ancestor_in
from gitcurator.skills.identity import identity


def copy_skills(
    target: Target,
    source: Path,
    listing: SourceListing,
    locations: Sequence[SkillLocation],
    progress: Progress = NO_PROGRESS,
) -> tuple[list[str], list[str]]:
    """Copy the skill folders and loose files (category notes); refuse to overwrite a skill.

    Returns the repository paths the import brings (copied now or found equal) and notes on
    loose files that were kept as the repository had them.
    """
    existing = {
        identity(loc): loc.folder
        for loc in find_skills(
            (rel for _, rel in target.store.walk_worktree()), target.config.skills_dir
        )
    }
    folders = [loc.folder for loc in locations]
    conflicts: list[str] = []
    todo: list[str] = []
    for loc in locations:
        dest = target.prefix + loc.folder
        if os.path.lexists(target.store.root / dest):
            if not same_tree(source / loc.folder, target.store.root / dest):
                conflicts.append(f"{dest} differs from {source / loc.folder}")
        elif existing.get(identity(loc), dest) != dest:
            conflicts.append(f"{existing[identity(loc)]} is also named {identity(loc)}")
        else:
            todo.append(loc.folder)
    if conflicts:
        raise CuratorError(
            f"the import would overwrite or duplicate {plural(len(conflicts), 'skill')} of "
            f"{target.store.root}: {'; '.join(conflicts)}. Nothing was written; rename or move "
            "them, or import into another repository with -C"
        )
    notes: list[str] = []
    skill_folders = set(folders)
    loose = [p for p in listing.files if not has_ancestor_in(p, skill_folders) and not _dotted(p)]
    for rel in loose:
        there = target.store.root / (target.prefix + rel)
        if os.path.lexists(there):
            if not same_tree(source / rel, there):
                notes.append(f"{there} differs from {source / rel} and was kept as it is")
            continue
        todo.append(rel)
    for rel in counted(todo, "copying skills", progress):
        _copy(source / rel, target.store.root / (target.prefix + rel), target.undo)
    return [target.prefix + rel for rel in [*folders, *loose]], notes


def _dotted(path: str) -> bool:
    # The folder's own dot-files (.gitignore, .gitcurator.yaml...) would change the target's
    # behaviour; only skills, archived skills and plain files such as DESCRIPTION.md travel.
    parts = path.removeprefix(ARCHIVE_DIR + "/").split("/")
    return any(part.startswith(".") for part in parts)


def _copy(src: Path, dest: Path, undo: Undo) -> None:
    top = dest
    while not top.parent.exists():
        top = top.parent
    undo.add(lambda: shutil.rmtree(top) if top.is_dir() and not top.is_symlink() else top.unlink())
    dest.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dest, symlinks=True)
    else:
        shutil.copy2(src, dest, follow_symlinks=False)


def same_tree(a: Path, b: Path) -> bool:
    """Whether two files or folders hold the same files with the same bytes and links."""
    if a.is_symlink() or b.is_symlink():
        return a.is_symlink() and b.is_symlink() and os.readlink(a) == os.readlink(b)
    if a.is_file() or b.is_file():
        return a.is_file() and b.is_file() and filecmp.cmp(a, b, shallow=False)
    names_a = sorted(p.name for p in a.iterdir())
    names_b = sorted(p.name for p in b.iterdir())
    return names_a == names_b and all(same_tree(a / n, b / n) for n in names_a)
