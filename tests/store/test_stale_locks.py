"""A `.lock` file left by a killed process beside a loose object or a ref: a loose object is
written whatever its lock (an old lock is cleared), a curator branch's lock makes the pass
take the next run id, anything else is reported naming the lock and the exact fix."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from support.repos import git, run_cli
from support.stores import tree_of

from gitcurator.store import Store, trees
from gitcurator.store.refs import move_ref

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


def _written(lib: Path, store: Store) -> None:
    tree = trees.edit_tree(store, tree_of(lib, "main"), files={"new.txt": DATA})
    listed = git("ls-tree", tree.decode(), "new.txt", cwd=lib).stdout
    assert git("cat-file", "-p", listed.split()[2], cwd=lib).stdout == DATA.decode()


def test_an_object_lock_older_than_ten_minutes_is_cleared(lib: Path, store: Store) -> None:
    lock = _aged(_object_lock(lib, DATA), 11)
    _written(lib, store)
    assert not lock.exists()


@pytest.mark.parametrize("minutes", [5, 0.05], ids=["minutes-old", "a-kill-seconds-ago"])
def test_a_younger_object_lock_does_not_stop_the_write_and_is_left_to_its_writer(
    lib: Path, store: Store, minutes: float
) -> None:
    # An object is named by its content: written through a temporary file of our own and
    # renamed into place, as git writes it, it needs no lock; a live writer's is untouched.
    lock = _aged(_object_lock(lib, DATA), minutes)
    _written(lib, store)
    assert lock.exists()
    obj = lock.with_suffix("")
    assert obj.stat().st_mode & 0o777 == 0o444
    assert not [p for p in obj.parent.iterdir() if p.name.startswith("tmp_obj_")]
    fsck = git("fsck", "--strict", "--no-dangling", cwd=lib, check=False)
    assert fsck.returncode == 0, fsck.stderr


def test_a_fresh_ref_lock_is_a_concurrent_writer(lib: Path, store: Store) -> None:
    _aged(lib / ".git" / "refs" / "heads" / "side.lock", 0)
    assert not move_ref(store, b"refs/heads/side", None, tree_of(lib, "main"))


def test_a_curator_branch_lock_left_by_a_killed_pass_makes_the_pass_take_the_next_id(
    agent_repo: Path,
) -> None:
    # "run again" would meet the same lock (the same run id) for as long as it stays.
    r, now = str(agent_repo), "2027-06-01T00:00:00Z"
    lock = _aged(agent_repo / ".git" / "refs" / "heads" / "curator" / "20270601-000000.lock", 0)
    done = run_cli("run", "--now", now, "--json", "-C", r)
    assert done.code == 0, done
    assert json.loads(done.out)["branch"] == "curator/20270601-000000-2"
    assert lock.exists()
    assert git("rev-parse", "--verify", "-q", "curator/20270601-000000-2", cwd=agent_repo).stdout


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
