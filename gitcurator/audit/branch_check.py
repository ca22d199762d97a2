"""Whether a curator branch holds only what a pass writes (pure: commits' changes as data).

A pass writes, on top of the default branch's history: an archive commit moving whole skill
folders into `.archive/`, one commit per umbrella (its folded skills moved whole, its SKILL.md
written, their support files copied, demoted or re-linked Markdown), and the report commit
adding REPORT.md and run.json, every commit carrying `Curator-Run: <run id>`. Anything else on
a branch named curator/* was written by someone else, and merging it would pass a deletion or
an edit off as curation: `branch_problem` names the first such commit and its paths.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitcurator.audit import trailers
from gitcurator.audit.restore_check import restore_problem, restores_report_problem
from gitcurator.audit.umbrella_check import UmbrellaCommit, UmbrellaGuards, umbrella_guard_problem
from gitcurator.lifecycle.report import run_paths
from gitcurator.skills.document import ARCHIVE_DIR, SKILL_FILE, SKILL_FILE_LOWER

Entry = tuple[bytes, int]  # a file in a tree: (blob id, mode)
FILE_MODE = 0o100644
# Files the umbrella step may write with new content (demoted skills, re-linked support text).
_TEXT_SUFFIXES = (".md", ".markdown", ".txt")


@dataclass(frozen=True, slots=True)
class CommitChange:
    """One commit of the branch: its message, parent count and what it changed."""

    id: str
    message: str
    parents: int
    files: Mapping[str, tuple[Entry | None, Entry | None]]  # path -> (before, after)
    removed_dirs: frozenset[str]
    added_dirs: frozenset[str]
    run_json: Any = None  # run.json as the commit leaves it, parsed (None: absent or not JSON)
    # The live skills of its parent (folder -> name), read for umbrella commits only.
    skills_before: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BranchFacts:
    """A curator branch to verify: `commits` are default..branch, oldest first; `related`
    says the oldest one's parent is on the default branch's history."""

    branch: str
    run_id: str
    target: str
    related: bool
    commits: Sequence[CommitChange]
    guards: UmbrellaGuards | None = None  # None: the umbrella commits' shape only
    # What a pass would restore on the target now: name -> (folder in .archive/, live folder).
    restorable: Mapping[str, tuple[str, str]] = field(default_factory=dict)


def branch_problem(facts: BranchFacts) -> str | None:
    """Why the branch is not what a pass writes (naming the commit and the paths), or None
    when every commit is one a pass makes."""
    return _find(facts)


def refusal(branch: str, problem: str) -> str:
    """`merge`'s refusal of `branch` for `problem`, with the way out."""
    return (
        f"refusing to merge {branch}: {problem}; nothing was changed. "
        f"Merge it with plain git (`git merge {branch}`) if you really want it"
    )


def _find(facts: BranchFacts) -> str | None:
    own = facts.commits
    if not own:
        return None
    if not facts.related:
        return f"it does not start from {facts.target}'s history (commit {_short(own[0])})"
    archived: list[str] = []
    umbrellas: list[str] = []
    absorbed: list[str] = []
    restored: list[str] = []
    # What each commit does first (a deletion is named as one wherever it sits), then the
    # shape of the whole: one report commit, the last, agreeing with the commits.
    for c in own:
        found = trailers.trailers(c.message)
        if found.get(trailers.RUN) != [facts.run_id]:
            return f"commit {_short(c)} does not carry `{trailers.RUN}: {facts.run_id}`"
        if c.parents != 1:
            return f"commit {_short(c)} is a merge (a pass writes a line of single commits)"
        if trailers.REPORT in found:
            problem = _report_files_problem(c, facts.run_id)
        elif trailers.UMBRELLA in found:
            problem = _umbrella_problem(c, found, facts.guards)
            umbrellas += found[trailers.UMBRELLA]
            absorbed += [v.partition("->")[0].strip() for v in found.get(trailers.ABSORBED, [])]
        elif trailers.ARCHIVED in found:
            problem = _archive_problem(c, found[trailers.ARCHIVED])
            archived += found[trailers.ARCHIVED]
        elif trailers.RESTORED in found:
            problem = restore_problem(
                _short(c),
                c.files,
                found[trailers.RESTORED],
                facts.restorable,
                c.removed_dirs,
                c.added_dirs,
            )
            restored += found[trailers.RESTORED]
        else:
            problem = (
                f"commit {_short(c)} is neither an archive, restore, umbrella nor report commit"
            )
        if problem is not None:
            return problem
    reports = [c for c in own if trailers.REPORT in trailers.trailers(c.message)]
    if reports != [own[-1]]:
        return f"its last commit {_short(own[-1])} is not the pass's only report commit"
    problem = _report_problem(own[-1], facts.run_id, archived, umbrellas, absorbed)
    if problem is not None:
        return problem
    run_json = run_paths(facts.run_id)[1]
    return restores_report_problem(_short(own[-1]), run_json, own[-1].run_json, restored)


