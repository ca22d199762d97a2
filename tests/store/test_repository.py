"""store.repository: opening repositories, HEAD and the branches, the configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git
from support.stores import rev

from gitcurator.errors import NotARepository
from gitcurator.store import DEFAULT_BRANCH, Store


def test_discover_says_what_to_do_where_there_is_no_work_tree(tmp_path: Path, lib: Path) -> None:
    with pytest.raises(NotARepository, match="no such folder"):
        Store.discover(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    with pytest.raises(NotARepository, match="run `gitcurator init"):
        Store.discover(tmp_path / "plain")
    with pytest.raises(NotARepository, match=r"inside the \.git folder"):
        Store.discover(lib / ".git")
    git("init", "-q", "--bare", str(tmp_path / "bare.git"), cwd=tmp_path)
    with pytest.raises(NotARepository, match="bare git repository"):
        Store.discover(tmp_path / "bare.git")
    with Store.discover(lib / "devops" / "gamma") as inside:
        assert inside.root == lib.resolve()


def test_init_creates_once_on_the_default_branch(tmp_path: Path) -> None:
    store, created = Store.init(tmp_path / "new")
    with store:
        assert created and store.head_commit() is None
        assert store.default_branch() == DEFAULT_BRANCH == "main"
    again, created = Store.init(tmp_path / "new")
    with again:
        assert not created


def test_head_and_branch_tips(lib: Path, store: Store) -> None:
    head = rev(lib, "HEAD")
    assert store.head_commit() == head and store.head_branch() == "main"
    git("checkout", "-q", "-b", "curator/20260101-000000", cwd=lib)
    assert store.default_branch() == "main", "a pass starts from main, not its own branch"
    git("checkout", "-q", "--detach", cwd=lib)
    assert store.head_branch() is None and store.default_branch() == "main"
    assert store.branch_tip("main") == head and store.branch_tip("nope") is None


def test_configuration_and_hooks_folder(lib: Path, store: Store) -> None:
    assert store.config_value("core", "hooksPath") is None
    assert store.hooks_dir() == lib / ".git" / "hooks"
    git("config", "core.hooksPath", "githooks", cwd=lib)
    assert store.config_value("core", "hooksPath") == "githooks"
    assert store.hooks_dir() == lib.resolve() / "githooks"


def test_the_facade_reads_head_as_git_does(lib: Path, store: Store) -> None:
    listed = git("ls-tree", "-r", "--format=%(path) %(objectname)", "HEAD", cwd=lib).stdout
    assert store.head_paths() == {
        p: s.encode() for p, s in (line.split() for line in listed.splitlines())
    }
    sha = store.head_paths()["beta/references/notes.md"]
    assert store.read_blob(sha) == b"notes\n"
    assert store.file_entry("n", sha, 0o100644).data == b"notes\n"
