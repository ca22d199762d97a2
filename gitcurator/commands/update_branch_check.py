"""What `merge update/<id>` checks of the skills an update branch names, beyond the paths it
changes (`audit.update_check`): a branch pushed by someone else must not redirect a skill's
source, record a source commit no fetch brought, make files executable that neither side had
so, or rewrite skills-lock.json entries of skills it does not name."""

from __future__ import annotations

from collections.abc import Mapping

from gitcurator.commands.upstream_lock import read_lock
from gitcurator.store import commits, graph, source_fetch
from gitcurator.store.commits import CommitId, TreeId
from gitcurator.store.diff import Entry
from gitcurator.store.refs import local_refs
from gitcurator.store.repository import Store
from gitcurator.upstream.folder_merge import EXECUTABLE, SYMLINK, FileEntry
from gitcurator.upstream.intake import intake_problems
from gitcurator.upstream.provenance import Provenance
from gitcurator.upstream.source_spec import SIDE_PREFIX, side_ref

GITLINK = 0o160000


def named_source_problem(
    store: Store,
    name: str,
    named: Provenance,
    followed: Provenance,
    fetched: dict[bytes, set[CommitId]],
) -> str | None:
    """Why the branch's `Skill-Source:` of `name` is not the source it is followed from, or
    names a commit that no fetch of that source brought (None: it is); `fetched` keeps each
    source's fetched history, read once."""
    if named.ref != followed.ref or (followed.path and named.path != followed.path):
        return (
            f"its Skill-Source of {name} says path={named.path} ref={named.ref or 'HEAD'}, but "
            f"{name} is followed from path={followed.path or '?'} ref={followed.ref or 'HEAD'}"
        )
    prefix = side_ref(named.url, named.ref)
    if prefix not in fetched:
        # The tip fetched last and the bases kept for skills recorded at older commits.
        kept = [
            sha for ref, sha in local_refs(store, SIDE_PREFIX).items() if ref.startswith(prefix)
        ]
        fetched[prefix] = graph.ancestors(store, kept)
    if not source_fetch.has_commit(store, named.commit) or (
        commits.commit_id(named.commit) not in fetched[prefix]
    ):
        return (
            f"its Skill-Source of {name} names commit {named.commit[:12]}, which no fetch of "
            f"{named.url} brought (run `gitcurator update` again for a branch of its own)"
        )
    return None


def made_executable(
    store: Store,
    base: TreeId,
    tip: TreeId,
    folders: Mapping[str, tuple[str, Provenance]],
) -> list[str]:
    """Files of the named skill folders (`folder -> (name, source)`) executable at the branch's
    tip that are executable neither in the library where the branch starts nor in the source's
    commit the branch names: a mode the branch itself made up."""
    ours = store.tree_entries(base)
    cache = source_fetch.TreeCache()
    found = []
    for path, (_, mode) in store.tree_entries(tip).items():
        if mode != EXECUTABLE or ours.get(path, (b"", 0))[1] == EXECUTABLE:
            continue
        folder = next((f for f in folders if path.startswith(f + "/")), None)
        if folder is None:
            continue
        source = folders[folder][1]
        root = cache.commit_tree(store, source.commit)
        theirs = source_fetch.folder_entries(store, root, source.path) if root else None
        if (theirs or {}).get(path[len(folder) + 1 :], (b"", 0))[1] != EXECUTABLE:
            found.append(path)
    return sorted(found)


def skills_dropped(
    store: Store, tip: TreeId, folders: Mapping[str, tuple[str, Provenance]]
) -> list[str]:
    """The named skills whose folder holds no SKILL.md at the branch's tip: an update never
    removes a skill (one removed upstream is kept), so a branch that does is no update."""
    files = store.tree_entries(tip)
    return sorted(
        name
        for folder, (name, _) in folders.items()
        if f"{folder}/SKILL.md" not in files and f"{folder}/skill.md" not in files
    )


def unsafe_in_folders(
    store: Store, base: TreeId, tip: TreeId, folders: Mapping[str, tuple[str, Provenance]]
) -> list[str]:
    """What the named folders hold at the branch's tip, and did not where it starts, that no
    upstream folder may bring in (`upstream.intake`: a submodule, a link leaving the skill, a
    path git refuses, a file too big), one line each. A library's own link stays its own."""
    before = _intake_lines(store, base, folders)
    return [line for line in _intake_lines(store, tip, folders) if line not in before]


def _intake_lines(store: Store, tree: TreeId, folders: Mapping[str, object]) -> list[str]:
    by_folder: dict[str, dict[str, Entry]] = {f: {} for f in folders}
    for path, entry in store.tree_entries(tree).items():
        folder = next((f for f in folders if path.startswith(f + "/")), None)
        if folder is not None:
            by_folder[folder][path[len(folder) + 1 :]] = entry
    problems = []
    for folder, entries in sorted(by_folder.items()):
        files, sizes = {}, {}
        for rel, (sha, mode) in entries.items():
            linked = mode == SYMLINK
            files[rel] = FileEntry(store.read_blob(sha) if linked else b"", mode)
            if mode != GITLINK:
                sizes[rel] = source_fetch.blob_size(store, sha)
        problems += intake_problems(folder, files, sizes)
    return problems


def lock_entries_changed(store: Store, base: TreeId, tip: TreeId, named: set[str]) -> list[str]:
    """The skills-lock.json entries, of skills the branch does not name, that it adds, drops
    or changes (a lock that cannot be read is refused by its own message)."""
    before, after = read_lock(store, base), read_lock(store, tip)
    old = dict(before.skills) if before else {}
    new = dict(after.skills) if after else {}
    return sorted(n for n in old.keys() | new.keys() if n not in named and old.get(n) != new.get(n))
