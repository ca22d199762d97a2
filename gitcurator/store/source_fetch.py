"""Fetching an upstream skills source into the library's object store, and reading its folders.

What a source's ref points at is fetched over the transport every remote uses
(`store.transport`, bounded by GITCURATOR_REMOTE_TIMEOUT) and kept reachable under a side ref
(`refs/gitcurator/sources/...`, never a branch), so a later `update` finds the commit a skill
was taken from locally: it is the merge base.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dulwich.object_store import iter_tree_contents
from dulwich.objects import Blob, Commit, ObjectID, Tree

from gitcurator.errors import CuratorError
from gitcurator.store.commits import load_commit
from gitcurator.store.diff import Entry
from gitcurator.store.paths import git_path, text_path
from gitcurator.store.refs import delete_ref, local_refs, move_ref, ref_value, set_ref
from gitcurator.store.remote import Remote, RemoteError
from gitcurator.store.stale_locks import clears_stale_object_locks
from gitcurator.store.transport import Connection
from gitcurator.store.trees import subtree_id
from gitcurator.upstream.source_spec import is_commit_id, side_ref, wanted_refs

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


@dataclass(frozen=True, slots=True)
class SourceTip:
    """What a source's ref points at, now in the local object store."""

    url: str
    ref: str | None
    commit: ObjectID
    tree: ObjectID


def fetch_source(store: Store, url: str, ref: str | None, shown: str) -> SourceTip:
    """Fetch `ref` (None: the source's HEAD; a full commit id: that commit) of the source at
    `url`; RemoteError naming `shown` when it cannot be reached or has no such ref."""
    names = wanted_refs(None if is_commit_id(ref) else ref)
    connection = Connection(store, Remote(shown, url), None)
    try:
        if is_commit_id(ref):
            # Servers rarely give a commit by id: its branches and tags bring it.
            fetched = connection.fetch(lambda r: r.startswith((b"refs/heads/", b"refs/tags/")))
            commit: ObjectID | None = ObjectID(ref.encode()) if ref else None
            if commit is not None and commit not in store.repo.object_store:
                commit = None
        else:
            fetched = connection.fetch(lambda r: r in names)
            commit = next((fetched.refs[n] for n in names if n in fetched.refs), None)
    finally:
        connection.close()
    if commit is None:
        what = "HEAD (it is empty)" if ref is None else f"no branch, tag or commit {ref}"
        raise RemoteError(
            f"source {shown} has {what}; check the name with `git ls-remote {url}` and give "
            "another with --ref"
        )
    obj = store.repo[commit]
    if not isinstance(obj, Commit):
        # An annotated tag: the commit it names.
        commit = _peel(store, commit)
    keep = side_ref(url, ref)
    set_ref(store, keep, commit)
    return SourceTip(url, ref, commit, load_commit(store, commit).tree)


def _peel(store: Store, sha: ObjectID) -> ObjectID:
    for _ in range(10):
        obj = store.repo[sha]
        if isinstance(obj, Commit):
            return sha
        target = getattr(obj, "object", None)
        if target is None:
            break
        sha = target[1]
    raise CuratorError(f"{sha.decode()[:12]} does not name a commit")


def is_fetched(store: Store, url: str, ref: str | None) -> bool:
    """Has (url, ref) been fetched before (its side ref exists)?"""
    return ref_value(store, side_ref(url, ref)) is not None


def forget_source(store: Store, url: str, ref: str | None) -> None:
    """Drop the side ref of (url, ref): nothing taken from it needs its objects."""
    delete_ref(store, side_ref(url, ref))


def keep_commit(store: Store, url: str, ref: str | None, commit: ObjectID) -> None:
    """Keep a recorded source commit reachable (the next update's merge base), beside the tip."""
    name = side_ref(url, ref) + b"-base-" + commit[:12]
    if ref_value(store, name) is None:
        move_ref(store, name, None, commit)


def prune_bases(store: Store, url: str, ref: str | None, keep: set[str]) -> None:
    """Drop the kept base commits of (url, ref) that no skill records any more (`keep`: the
    recorded commit ids)."""
    prefix = side_ref(url, ref) + b"-base-"
    for name, sha in local_refs(store, b"refs/gitcurator/sources/").items():
        if name.startswith(prefix) and sha.decode() not in keep:
            delete_ref(store, name)


