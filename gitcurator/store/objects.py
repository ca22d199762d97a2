"""Objects in the store: file modes, new objects batched into one pack, blobs read as files."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dulwich.objects import ObjectID, ShaFile

from gitcurator.errors import StoreError
from gitcurator.skills.files import MAX_LOADED_BYTES, FileEntry
from gitcurator.store.pack_writer import write_pack
from gitcurator.store.stale_locks import clears_stale_object_locks

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

FILE_MODE = 0o100644
EXEC_MODE = 0o100755
LINK_MODE = 0o120000
GITLINK_MODE = 0o160000  # a submodule
TREE_MODE = 0o040000
_BLOB = 3  # git's type numbers
_KINDS = {1: "commit", 2: "tree", 4: "tag"}


class ObjectBatch:
    """Collects new objects so they are written as one pack instead of thousands of loose files."""

    def __init__(self) -> None:
        self.objects: dict[ObjectID, ShaFile] = {}

    def add_object(self, obj: ShaFile) -> None:
        """Hold `obj` until the batch is stored."""
        self.objects[obj.id] = obj

    def __contains__(self, sha: bytes) -> bool:
        return sha in self.objects

    @clears_stale_object_locks
    def store_in(self, store: Store) -> None:
        """Write every held object into the repository, as one pack."""
        write_pack(store, self.objects.values())


def read_blob(store: Store, sha: ObjectID) -> bytes:
    """The content of a stored blob (KeyError: not in the store; StoreError: a tree or commit
    where a file's blob should be, in a tree made by hand: git's checkout refuses it too).

    Read raw, as git reads an object: dulwich's `object_store[sha]` builds a Blob and hashes
    it again, 0.25 s of a cold pass's 20,000 reads. A damaged object is still caught (zlib
    checks a pack's streams, store/loose_reader a loose file's end and size); bytes swapped
    for other valid ones under its name are what `git fsck` finds, for git and us alike."""
    kind, data = store.repo.object_store.get_raw(sha)
    if kind != _BLOB:
        raise StoreError(
            f"object {sha.decode(errors='replace')} is a {_KINDS.get(kind, 'damaged object')} "
            "where a file's content (a blob) should be: a tree naming it as a file was made "
            "by hand, or is damaged (`git fsck` names it)"
        )
    return bytes(data)


def file_entry(path: str, data: bytes, mode: int) -> FileEntry:
    """A file's content and mode as validation sees it (large files are sized, not kept)."""
    if mode == LINK_MODE:
        return FileEntry(path, len(data), link_target=data.decode("utf-8", "surrogateescape"))
    loaded = data if len(data) <= MAX_LOADED_BYTES else None
    return FileEntry(path, len(data), executable=mode == EXEC_MODE, data=loaded)


def stored_file_entry(store: Store, path: str, sha: ObjectID, mode: int) -> FileEntry:
    """A FileEntry from a stored blob (a submodule is an empty entry)."""
    if mode == GITLINK_MODE:
        return FileEntry(path, 0)
    return file_entry(path, read_blob(store, sha), mode)


def object_kind(store: Store, sha: ObjectID) -> str:
    """'commit', 'tree', 'blob' or 'tag' (or 'missing')."""
    try:
        return str(store.repo[sha].type_name.decode())
    except KeyError:
        return "missing"
