"""`gitcurator merge update/<run-id>`: take a reviewed update branch into the default branch.

Refused, changing nothing: a branch holding anything but the update's own commits and fixes
of the skills it merged (`audit.update_check`), a skill it names that is not followed from
that source, conflict markers left in its files, skills that fail validation, a default branch
that changed the same files meanwhile. Then a fast-forward or one merge commit, and the new
source commits recorded.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.audit.update_check import (
    LOCK_FILE,
    UPDATE_PREFIX,
    UpdateCommit,
    UpdateFacts,
    allowed_folders,
    marker_paths,
    update_problem,
    update_sources,
)
from gitcurator.commands.moves import tip_of
from gitcurator.commands.update_branch_check import (
    lock_entries_changed,
    made_executable,
    named_source_problem,
    skills_dropped,
    unsafe_in_folders,
)
from gitcurator.commands.upstream_lock import lock_sources, relock_folders
from gitcurator.commands.upstream_sources import (
    hub_sources,
    library_skills,
    record_sources,
    validate_folders,
)
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result
from gitcurator.render import name_list, other_branch_note, plural
from gitcurator.store import branches, commits, graph, source_fetch
from gitcurator.store.branch_merge import merge_branch_tree
from gitcurator.store.commits import CommitId
from gitcurator.store.diff import diff_trees
from gitcurator.store.repository import Store
from gitcurator.telemetry.names import refresh_names_cache
from gitcurator.upstream.provenance import Provenance, source_trailer


def is_update_branch(start: Path, run: str | None) -> bool:
    """Does `run` name an update branch (`update/<id>`, or an id only such a branch has)?"""
    if run is None:
        return False
    if run.startswith(UPDATE_PREFIX):
        return True
    with open_repo(start) as repo:
        store = repo.store
        return (
            store.branch_tip(UPDATE_PREFIX + run) is not None
            and store.branch_tip("curator/" + run) is None
        )


def merge_update(start: Path, run: str) -> Result:
    """Merge the update branch `run` into the default branch."""
    run_id = run.removeprefix(UPDATE_PREFIX)
    branch = UPDATE_PREFIX + run_id
    with open_repo(start) as repo:
        store = repo.store
        target = store.default_branch()
        tip = store.branch_tip(target)
        update_tip = store.branch_tip(branch)
        if tip is None:
            raise CuratorError(f"branch {target} has no commits; there is nothing to merge into")
        if update_tip is None:
            raise CuratorError(f"there is no update branch {branch} (`git branch` lists them)")
        if not source_fetch.has_commit(store, update_tip.decode()):
            raise CuratorError(
                f"{branch} points at {update_tip.decode()[:12]}, which is not a commit (a tree, "
                f"a blob or a tag written into the branch by hand); nothing was changed. Drop it: "
                f"`git update-ref -d refs/heads/{branch}`"
            )
        merged = graph.ancestors(store, [tip])
        if update_tip in merged:
            raise CuratorError(f"{branch} is already merged into {target}")
        facts = _facts(repo, branch, run_id, target, update_tip, merged)
        sources = update_sources(facts)
        _refuse(repo, facts, branch)
        joined = merge_branch_tree(store, tip, update_tip, merged, branch, target)
        fast_forward = joined.fast_forward
        if joined.tree is None:
            raise CuratorError(
                f"cannot merge {branch}: since the update ran, {target} changed the same "
                f"files ({', '.join(joined.conflicts)}); nothing was changed. Run "
                f"`gitcurator update` again (and drop this branch: `git branch -D {branch}`)"
            )
        new_tree = joined.tree
        folders = sorted(allowed_folders(facts))
        # The lock's hashes were taken of the merge with its markers: now of the fixed files.
        new_tree = relock_folders(repo, new_tree, folders)
        # A lock rewritten here is a change of its own: a merge commit, not a fast-forward.
        fast_forward = fast_forward and new_tree == joined.tree
        validate_folders(repo, new_tree, folders, f"in the skills of {branch}; nothing was changed")
        pairs = [(trailers.UPDATE_RUN, run_id)]
        pairs += [(trailers.SKILL_SOURCE, source_trailer(n, p)) for n, p in sorted(sources.items())]
        message = (
            f"update: merge {branch} ({plural(len(sources), 'skill')})\n\n"
            f"Merge branch '{branch}' into {target}.\n\n{trailers.trailer_block(pairs)}\n"
        )
        new = branches.publish(
            store,
            target,
            tip,
            new_tree,
            f"merge {branch}",
            message=message,
            merging=[update_tip],
            fast_forward=update_tip if fast_forward else None,
            within=folders,
            reflog=f"gitcurator: merge {branch}",
        )
        for prov in sources.values():
            source_fetch.keep_commit(store, prov.url, prov.ref, commits.commit_id(prov.commit))
        notes = record_sources(repo, sources, f"update sources: {', '.join(sorted(sources))}")
        recorded = hub_sources(repo).values()
        for url, ref in {(p.url, p.ref) for p in sources.values()}:
            keep = {p.commit for p in recorded if (p.url, p.ref) == (url, ref)}
            source_fetch.prune_bases(store, url, ref, keep)
        if new.checked_out:
            refresh_names_cache(repo)
        note = other_branch_note(target, store.head_branch())
    how = "fast-forward" if fast_forward else f"merge commit {new.commit.decode()[:12]}"
    text = f"merged {branch} into {target} ({how}): {name_list(sorted(sources), 10)}"
    doc = {
        "branch": branch,
        "merged_commit": new.commit.decode(),
        "fast_forward": fast_forward,
        "skills": sorted(sources),
    }
    return Result(text=text, doc=doc, notes=(*notes, *((note,) if note else ())))


def _facts(
    repo: SkillsRepo,
    branch: str,
    run_id: str,
    target: str,
    tip: CommitId,
    merged: AbstractSet[CommitId],
) -> UpdateFacts:
    store = repo.store
    own = list(reversed(graph.commits_between(store, tip, merged)))
    related = bool(own) and any(p in merged for p in own[0].parents)
    changes = []
    for c in own:
        paths: frozenset[str] = frozenset()
        if related:  # else refused for that alone: an unrelated history is not diffed
            parent = commits.commit_tree_of(store, c.parents[0]) if c.parents else None
            try:
                paths = frozenset(diff_trees(store, parent, c.tree).files)
            except KeyError as exc:
                raise CuratorError(
                    f"cannot check {branch}: its commit {c.id.decode()[:12]} names an object "
                    f"this repository lacks ({exc}); nothing was changed"
                ) from None
        changes.append(UpdateCommit(c.id.decode(), c.message, len(c.parents), paths))
    live = {
        n: loc.folder for n, loc in library_skills(tip_of(repo).skills).items() if not loc.archived
    }
    return UpdateFacts(branch, run_id, target, related, changes, live)


def _source_problem(
    store: Store, facts: UpdateFacts, followed: dict[str, Provenance]
) -> str | None:
    named = update_sources(facts)
    fetched: dict[bytes, set[CommitId]] = {}
    for name, prov in sorted(named.items()):
        problem = named_source_problem(store, name, prov, followed[name], fetched)
        if problem is not None:
            return problem
    first = commits.load_commit(store, commits.commit_id(facts.commits[0].id))
    base = commits.commit_tree_of(store, first.parents[0])
    tip = commits.commit_tree_of(store, commits.commit_id(facts.commits[-1].id))
    folders = {facts.skill_folders[n]: (n, p) for n, p in named.items()}
    dropped = skills_dropped(store, tip, folders)
    if dropped:
        return f"it removes {', '.join(dropped)} (no SKILL.md is left), which an update never does"
    unsafe = unsafe_in_folders(store, base, tip, folders)
    if unsafe:
        return "it holds what no update may bring in: " + "; ".join(unsafe[:5])
    executable = made_executable(store, base, tip, folders)
    if executable:
        return (
            f"it makes {', '.join(executable[:5])} executable, which neither {facts.target} "
            "nor the source has"
        )
    others = lock_entries_changed(store, base, tip, set(named))
    if others:
        return (
            f"it changes {LOCK_FILE}'s entries of {', '.join(others[:5])}, skills it does not name"
        )
    return None


def _refuse(repo: SkillsRepo, facts: UpdateFacts, branch: str) -> None:
    problem = update_problem(facts)
    store = repo.store
    if problem is None:
        followed = hub_sources(repo)
        followed.update(lock_sources(repo, tip_of(repo), followed))
        strangers = sorted(
            n
            for n, p in update_sources(facts).items()
            if n not in followed or followed[n].url != p.url
        )
        if strangers:
            problem = (
                f"it names {', '.join(strangers)}, which the library does not follow from "
                "that source"
            )
        else:
            problem = _source_problem(store, facts, followed)
    if problem is None:
        tree = commits.commit_tree_of(store, commits.commit_id(facts.commits[-1].id))
        entries = store.tree_entries(tree)
        folders = allowed_folders(facts)
        files = {
            p: store.read_blob(sha)
            for p, (sha, mode) in entries.items()
            if (p == LOCK_FILE or any(p.startswith(f + "/") for f in folders)) and mode != 0o120000
        }
        left = marker_paths(files)
        if left:
            raise CuratorError(
                f"cannot merge {branch}: conflict markers remain in {', '.join(left)}; nothing "
                f"was changed. Fix them on the branch (`git switch {branch}`, edit, `git commit "
                f"-am ...`), then run `gitcurator merge {branch}` again"
            )
        return
    raise CuratorError(
        f"refusing to merge {branch}: {problem}; nothing was changed. Merge it with plain git "
        f"(`git merge {branch}`) if you really want it"
    )
