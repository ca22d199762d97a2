"""The apply step of a pass: write what the plan decided, and nothing it did not.

First the journal is folded into the notes (the usage the plan read from both). Every commit
is built in the object store (the default branch, the index and the work tree are never
touched): the archive commit, one commit per umbrella, the report commit. The pass is
published by creating one branch ref, together with the lifecycle states it reports; until
the ref exists its objects are unreachable, so a pass killed at any point leaves every ref as
it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gitcurator.curation.pass_plan import PassPlan
from gitcurator.curation.pass_report import report_files, run_document
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.report import archive_message, report_message, umbrella_message
from gitcurator.lifecycle.restore_proposals import restore_message
from gitcurator.store import ObjectID, Store, branches, commits, trees
from gitcurator.store.interrupts import interrupts_deferred
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import Stamped, UsageRecord
from gitcurator.timeutil import format_time

if TYPE_CHECKING:
    from gitcurator.curation.umbrella_plan import Fold


@dataclass(frozen=True, slots=True)
class Applied:
    """What the apply step wrote: the branch (None when the pass had nothing to publish) and
    run.json as committed (it names each umbrella's commit)."""

    branch: str | None
    doc: dict[str, Any]


class InterruptedAfterPublishing(KeyboardInterrupt):
    """Ctrl-C came while the pass was published; it was held until the branch and the states
    were both written. The message says where the pass is."""


def apply_pass(repo: SkillsRepo, plan: PassPlan) -> Applied:
    """Commit the plan on a new curator branch and record its lifecycle states."""
    store = repo.store
    ledger.flush(store)
    head = plan.inputs.tip
    if plan.lifecycle.archived:
        moved = trees.edit_tree(store, plan.inputs.tree, plan.archive_moves)
        message = archive_message(plan.run_id, plan.lifecycle.archived)
        head = commits.write_commit(store, moved, [head], message)
    if plan.restores:
        head = _commit_restores(store, plan, head)
    made: list[str] = []
    for fold in plan.folds:
        head = _commit_umbrella(store, fold, head, plan.run_id)
        made.append(head.decode())
    doc = run_document(plan, made)
    branch = plan.branch
    if branch is None:
        return Applied(None, doc)
    tree = trees.edit_tree(store, commits.commit_tree_of(store, head), files=report_files(doc))
    head = commits.write_commit(store, tree, [head], report_message(plan.run_id, doc))
    # The branch and the states it reports go together: a Ctrl-C here waits for both, so the
    # pass is never published without them (or reported as merely "interrupted").
    try:
        with interrupts_deferred():
            if not branches.create_branch(store, branch, head):
                raise CuratorError(f"branch {branch} appeared meanwhile; run again")
            _record_states(repo, plan)
    except KeyboardInterrupt:
        # Held until both were done: the pass is complete, only its summary is not shown.
        raise InterruptedAfterPublishing(
            f"gitcurator: the pass was published as {branch} before stopping; review it with "
            f"`gitcurator log` or `git log {plan.inputs.base_branch}..{branch}`"
        ) from None
    except CuratorError as exc:
        if store.branch_tip(branch) != head:
            raise
        # The branch is out; only the stale/active states it reports could not be recorded
        # (the next pass reports those transitions again).
        raise CuratorError(
            f"the pass was published as {branch}, but its lifecycle states were not recorded: {exc}"
        ) from None
    return Applied(branch, doc)


def _commit_umbrella(store: Store, fold: Fold, head: ObjectID, run_id: str) -> ObjectID:
    """One commit: folded skills to .archive/, the umbrella written, support files copied."""
    umbrella = fold.umbrella
    tree = trees.edit_tree(
        store,
        commits.commit_tree_of(store, head),
        moves=list(umbrella.archived.items()),
        files={**umbrella.writes, **fold.rewritten},
        copies=umbrella.copies,
    )
    message = umbrella_message(
        run_id, umbrella, fold.cluster, [r.describe() for r in fold.references]
    )
    return commits.write_commit(store, tree, [head], message)


def _commit_restores(store: Store, plan: PassPlan, head: ObjectID) -> ObjectID:
    """One commit: each wanted skill's folder moved whole from .archive/ back, as `restore`."""
    tree = trees.edit_tree(store, commits.commit_tree_of(store, head), plan.restore_moves)
    threshold = plan.inputs.config.curator.restore_after_wanted
    return commits.write_commit(
        store, tree, [head], restore_message(plan.run_id, plan.restores, threshold)
    )


def _record_states(repo: SkillsRepo, plan: PassPlan) -> None:
    """Remember stale/active in the notes so the next pass sees what changed since."""
    changes = plan.state_changes
    if not changes:
        return
    stamp_at = format_time(plan.now)

    def change(records: dict[str, UsageRecord]) -> set[str]:
        for name, state in changes.items():
            record = records.get(name) or UsageRecord(name)
            records[name] = replace(record, lifecycle=Stamped(state, stamp_at))
        return set(changes)

    ledger.update(repo.store, change, "gitcurator: record lifecycle states of a pass")
