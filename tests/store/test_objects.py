"""store.objects: modes, batches of new objects written as one pack (a few loose), blobs read
as files."""

from __future__ import annotations

from pathlib import Path

from dulwich.objects import Blob
from support.repos import git
from support.stores import rev, tree_of

from gitcurator.skills.files import MAX_LOADED_BYTES
from gitcurator.store import Store, objects
from gitcurator.store.pack_writer import LOOSE_BELOW


def test_a_file_entry_keeps_mode_link_and_small_content() -> None:
    plain = objects.file_entry("a.md", b"text\n", objects.FILE_MODE)
    assert (plain.size, plain.executable, plain.data) == (5, False, b"text\n")
    assert objects.file_entry("run.sh", b"#!", objects.EXEC_MODE).executable
    assert objects.file_entry("l", b"../a.md", objects.LINK_MODE).link_target == "../a.md"
    big = objects.file_entry("big", b"x" * (MAX_LOADED_BYTES + 1), objects.FILE_MODE)
    assert big.size == MAX_LOADED_BYTES + 1 and big.data is None


def test_a_batch_is_stored_as_one_pack(lib: Path, store: Store) -> None:
    batch = objects.ObjectBatch()
    blobs = [Blob.from_string(f"blob {n}\n".encode()) for n in range(LOOSE_BELOW)]
    for blob in blobs:
        batch.add_object(blob)
    assert blobs[0].id in batch
    packs = set((lib / ".git" / "objects" / "pack").glob("*.pack"))
    batch.store_in(store)
    assert len(set((lib / ".git" / "objects" / "pack").glob("*.pack")) - packs) == 1
    assert objects.read_blob(store, blobs[2].id) == b"blob 2\n"


def test_stored_objects_are_read_and_named(lib: Path, store: Store) -> None:
    sha = git("rev-parse", "HEAD:beta/references/notes.md", cwd=lib).stdout.strip().encode()
    entry = objects.stored_file_entry(store, "notes.md", sha, objects.FILE_MODE)
    assert entry.data == b"notes\n"
    assert objects.stored_file_entry(store, "sub", sha, objects.GITLINK_MODE).size == 0
    assert objects.object_kind(store, sha) == "blob"
    assert objects.object_kind(store, tree_of(lib, "HEAD")) == "tree"
    assert objects.object_kind(store, rev(lib, "HEAD")) == "commit"
    assert objects.object_kind(store, b"0" * 40) == "missing"
