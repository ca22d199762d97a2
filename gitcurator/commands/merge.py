"""`gitcurator merge [RUN]`: bring a reviewed curator branch into the default branch.

A fast-forward when the default branch has not moved since the pass; otherwise one merge
commit, computed file by file (see store.tree_merge), written only when nothing a person changed
meanwhile collides with what the pass did. Refusals change nothing at all.
"""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcurator.audit import trail, trailers
from gitcurator.audit.passes import BRANCH_PREFIX
from gitcurator.commands.merge_update import is_update_branch, merge_update
from gitcurator.commands.moves import record_archives
from gitcurator.commands.pass_branches import newest_run, pending_runs
from gitcurator.curation.branch_verify import check_branch
from gitcurator.errors import JSON_READ_ERRORS, CuratorError
from gitcurator.library import open_repo
from gitcurator.lifecycle.report import run_paths
from gitcurator.output import Result
from gitcurator.render import name_list, other_branch_note, plural
from gitcurator.store import branches, graph
from gitcurator.store.branch_merge import merge_branch_tree
from gitcurator.store.commits import CommitId, CommitInfo
from gitcurator.store.repository import Store
from gitcurator.store.trees import file_at
from gitcurator.telemetry.names import refresh_names_cache
from gitcurator.timeutil import normalise


@dataclass(frozen=True, slots=True)
class MergeResult:
    run_id: str
    branch: str
    target: str
    merged_commit: str
    fast_forward: bool
    archived: list[str]
    warnings: tuple[str, ...] = ()  # the archive times could not all be recorded

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "branch": self.branch,
            "merged_commit": self.merged_commit,
            "fast_forward": self.fast_forward,
            "archived": self.archived,
        }


def merge(start: Path, run: str | None) -> Result:
    """Merge the pass `run` (default: the newest one not merged yet) into the default branch;
    an update branch (`update/<run-id>`) is taken by `merge_update`."""
    if is_update_branch(start, run):
        assert run is not None
        return merge_update(start, run)
    with open_repo(start) as repo:
        store = repo.store
        result = merge_run(store, run)
        note = other_branch_note(result.target, store.head_branch())
        if note is None:
            refresh_names_cache(repo)
    how = "fast-forward" if result.fast_forward else f"merge commit {result.merged_commit[:12]}"
    lines = [f"merged {result.branch} into {result.target} ({how})"]
    if result.archived:
        lines.append(
            f"archived {plural(len(result.archived), 'skill')}: {name_list(result.archived, 10)}"
        )
    lines.append(f"undo with `gitcurator rollback {result.run_id}`")
    return Result(
        text="\n".join(lines),
        doc=result.to_json(),
        notes=result.warnings + ((note,) if note else ()),
    )


def merge_run(store: Store, run: str | None) -> MergeResult:
    """Merge a pass and record when its skills were archived; refuses, changing nothing, on a
    dirty work tree or a conflict with what a person did since the pass."""
    target = store.default_branch()
    tip = store.branch_tip(target)
    if tip is None:
        raise CuratorError(f"branch {target} has no commits; there is nothing to merge into")
    merged = graph.ancestors(store, [tip])
    run_id, pass_tip = _pick(store, run, merged)
    branch = BRANCH_PREFIX + run_id
    # Anyone can push a curator/* branch: only what a pass writes is merged as a pass.
    check_branch(store, run_id, pass_tip, target, merged)
    own = graph.commits_between(store, pass_tip, merged)
    joined = merge_branch_tree(store, tip, pass_tip, merged, branch, target)
    fast_forward = joined.fast_forward
    if joined.tree is None:
        raise CuratorError(
            f"cannot merge {branch}: since the pass ran, {target} changed what it changes "
            f"({', '.join(joined.conflicts)}); nothing was changed. Run `gitcurator run` "
            f"again for a fresh pass (and drop this one: `git branch -D {branch}`)"
        )
    new_tree = joined.tree
    message = (
        f"curator: merge run {run_id}\n\nMerge branch '{branch}' into {target}.\n\n"
        f"{trailers.RUN}: {run_id}\n{trailers.MERGE}: {run_id}\n"
    )
    archived: list[str] = []
    warnings: list[str] = []

    def record_archive_times() -> None:
        names, notes = _record_archived(store, run_id, pass_tip, own)
        archived.extend(names)
        warnings.extend(notes)

    new = branches.publish(
        store,
        target,
        tip,
        new_tree,
        f"merge {branch}",
        message=message,
        merging=[pass_tip],
        fast_forward=pass_tip if fast_forward else None,
        reflog=f"gitcurator: merge run {run_id}",
        # a merged pass without its archive times: never
        together=record_archive_times,
    ).commit
    return MergeResult(
        run_id, branch, target, new.decode(), fast_forward, archived, tuple(warnings)
    )


