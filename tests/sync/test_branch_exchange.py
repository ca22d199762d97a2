"""sync/branch_exchange.py: which curator branches are sent, created, left alone, remembered.

The exchange with a real remote is tested end to end in tests/commands/test_sync.py; here
the decisions are checked on one repository with refs written by real git.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.remotes import NOTES, T1, clone, make_remote, record, refs
from support.repos import git, run_cli

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


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
def test_a_branch_in_the_way_of_a_fetched_one_is_named_and_the_rest_fetched(
    tmp_path: Path, packed: bool
) -> None:
    """A person's branch `curator` (or `curator/x/mine`): loose, sync ended with
    NotADirectoryError (exit 3); packed, dulwich made curator/... beside it."""
    repo = tmp_path / "repo"
    old, new = _commits(repo)
    git("branch", "curator", old.decode(), cwd=repo)
    if packed:
        git("pack-refs", "--all", cwd=repo)
    with open_store(repo) as store:
        created, warnings = fetch_branches(store, {_ref("r1"): new}, set(), "origin")
    assert created == []
    assert len(warnings) == 1
    assert warnings[0].startswith("curator/r1 could not be created here: branch curator is in")
    assert "`git branch -m curator curator-old`" in warnings[0]
    git("branch", "-m", "curator", "curator-old", cwd=repo)
    git("branch", "curator/x/mine", old.decode(), cwd=repo)
    there = {_ref("x"): new, _ref("r1"): new}
    with open_store(repo) as store:
        created, warnings = fetch_branches(store, there, set(), "origin")
    assert created == ["curator/r1"]
    assert [w.split(":")[0] for w in warnings] == ["curator/x could not be created here"]
    assert "branch curator/x/mine is in its way" in warnings[0]
    out = git("for-each-ref", "--format=%(refname:short)", "refs/heads/", cwd=repo)
    assert out.stdout.split() == ["curator-old", "curator/r1", "curator/x/mine", "main"]


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


def _synced_past_a_blocker(mine: Path, skill: str) -> str:
    """A use of `skill` recorded, then a sync that must still succeed: its warnings."""
    record(mine, skill, 1, T1)
    done = run_cli("sync", "-C", str(mine))
    assert done.code == 0, done
    return done.err


def test_a_branch_the_remotes_branch_is_in_the_way_of_is_left_and_the_notes_pushed(
    tmp_path: Path,
) -> None:
    """The remote has a person's branch `curator`: sending curator/<id> beside it failed the
    whole push, the notes' with it ("cannot push ...: Not a directory", exit 1), each sync."""
    remote = make_remote(tmp_path)
    git("branch", "curator", "main", cwd=remote)
    mine = clone(remote, tmp_path / "mine")
    git("branch", "curator/20260101-000000", cwd=mine)
    err = _synced_past_a_blocker(mine, "x")
    assert "curator/20260101-000000 was not pushed: branch curator on " in err
    assert "(`git branch -m curator curator-old` there)" in err
    there = refs(remote)
    assert NOTES in there and "refs/heads/curator/20260101-000000" not in there
    # One inside the folder the branch would be: renamed out of it, not within it.
    git("branch", "-m", "curator", "curator-old", cwd=remote)
    git("branch", "curator/x/mine", "main", cwd=remote)
    git("branch", "curator/x", cwd=mine)
    err = _synced_past_a_blocker(mine, "y")
    assert "curator/x was not pushed: branch curator/x/mine on " in err
    assert "`git branch -m curator/x/mine curator-x-mine-old` there" in err
    there = refs(remote)
    assert "refs/heads/curator/20260101-000000" in there and "refs/heads/curator/x" not in there
    assert there[NOTES] == refs(mine)[NOTES]