def has_commit(store: Store, commit: str) -> bool:
    """Is the source commit `commit` (40 hex digits) in the local object store?"""
    try:
        return isinstance(store.repo[ObjectID(commit.encode("ascii"))], Commit)
    except (KeyError, ValueError, UnicodeEncodeError):
        return False


class TreeCache:
    """Folders found in trees, with the trees parsed on the way kept: 200 skills of one source
    parse its skills folder once, not 200 times."""

    def __init__(self) -> None:
        self.parsed: dict[ObjectID, Tree] = {}
        self.roots: dict[str, ObjectID | None] = {}

    def commit_tree(self, store: Store, commit: str) -> ObjectID | None:
        """The root tree of the commit `commit` (40 hex digits); None if it is not here."""
        if commit not in self.roots:
            self.roots[commit] = (
                load_commit(store, ObjectID(commit.encode())).tree
                if has_commit(store, commit)
                else None
            )
        return self.roots[commit]

    def folder(self, store: Store, tree: ObjectID, path: str) -> ObjectID | None:
        """The tree id of `path` in `tree` (the tree itself for ''; None: no such folder)."""
        path = path.strip("/")
        return subtree_id(store, tree, path, self.parsed) if path else tree


def folder_entries(store: Store, tree: ObjectID, folder: str) -> dict[str, Entry] | None:
    """path -> (id, mode) of every entry under `folder` of `tree`, relative to it ('' is the
    whole tree); None when there is no such folder. Submodules are listed (mode 160000)."""
    current = tree
    if folder.strip("/"):
        for part in folder.strip("/").split("/"):
            obj = store.repo[current]
            if not isinstance(obj, Tree) or git_path(part) not in obj:
                return None
            mode, current = obj[git_path(part)]
            if mode != 0o040000:
                return None
    return {
        text_path(e.path): (e.sha, e.mode)
        for e in iter_tree_contents(store.repo.object_store, current)
    }


def malformed_names(store: Store, tree: bytes) -> list[str]:
    """The entries under `tree` whose stored names are empty or hold '/' or NUL, which a
    well-formed tree never has (a forged one may: joined, "a/b" reads as a folder and a file)."""
    found: list[str] = []
    todo: list[tuple[str, bytes]] = [("", tree)]
    while todo:
        prefix, current = todo.pop()
        obj = store.repo[ObjectID(current)]
        if not isinstance(obj, Tree):
            continue
        for item in obj.iteritems():
            name = item.path.decode("utf-8", "surrogateescape")
            if not item.path or b"/" in item.path or b"\0" in item.path:
                found.append(prefix + name)
            elif item.mode == 0o040000:
                todo.append((prefix + name + "/", item.sha))
    return sorted(found)


def blob_size(store: Store, sha: ObjectID) -> int:
    """The size of a stored blob, in bytes."""
    _, data = store.repo.object_store.get_raw(sha)
    return len(data)


def blob_id(data: bytes) -> ObjectID:
    """The id `data` has as a blob (nothing is stored)."""
    return Blob.from_string(data).id


@clears_stale_object_locks
def store_blob(store: Store, data: bytes) -> ObjectID:
    """Store `data` as a blob; its id."""
    blob = Blob.from_string(data)
    store.repo.object_store.add_object(blob)
    return blob.id


def folder_files(store: Store, entries: dict[str, Entry]) -> dict[str, tuple[bytes, int]]:
    """Each entry's content and mode (a submodule's is empty)."""
    found: dict[str, tuple[bytes, int]] = {}
    for path, (sha, mode) in entries.items():
        if mode == 0o160000:
            found[path] = (b"", mode)
            continue
        _, data = store.repo.object_store.get_raw(sha)
        found[path] = (bytes(data), mode)
    return found


__all__ = [
    "RemoteError",
    "SourceTip",
    "TreeCache",
    "blob_id",
    "blob_size",
    "fetch_source",
    "folder_entries",
    "folder_files",
    "forget_source",
    "has_commit",
    "is_fetched",
    "keep_commit",
    "malformed_names",
    "prune_bases",
    "store_blob",
]
