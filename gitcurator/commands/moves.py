"""`restore`, `archive`, `purge`: a person moving skills into, out of and away from .archive/.

Each is one commit on the default branch that moves (or removes) whole skill folders, built
in the object store; the work tree and index follow for the moved paths only. A skill folder
with uncommitted changes is refused, changing nothing.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.errors import EXIT_OK, CuratorError, UsageError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.render import emit_json, other_branch_note, plural
from gitcurator.skills.document import (
    ARCHIVE_DIR,
    SkillLocation,
    SkillParseError,
    find_skills,
    parse_skill_md,
)
from gitcurator.skills.identity import VALID_NAME, identity
from gitcurator.store import branches, commits, trees
from gitcurator.store.commits import CommitId, TreeId
from gitcurator.store.interrupts import interrupts_deferred
from gitcurator.store.repository import Store
from gitcurator.telemetry import ledger
from gitcurator.telemetry.names import refresh_names_cache
from gitcurator.telemetry.records import UsageRecord
from gitcurator.timeutil import days_between, format_time, moment_of

# The pass (and `archive`) suffix a folder whose name .archive/ already holds: x-2, x-3, ...
_COPY = re.compile(r"(.+)-([2-9]|[1-9][0-9]+)")


@dataclass(frozen=True, slots=True)
class _Tip:
    """The default branch as a move starts from it."""

    branch: str
    commit: CommitId
    tree: TreeId
    entries: dict[str, tuple[TreeId, int]]
    skills: list[SkillLocation]


def _tip(repo: SkillsRepo) -> _Tip:
    store = repo.store
    branch = store.default_branch()
    commit = store.branch_tip(branch)
    if commit is None:
        raise CuratorError(f"branch {branch} has no commits yet; run `gitcurator init` first")
    tree = commits.read_commit(store, commit).tree
    entries = store.tree_entries(tree)
    return _Tip(branch, commit, tree, entries, find_skills(entries, repo.config.skills_dir))


def _commit(
    repo: SkillsRepo, tip: _Tip, new_tree: TreeId, message: str, action: str, touched: list[str]
) -> str:
    """Commit `new_tree` on the default branch, the work tree following; refuses first, naming
    them, if the `touched` folders hold uncommitted changes or untracked files are in the way."""
    store = repo.store
    published = branches.publish(
        store, tip.branch, tip.commit, new_tree, action, message=message, within=set(touched)
    )
    if published.checked_out:
        refresh_names_cache(repo)
    else:
        print(other_branch_note(tip.branch, store.head_branch()), file=sys.stderr)
    return published.commit.decode()


def archived_name(repo: SkillsRepo, tip: _Tip, location: SkillLocation) -> str:
    """The skill an archived folder holds: its folder name, or for a copy suffixed -2, -3 ...
    (a name the archive already held) the name its SKILL.md gives, `x` of `x-2`."""
    match = _COPY.fullmatch(location.dirname)
    if match is None:
        return location.dirname
    try:
        doc = parse_skill_md(repo.store.read_blob(tip.entries[location.skill_md][0]))
    except SkillParseError:
        return location.dirname
    return match.group(1) if doc.name == match.group(1) else location.dirname


def _prefix(repo: SkillsRepo) -> str:
    """The library's folder in the repository, as a path prefix ('' at the top)."""
    folder = repo.config.skills_dir.strip("/")
    return f"{folder}/" if folder else ""


def _live_folder(repo: SkillsRepo, location: SkillLocation, name: str) -> str:
    """Where an archived skill goes back to: its category folder, under its own name."""
    category = location.category
    return f"{_prefix(repo)}{category + '/' if category else ''}{name}"


