"""Reading a curator branch for `review`: which pass, its run.json, its commits, the files they
change and the catalogue each end of it costs. Reads only; the pass is never recomputed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gitcurator import schemas
from gitcurator.audit import trailers
from gitcurator.audit.passes import BRANCH_PREFIX, read_trail, run_order
from gitcurator.commands.pass_branches import curator_tips, newest_run
from gitcurator.config import CONFIG_FILE, Config
from gitcurator.curation.token_counter import token_counter
from gitcurator.errors import (
    JSON_READ_ERRORS,
    CuratorError,
    NotARepository,
    SchemaError,
    StoreError,
)
from gitcurator.lifecycle.catalogue_cost import (
    CatalogueCost,
    Described,
    catalogue_cost,
    catalogue_entries,
    described,
)
from gitcurator.lifecycle.report import run_paths
from gitcurator.review.diff_text import FileChange
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.store import ObjectID, Store, graph
from gitcurator.store.commits import CommitId, CommitInfo, commit_tree_of, read_commit
from gitcurator.store.diff import diff_trees
from gitcurator.store.objects import GITLINK_MODE
from gitcurator.store.trees import file_at

PENDING, MERGED = "pending review", "merged"
# Past this a file is summarised as git does a binary one: a review is read by a person.
MAX_DIFF_BYTES = 1 << 20
# A pass over 10,000 skills writes about 1.3 MB of run.json; past this one was not written by
# a pass, and checking it against the schema alone would take minutes.
MAX_RUN_JSON_BYTES = 16 << 20
# Schema problems named in the error (a crafted report may have thousands).
PROBLEMS_SHOWN = 5
# All the text one `review --diff` reads: one 1 MB blob at 10,000 paths is a small push.
MAX_DIFFS_BYTES = 32 << 20


@dataclass(slots=True)
class DiffBudget:
    """How much more file text `review --diff` reads before it names files instead."""

    left: int = MAX_DIFFS_BYTES

    def take(self, text: str) -> bool:
        """Whether `text` still fits; it is counted when it does."""
        if len(text) > self.left:
            self.left = 0
            return False
        self.left -= len(text)
        return True


@dataclass(frozen=True, slots=True)
class ReviewedBranch:
    """A curator branch picked for review: its pass's commits (oldest first) and run.json."""

    run_id: str
    branch: str
    status: str
    tip: CommitId
    base: CommitId | None  # the default branch's commit the pass started from
    commits: list[CommitInfo]
    doc: dict[str, Any]


def pick_branch(store: Store, run: str | None) -> ReviewedBranch:
    """The pass named `run` (a run id or its curator/ branch), else the newest pending one:
    the one `merge` would merge (both pick with commands/pass_branches)."""
    target = store.default_branch()
    target_tip = store.branch_tip(target)
    merged = graph.ancestors(store, [target_tip]) if target_tip is not None else set()
    tips = curator_tips(store)
    newest = newest_run(r for r, tip in tips.items() if tip not in merged)
    if not tips and not (store.root / CONFIG_FILE).is_file():
        raise NotARepository(
            f"{store.root} is not a skills repository (no {CONFIG_FILE}, no curator branches), "
            f"so it has no pass to review; `gitcurator init {store.root}` makes it one"
        )
    if run is None:
        if newest is None:
            raise CuratorError(
                "no curator pass is waiting for review; run `gitcurator run` for one "
                "(`gitcurator log` lists the passes already merged)"
            )
        run_id = newest
    else:
        run_id = run.removeprefix(BRANCH_PREFIX)
        if run_id not in tips:
            known = ", ".join(sorted(tips, key=run_order)) or "none"
            raise CuratorError(
                f"there is no curator branch {BRANCH_PREFIX}{run_id} (known runs: {known}); "
                "`gitcurator review` alone shows the newest pass waiting"
            )
    tip = tips[run_id]
    try:
        read_commit(store, tip)
    except StoreError as exc:  # a ref written by hand (git itself refuses to) or half fetched
        raise CuratorError(
            f"{BRANCH_PREFIX}{run_id} points at no commit ({exc}): no pass made it; look at it "
            f"with `git cat-file -t {tip.decode()[:12]}` and drop it with "
            f"`git update-ref -d refs/heads/{BRANCH_PREFIX}{run_id}`"
        ) from None
    if tip in merged:
        own = _pass_commits(store, tip, run_id)
        # Merged, and maybe rolled back since: the audit trail knows.
        status = (
            next(
                (e.status for e in read_trail(store) if e.run_id == run_id and e.kind == "pass"),
                None,
            )
            or MERGED
        )
    else:
        own = list(reversed(graph.commits_between(store, tip, merged)))
        status = PENDING
    base = own[0].parents[0] if own and own[0].parents else None
    doc = read_run_json(store, run_id, tip)
    return ReviewedBranch(run_id, BRANCH_PREFIX + run_id, status, tip, base, own, doc)


