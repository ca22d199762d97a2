"""store.worktree: the files `git add -A` would take, as git decides them."""

from __future__ import annotations

import os
from pathlib import Path

from support.repos import git

from gitcurator.store import Store, worktree


def _git_would_add(lib: Path) -> set[str]:
    tracked = git("ls-files", cwd=lib).stdout.split()
    new = git("ls-files", "--others", "--exclude-standard", cwd=lib).stdout.split()
    return set(tracked) | set(new)


def test_the_walk_takes_what_git_add_would(lib: Path, store: Store) -> None:
    (lib / ".gitignore").write_text("*.pyc\nbuild/\n")
    (lib / "alpha" / "cache.pyc").write_text("ignored\n")
    (lib / "build").mkdir()
    (lib / "build" / "out.md").write_text("ignored folder\n")
    nested = lib / "vendored"
    nested.mkdir()
    git("init", "-q", cwd=nested)
    (nested / "inner.md").write_text("another repository's file\n")
    (lib / "alpha" / "to-beta").symlink_to("../beta")
    walked = {rel for _full, rel in worktree.walk_worktree(store)}
    assert "alpha/to-beta" in walked, "a symlink to a folder is a file"
    assert not any(p.startswith(("vendored/", ".git/", "build/")) for p in walked)
    assert walked == _git_would_add(lib) - {"vendored/"}


def test_a_global_ignore_file_is_honoured(lib: Path, store: Store) -> None:
    ignore = Path(os.environ["XDG_CONFIG_HOME"]) / "git" / "ignore"
    ignore.parent.mkdir(parents=True)
    ignore.write_text("*.tmp\n")
    (lib / "devops" / "gamma" / "scratch.tmp").write_text("x\n")
    walked = {rel for _full, rel in worktree.walk_worktree(store)}
    assert "devops/gamma/scratch.tmp" not in walked


def test_the_work_tree_as_a_file_tree_reads_files_when_asked(lib: Path, store: Store) -> None:
    (lib / "alpha" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "alpha" / "run.sh").chmod(0o755)
    (lib / "alpha" / "link").symlink_to("run.sh")
    tree = worktree.worktree_tree(store)
    assert "alpha/run.sh" in tree.paths and tree.links == {"alpha/link": "run.sh"}
    entry = tree.load("alpha/run.sh")
    assert entry.executable and entry.data == b"#!/bin/sh\n"