def restore(start: Path, name: str) -> int:
    """Move an archived skill back to its category folder, as one commit."""
    with open_repo(start) as repo:
        tip = _tip(repo)
        wanted = name.strip("/")
        archived = [(s, archived_name(repo, tip, s)) for s in tip.skills if s.archived]
        candidates = [a for a in archived if wanted in (a[0].folder, a[0].dirname, a[1])]
        # A folder named as such (`.archive/x-2`, `x-2`) picks that copy of the skill.
        explicit = [
            (loc, skill)
            for loc, skill in candidates
            if wanted == loc.folder or (wanted == loc.dirname and wanted != skill)
        ]
        candidates = explicit or candidates
        if not candidates:
            raise CuratorError(
                f"no archived skill named {name} (see `gitcurator list --state archived`)"
            )
        if len(candidates) > 1:
            folders = ", ".join(s.folder for s, _ in candidates)
            raise CuratorError(
                f"{name} is archived more than once ({folders}); restore one by its folder, "
                f"e.g. `gitcurator restore {candidates[-1][0].folder}`"
            )
        source, skill = candidates[0]
        live = next((s for s in tip.skills if not s.archived and identity(s) == skill), None)
        if live is not None:
            raise CuratorError(
                f"a live skill named {skill} exists at {live.folder}; nothing was restored "
                "(archive or rename it first)"
            )
        target = _live_folder(repo, source, skill)
        if _taken(repo, tip, target):
            raise CuratorError(f"{target} already exists; nothing was restored (move it first)")
        new_tree = trees.edit_tree(repo.store, tip.tree, [(source.folder, target)])
        message = (
            f"curator: restore {skill}\n\nMoved {source.folder} back to {target}.\n\n"
            f"{trailers.RESTORED}: {skill}\n"
        )
        sha = _commit(repo, tip, new_tree, message, f"restore {skill}", [source.folder, target])
    print(f"restored {skill} to {target} ({sha[:12]})")
    return EXIT_OK


def _taken(repo: SkillsRepo, tip: _Tip, folder: str) -> bool:
    """A folder the default branch already has (untracked files in the work tree are the
    concern of refuse_unless_clean, which names them)."""
    return trees.subtree_id(repo.store, tip.tree, folder) is not None


def archive(start: Path, name: str, *, now: str | None) -> int:
    """Move a live skill into .archive/ by hand, as one commit, and record when."""
    moment = format_time(moment_of(now))
    with open_repo(start) as repo:
        tip = _tip(repo)
        source = next((s for s in tip.skills if not s.archived and identity(s) == name), None)
        if source is None:
            raise CuratorError(f"no live skill named {name} (see `gitcurator list`)")
        record = ledger.load(repo.store).records.get(name)
        if record is not None and record.is_pinned:
            raise CuratorError(f"{name} is pinned; unpin it first (`gitcurator unpin {name}`)")
        target = _archive_target(repo, tip, source)
        new_tree = trees.edit_tree(repo.store, tip.tree, [(source.folder, target)])
        message = (
            f"curator: archive {name} by hand\n\nMoved {source.folder} to {target}.\n\n"
            f"{trailers.ARCHIVED}: {name}\n{trailers.MANUAL}: archive\n"
        )
        with interrupts_deferred():  # the move and its archived_at go together
            sha = _commit(repo, tip, new_tree, message, f"archive {name}", [source.folder, target])
            record_archives(repo.store, {name: moment}, f"record the archive of {name}")
    # A name archived before keeps its folder; this copy went to a suffixed one, and only
    # its folder tells the two apart.
    back = name if target.rsplit("/", 1)[-1] == name else target
    print(f"archived {name} to {target} ({sha[:12]}); `gitcurator restore {back}` brings it back")
    return EXIT_OK


def _archive_target(repo: SkillsRepo, tip: _Tip, source: SkillLocation) -> str:
    prefix = _prefix(repo)
    base = f"{prefix}{ARCHIVE_DIR}/{source.folder[len(prefix) :]}"
    target, n = base, 1
    while _taken(repo, tip, target):
        n += 1
        target = f"{base}-{n}"
    return target


