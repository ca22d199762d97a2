"""sync/branch_exchange.py: which curator branches are sent, created, left alone, remembered.

The exchange with a real remote is tested end to end in tests/commands/test_sync.py; here
the decisions are checked on one repository with refs written by real git.
"""

from __future__ import annotations

from pathlib import Path

from support.repos import git

from gitcurator.library import open_store
from gitcurator.store import ObjectID
from gitcurator.store.remote import resolve_remote
from gitcurator.sync.branch_exchange import (
    branch_pushes,
    fetch_branches,
    remember_branches,
    seen_branches,
)


def _commits(repo: Path) -> tuple[ObjectID, ObjectID]:
    repo.mkdir()
    git("init", "-q", cwd=repo)
    for i in (1, 2):
        (repo / "f").write_text(f"{i}\n")
        git("add", "f", cwd=repo)
        git("commit", "-qm", f"c{i}", cwd=repo)
    first, second = (
        git("rev-parse", rev, cwd=repo).stdout.strip().encode() for rev in ("HEAD~1", "HEAD")
    )
    return ObjectID(first), ObjectID(second)


def _ref(name: str) -> bytes:
    return f"refs/heads/curator/{name}".encode()


def test_new_remote_branches_are_created_and_others_left_alone(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    old, new = _commits(repo)
    git("branch", "curator/same", old.decode(), cwd=repo)
    git("branch", "curator/differs", old.decode(), cwd=repo)
    there = {
        _ref("new"): new,
        _ref("same"): old,
        _ref("differs"): new,
        _ref("deleted-here"): new,
        b"refs/heads/main": new,  # not a curator branch: never touched
    }
    with open_store(repo) as store:
        created, warnings = fetch_branches(store, there, {_ref("deleted-here")}, "origin")
    assert created == ["curator/new"]
    assert warnings == [
        "curator/differs differs here and on remote origin; neither was changed "
        "(compare the two with git)"
    ]
    out = git("for-each-ref", "--format=%(refname:short)", "refs/heads/curator/", cwd=repo)
    assert out.stdout.split() == ["curator/differs", "curator/new", "curator/same"]


def test_only_branches_the_remote_never_had_are_pushed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    old, _ = _commits(repo)
    for name in ("fresh", "there", "merged-there"):
        git("branch", f"curator/{name}", old.decode(), cwd=repo)
    with open_store(repo) as store:
        pushes = branch_pushes(store, {_ref("there"): old}, {_ref("merged-there")})
    assert pushes == {_ref("fresh"): (None, old)}


def test_the_remotes_branches_are_remembered_for_the_next_sync(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    old, new = _commits(repo)
    git("branch", "curator/mine", old.decode(), cwd=repo)
    git("branch", "curator/theirs", new.decode(), cwd=repo)
    git("remote", "add", "origin", str(tmp_path / "elsewhere.git"), cwd=repo)
    with open_store(repo) as store:
        remote = resolve_remote(store, "origin")
        assert seen_branches(store, remote) == set()
        remember_branches(store, remote, {_ref("theirs"): new}, set(), {_ref("mine")})
        assert seen_branches(store, remote) == {_ref("mine"), _ref("theirs")}
