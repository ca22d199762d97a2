"""A `.lock` file left by a killed process beside a loose object or a ref: a loose object's
old lock is cleared, anything else is reported naming the lock and the exact fix."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.repos import git, run_cli
from support.stores import tree_of

from gitcurator.store import Store, trees
from gitcurator.store.refs import move_ref
from gitcurator.store.stale_locks import LockLeft

DATA = b"written by the next pass\n"


def _aged(path: Path, minutes: float) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    then = time.time() - minutes * 60
    os.utime(path, (then, then))
    return path


def _object_lock(lib: Path, data: bytes) -> Path:
    source = lib.parent / "data.txt"
    source.write_bytes(data)
    sha = git("hash-object", str(source), cwd=lib).stdout.strip()
    return lib / ".git" / "objects" / sha[:2] / f"{sha[2:]}.lock"


def test_an_object_lock_older_than_ten_minutes_is_cleared(lib: Path, store: Store) -> None:
    lock = _aged(_object_lock(lib, DATA), 11)
    tree = trees.edit_tree(store, tree_of(lib, "main"), files={"new.txt": DATA})
    assert not lock.exists()
    listed = git("ls-tree", tree.decode(), "new.txt", cwd=lib).stdout
    assert git("cat-file", "-p", listed.split()[2], cwd=lib).stdout == DATA.decode()


def test_a_younger_object_lock_is_reported_with_the_fix(lib: Path, store: Store) -> None:
    lock = _aged(_object_lock(lib, DATA), 5)
    with pytest.raises(LockLeft) as raised:
        trees.edit_tree(store, tree_of(lib, "main"), files={"new.txt": DATA})
    message = str(raised.value)
    assert f"the lock file {lock} is 5 minutes old and looks left by a killed process" in message
    assert "check that no git or gitcurator command is running" in message
    assert f"`rm {lock}`" in message
    assert lock.exists()


def test_an_object_lock_a_kill_left_seconds_ago_is_reported_with_the_fix(
    lib: Path, store: Store
) -> None:
    # It may still be a live writer's (a loose object is written in milliseconds, but by
    # whom is not recorded): never removed this young, but named with what to do.
    lock = _aged(_object_lock(lib, DATA), 0.05)
    with pytest.raises(LockLeft) as raised:
        trees.edit_tree(store, tree_of(lib, "main"), files={"new.txt": DATA})
    message = str(raised.value)
    assert f"the lock file {lock} is held by another process writing the repository" in message
    assert f"then remove it (`rm {lock}`) and run this again" in message
    assert lock.exists()
    lock.unlink()
    trees.edit_tree(store, tree_of(lib, "main"), files={"new.txt": DATA})


def test_a_fresh_ref_lock_is_a_concurrent_writer(lib: Path, store: Store) -> None:
    _aged(lib / ".git" / "refs" / "heads" / "side.lock", 0)
    assert not move_ref(store, b"refs/heads/side", None, tree_of(lib, "main"))


def test_a_stale_curator_branch_lock_stops_the_pass_naming_it(agent_repo: Path) -> None:
    r, now = str(agent_repo), "2027-06-01T00:00:00Z"
    lock = _aged(agent_repo / ".git" / "refs" / "heads" / "curator" / "20270601-000000.lock", 3)
    done = run_cli("run", "--now", now, "-C", r)
    assert done.code == 1, done
    assert f"the lock file {lock} is 3 minutes old and looks left by a killed process" in done.err
    assert f"`rm {lock}`" in done.err
    lock.unlink()
    again = run_cli("run", "--now", now, "-C", r)
    assert again.code == 0, again
    assert "curator/20270601-000000" in again.out


def test_a_stale_notes_lock_stops_the_flush_naming_it(repo: Path) -> None:
    r = str(repo)
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    assert run_cli("flush", "-C", r).code == 0
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    lock = _aged(repo / ".git" / "refs" / "notes" / "gitcurator.lock", 90)
    done = run_cli("flush", "-C", r)
    assert done.code == 1, done
    assert f"the lock file {lock} is 90 minutes old and looks left by a killed process" in done.err
    lock.unlink()
    assert run_cli("flush", "-C", r).code == 0


@pytest.mark.parametrize(
    ("lock_name", "minutes"),
    [("refs/heads/main.lock", 5), ("refs/heads/main.lock", 0), ("index.lock", 0)],
    ids=["stale-branch-lock", "fresh-branch-lock", "fresh-index-lock"],
)
def test_a_lock_on_the_checked_out_branch_stops_a_move_before_the_work_tree_moves(
    repo: Path, lock_name: str, minutes: float
) -> None:
    # A fresh one may be a SIGKILL's of seconds ago: "run it again" would meet it again, so
    # the lock is named with its fix whatever its age.
    r = str(repo)
    lock = _aged(repo / ".git" / lock_name, minutes)
    done = run_cli("archive", "pdf-extract", "-C", r)
    assert done.code == 1, done
    assert f"`rm {lock}`" in done.err
    assert git("status", "--porcelain", cwd=repo).stdout == ""
    lock.unlink()
    assert run_cli("archive", "pdf-extract", "-C", r).code == 0
    assert git("status", "--porcelain", cwd=repo).stdout == ""