def record_archives(
    store: Store,
    archived_at: Mapping[str, str],
    what: str,
    absorbed: Mapping[str, str] | None = None,
) -> None:
    """Write `archived_at` (and `absorbed_into`) into the skills' records, one notes commit.

    The move is committed by then, so a failure here is a warning, not an error: `purge`
    keeps a skill whose archived_at is unknown, which is the safe side.
    """
    absorbed = absorbed or {}
    names = sorted(n for n in archived_at.keys() | absorbed.keys() if VALID_NAME.fullmatch(n))

    def change(records: dict[str, UsageRecord]) -> set[str]:
        for name in names:
            record = records.get(name) or UsageRecord(name)
            if name in archived_at:
                record = replace(record, archived_at=archived_at[name])
            if name in absorbed:
                record = replace(record, absorbed_into=absorbed[name])
            records[name] = record
        return set(names)

    if not names:
        return
    try:
        result = ledger.update(store, change, f"gitcurator: {what}")
    except CuratorError as exc:
        print(f"gitcurator: warning: archived_at was not recorded: {exc}", file=sys.stderr)
        return
    for warning in result.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)


@dataclass(frozen=True, slots=True)
class PurgePlan:
    due: list[tuple[str, str, str]]  # (skill, folder, archived_at)
    kept: list[tuple[str, str, str]]  # (skill, folder, why it stays)


def plan_purge(
    archived: list[tuple[str, str]], archived_at: Mapping[str, str], days: float, now: datetime
) -> PurgePlan:
    """Which archived (skill, folder)s were archived more than `days` before `now`, by the
    recorded archived_at only: file and commit times say nothing about when a skill was
    archived (an import or a clone rewrites them)."""
    due, kept = [], []
    for name, folder in archived:
        when = archived_at.get(name)
        if when is None:
            why = "no archived_at is recorded, so its time in the archive is unknown"
            kept.append((name, folder, why))
        elif days_between(when, now) > days:
            due.append((name, folder, when))
        else:
            kept.append((name, folder, f"archived {when[:10]}, less than {days:g} days before"))
    return PurgePlan(due, kept)


def purge(
    start: Path, days: float, *, now: str | None, dry_run: bool, yes: bool, as_json: bool
) -> int:
    """Remove skills archived more than `days` ago, as one commit (only with `yes`)."""
    if not math.isfinite(days) or days < 0:  # nan would keep everything, silently
        raise UsageError("--older-than must be zero or more days")
    moment = moment_of(now)
    write = yes and not dry_run
    with open_repo(start) as repo:
        tip = _tip(repo)
        records = ledger.load(repo.store).records
        stamps = {n: r.archived_at for n, r in records.items() if r.archived_at}
        archived = [(archived_name(repo, tip, s), s.folder) for s in tip.skills if s.archived]
        plan = plan_purge(archived, stamps, days, moment)
        sha = None
        if write and plan.due:
            folders = [folder for _, folder, _ in plan.due]
            new_tree = trees.remove_folders(repo.store, tip.tree, folders)
            message = _purge_message(plan, days, moment)
            sha = _commit(repo, tip, new_tree, message, "purge", folders)
    if as_json:
        emit_json(
            {
                "purged": sha is not None,
                "commit": sha,
                "due": [{"skill": n, "path": f, "archived_at": w} for n, f, w in plan.due],
                "kept": [{"skill": n, "path": f, "reason": w} for n, f, w in plan.kept],
            }
        )
        return EXIT_OK
    verb = "purged" if sha else "would purge"
    for _, folder, when in plan.due:
        print(f"{verb} {folder} (archived {when})")
    for _, folder, why in plan.kept:
        print(f"kept {folder}: {why}")
    if not plan.due:
        print(f"nothing was archived more than {days:g} days ago")
    elif sha:
        print(f"removed in commit {sha[:12]}; history keeps them (`git log --all -- PATH`)")
    elif dry_run:
        print("dry run: nothing was written")
    else:
        print("nothing was removed; run again with --yes to remove them")
    return EXIT_OK


def _purge_message(plan: PurgePlan, days: float, now: datetime) -> str:
    lines = [
        f"curator: purge {plural(len(plan.due), 'archived skill')}",
        "",
        f"Archived more than {days:g} days before {format_time(now)}:",
        *[f"- {folder} (archived {when})" for _, folder, when in plan.due],
        "",
        *[f"{trailers.PURGED}: {name}" for name, _, _ in plan.due],
    ]
    return "\n".join(lines) + "\n"
