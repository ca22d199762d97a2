"""skills-lock.json (the `npx skills` project lock, at the top of the repository) for `add`,
`outdated` and `update`: the skills it lists are followed from their source without adding them
again, and a commit that changes one of them rewrites its `computedHash` in the same tree.

The lock names a source and a ref but no commit: the base of a lock-only skill is the newest
commit of the source (first parents, from the tip) whose folder has the lock's hash.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Callable, Mapping

from gitcurator.commands.moves import Tip
from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import identity
from gitcurator.store import commits, source_fetch, trees
from gitcurator.store.commits import TreeId
from gitcurator.store.objects import FILE_MODE
from gitcurator.store.repository import Store
from gitcurator.upstream.folder_merge import FileEntry
from gitcurator.upstream.provenance import Provenance
from gitcurator.upstream.skills_lock import (
    LOCK_FILE,
    SkillsLock,
    folder_hash,
    parse_lock,
    render_lock,
    with_entry,
)
from gitcurator.upstream.source_spec import GITHUB_URL, is_shorthand

Folder = Mapping[str, FileEntry]
# Rewrites a tree's skills-lock.json for the skills (name -> new folder) a commit takes.
LockEdit = Callable[[TreeId, Mapping[str, Folder]], TreeId]
# How far back the base of a lock-only skill is looked for.
HISTORY_LIMIT = 500


def read_lock(store: Store, tree: TreeId) -> SkillsLock | None:
    """The lock in `tree` (None without one); CuratorError for one that cannot be read."""
    entry = store.tree_entries(tree).get(LOCK_FILE)
    if entry is None:
        return None
    text = store.read_blob(entry[0]).decode("utf-8", "replace")
    return parse_lock(text)


def lock_sources(
    repo: SkillsRepo, library: Tip, recorded: Mapping[str, Provenance]
) -> dict[str, Provenance]:
    """The skills the lock lists without a recorded source: their source URL and ref, with the
    path and commit left empty until the source is fetched (`resolve_lock_source`)."""
    lock = read_lock(repo.store, library.tree)
    if lock is None:
        return {}
    found = {}
    for name, entry in lock.skills.items():
        if name in recorded:
            continue
        url = _url(entry.source, entry.source_type)
        if url is not None:
            found[name] = Provenance(url, "", entry.ref, "")
    return found


def _url(source: str, source_type: str) -> str | None:
    if source_type == "github" and is_shorthand(source):
        return GITHUB_URL.format(source)
    if "://" in source or source_type in ("git", "github"):
        return source
    return None  # a local folder or a package: nothing to fetch


def resolve_lock_source(
    repo: SkillsRepo, library: Tip, name: str, prov: Provenance, tip: source_fetch.SourceTip
) -> Provenance:
    """A lock-only skill's folder in the source (by name) and its base commit (by hash)."""
    store = repo.store
    lock = read_lock(store, library.tree)
    entry = lock.skills.get(name) if lock else None
    paths = source_fetch.folder_entries(store, tip.tree, "") or {}
    folders = [loc.folder for loc in find_skills(paths) if identity(loc) == name]
    skill_path = entry.extra.get("skillPath") if entry else None
    if isinstance(skill_path, str) and posixpath.dirname(skill_path) in folders:
        folders = [posixpath.dirname(skill_path)]
    if len(folders) != 1:
        raise CuratorError(
            f"{name} (skills-lock.json): {tip.url} has "
            f"{'no' if not folders else 'more than one'} skill folder of that name; add it with "
            f"`gitcurator add {tip.url} {name} --path FOLDER`"
        )
    path = folders[0]
    wanted = entry.computed_hash if entry else ""
    base = _commit_with_hash(store, tip.commit, path, wanted)
    return Provenance(prov.url, path, prov.ref, base or "")


def _commit_with_hash(store: Store, tip: bytes, path: str, wanted: str) -> str | None:
    seen: dict[bytes, str] = {}
    commit: bytes | None = tip
    for _ in range(HISTORY_LIMIT):
        if commit is None:
            return None
        tree = commits.commit_tree_of(store, commit)  # type: ignore[arg-type]
        folder = trees.subtree_id(store, tree, path)
        if folder is not None:
            if folder not in seen:
                entries = source_fetch.folder_entries(store, folder, "") or {}
                seen[folder] = folder_hash(_folder(store, entries))
            if seen[folder] == wanted:
                return commit.decode()
        parents = commits.load_commit(store, commit).parents  # type: ignore[arg-type]
        commit = parents[0] if parents else None
    return None


def _folder(store: Store, entries: Mapping[str, tuple[bytes, int]]) -> dict[str, FileEntry]:
    files = source_fetch.folder_files(store, dict(entries))  # type: ignore[arg-type]
    return {p: FileEntry(c, m) for p, (c, m) in files.items()}


def relock_folders(repo: SkillsRepo, tree: TreeId, folders: list[str]) -> TreeId:
    """`tree` with the lock's computedHash of the skill `folders` it lists set to their files
    in `tree`; only those folders are read (none without a lock)."""
    store = repo.store
    lock = read_lock(store, tree)
    if lock is None:
        return tree
    found: dict[str, Folder] = {}
    for folder in folders:
        name = posixpath.basename(folder)
        if name in lock.skills:
            found[name] = _folder(store, source_fetch.folder_entries(store, tree, folder) or {})
    return lock_updater(repo)(tree, found)


def lock_updater(repo: SkillsRepo) -> LockEdit:
    """The edit that sets the lock's `computedHash` of each listed skill a commit takes to its
    new folder's (the tree is left alone without a lock or without such a skill)."""
    store = repo.store

    def edit(tree: TreeId, folders: Mapping[str, Folder]) -> TreeId:
        lock = read_lock(store, tree)
        if lock is None or not folders.keys() & lock.skills.keys():
            return tree
        for name, files in folders.items():
            if name in lock.skills:
                entry = dataclasses.replace(lock.skills[name], computed_hash=folder_hash(files))
                lock = with_entry(lock, name, entry)
        text = render_lock(lock)
        sha = source_fetch.store_blob(store, text.encode("utf-8"))
        return trees.replace_paths(store, tree, [(LOCK_FILE, (sha, FILE_MODE))])

    return edit
