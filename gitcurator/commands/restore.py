"""`gitcurator restore NAME`: bring an archived skill back from .archive/, as one commit."""

from __future__ import annotations

from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.commands.moves import (
    archived_name,
    commit_move,
    is_taken,
    tip_of,
)
from gitcurator.errors import CuratorError
from gitcurator.library import open_repo
from gitcurator.lifecycle.restore_proposals import restore_target
from gitcurator.output import Result
from gitcurator.render import name_arg
from gitcurator.skills.identity import identity
from gitcurator.store import trees


def restore(start: Path, name: str) -> Result:
    """Move an archived skill back to its category folder, as one commit."""
    with open_repo(start) as repo:
        tip = tip_of(repo)
        wanted = name.strip("/")
        archived = [(s, archived_name(repo, tip, s)) for s in tip.skills if s.archived]
        candidates = [a for a in archived if wanted in (a[0].folder, a[0].dirname, a[1])]
        # A folder named as such (`.archive/x-2`, `x-2`) picks that copy of the skill.
        explicit = [
            (loc, skill)
            for loc, skill in candidates
            if wanted == loc.folder or (wanted == loc.dirname and wanted != skill)
        ]
        candidates = explicit or candidates
        if not candidates:
            raise CuratorError(
                f"no archived skill named {name} (see `gitcurator list --state archived`)"
            )
        if len(candidates) > 1:
            folders = ", ".join(s.folder for s, _ in candidates)
            raise CuratorError(
                f"{name} is archived more than once ({folders}); restore one by its folder, "
                f"e.g. `gitcurator restore {name_arg(candidates[-1][0].folder)}`"
            )
        source, skill = candidates[0]
        live = next((s for s in tip.skills if not s.archived and identity(s) == skill), None)
        if live is not None:
            raise CuratorError(
                f"a live skill named {skill} exists at {live.folder}; nothing was restored "
                "(archive or rename it first)"
            )
        target = restore_target(source.folder, skill, repo.config.skills_dir)
        if is_taken(repo, tip, target):
            raise CuratorError(f"{target} already exists; nothing was restored (move it first)")
        new_tree = trees.edit_tree(repo.store, tip.tree, [(source.folder, target)])
        message = (
            f"curator: restore {skill}\n\nMoved {source.folder} back to {target}.\n\n"
            f"{trailers.RESTORED}: {skill}\n"
        )
        moved = commit_move(
            repo, tip, new_tree, message, f"restore {skill}", [source.folder, target]
        )
    return Result(text=f"restored {skill} to {target} ({moved.commit[:12]})", notes=moved.notes)
