"""The apply step of `gitcurator update`: the plan's folders written as commits, one per source,
on the default branch when every merge is clean, else on a review branch `update/<run-id>`.

Everything is built in the object store first and validated; the default branch moves only by
compare-and-swap with its work tree following (refused first on uncommitted changes in the
updated folders), and the review branch is created only if it did not exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gitcurator.audit import trailers
from gitcurator.commands.moves import Tip, commit_move
from gitcurator.commands.upstream_lock import LockEdit
from gitcurator.commands.upstream_sources import hub_sources, record_sources, validate_folders
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.store import branches, commits, source_fetch, trees
from gitcurator.store.commits import CommitId, TreeId
from gitcurator.store.diff import Entry
from gitcurator.upstream.provenance import Provenance, source_trailer
from gitcurator.upstream.update_plan import SkillStep, SourceStep, UpdatePlan, update_subject

UPDATE_PREFIX = "update/"


@dataclass(frozen=True, slots=True)
class Applied:
    """What apply made: the commits (oldest first), and the review branch when conflicted."""

    commits: tuple[str, ...]
    branch: str | None
    notes: tuple[str, ...] = ()


def apply_update(
    repo: SkillsRepo, library: Tip, plan: UpdatePlan, run_id: str, lock_edit: LockEdit
) -> Applied:
    """Write the plan: one commit per source that takes a skill."""
    steps = [s for s in plan.sources if s.taken]
    built: list[tuple[SourceStep, TreeId]] = []
    tree = library.tree
    for source in steps:
        tree = _write_folders(repo, tree, source.taken)
        tree = lock_edit(tree, {s.name: s.files for s in source.taken if s.files is not None})
        built.append((source, tree))
    clean = [s.folder for s in plan.taken if s.kind != "conflict" and s.folder]
    validate_folders(
        repo,
        tree,
        clean,
        "in the updated skills; nothing was changed. The source's new version fails "
        "validation: leave it for now, or take it by hand",
    )
    if plan.conflicted:
        return _review_branch(repo, library, built, run_id)
    made: list[str] = []
    notes: list[str] = []
    current = library
    for source, new_tree in built:
        folders = [s.folder for s in source.taken if s.folder]
        message = _message(source, run_id)
        moved = commit_move(repo, current, new_tree, message, "update skills", folders)
        made.append(moved.commit)
        notes += moved.notes
        notes += _record(repo, source)
        commit = commits.commit_id(moved.commit)
        current = Tip(current.branch, commit, new_tree, {}, current.skills)
    return Applied(tuple(made), None, tuple(notes))


def _review_branch(
    repo: SkillsRepo, library: Tip, built: list[tuple[SourceStep, TreeId]], run_id: str
) -> Applied:
    store = repo.store
    # Two runs in one second: the second is <run-id>-2, as curator branches are.
    taken = branches.taken_names(store, UPDATE_PREFIX)
    run_id = next(
        f"{run_id}-{n}" if n > 1 else run_id
        for n in range(1, len(taken) + 2)
        if UPDATE_PREFIX + (f"{run_id}-{n}" if n > 1 else run_id) not in taken
    )
    parent: CommitId = library.commit
    made = []
    for source, tree in built:
        parent = commits.write_commit(store, tree, [parent], _message(source, run_id))
        made.append(parent.decode())
    for source, _ in built:
        if source.new_commit:
            source_fetch.keep_commit(store, source.url, source.ref, _oid(source.new_commit))
    name = UPDATE_PREFIX + run_id
    if not branches.create_branch(store, name, parent):
        raise CuratorError(f"branch {name} appeared meanwhile; nothing was changed, run it again")
    return Applied(tuple(made), name)


def _oid(hex_id: str) -> CommitId:
    return commits.commit_id(hex_id)


def _write_folders(repo: SkillsRepo, tree: TreeId, steps: Sequence[SkillStep]) -> TreeId:
    """`tree` with each step's folder replaced by its merged files."""
    store = repo.store
    edits: list[tuple[str, Entry | None]] = []
    for step in steps:
        assert step.folder is not None and step.files is not None
        edits.append((step.folder, None))
        for rel, entry in sorted(step.files.items()):
            sha = source_fetch.store_blob(store, entry.content)
            edits.append((f"{step.folder}/{rel}", (sha, entry.mode)))
    return trees.replace_paths(store, tree, edits)


def new_provenance(step: SkillStep, source: SourceStep) -> Provenance:
    """The skill's source after the update: the same, at the new commit."""
    v = step.versions
    return Provenance(v.url, v.path, v.ref, source.new_commit or v.old_commit)


def _record(repo: SkillsRepo, source: SourceStep) -> list[str]:
    if source.new_commit:
        source_fetch.keep_commit(repo.store, source.url, source.ref, _oid(source.new_commit))
    taken = {s.name: new_provenance(s, source) for s in source.taken}
    notes = record_sources(repo, taken, f"update sources: {', '.join(sorted(taken))}")
    recorded = {
        p.commit for p in hub_sources(repo).values() if (p.url, p.ref) == (source.url, source.ref)
    }
    source_fetch.prune_bases(repo.store, source.url, source.ref, recorded)
    return notes


def _message(source: SourceStep, run_id: str) -> str:
    lines = [update_subject(source), ""]
    for step in source.taken:
        kept = " (local edits kept)" if step.changed_here else ""
        lines.append(f"- {step.name}{kept}")
        lines += [f"  conflict: {step.folder}/{c.path}: {c.message}" for c in step.conflicts]
    pairs = [(trailers.UPDATE_RUN, run_id)]
    pairs += [(trailers.SKILL_EDITED, s.name) for s in source.taken]
    pairs += [
        (trailers.SKILL_SOURCE, source_trailer(s.name, new_provenance(s, source)))
        for s in source.taken
    ]
    return "\n".join(lines) + "\n\n" + trailers.trailer_block(pairs) + "\n"
