"""`gitcurator update [NAME...] [--dry-run]`: bring upstream changes into skills taken from
upstream, keeping local edits by a three-way merge of each folder.

Load (each source fetched once, `upstream_state`) → plan (pure, `upstream.update_plan`) →
apply (`update_apply`: one commit per source, or the review branch on any conflict) →
report, built once from the plan and what apply made. `--dry-run` stops after the plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gitcurator.commands.update_apply import Applied, apply_update
from gitcurator.commands.upstream_lock import lock_updater
from gitcurator.commands.upstream_sources import refuse_unsafe
from gitcurator.commands.upstream_state import Folder, Followed, folder_entries, load_followed
from gitcurator.errors import EXIT_FAILURE, EXIT_OK
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.progress import step as progress_step
from gitcurator.render import name_list, plural
from gitcurator.store import source_fetch
from gitcurator.store.repository import Store
from gitcurator.timeutil import utc_now
from gitcurator.upstream.folder_merge import FileEntry
from gitcurator.upstream.update_plan import (
    CONFLICT,
    MERGED,
    NOT_LIVE,
    REMOVED,
    UNCHANGED,
    UNREACHABLE,
    SkillVersions,
    UpdatePlan,
    plan_update,
)


def update(
    start: Path, names: Sequence[str], dry_run: bool = False, progress: Progress = NO_PROGRESS
) -> Result:
    """Merge the source's new version into each followed skill (or those named); `progress`
    hears the fetch, the merge of each skill and the writing."""
    with open_repo(start) as repo:
        store = repo.store
        library, followed = load_followed(repo, names, progress)
        plan = plan_update([_versions(store, f) for f in counted(followed, "merging", progress)])
        applied = None
        if not dry_run and plan.taken:
            run_id = utc_now().strftime("%Y%m%d-%H%M%S")
            with progress_step("writing the update", progress):
                applied = apply_update(repo, library, plan, run_id, lock_updater(repo))
    return _report(plan, applied, dry_run)


def _versions(store: Store, f: Followed) -> SkillVersions:
    """The skill's three versions as files; read only when upstream changed it (a folder with
    the same tree id at both source commits needs no merge)."""
    changed = bool(f.changed_upstream) or (f.base is None and f.theirs is not None)
    if changed and f.theirs is not None:
        entries = folder_entries(store, f.theirs, True)
        refuse_unsafe(store, f.shown, f.source.path, entries, f.theirs.tree)
    return SkillVersions(
        f.name,
        f.folder,
        f.source.url,
        f.source.ref,
        f.shown,
        f.source.path,
        f.source.commit,
        f.tip,
        _files(store, f.base) if changed else None,
        _files(store, f.ours) if changed else {},
        _files(store, f.theirs) if changed else ({} if f.theirs is not None else None),
        f.error,
        unchanged=not changed,
    )


def _files(store: Store, folder: Folder | None) -> dict[str, FileEntry] | None:
    if folder is None:
        return None
    entries = folder_entries(store, folder, store_renames=True)
    return {p: FileEntry(c, m) for p, (c, m) in source_fetch.folder_files(store, entries).items()}


_SAID = {
    MERGED: "merged",
    CONFLICT: "conflict",
    UNCHANGED: "unchanged upstream",
    REMOVED: "removed upstream (kept here)",
    NOT_LIVE: "not live here (left alone)",
    UNREACHABLE: "source unreachable",
}


def _report(plan: UpdatePlan, applied: Applied | None, dry_run: bool) -> Result:
    lines = []
    rows: list[dict[str, Any]] = []
    for step in plan.steps:
        said = _SAID[step.kind]
        if step.kind == MERGED and step.changed_here:
            said += " (local edits kept)"
        if step.kind == UNREACHABLE:
            said += f": {step.versions.error}"
        if step.kind != UNCHANGED:  # counted below: a 200-skill source is mostly unchanged
            lines.append(f"{step.name}: {said}")
        for c in step.conflicts:
            lines.append(f"  {step.folder}/{c.path}: {c.message}")
        rows.append(
            {
                "name": step.name,
                "result": step.kind,
                "folder": step.folder,
                "source": step.versions.url,
                "from_commit": step.versions.old_commit or None,
                "to_commit": step.versions.new_commit,
                "local_edits_kept": step.changed_here,
                "conflicts": [
                    {"path": f"{step.folder}/{c.path}", "kind": c.kind, "message": c.message}
                    for c in step.conflicts
                ],
                "error": step.versions.error,
            }
        )
    unchanged = [s.name for s in plan.steps if s.kind == UNCHANGED]
    if unchanged:
        lines.append(f"unchanged upstream: {name_list(unchanged, 5)}")
    if not plan.steps:
        lines.append("no skill here was added from upstream (`gitcurator add SOURCE NAME`)")
    unreachable = [s.name for s in plan.steps if s.kind == UNREACHABLE]
    conflicted = plan.conflicted
    code = EXIT_FAILURE if conflicted or unreachable else EXIT_OK
    if dry_run:
        lines.append(f"dry run: {plural(len(plan.taken), 'skill')} would change; nothing written")
    elif applied is not None and applied.branch:
        files = [f"{s.folder}/{c.path}" for s in conflicted for c in s.conflicts]
        lines.append(
            f"{plural(len(files), 'conflict')} ({', '.join(files)}): nothing changed on the "
            f"default branch; the merge is on {applied.branch}. Fix the files there "
            f"(`git switch {applied.branch}`, edit, `git commit -am ...`), then take it with "
            f"`gitcurator merge {applied.branch}`"
        )
    elif applied is not None:
        made = ", ".join(c[:12] for c in applied.commits)
        lines.append(f"{plural(len(applied.commits), 'commit')}: {made}")
    doc = {
        "dry_run": dry_run,
        "skills": rows,
        "commits": list(applied.commits) if applied else [],
        "branch": applied.branch if applied else None,
    }
    return Result(code, "\n".join(lines), doc, applied.notes if applied else ())