def _archive_problem(c: CommitChange, names: Sequence[str]) -> str | None:
    moved, problem = _moves(c)
    if problem is not None:
        return problem
    rest = sorted(p for p in c.files if not _in_any(p, [*moved, *moved.values()]))
    if rest:
        return f"commit {_short(c)} adds or edits {_paths(rest)} (an archive commit only moves)"
    if len(moved) != len(names):
        return (
            f"commit {_short(c)} moves {_paths(sorted(moved))} but its trailers name "
            f"{', '.join(names)}"
        )
    return None


def _umbrella_problem(
    c: CommitChange, found: Mapping[str, list[str]], guards: UmbrellaGuards | None
) -> str | None:
    moved, problem = _moves(c)
    if problem is not None:
        return problem
    name = found[trailers.UMBRELLA]
    folded = found.get(trailers.ABSORBED, [])
    # An umbrella folds at least one skill: without, it would be an edit of a live skill.
    if len(name) != 1 or not folded or any(v.partition("->")[2].strip() != name[0] for v in folded):
        return f"commit {_short(c)} names no single umbrella for what it folds"
    if len(moved) != len(folded):
        return (
            f"commit {_short(c)} moves {_paths(sorted(moved))} but its trailers fold "
            f"{', '.join(v.partition('->')[0].strip() for v in folded) or 'nothing'}"
        )
    rest = {p: ch for p, ch in c.files.items() if not _in_any(p, [*moved, *moved.values()])}
    homes = {posixpath.dirname(p) for p in rest if _is_skill_file(p)}
    if len(homes) > 1:  # other skills' SKILL.md may carry rewritten references
        homes = {h for h in homes if posixpath.basename(h) == name[0]} or homes
    if len(homes) != 1:
        return f"commit {_short(c)} writes no single umbrella SKILL.md ({_paths(sorted(rest))})"
    home = homes.pop()
    outside = sorted(p for p in rest if not p.startswith(home + "/") or _archived(p))
    # Files edited in place outside the umbrella may be its reference rewrites, which only
    # the guards (reading their content) can tell; without them, nothing outside is taken.
    rewritten = [p for p in outside if guards is not None and _edited_in_place(p, rest[p])]
    outside = [p for p in outside if p not in rewritten]
    if outside:
        return f"commit {_short(c)} changes {_paths(outside)} outside umbrella {home}"
    rest = {p: ch for p, ch in rest.items() if p not in rewritten}
    copied = {old for old, _ in (c.files[p] for p in _under_any(c.files, moved)) if old}
    edited = sorted(p for p, (old, _) in rest.items() if old is not None and not _is_skill_file(p))
    if edited:
        return f"commit {_short(c)} edits {_paths(edited)} (an umbrella only adds files)"
    foreign = sorted(
        p
        for p, (old, new) in rest.items()
        if old is None and new is not None and not _is_skill_file(p)
        if new not in copied and not (new[1] == FILE_MODE and p.lower().endswith(_TEXT_SUFFIXES))
    )
    if foreign:
        return f"commit {_short(c)} adds {_paths(foreign)}, which no folded skill holds"
    if guards is None:
        return None
    shape = UmbrellaCommit(
        _short(c), name[0], home, c.files, moved, c.skills_before, tuple(rewritten)
    )
    return umbrella_guard_problem(shape, guards)


def _edited_in_place(path: str, change: tuple[Entry | None, Entry | None]) -> bool:
    old, new = change
    return (
        old is not None
        and new is not None
        and old[1] == new[1] == FILE_MODE
        and not _archived(path)
    )


def _report_files_problem(c: CommitChange, run_id: str) -> str | None:
    report_md, run_json = run_paths(run_id)
    other = sorted(
        p for p, (_, new) in c.files.items() if p not in (report_md, run_json) or new is None
    )
    if other:
        return f"report commit {_short(c)} changes {_paths(other)} (it only adds the report)"
    return None