def read_run_json(store: Store, run_id: str, tip: CommitId) -> dict[str, Any]:
    """run.json at the branch's tip, checked against its schema, or why it cannot be read."""
    path = run_paths(run_id)[1]
    branch = BRANCH_PREFIX + run_id
    data = file_at(store, tip, path)
    if data is None:
        raise CuratorError(
            f"{branch} holds no {path}: a pass ends its branch with that report; look at what "
            f"it holds with `git log --stat {store.default_branch()}..{branch}`"
        )
    if len(data) > MAX_RUN_JSON_BYTES:
        raise CuratorError(
            f"{path} on {branch} is {len(data) >> 20} MB, over the {MAX_RUN_JSON_BYTES >> 20} MB "
            f"a pass writes; it was not written by a pass: look at it with "
            f"`git show {branch}:{path}`, or drop the branch (`git branch -D {branch}`)"
        )
    try:
        doc = json.loads(data)
    except JSON_READ_ERRORS as exc:
        raise CuratorError(
            f"{path} on {branch} is not JSON ({exc}); it was edited or damaged"
        ) from None
    found = schemas.problems(doc, "run-report")
    if found:
        more = f"; and {len(found) - PROBLEMS_SHOWN} more" if len(found) > PROBLEMS_SHOWN else ""
        raise SchemaError(
            f"{path} on {branch} does not match the run-report schema: "
            + "; ".join(found[:PROBLEMS_SHOWN])
            + more
        )
    if doc["run_id"] != run_id:
        raise CuratorError(
            f"{path} on {branch} is the report of run {doc['run_id']!r}, not {run_id}; "
            "the branch was edited by hand"
        )
    return dict(doc)


def branch_catalogue(
    store: Store, config: Config, picked: ReviewedBranch
) -> tuple[CatalogueCost, CatalogueCost] | None:
    """The catalogue at the pass's base and at its tip, counted from the trees (for passes
    whose run.json predates the stored figures)."""
    if picked.base is None:
        return None
    return catalogue_at(store, config, picked.base), catalogue_at(store, config, picked.tip)


def catalogue_at(store: Store, config: Config, commit: CommitId) -> CatalogueCost:
    """What the live skills of `commit` cost as a catalogue (name and description each)."""
    entries = store.tree_entries(commit_tree_of(store, commit))

    def describe(path: str) -> Described:
        try:
            return described(store.read_blob(entries[path][0]))
        except KeyError:  # a SKILL.md a fetch did not bring still costs its line
            return None, None

    count, tokenizer = token_counter()
    found = catalogue_entries(entries, describe, config.skills_dir, config.include)
    return catalogue_cost(found, count, tokenizer)


def skill_files_at(store: Store, config: Config, commit: CommitId) -> dict[str, str]:
    """Live skill name -> its SKILL.md path in `commit`."""
    entries = store.tree_entries(commit_tree_of(store, commit))
    found = find_skills(entries, config.skills_dir, config.include)
    return {identity(loc): loc.skill_md for loc in found if not loc.archived}


