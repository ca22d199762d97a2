"""gitfiles/refs and gitfiles/repo_paths: HEAD, refs and the repository's folders read from
git's files as the store (dulwich) reads them, and `Unsure` / None where they might not be."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git
from support.stores import make_library

from gitcurator.gitfiles.refs import Unsure, head_commit, ref_commit
from gitcurator.gitfiles.repo_paths import discover
from gitcurator.store import Store


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    """Two commits on main, a note on the second, a folder below the top."""
    root = make_library(tmp_path / "lib")
    git("commit", "-q", "--allow-empty", "-m", "two", cwd=root)
    git("notes", "--ref=gitcurator", "add", "-m", "{}", "HEAD", cwd=root)
    return root


def _store_view(start: Path) -> tuple[str, str, str, str | None, str | None]:
    with Store.discover(start) as store:
        head = store.head_commit()
        notes = store.repo.refs.as_dict().get(b"refs/notes/gitcurator")
        return (
            str(store.root),
            store.repo.controldir(),
            store.repo.commondir(),
            head.decode() if head else None,
            notes.decode() if notes else None,
        )


def _own_view(start: Path) -> tuple[str, str, str, str | None, str | None]:
    paths = discover(str(start))
    assert paths is not None
    head = head_commit(paths.gitdir, paths.common)
    notes = ref_commit(paths.common, "refs/notes/gitcurator")
    return paths.root, paths.gitdir, paths.common, head, notes


def test_loose_packed_detached_and_linked_read_as_the_store_reads_them(
    lib: Path, tmp_path: Path
) -> None:
    assert _own_view(lib) == _store_view(lib)
    assert _own_view(lib / "devops") == _store_view(lib / "devops")
    git("pack-refs", "--all", cwd=lib)
    assert _own_view(lib) == _store_view(lib)
    git("checkout", "-q", "--detach", "HEAD~1", cwd=lib)
    assert _own_view(lib) == _store_view(lib)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", str(linked), "-b", "side", cwd=lib)
    assert _own_view(linked) == _store_view(linked)
    (tmp_path / "alias").symlink_to(lib)
    assert _own_view(tmp_path / "alias") == _store_view(tmp_path / "alias")
    unborn = tmp_path / "unborn"
    git("init", "-q", str(unborn), cwd=tmp_path)
    assert _own_view(unborn) == _store_view(unborn)


def test_a_ref_not_as_git_writes_it_is_unsure(lib: Path) -> None:
    git_dir = lib / ".git"
    branch = (git_dir / "HEAD").read_text().split("refs/heads/")[1].strip()
    ref = git_dir / "refs" / "heads" / branch
    commit = ref.read_text().strip()
    for text in (f" {commit}\n", f"{commit} trailing\n", "", "ref: refs/heads/other\n"):
        ref.write_text(text)
        with pytest.raises(Unsure):
            head_commit(str(git_dir), str(git_dir))
    ref.unlink()
    (git_dir / "packed-refs").write_text(
        f"{commit} refs/heads/{branch}\n{commit} refs/heads/{branch}\n"
    )
    with pytest.raises(Unsure):
        head_commit(str(git_dir), str(git_dir))
    (git_dir / "HEAD").write_text("ref: refs/worktree/elsewhere\n")
    with pytest.raises(Unsure):
        head_commit(str(git_dir), str(git_dir))
    (git_dir / "HEAD").write_text(f"ref: refs/heads/{branch}\n")
    (git_dir / "reftable").mkdir()
    with pytest.raises(Unsure):
        head_commit(str(git_dir), str(git_dir))


def test_what_the_store_refuses_is_not_discovered_here(lib: Path, tmp_path: Path) -> None:
    assert discover(str(lib / ".git" / "refs")) is None  # dulwich opens .git as bare
    bare = tmp_path / "bare.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    assert discover(str(bare)) is None
    assert discover(str(tmp_path / "missing")) is None
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / ".git").write_text("not a gitdir line\n")
    assert discover(str(odd)) is None


@pytest.mark.parametrize(
    "head", [b"ref: refs/heads/main\r\n", b"ref: refs/heads/ma in\n", b"ref: refs/heads/a..b\n"]
)
def test_a_head_not_as_git_writes_it_is_left_to_the_store(lib: Path, head: bytes) -> None:
    # `refs/heads/main\r` has no ref file: read as an unborn branch, the quick list answered
    # `[]` where dulwich (stripping \r\n) finds the commit.
    (lib / ".git" / "HEAD").write_bytes(head)
    with pytest.raises(Unsure):
        head_commit(str(lib / ".git"), str(lib / ".git"))
