"""gitdir.py: finding .git and reading HEAD without dulwich."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git

from gitcurator.statefiles import STATE_DIR
from gitcurator.telemetry import gitdir


def _git_repo(path: Path, commits: int = 1) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git("init", "-q", cwd=path)
    for i in range(commits):
        (path / "f.txt").write_text(f"{i}\n")
        git("add", "f.txt", cwd=path)
        git("commit", "-qm", f"c{i}", cwd=path)
    return path


def _rev(path: Path, rev: str = "HEAD") -> str:
    return git("rev-parse", rev, cwd=path).stdout.strip()


def test_find_gitdir_from_the_root_and_from_a_subfolder(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r")
    (root / "a" / "b").mkdir(parents=True)
    assert gitdir.find_gitdir(root) == (root, root / ".git")
    assert gitdir.find_gitdir(root / "a" / "b") == (root, root / ".git")


@pytest.mark.parametrize("absolute", [True, False])
def test_find_gitdir_follows_a_dotgit_file(tmp_path: Path, absolute: bool) -> None:
    real = _git_repo(tmp_path / "r")
    moved = tmp_path / "elsewhere.git"
    (real / ".git").rename(moved)
    target = str(moved) if absolute else "../elsewhere.git"
    (real / ".git").write_text(f"gitdir: {target}\n")
    root, found = gitdir.find_gitdir(real)
    assert (root, found.resolve()) == (real, moved.resolve())
    assert gitdir.read_head(found) == _rev(real)


def test_linked_worktree_reads_its_own_head_and_shares_state_with_the_main_clone(
    tmp_path: Path,
) -> None:
    main = _git_repo(tmp_path / "main", commits=2)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", "-b", "side", str(linked), "HEAD~1", cwd=main)
    root, found = gitdir.find_gitdir(linked)
    assert root == linked
    assert found.resolve() == (main / ".git" / "worktrees" / "linked").resolve()
    assert gitdir.read_head(found) == _rev(main, "HEAD~1") != _rev(main)
    # one journal per clone: the worktree's events land where the main checkout's do
    assert gitdir.state_dir(found).resolve() == (main / ".git" / STATE_DIR).resolve()


def test_find_gitdir_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        gitdir.find_gitdir(tmp_path)


def test_read_head_loose_ref(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r")
    assert (root / ".git" / "refs" / "heads" / "main").is_file()
    assert gitdir.read_head(root / ".git") == _rev(root)


def test_read_head_packed_refs(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r", commits=2)
    git("tag", "-a", "-m", "t", "v1", "HEAD~1", cwd=root)  # a peeled `^` line in packed-refs
    git("branch", "other", "HEAD~1", cwd=root)
    git("pack-refs", "--all", cwd=root)
    assert not (root / ".git" / "refs" / "heads" / "main").exists()
    assert gitdir.read_head(root / ".git") == _rev(root)
    assert gitdir.read_ref(root / ".git", "refs/heads/other") == _rev(root, "HEAD~1")
    assert gitdir.read_ref(root / ".git", "refs/heads/missing") is None


def test_read_head_detached(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r", commits=2)
    parent = _rev(root, "HEAD~1")
    git("checkout", "-q", "--detach", parent, cwd=root)
    assert gitdir.read_head(root / ".git") == parent


def test_read_head_unborn_branch(tmp_path: Path) -> None:
    root = _git_repo(tmp_path / "r", commits=0)
    assert gitdir.read_head(root / ".git") is None


_PATH_PIECES = ["", "/", "//", "///", ".", "..", "a", "b c", "é", "./", "a/", "../x", "\x00"]


def test_pure_path_and_absolute_spell_paths_as_pathlib_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # record's messages name the paths it was given: spelled as before, when pathlib made them.
    import itertools
    from pathlib import PurePosixPath

    # From `/` too: a plain concatenation gave `//tmp/...` where pathlib gives `/tmp/...`.
    for cwd in (Path.cwd(), Path("/")):
        monkeypatch.chdir(cwd)
        for count in range(1, 4):
            for pieces in itertools.product(_PATH_PIECES, repeat=count):
                text = "".join(pieces)
                assert gitdir.pure_path(text) == str(PurePosixPath(text)), repr(text)
                if "\x00" not in text:
                    assert gitdir.absolute(text) == str(Path(text).absolute()), (cwd, text)


def test_strings_and_paths_find_the_same_git_dir(tmp_path: Path) -> None:
    real = _git_repo(tmp_path / "r")
    (real / "a" / "b").mkdir(parents=True)
    moved = tmp_path / "elsewhere.git"
    (real / ".git").rename(moved)
    (real / ".git").write_text("gitdir: ./../elsewhere.git/\n")
    start = f"{real}//a/./b/"
    assert gitdir.locate(start) == (str(real), str(moved))
    assert gitdir.find_gitdir(Path(start)) == (real, moved)
    assert gitdir.state_path(str(moved)) == str(gitdir.state_dir(moved))
    with pytest.raises(FileNotFoundError, match=r"^/no/such/folder$"):
        gitdir.locate("/no//such/folder/")
