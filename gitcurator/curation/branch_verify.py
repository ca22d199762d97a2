"""Verify a curator branch before it is merged or taken in: read its commits' changes from the
store and ask `audit.branch_check` whether a pass could have written them."""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from typing import Any

from gitcurator.audit import trailers
from gitcurator.audit.branch_check import BranchFacts, CommitChange, branch_problem, refusal
from gitcurator.audit.passes import BRANCH_PREFIX
from gitcurator.audit.umbrella_check import UmbrellaGuards
from gitcurator.curation.pass_inputs import skill_rows_at
from gitcurator.errors import JSON_READ_ERRORS, CuratorError
from gitcurator.library import SkillsRepo, read_config
from gitcurator.lifecycle.report import run_paths
from gitcurator.lifecycle.restore_proposals import planned_restores
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.store import ObjectID, Store, graph
from gitcurator.store.commits import CommitId, CommitInfo, commit_tree_of
from gitcurator.store.diff import diff_trees
from gitcurator.store.objects import read_blob
from gitcurator.store.trees import file_at
from gitcurator.telemetry import ledger
from gitcurator.timeutil import utc_now
from gitcurator.umbrella.eligibility import ineligible


def branch_facts(
    store: Store, run_id: str, tip: CommitId, target: str, merged: AbstractSet[CommitId]
) -> BranchFacts:
    """The commits of curator/`run_id` short of `merged` (the default branch's history), with
    what each changed, oldest first."""
    own = list(reversed(graph.commits_between(store, tip, merged)))
    related = bool(own) and any(p in merged for p in own[0].parents)
    umbrellas = [c for c in own if trailers.UMBRELLA in trailers.trailers(c.message)]
    restoring = any(trailers.RESTORED in trailers.trailers(c.message) for c in own)
    repo = SkillsRepo(store, read_config(store.root)) if umbrellas or restoring else None
    return BranchFacts(
        BRANCH_PREFIX + run_id,
        run_id,
        target,
        related,
        [_change(store, c, run_id, repo if c in umbrellas else None) for c in own],
        _guards(repo, target) if repo is not None and umbrellas else None,
        _restorable(repo, target) if repo is not None and restoring else {},
    )


def _restorable(repo: SkillsRepo, target: str) -> dict[str, tuple[str, str]]:
    """What a pass would restore on `target` now (the same planning, the same records)."""
    store = repo.store
    target_tip = store.branch_tip(target)
    if target_tip is None:
        return {}
    entries = store.tree_entries(commit_tree_of(store, target_tip))
    rows = skill_rows_at(repo, entries, ledger.load(store).records, utc_now(), head=target_tip)
    found = planned_restores(rows, entries, lambda sha: read_blob(store, sha), repo.config)
    return {p.name: (p.source, p.target) for p in found}


def _guards(repo: SkillsRepo, target: str) -> UmbrellaGuards | None:
    """The pass's guards as the default branch stands now: who may be folded, by the same
    rules (`umbrella.eligibility`) and the same records the next pass would read."""
    store = repo.store
    target_tip = store.branch_tip(target)
    if target_tip is None:
        return None
    now = utc_now()
    paths = store.tree_entries(commit_tree_of(store, target_tip))
    rows = skill_rows_at(repo, paths, ledger.load(store).records, now, head=target_tip)
    return UmbrellaGuards(
        ineligible=ineligible(rows, repo.config.curator, now),
        known=frozenset(r.name for r in rows),
        min_retention=repo.config.curator.min_retention,
        load=lambda sha: read_blob(store, ObjectID(sha)),
        reference_files=repo.config.reference_files,
    )


def check_branch(
    store: Store, run_id: str, tip: CommitId, target: str, merged: AbstractSet[CommitId]
) -> None:
    """Raise CuratorError, naming the commit and the paths, unless every commit of the branch
    is one a pass writes."""
    try:
        problem = branch_problem(branch_facts(store, run_id, tip, target, merged))
    except KeyError as exc:  # the umbrella guards read blobs a fetch may not have brought
        raise CuratorError(
            f"cannot merge {BRANCH_PREFIX}{run_id}: it could not be checked, since "
            f"{missing_object(exc)}; nothing was changed"
        ) from None
    if problem is not None:
        raise CuratorError(refusal(BRANCH_PREFIX + run_id, problem))


def missing_object(exc: KeyError) -> str:
    """`object 1a2b3c4d5e6f is not in this repository (...)`: what dulwich's KeyError for an
    object the store lacks means, in words."""
    found = exc.args[0] if exc.args else b"?"
    missing = found.decode() if isinstance(found, bytes) else str(found)
    return f"object {missing[:12]} is not in this repository (fetch it again: `gitcurator sync`)"


def branch_warning(store: Store, branch: str) -> str | None:
    """A warning saying why `merge` would refuse the curator branch `branch`, or None (sync
    takes such a branch in, as git would, and says so)."""
    target = store.default_branch()
    target_tip = store.branch_tip(target)
    tip = store.branch_tip(branch)
    if target_tip is None or tip is None:
        return None
    merged = graph.ancestors(store, [target_tip])
    run_id = branch.removeprefix(BRANCH_PREFIX)
    try:
        problem = branch_problem(branch_facts(store, run_id, tip, target, merged))
    except CuratorError as exc:  # e.g. an object the remote did not send: say, never stop
        problem = str(exc)
    except KeyError as exc:
        return (
            f"{branch} could not be checked as `gitcurator merge` checks it: {missing_object(exc)}"
        )
    if problem is None:
        return None
    return f"{branch} would be refused by `gitcurator merge`: {problem}"


def _change(store: Store, c: CommitInfo, run_id: str, repo: SkillsRepo | None) -> CommitChange:
    parent_tree = commit_tree_of(store, c.parents[0]) if c.parents else None
    diff = diff_trees(store, parent_tree, c.tree)
    skills_before: dict[str, str] = {}
    if repo is not None and parent_tree is not None:
        found = find_skills(
            store.tree_entries(parent_tree), repo.config.skills_dir, repo.config.include
        )
        skills_before = {loc.folder: identity(loc) for loc in found if not loc.archived}
    run_json: Any = None
    path = run_paths(run_id)[1]
    if path in diff.files:
        try:
            run_json = json.loads(file_at(store, c.id, path) or b"")
        except JSON_READ_ERRORS:
            run_json = None
    return CommitChange(
        c.id.decode(),
        c.message,
        len(c.parents),
        dict(diff.files),
        frozenset(diff.removed_dirs),
        frozenset(diff.added_dirs),
        run_json,
        skills_before,
    )
