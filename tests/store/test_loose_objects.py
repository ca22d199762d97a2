"""store.loose_objects: a loose object's folder that takes no file is named, never exit 3."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill

from gitcurator.errors import StoreError
from gitcurator.store import Store
from gitcurator.store.source_fetch import store_blob


def _blob_in_a_new_folder(lib: Path) -> tuple[bytes, Path]:
    """A blob whose objects/xx folder the repository does not have yet (its commits' ids
    move with the clock, so which folders exist does too), and that folder."""
    for n in range(1000):
        data = b"a blob of its own %d\n" % n
        sha = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        folder = lib / ".git" / "objects" / sha[:2]
        if not folder.exists():
            return data, folder
    raise AssertionError("every object folder is taken")


@pytest.mark.parametrize("blocker", ["file", "dangling-link"])
def test_an_object_folder_that_takes_no_file_is_named(
    lib: Path, store: Store, blocker: str
) -> None:
    data, folder = _blob_in_a_new_folder(lib)
    if blocker == "file":
        folder.write_bytes(b"")
    else:
        folder.symlink_to(lib.parent / "gone")
    with pytest.raises(StoreError, match="cannot write new objects into") as raised:
        store_blob(store, data)
    assert str(folder) in str(raised.value)


def test_a_commit_whose_tree_cannot_be_written_stops_with_exit_1(repo: Path) -> None:
    # The blob goes through the pack writer (its OSError named); the tree and the commit
    # were written loose with none caught: NotADirectoryError, exit 3.
    write_skill(repo, "csv-clean")
    blob = git("hash-object", str(repo / "csv-clean" / "SKILL.md"), cwd=repo).stdout.strip()
    objects = repo / ".git" / "objects"
    blocked = [objects / f"{i:02x}" for i in range(256)]
    blocked = [p for p in blocked if not p.exists() and p.name != blob[:2]]
    for path in blocked:
        path.write_bytes(b"")
    head = git("rev-parse", "HEAD", cwd=repo).stdout
    done = run_cli("commit", "-m", "csv-clean", "-C", str(repo))
    assert done.code == 1, done
    assert "cannot write new objects into" in done.err
    assert git("rev-parse", "HEAD", cwd=repo).stdout == head
    for path in blocked:
        os.unlink(path)
    assert run_cli("commit", "-m", "csv-clean", "-C", str(repo)).code == 0
    assert "csv-clean/SKILL.md" in git("ls-tree", "-r", "--name-only", "HEAD", cwd=repo).stdout
