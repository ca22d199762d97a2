"""`gitcurator rollback RUN [--commit SHA]` / `rollback --list`: undo merged passes.

A rollback is one new commit on the default branch that reverts the pass's skill-changing
commits (newest first; the report stays as history). Its `Curator-Rollback:` trailer makes
history count it as a person's doing, so the skills it brings back are active again. Each
undone commit is named in a `Curator-Reverts:` trailer, which is how `--list` and `log` know
what is already undone. Telemetry is left as it is.
"""

from __future__ import annotations

from pathlib import Path

from gitcurator.audit import trail, trailers
from gitcurator.errors import CuratorError, UsageError
from gitcurator.library import open_repo
from gitcurator.output import Result
from gitcurator.render import name_list, other_branch_note, plural
from gitcurator.store import branches, commits, tree_merge
from gitcurator.store.history import history_changes
from gitcurator.store.repository import Store
from gitcurator.telemetry.names import refresh_names_cache


def merged_passes(store: Store, branch: str) -> list[trail.Pass]:
    """The passes in the history of `branch`, oldest first."""
    tip = store.branch_tip(branch)
    if tip is None:
        return []
    logged = [trail.LoggedCommit(c.commit, c.time, c.message) for c in history_changes(store, tip)]
    return trail.passes(logged)


def list_rollbacks(start: Path) -> Result:
    """The merged passes that are not (wholly) rolled back yet."""
    with open_repo(start) as repo:
        target = repo.store.default_branch()
        found = [
            p
            for p in reversed(merged_passes(repo.store, target))
            if p.skill_commits and p.status != trail.ROLLED_BACK
        ]
    doc = [
        {
            "run_id": p.run_id,
            "time": p.time,
            "status": p.status,
            "archived": p.archived,
            "commits": [c.commit for c in p.skill_commits if c.commit not in p.reverted],
        }
        for p in found
    ]
    lines = [
        f"{p.run_id}  {p.time}  {p.status}: {name_list(p.archived) or 'no skills archived'}"
        for p in found
    ]
    return Result(
        text="\n".join(lines) or f"no merged pass on {target} is left to roll back", doc=doc
    )


def rollback(start: Path, run: str | None, commit: str | None) -> Result:
    """Revert a merged pass (or one commit of it) as one commit on the default branch."""
    if run is None and commit is None:
        raise UsageError("name the run to roll back (`gitcurator rollback --list` shows them)")
    with open_repo(start) as repo:
        store = repo.store
        target = store.default_branch()
        tip = store.branch_tip(target)
        if tip is None:
            raise CuratorError(f"branch {target} has no commits; there is nothing to roll back")
        chosen, undo = _choose(store, target, run, commit)
        new_tree = commits.read_commit(store, tip).tree
        for c in undo:
            reverted = tree_merge.revert_tree(store, commits.commit_id(c.commit), new_tree)
            if reverted.tree is None:
                raise CuratorError(
                    f"cannot roll back {c.commit[:12]} of run {chosen.run_id}: "
                    f"{', '.join(reverted.conflicts)} changed since; nothing was changed. "
                    "Undo those changes by hand, or restore single skills with `gitcurator restore`"
                )
            new_tree = reverted.tree
        restored = _restored(undo)
        message = _message(chosen.run_id, undo, restored, whole=commit is None)
        action = f"roll back run {chosen.run_id}"
        new = branches.publish(store, target, tip, new_tree, action, message=message).commit
        note = other_branch_note(target, store.head_branch())
        if note is None:
            refresh_names_cache(repo)
    doc = {
        "run_id": chosen.run_id,
        "commit": new.decode(),
        "reverted": [c.commit for c in undo],
        "restored": restored,
    }
    lines = [
        f"rolled back {plural(len(undo), 'commit')} of run {chosen.run_id} as {new.decode()[:12]}"
    ]
    if restored:
        lines.append(f"restored {plural(len(restored), 'skill')}: {name_list(restored, 10)}")
    return Result(text="\n".join(lines), doc=doc, notes=(note,) if note else ())


def _choose(
    store: Store, target: str, run: str | None, commit: str | None
) -> tuple[trail.Pass, list[trail.LoggedCommit]]:
    """The pass and the commits of it to revert, newest first."""
    run = run.removeprefix("curator/") if run else None
    found = merged_passes(store, target)
    if commit is not None:
        prefix = commit.strip().lower()
        matches = [
            (p, c)
            for p in found
            for c in p.skill_commits
            if len(prefix) >= 4 and c.commit.startswith(prefix) and run in (None, p.run_id)
        ]
        if not matches:
            where = f"run {run}" if run else f"any pass merged into {target}"
            raise CuratorError(
                f"{commit} is not a skill-changing commit of {where} "
                "(`gitcurator log` lists the commits of each pass)"
            )
        if len(matches) > 1:
            raise UsageError(f"commit id {commit} is ambiguous; give more of its digits")
        chosen, picked = matches[0]
        if picked.commit in chosen.reverted:
            raise CuratorError(
                f"commit {picked.commit[:12]} of run {chosen.run_id} is already rolled back"
            )
        return chosen, [picked]
    by_run = {p.run_id: p for p in found}
    if run not in by_run:
        if store.branch_tip(f"curator/{run}") is not None:
            raise CuratorError(
                f"run {run} is not merged into {target}, so there is nothing to roll back; "
                f"to drop the pass, delete its branch: `git branch -D curator/{run}`"
            )
        raise CuratorError(f"no pass {run} in the history of {target} (see `gitcurator log`)")
    chosen = by_run[run]
    undo = [c for c in chosen.skill_commits if c.commit not in chosen.reverted]
    if not chosen.skill_commits:
        raise CuratorError(f"run {run} changed no skills (only its report); nothing to roll back")
    if not undo:
        raise CuratorError(f"run {run} is already rolled back (see `gitcurator log`)")
    return chosen, undo


def _restored(undo: list[trail.LoggedCommit]) -> list[str]:
    """Skills the reverted commits had archived or absorbed, which come back now."""
    names = [n for c in undo for n in c.values(trailers.ARCHIVED)]
    names += [v.partition("->")[0].strip() for c in undo for v in c.values(trailers.ABSORBED)]
    return sorted(set(names))


def _message(run_id: str, undo: list[trail.LoggedCommit], restored: list[str], whole: bool) -> str:
    shown = name_list(restored, 3)
    what = f"run {run_id}" if whole else f"{undo[0].commit[:12]} of run {run_id}"
    subject = f"curator: roll back {what}" + (f" (restores {shown})" if restored else "")
    body = [f"This reverts commit {c.commit} ({c.subject})." for c in undo]
    lines = [f"{trailers.RUN}: {run_id}", f"{trailers.ROLLBACK}: {run_id}"]
    lines += [f"{trailers.RESTORED}: {n}" for n in restored]
    lines += [f"{trailers.REVERTS}: {c.commit}" for c in undo]
    return "\n".join([subject, "", *body, "", *lines]) + "\n"