def commit_changes(store: Store, c: CommitInfo, budget: DiffBudget) -> list[FileChange]:
    """The files commit `c` changed, a moved file paired with its new path as git shows it;
    their text read while `budget` lasts."""
    parent_tree = commit_tree_of(store, c.parents[0]) if c.parents else None
    files = diff_trees(store, parent_tree, c.tree).files
    removed = {p: old for p, (old, new) in files.items() if new is None and old is not None}
    added = {p: new for p, (old, new) in files.items() if old is None and new is not None}
    changes: list[FileChange] = []
    for path, entry in sorted(added.items()):
        source = _moved_from(path, entry, removed)
        if source is not None:
            del removed[source]
            changes.append(FileChange(source, path, None, None, renamed_whole=True))
    for path, (old, new) in sorted(files.items()):
        if old is not None and new is not None:
            changes.append(_text_change(store, path, path, old, new, budget))
    changes += [_text_change(store, p, None, e, None, budget) for p, e in sorted(removed.items())]
    taken = {c.new_path for c in changes}
    changes += [
        _text_change(store, None, p, None, e, budget)
        for p, e in sorted(added.items())
        if p not in taken
    ]
    return changes


def text_of(data: bytes | None) -> str | None:
    """A file's bytes as text, or None when absent, binary, not UTF-8 or too long for a diff."""
    if data is None or len(data) > MAX_DIFF_BYTES or b"\x00" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _text_change(
    store: Store,
    old_path: str | None,
    new_path: str | None,
    old: tuple[ObjectID, int] | None,
    new: tuple[ObjectID, int] | None,
    budget: DiffBudget,
) -> FileChange:
    (old_text, old_why), (new_text, new_why) = (
        _stored_text(store, old, budget),
        _stored_text(store, new, budget),
    )
    why = old_why or new_why
    binary = why == "binary"
    omitted = "" if binary else why
    return FileChange(old_path, new_path, old_text, new_text, binary, omitted=omitted)


def _stored_text(
    store: Store, entry: tuple[ObjectID, int] | None, budget: DiffBudget
) -> tuple[str | None, str]:
    """A file's text as a diff shows it (a submodule as git names it), or None and why not:
    `binary`, or why it is not shown (too long, its object missing, the budget spent)."""
    if entry is None:
        return None, ""
    sha, mode = entry
    if mode == GITLINK_MODE:
        return f"Subproject commit {sha.decode()}\n", ""
    if not budget.left:
        return None, f"the diffs shown reached {MAX_DIFFS_BYTES >> 20} MB; `git log -p` has all"
    try:
        data = store.read_blob(sha)
    except KeyError:  # a fetch that did not bring it
        return None, f"its object {sha.decode()[:12]} is not in this repository"
    if len(data) > MAX_DIFF_BYTES:
        return None, f"over {MAX_DIFF_BYTES >> 20} MB"
    text = text_of(data)
    if text is None:
        return None, "binary"
    if not budget.take(text):
        return None, f"the diffs shown reached {MAX_DIFFS_BYTES >> 20} MB; `git log -p` has all"
    return text, ""


def _moved_from(
    path: str, entry: tuple[ObjectID, int], removed: Mapping[str, tuple[ObjectID, int]]
) -> str | None:
    """The removed file `path` is a copy of, the one sharing the longest tail of its path."""
    same = [p for p, e in removed.items() if e == entry]
    if not same:
        return None
    return max(same, key=lambda p: (_common_tail(p, path), p))


def _common_tail(a: str, b: str) -> int:
    n = 0
    for x, y in zip(reversed(a.split("/")), reversed(b.split("/")), strict=False):
        if x != y:
            break
        n += 1
    return n


def _pass_commits(store: Store, tip: CommitId, run_id: str) -> list[CommitInfo]:
    """A merged pass's commits: from its branch's tip back along first parents while they
    carry its run id, oldest first."""
    found: list[CommitInfo] = []
    current: CommitId | None = tip
    while current is not None:
        c = read_commit(store, current)
        if trailers.trailers(c.message).get(trailers.RUN) != [run_id]:
            break
        found.append(c)
        current = c.parents[0] if c.parents else None
    return list(reversed(found))