def _pick(store: Store, run: str | None, merged: AbstractSet[CommitId]) -> tuple[str, CommitId]:
    """The run id and branch tip to merge: the one named, else the newest one not `merged`."""
    pending = pending_runs(store, merged)
    if run is None:
        newest = newest_run(pending)
        if newest is None:
            raise CuratorError(
                "no curator branch is waiting to be merged; run `gitcurator run` for a pass"
            )
        return newest, pending[newest]
    run_id = run.removeprefix(BRANCH_PREFIX)
    if run_id in pending:
        return run_id, pending[run_id]
    if store.branch_tip(BRANCH_PREFIX + run_id) is not None:
        raise CuratorError(f"run {run_id} is already merged; `gitcurator log` shows when")
    waiting = f"waiting: {', '.join(sorted(pending))}" if pending else "none is waiting"
    raise CuratorError(f"there is no curator branch {BRANCH_PREFIX}{run_id} ({waiting})")


def _record_archived(
    store: Store, run_id: str, tip: CommitId, commits: list[CommitInfo]
) -> tuple[list[str], tuple[str, ...]]:
    """Record `archived_at` (the pass's `now`) and `absorbed_into` of the skills the pass
    archived or absorbed; returns the archived names and the warnings to show."""
    logged = [trail.LoggedCommit(c.id.decode(), c.time, c.message) for c in commits]
    found = [p for p in trail.passes(logged) if p.run_id == run_id]
    archived_at: dict[str, str] = {}
    for c in found[0].commits if found else ():
        for name in c.values(trailers.ARCHIVED):
            archived_at.setdefault(name, c.time)
    absorbed = dict(found[0].absorbed) if found else {}
    doc = _run_json(store, tip, run_id)
    # run.json says when the pass judged the skills idle; the commit time is a fallback.
    now = _time(doc.get("now")) if doc is not None else None
    # Folded skills moved to .archive/ too, as of the same moment.
    for c in found[0].commits if found else ():
        for value in c.values(trailers.ABSORBED):
            archived_at.setdefault(value.partition("->")[0].strip(), now or c.time)
    for t in doc.get("transitions", []) if doc is not None else []:
        if isinstance(t, dict) and t.get("to") == "archived" and isinstance(t.get("skill"), str):
            when = now or archived_at.get(t["skill"])
            if when:
                archived_at[t["skill"]] = when
    warnings = record_archives(store, archived_at, f"record the archives of run {run_id}", absorbed)
    return sorted(archived_at), warnings


def _run_json(store: Store, tip: CommitId, run_id: str) -> dict[str, Any] | None:
    data = file_at(store, tip, run_paths(run_id)[1])
    try:
        doc = json.loads(data) if data is not None else None
    except JSON_READ_ERRORS:
        return None
    return doc if isinstance(doc, dict) else None


def _time(value: object) -> str | None:
    try:
        return normalise(value) if isinstance(value, str) else None
    except CuratorError:
        return None
