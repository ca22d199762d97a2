"""store.staging: the work tree committed on the checked-out branch as `git add` + `commit` do."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git, write_skill
from support.stores import rev

from gitcurator.errors import StoreError
from gitcurator.store import Store, staging


def _clean(lib: Path) -> bool:
    return git("status", "--porcelain", cwd=lib).stdout == ""


def test_a_scan_commits_what_git_add_all_would(lib: Path, store: Store) -> None:
    write_skill(lib, "delta")
    (lib / "alpha" / "SKILL.md").unlink()
    (lib / "beta" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "beta" / "run.sh").chmod(0o755)
    scan = staging.scan_worktree(store)
    (lib / "late.md").write_text("written after the scan\n")
    scan.add(str(lib / "late.md"), "late.md")
    checked = staging.scan_tree(scan)
    assert checked.load("beta/run.sh").executable
    parent = rev(lib, "HEAD")
    made = staging.commit_scan(store, scan, "scan")
    assert rev(lib, "HEAD") == made and rev(lib, "HEAD~1") == parent
    assert _clean(lib)
    git("add", "-A", cwd=lib)
    assert (
        git("write-tree", cwd=lib).stdout.strip()
        == git("rev-parse", "HEAD^{tree}", cwd=lib).stdout.strip()
    )


def test_changes_under_folders_are_committed_and_nothing_else(lib: Path, store: Store) -> None:
    (lib / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: d\n---\nnew\n")
    (lib / "beta" / "references" / "notes.md").unlink()
    (lib / "devops" / "gamma" / "SKILL.md").write_text("not part of this commit\n")
    changes = staging.worktree_changes(store, {"alpha", "beta"})
    assert changes.paths == ["alpha/SKILL.md", "beta/references/notes.md"]
    staging.commit_changes(store, changes, "alpha and beta")
    status = git("status", "--porcelain", cwd=lib).stdout
    assert status == " M devops/gamma/SKILL.md\n"
    assert staging.worktree_changes(store, {"alpha", "beta"}).paths == []


def test_a_new_file_is_written_and_committed_alone(lib: Path, store: Store) -> None:
    (lib / "alpha" / "SKILL.md").write_text("an edit that stays uncommitted\n")
    staging.commit_new_file(store, ".curator/config.yml", b"x: 1\n", "add config")
    assert (lib / ".curator" / "config.yml").read_bytes() == b"x: 1\n"
    assert git("status", "--porcelain", cwd=lib).stdout == " M alpha/SKILL.md\n"
    assert git("show", "--name-only", "--format=", "HEAD", cwd=lib).stdout.split() == [
        ".curator/config.yml"
    ]


def test_the_branch_moving_meanwhile_is_refused(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = rev(lib, "HEAD")
    monkeypatch.setattr(staging, "move_ref", lambda *args, **kwargs: False)
    with pytest.raises(StoreError, match="the branch moved while gitcurator was committing"):
        staging.commit_new_file(store, "x.md", b"x\n", "x")
    assert rev(lib, "HEAD") == before
