"""The nested-repository walk through kept folder records (gitfiles/nested_walk): a folder that
changed is listed again, however the change was made, and a damaged record is never trusted."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support.repos import git, write_skill

from gitcurator import statefiles, timeutil
from gitcurator.gitfiles import nested_walk


@pytest.fixture
def lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A library with a kept walk whose every record is trusted at once (no racy second)."""
    root = tmp_path / "lib"
    for name in ("tools/pdf-extract", "tools/docker-build", "plain"):
        write_skill(root, name)
    git("init", "-q", cwd=root)
    monkeypatch.setattr(timeutil, "RACY_NS", -(10**18))
    assert _walk(root) == []
    assert (_state(root) / statefiles.NESTED_WALK).is_file()
    return root


def _state(root: Path) -> Path:
    return root / ".git" / statefiles.STATE_DIR


def _walk(root: Path) -> list[str]:
    return sorted(nested_walk.git_folders(root, _state(root)))


def _clone(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    git("init", "-q", cwd=folder)


def test_a_clone_made_inside_a_kept_skill_folder_is_found(lib: Path) -> None:
    _clone(lib / "tools/pdf-extract")
    assert _walk(lib) == ["tools/pdf-extract"]
    shutil.rmtree(lib / "tools/pdf-extract/.git")
    assert _walk(lib) == []


def test_a_new_folder_holding_a_clone_is_found(lib: Path) -> None:
    _clone(lib / "tools/vendored/dep")
    assert _walk(lib) == ["tools/vendored/dep"]


def test_a_dot_git_file_with_the_folder_mtime_put_back_is_still_found(lib: Path) -> None:
    folder = lib / "plain"
    before = folder.stat()
    (folder / ".git").write_text("gitdir: /elsewhere\n")  # a linked worktree's pointer
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))  # the ctime still moved
    assert _walk(lib) == ["plain"]


@pytest.mark.parametrize("damage", [b"\x00garbage", b'{"format": 1}', b"[]", b""])
def test_a_damaged_record_walks_afresh(lib: Path, damage: bytes) -> None:
    _clone(lib / "tools/docker-build")
    (_state(lib) / statefiles.NESTED_WALK).write_bytes(damage)
    assert _walk(lib) == ["tools/docker-build"]
    assert _walk(lib) == ["tools/docker-build"]  # and what it rewrote reads back the same


def test_a_record_of_another_work_tree_is_not_taken(lib: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(lib, other, symlinks=True)
    _clone(other / "plain")
    # The copy's record names lib's root: the copy is walked afresh, its clone found.
    assert _walk(other) == ["plain"]
