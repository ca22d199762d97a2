"""store.objects: modes, batches of new objects written as one pack (a few loose), blobs read
as files."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from dulwich.objects import Blob
from support.repos import git, run_cli
from support.stores import rev, tree_of

from gitcurator.errors import StoreError
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


def _git_in(lib: Path, args: list[str], data: bytes) -> str:
    done = subprocess.run(["git", *args], cwd=lib, input=data, capture_output=True, check=True)
    return done.stdout.decode().strip()


def _tree_as_a_file(lib: Path) -> bytes:
    """main moved to a commit whose alpha/SKILL.md is, by hand, a tree (git makes none)."""
    inner = git("rev-parse", "HEAD:devops", cwd=lib).stdout.strip()
    raw = b"100644 SKILL.md\0" + bytes.fromhex(inner)
    folder = _git_in(lib, ["hash-object", "-t", "tree", "-w", "--literally", "--stdin"], raw)
    listing = git("ls-tree", "HEAD", cwd=lib).stdout.splitlines()
    lines = [x for x in listing if not x.endswith("\talpha")] + [f"040000 tree {folder}\talpha"]
    root = _git_in(lib, ["mktree"], "\n".join(lines).encode() + b"\n")
    commit = git("commit-tree", "-p", "HEAD", "-m", "by hand", root, cwd=lib).stdout.strip()
    git("update-ref", "refs/heads/main", commit, cwd=lib)
    return inner.encode()


def test_a_tree_where_a_blob_should_be_is_named_not_read_as_a_file(lib: Path, store: Store) -> None:
    """Its bytes were read as the file's (a search saw a SKILL.md of tree bytes)."""
    inner = _tree_as_a_file(lib)
    with pytest.raises(StoreError, match=f"object {inner.decode()} is a tree where a file's"):
        store.read_blob(inner)
    done = run_cli("search", "alpha", "-C", str(lib))
    assert done.code == 1, done
    assert f"object {inner.decode()} is a tree" in done.err
