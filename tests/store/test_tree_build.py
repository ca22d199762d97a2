"""store.tree_build: trees from a file listing are the trees `git write-tree` makes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from support.repos import git

from gitcurator.store import Store, staging
from gitcurator.store.tree_build import build_trees


def _tricky_folder(lib: Path) -> None:
    # Names that sort differently as files and as folders (git sorts a folder as `name/`).
    for rel in ("a", "a-b", "a.b", "a0", "b/x", "b.c/y", "b-c/z", "bb", "c/d/e/f.md"):
        path = lib / "tricky" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{rel}\n")
    for twin in ("one", "two"):  # identical folders: one tree, written once
        (lib / "twins" / twin / "refs").mkdir(parents=True)
        (lib / "twins" / twin / "refs" / "same.md").write_text("same\n")
    (lib / "tricky" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "tricky" / "run.sh").chmod(0o755)
    (lib / "tricky" / "link").symlink_to("a")
    (lib / "tricky" / "empty").write_bytes(b"")
    os.makedirs(os.fsencode(lib / "tricky") + b"/caf\xe9", exist_ok=True)
    with open(os.fsencode(lib / "tricky") + b"/caf\xe9/n\xe9.md", "wb") as f:
        f.write(b"not utf-8 names\n")


def test_trees_are_the_ones_git_writes(lib: Path, store: Store) -> None:
    _tricky_folder(lib)
    scan = staging.scan_worktree(store)
    root, trees = build_trees(
        (os.fsencode(f.path), f.mode, bytes.fromhex(f.sha.decode())) for f in scan.files
    )
    git("add", "-A", cwd=lib)
    assert root.hex() == git("write-tree", cwd=lib).stdout.strip()
    listed = git("ls-tree", "-r", "-t", root.hex(), cwd=lib).stdout.splitlines()
    tree_lines = [line.split()[2] for line in listed if line.split()[1] == "tree"]
    assert {sha.hex() for sha in trees} == set(tree_lines) | {root.hex()}
    assert len(set(tree_lines)) < len(tree_lines), "the twin folders share their trees"
    for sha, raw in trees.items():
        shown = subprocess.run(
            ["git", "cat-file", "tree", sha.hex()], cwd=lib, capture_output=True, check=True
        )
        assert raw == shown.stdout


@pytest.mark.parametrize(
    "files",
    [
        [(b"a", 0o100644, bytes(20)), (b"a/b", 0o100644, bytes(20))],
        [(b"a/b", 0o100644, bytes(20)), (b"a", 0o100644, bytes(20))],
        [(b"a", 0o100644, bytes(20)), (b"a", 0o100755, bytes(20))],
    ],
)
def test_a_listing_no_tree_can_hold_is_refused(files: list[tuple[bytes, int, bytes]]) -> None:
    with pytest.raises(ValueError):
        build_trees(files)