def _report_problem(
    c: CommitChange,
    run_id: str,
    archived: Sequence[str],
    umbrellas: Sequence[str],
    absorbed: Sequence[str],
) -> str | None:
    report_md, run_json = run_paths(run_id)
    found = trailers.trailers(c.message)
    doc = c.run_json
    if found[trailers.REPORT] != [report_md] or not isinstance(doc, dict):
        return f"report commit {_short(c)} has no readable {run_json}"
    if doc.get("run_id") != run_id:
        return f"report commit {_short(c)}: {run_json} is the report of another run"
    said = sorted(
        t.get("skill", "")
        for t in _list(doc.get("transitions"))
        if isinstance(t, dict) and t.get("to") == "archived"
    )
    folds = [f for f in _list(doc.get("consolidations")) if isinstance(f, dict)]
    said_folded = sorted(
        str(s) for f in folds for k in ("absorbed", "demoted") for s in _list(f.get(k))
    )
    if said != sorted(archived):
        return (
            f"report commit {_short(c)}: {run_json} archives {', '.join(said) or 'nothing'} "
            f"but the commits archive {', '.join(sorted(archived)) or 'nothing'}"
        )
    if sorted(str(f.get("umbrella")) for f in folds) != sorted(umbrellas) or said_folded != sorted(
        absorbed
    ):
        return f"report commit {_short(c)}: {run_json} lists other umbrellas than the commits"
    return None


def _moves(c: CommitChange) -> tuple[dict[str, str], str | None]:
    """Whole live skill folders the commit moved into .archive/ (folder -> new folder), or
    the problem: a deleted skill, a file deleted, a folder moved with its content changed."""
    removed = {p: old for p, (old, new) in c.files.items() if new is None and old is not None}
    added = {p: new for p, (old, new) in c.files.items() if old is None and new is not None}
    gone = _outermost(
        posixpath.dirname(p)
        for p in removed
        if _is_skill_file(p) and posixpath.dirname(p) in c.removed_dirs and not _archived(p)
    )
    made = _outermost(
        posixpath.dirname(p)
        for p in added
        if _is_skill_file(p) and posixpath.dirname(p) in c.added_dirs and _archived(p)
    )
    targets = {t: _files_under(added, t) for t in made}
    moved: dict[str, str] = {}
    lost: list[str] = []
    for folder in gone:
        files = _files_under(removed, folder)
        match = [t for t in targets if targets[t] == files and t not in moved.values()]
        match.sort(key=lambda t: not t.endswith("/" + posixpath.basename(folder)))
        if match:
            moved[folder] = match[0]
        else:
            lost.append(folder)
    if lost:
        return moved, (
            f"commit {_short(c)} deletes live skills {', '.join(lost)} "
            "(a pass only moves whole folders into .archive/)"
        )
    deleted = sorted(p for p in removed if not _in_any(p, moved))
    if deleted:
        return moved, f"commit {_short(c)} deletes {_paths(deleted)} (a pass deletes nothing)"
    return moved, None


def _outermost(folders: Iterable[str]) -> list[str]:
    found = sorted(set(folders))
    return [f for f in found if not any(f.startswith(o + "/") for o in found if o != f)]


def _files_under(files: Mapping[str, Entry], folder: str) -> dict[str, Entry]:
    return {p[len(folder) + 1 :]: e for p, e in files.items() if p.startswith(folder + "/")}


def _under_any(paths: Iterable[str], folders: Mapping[str, str]) -> list[str]:
    return [p for p in paths if _in_any(p, folders)]


def _in_any(path: str, folders: Iterable[str]) -> bool:
    return any(path.startswith(f + "/") for f in folders)


def _is_skill_file(path: str) -> bool:
    return posixpath.basename(path) in (SKILL_FILE, SKILL_FILE_LOWER)


def _archived(path: str) -> bool:
    return ARCHIVE_DIR in path.split("/")[:-1]


def _list(value: object) -> list[Any]:
    # run.json comes from a branch anyone may have pushed: trust no shape.
    return value if isinstance(value, list) else []


def _short(c: CommitChange) -> str:
    return c.id[:12]


def _paths(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:5])
    return shown + (f" (and {len(paths) - 5} more)" if len(paths) > 5 else "")
