"""`gitcurator commit`: commit the work tree's skill changes, recording who made new skills."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

from gitcurator import telemetry
from gitcurator.checks import check_tree
from gitcurator.errors import EXIT_OK, CuratorError, UsageError, ValidationFailed
from gitcurator.naming import identity, refresh_names_cache
from gitcurator.records import ORIGINS, Stamped, UsageRecord
from gitcurator.render import findings_text, plural
from gitcurator.repository import open_repo
from gitcurator.skill import find_skills
from gitcurator.timeutil import format_time, utc_now


def commit(start: Path, message: str, origin: str | None) -> int:
    """Validate the changed skills, commit them as one commit, record new skills' origin."""
    origin = origin or os.environ.get("GITCURATOR_ORIGIN") or "user"
    if origin not in ORIGINS:
        raise UsageError(
            f"origin {origin!r} (from $GITCURATOR_ORIGIN?) must be one of {', '.join(ORIGINS)}"
        )
    if not message.strip():
        raise UsageError("the commit message is empty; say what changed with -m")
    with open_repo(start) as repo:
        store, skills_dir = repo.store, repo.config.skills_dir
        branch = store.head_branch()
        if branch is None or branch.startswith("curator/"):
            # A person's commit on a review branch would be merged as part of the pass.
            where = "a detached HEAD" if branch is None else f"the review branch {branch}"
            raise CuratorError(
                f"HEAD is on {where}; check out the default branch "
                f"(`git checkout {store.default_branch()}`) and commit there"
            )
        tree = store.worktree_tree()
        head = store.head_entries()
        live_now = [s for s in find_skills(tree.paths, skills_dir) if not s.archived]
        live_head = [s for s in find_skills(head, skills_dir) if not s.archived]
        changes = store.worktree_changes({s.folder for s in live_now + live_head})
        if not changes.paths:
            print("no skill changes to commit")
            return EXIT_OK
        touched = [s for s in live_now if any(p.startswith(s.folder + "/") for p in changes.paths)]
        result = check_tree(tree, skills_dir=skills_dir, only=[s.folder for s in touched])
        if result.errors:
            print(findings_text(result.findings, show_warnings=False), file=sys.stderr)
            raise ValidationFailed(
                f"{plural(result.errors, 'error')} in the changed skills; nothing was committed"
            )
        added = [identity(s) for s in touched if s.skill_md not in head]
        now_folders = {s.folder for s in live_now}
        removed = [identity(s) for s in live_head if s.folder not in now_folders]
        edited = [identity(s) for s in touched if identity(s) not in added]
        trailers = [f"Skill-Added: {n}" for n in added] + [f"Skill-Edited: {n}" for n in edited]
        trailers += [f"Skill-Removed: {n}" for n in removed]
        sha = store.commit_changes(changes, message.rstrip() + "\n\n" + "\n".join(trailers) + "\n")
        stamp = Stamped(origin, format_time(utc_now()))

        def record_origins(records: dict[str, UsageRecord]) -> set[str]:
            fresh = {n for n in added if n not in records or records[n].origin is None}
            for name in fresh:
                records[name] = replace(records.get(name) or UsageRecord(name), origin=stamp)
            return fresh

        flushed = telemetry.update(
            store, record_origins, f"gitcurator: origin {origin} of new skills"
        )
        refresh_names_cache(repo)
    for warning in flushed.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    parts = [
        f"{plural(len(added), 'new skill')} ({origin})" if added else "",
        f"{len(edited)} edited" if edited else "",
        f"{len(removed)} removed" if removed else "",
    ]
    print(f"committed {sha.decode()[:12]}: " + ", ".join(p for p in parts if p))
    return EXIT_OK
