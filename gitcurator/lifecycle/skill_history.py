"""Per-skill facts derived from git history: created, patched how often, last patched (pure).

The store side (`gitcurator.store.history`) turns commits into `CommitChanges`; this module
folds them into one `SkillHistory` per skill identity. A skill's identity is its folder name, so
a skill keeps one history across archive and restore moves (`cat/x/` ⇄ `.archive/cat/x/`) and
across moves between categories.

A commit touching a skill is a patch unless a curator pass made it: curator commits carry a
`Curator-Run:` trailer, except those that give a skill back (`Curator-Restored:`,
`Curator-Rollback:`), which count as a person's doing. The first commit touching a skill
creates it and is not a patch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gitcurator.audit import trailers as trailer_keys
from gitcurator.audit.trailers import trailers
from gitcurator.frozen_rows import frozen_row
from gitcurator.skills.document import (
    ARCHIVE_DIR,
    SKILL_FILE,
    SKILL_FILE_LOWER,
    is_skipped_component,
)

# An import brings a skill's history with it (its own patch_count); counting the import
# commit as a patch too would count those edits twice. Curator commits that restore or roll
# back undo a pass's work on a person's behalf: they are activity.
PATCH_TRAILERS = (trailer_keys.RESTORED, trailer_keys.ROLLBACK)


@dataclass(frozen=True, slots=True)
class CommitChanges:
    """One commit and the paths it changed against its parents (a root: against nothing)."""

    commit: str
    time: str  # canonical UTC, 'YYYY-MM-DDTHH:MM:SSZ'
    message: str
    paths: tuple[str, ...]  # repo-relative; both sides of a move


@frozen_row
class SkillHistory:
    """What history says about one skill."""

    created_at: str | None
    patch_count: int
    last_patched_at: str | None


EMPTY = SkillHistory(None, 0, None)


def is_patch_commit(message: str) -> bool:
    """Whether a commit touching a skill counts as a patch (activity), judged by its trailers."""
    keys = {key.casefold() for key in trailers(message)}
    if trailer_keys.IMPORT.casefold() in keys:
        return False
    if trailer_keys.RUN.casefold() not in keys:
        return True
    return any(key.casefold() in keys for key in PATCH_TRAILERS)


def fold_history(
    commits: Sequence[CommitChanges],
    skill_folders: Mapping[str, str],
    skills_dir: str = "",
) -> dict[str, SkillHistory]:
    """created_at, patch_count and last_patched_at of every identity in `skill_folders`.

    `commits` come oldest first (parents before children); `skill_folders` maps each tracked
    skill folder, live or archived, to its identity. A changed path counts for a skill when it
    lies in one of the skill's folders now, or in a folder that held a SKILL.md at some point
    of history and bears the skill's name (where the skill was before a move).
    """
    attribute = _Attributor(skill_folders, _historic_skill_folders(commits), skills_dir)
    created: dict[str, str] = {}
    patches: dict[str, int] = {}
    last_patched: dict[str, str] = {}
    for commit in commits:
        touched = attribute.identities(commit.paths)
        if not touched:
            continue
        patch = is_patch_commit(commit.message)
        for identity in touched:
            if identity not in created:
                created[identity] = commit.time
            elif patch:
                patches[identity] = patches.get(identity, 0) + 1
                # Times come from commits, which git lets run out of order (rebases, clocks).
                last_patched[identity] = max(last_patched.get(identity, ""), commit.time)
    return {
        identity: SkillHistory(
            created.get(identity), patches.get(identity, 0), last_patched.get(identity)
        )
        for identity in sorted(set(skill_folders.values()))
    }


def _library_prefix(skills_dir: str) -> str:
    stripped = skills_dir.strip("/")
    return stripped + "/" if stripped else ""


def _historic_skill_folders(commits: Sequence[CommitChanges]) -> set[str]:
    """Every folder that held a SKILL.md in some commit (a root commit lists all its files,
    so every folder that ever was a skill shows up); which of them were skills is decided
    by `_Attributor`, as discovery would."""
    return {
        folder
        for commit in commits
        for folder, _, base in (path.rpartition("/") for path in commit.paths)
        if base in (SKILL_FILE, SKILL_FILE_LOWER)
    }


# An owner that no name can equal: no skill sits in or below this folder.
_BLOCKED = "/"


class _Attributor:
    """Maps changed paths to tracked identities, deciding once per folder."""

    def __init__(self, tracked: Mapping[str, str], historic: set[str], skills_dir: str) -> None:
        self.tracked = tracked
        self.historic = historic
        self.names = set(tracked.values())
        self.prefix = _library_prefix(skills_dir)
        self.root = self.prefix.rstrip("/")
        self.owners: dict[str, str | None] = {}

    def identities(self, paths: Sequence[str]) -> set[str]:
        """The tracked identities that any of `paths` belongs to."""
        found: set[str] = set()
        for path in paths:
            owner = self._owner(path.rpartition("/")[0])
            if owner is not None and owner in self.names:
                found.add(owner)
        return found

    def _owner(self, folder: str) -> str | None:
        """The name of the skill whose files `folder` holds (tracked or not), None if none."""
        if folder in self.owners:
            return self.owners[folder]
        owner: str | None = None
        if folder in self.tracked:
            # Where a skill sits now outranks what history says sat around it.
            owner = self.tracked[folder]
        elif folder == self.root:
            pass
        elif not folder.startswith(self.prefix):
            owner = _BLOCKED
        else:
            parent, _, base = folder.rpartition("/")
            # As in discovery, the outermost skill folder wins; deeper SKILL.md are its files.
            owner = self._owner(parent)
            # The archive folder is a dot-folder that is no skill but holds skills.
            archive = parent == self.root and base == ARCHIVE_DIR
            if owner is None and not archive:
                if is_skipped_component(base):
                    owner = _BLOCKED
                elif folder in self.historic:
                    owner = base
        self.owners[folder] = owner
        return owner
