"""`sync` refuses, changing nothing, what it cannot or should not sync with: a malformed or
unsupported URL, a folder that is not there, and a repository (here or at the remote) that
is not a skills repository unless --force."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.remotes import NOTES, T1, clone, make_remote, record, refs, sync, usage
from support.repos import git


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    done = clone(make_remote(tmp_path), tmp_path / "a")
    record(done, "x", 2, T1)
    return done


def _plain_repo(path: Path, name: str, text: str) -> Path:
    """A git repository of something else than skills: one file, one commit."""
    path.mkdir()
    (path / name).write_text(text)
    git("init", "-q", "-b", "main", cwd=path)
    git("add", "-A", cwd=path)
    git("commit", "-qm", f"add {name}", cwd=path)
    return path


def _refused(repo: Path, *args: str) -> str:
    before = refs(repo), usage(repo)
    done = sync(repo, *args)
    assert done.code == 1, done
    assert (refs(repo), usage(repo)) == before, "nothing changed"
    return done.err


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://example.com/skills.git", "uses ftp://, which is not a git transport"),
        ("http://[::1", "the remote URL http://[::1 is not a valid URL (Invalid IPv6 URL)"),
        ("https://example.com:70000/skills.git", "is not a valid URL"),
        ("https:///skills.git", "has no host name"),
    ],
)
def test_a_bad_url_says_what_is_wrong_with_it(repo: Path, url: str, words: str) -> None:
    err = _refused(repo, url)
    assert words in err and "no remote named" not in err


def test_a_path_that_is_not_there_is_no_such_folder(repo: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "skills.git"
    err = _refused(repo, str(missing))
    assert f"no such folder: {missing}" in err and "no remote named" not in err
    assert "no such folder" in _refused(repo, "./not-here.git")


def test_a_configured_remote_whose_folder_is_gone_says_so(repo: Path, tmp_path: Path) -> None:
    git("remote", "set-url", "origin", str(tmp_path / "moved.git"), cwd=repo)
    err = _refused(repo)
    assert f"no such folder: {tmp_path / 'moved.git'} (the URL of remote origin)" in err


def test_a_remote_that_is_not_a_skills_repository_needs_force(repo: Path, tmp_path: Path) -> None:
    project = _plain_repo(tmp_path / "project", "main.c", "int main(void) { return 0; }\n")
    bare = tmp_path / "project.git"
    git("clone", "-q", "--bare", str(project), str(bare), cwd=tmp_path)
    err = _refused(repo, str(bare))
    assert f"remote {bare} is not a skills repository" in err
    assert "gitcurator sync --force" in err
    assert NOTES not in refs(bare), "nothing was pushed there"
    forced = sync(repo, str(bare), "--force")
    assert forced.code == 0, forced
    assert NOTES in refs(bare)


def test_a_local_repository_that_is_not_a_skills_repository_needs_force(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    plain = _plain_repo(tmp_path / "plain", "notes.txt", "not skills\n")
    err = _refused(plain, str(remote))
    assert f"{plain} is not a skills repository" in err and "gitcurator init" in err
    assert sync(plain, str(remote), "--force").code == 0


def test_a_skills_remote_and_an_empty_one_are_taken(repo: Path, tmp_path: Path) -> None:
    assert sync(repo).code == 0
    empty = tmp_path / "empty.git"
    git("init", "-q", "--bare", str(empty), cwd=tmp_path)
    done = sync(repo, str(empty))
    assert done.code == 0, done
    assert NOTES in refs(empty)
