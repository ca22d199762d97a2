"""What `archive`, `restore` and `purge` share: a person's move of skill folders on the
default branch, and the archive times it records.

Each move is one commit on the default branch that moves (or removes) whole skill folders,
built in the object store; the work tree and index follow for the moved paths only. A skill
folder with uncommitted changes is refused, changing nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.restore_proposals import COPY, restored_name
from gitcurator.output import warning_line
from gitcurator.render import other_branch_note, utf8_text
from gitcurator.skills.document import SkillLocation, SkillParseError, find_skills, parse_skill_md
from gitcurator.skills.identity import is_skill_name
from gitcurator.store import branches, commits, trees
from gitcurator.store.commits import CommitId, TreeId
from gitcurator.store.repository import Store
from gitcurator.telemetry import ledger
from gitcurator.telemetry.names import refresh_names_cache
from gitcurator.telemetry.records import UsageRecord


@dataclass(frozen=True, slots=True)
class Tip:
    """The default branch as a move starts from it."""

    branch: str
    commit: CommitId
    tree: TreeId
    entries: dict[str, tuple[TreeId, int]]
    skills: list[SkillLocation]


def tip_of(repo: SkillsRepo) -> Tip:
    """The default branch's newest commit, its tree and the skills in it."""
    store = repo.store
    branch = store.default_branch()
    commit = store.branch_tip(branch)
    if commit is None:
        raise CuratorError(f"branch {branch} has no commits yet; run `gitcurator init` first")
    tree = commits.read_commit(store, commit).tree
    entries = store.tree_entries(tree)
    return Tip(
        branch,
        commit,
        tree,
        entries,
        find_skills(entries, repo.config.skills_dir, repo.config.include),
    )


@dataclass(frozen=True, slots=True)
class Moved:
    commit: str
    notes: tuple[str, ...]  # what to tell a person whose work tree did not follow


def commit_move(
    repo: SkillsRepo, tip: Tip, new_tree: TreeId, message: str, action: str, touched: list[str]
) -> Moved:
    """Commit `new_tree` on the default branch, the work tree following; refuses first, naming
    them, if the `touched` folders hold uncommitted changes or untracked files are in the way."""
    if not utf8_text(message):  # a folder git stores under bytes that are not UTF-8
        raise CuratorError(
            f"cannot {action}: a folder it moves has a name that is not UTF-8 text, which its "
            "commit message cannot hold; nothing was changed (rename the folder with `git mv` "
            "first)"
        )
    store = repo.store
    published = branches.publish(
        store, tip.branch, tip.commit, new_tree, action, message=message, within=set(touched)
    )
    new = published.commit
    if published.checked_out:
        refresh_names_cache(repo)
        return Moved(new.decode(), ())
    note = other_branch_note(tip.branch, store.head_branch())
    return Moved(new.decode(), (note,) if note else ())


def archived_name(repo: SkillsRepo, tip: Tip, location: SkillLocation) -> str:
    """The skill an archived folder holds: its folder name, or for a copy suffixed -2, -3 ...
    (a name the archive already held) the name its SKILL.md gives, `x` of `x-2`."""
    if COPY.fullmatch(location.dirname) is None:
        return location.dirname
    try:
        doc = parse_skill_md(repo.store.read_blob(tip.entries[location.skill_md][0]))
    except SkillParseError:
        return location.dirname
    return restored_name(location.dirname, doc.name)


def library_prefix(repo: SkillsRepo) -> str:
    """The library's folder in the repository, as a path prefix ('' at the top)."""
    folder = repo.config.skills_dir.strip("/")
    return f"{folder}/" if folder else ""


def is_taken(repo: SkillsRepo, tip: Tip, folder: str) -> bool:
    """A folder the default branch already has (untracked files in the work tree are the
    concern of refuse_unless_clean, which names them)."""
    return trees.subtree_id(repo.store, tip.tree, folder) is not None


def record_archives(
    store: Store,
    archived_at: Mapping[str, str],
    what: str,
    absorbed: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """Write `archived_at` (and `absorbed_into`) into the skills' records, one notes commit;
    returns the warnings to show.

    The move is committed by then, so a failure here is a warning, not an error: `purge`
    keeps a skill whose archived_at is unknown, which is the safe side.
    """
    absorbed = absorbed or {}
    names = sorted(n for n in archived_at.keys() | absorbed.keys() if is_skill_name(n))

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
        return ()
    try:
        result = ledger.update(store, change, f"gitcurator: {what}")
    except CuratorError as exc:
        return (warning_line(f"archived_at was not recorded: {exc}"),)
    return tuple(warning_line(w) for w in result.warnings)
