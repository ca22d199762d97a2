"""store.branches: advancing a branch with its work tree, and publishing a commit on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.passes import commit
from support.repos import git
from support.stores import ARCHIVE_BETA, rev, tree_of

from gitcurator.errors import StoreError
from gitcurator.store import Store, branches, trees


def test_advance_branch_moves_nothing_when_the_branch_moved_meanwhile(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = git("rev-parse", "HEAD", cwd=lib).stdout.strip().encode()
    os.system(f"cd '{lib}' && git checkout -q -b side && {ARCHIVE_BETA}")
    new = commit(lib, "archive", allow_empty=True).encode()
    git("checkout", "-q", "main", cwd=lib)
    other = commit(lib, "someone else", allow_empty=True).encode()  # main moved past `old`
    with pytest.raises(StoreError, match="moved"):
        branches.advance_branch(store, "main", old, new, "test")
    assert git("rev-parse", "main", cwd=lib).stdout.strip().encode() == other
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    # The ref moving between the work-tree update and the swap: the work tree goes back.
    real = store.repo.refs.set_if_equals
    monkeypatch.setattr(store.repo.refs, "set_if_equals", lambda *a, **k: False)
    with pytest.raises(StoreError, match="nothing was changed"):
        branches.advance_branch(store, "main", other, new, "test")
    monkeypatch.setattr(store.repo.refs, "set_if_equals", real)
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert (lib / "beta" / "SKILL.md").exists()


def _objects(lib: Path) -> str:
    return git("count-objects", "-v", cwd=lib).stdout


def test_publish_refuses_first_and_writes_nothing(lib: Path, store: Store) -> None:
    tip = rev(lib, "main")
    moved = trees.edit_tree(store, tree_of(lib, "main"), [("beta", ".archive/beta")])
    (lib / "beta" / "SKILL.md").write_text("a person's unsaved edit\n")
    before = _objects(lib)
    with pytest.raises(StoreError, match=r"cannot archive beta: .*\(beta/SKILL.md\)"):
        branches.publish(store, "main", tip, moved, "archive beta", message="m", within={"beta"})
    assert _objects(lib) == before and rev(lib, "main") == tip


def test_publish_commits_and_the_work_tree_follows(lib: Path, store: Store) -> None:
    tip = rev(lib, "main")
    moved = trees.edit_tree(store, tree_of(lib, "main"), [("beta", ".archive/beta")])
    together = []
    done = branches.publish(
        store,
        "main",
        tip,
        moved,
        "archive beta",
        message="archive\n",
        together=lambda: together.append(rev(lib, "main")),
    )
    assert done.checked_out and rev(lib, "main") == done.commit
    assert together == [done.commit], "the steps that belong with it ran after the move"
    assert git("log", "-1", "--format=%P %s", cwd=lib).stdout.strip() == f"{tip.decode()} archive"
    assert git("status", "--porcelain", cwd=lib).stdout == ""
    assert (lib / ".archive" / "beta" / "SKILL.md").exists() and not (lib / "beta").exists()
    log = (lib / ".git" / "logs" / "refs" / "heads" / "main").read_text()
    assert log.rstrip().endswith("gitcurator: archive beta")


def test_publish_fast_forwards_a_branch_that_is_not_checked_out(lib: Path, store: Store) -> None:
    start = rev(lib, "main")
    assert branches.create_branch(store, "curator/r1", start)
    assert not branches.create_branch(store, "curator/r1", start), "never overwritten"
    git("checkout", "-q", "-b", "person", cwd=lib)
    (lib / "alpha" / "SKILL.md").write_text("edited on person\n")
    ahead = commit(lib, "person's edit").encode()
    done = branches.publish(
        store, "curator/r1", start, tree_of(lib, "person"), "fast-forward", fast_forward=ahead
    )
    assert done == branches.Published(ahead, checked_out=False)
    assert rev(lib, "curator/r1") == ahead
    assert branches.branch_names(store, "curator/") == ["curator/r1"]


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
def test_a_branch_in_the_way_of_a_new_one_is_named_and_nothing_is_created(
    lib: Path, store: Store, packed: bool
) -> None:
    # A person's branch `curator` (or `update`): git keeps no `curator/x` beside it. Loose,
    # dulwich raised NotADirectoryError (exit 3); packed, it made `curator/x` beside it, a
    # pair git refuses to make and cannot keep together in packed-refs and the reflogs.
    main = rev(lib, "main")
    git("branch", "curator", cwd=lib)
    git("branch", "mine/x/y", cwd=lib)
    if packed:
        git("pack-refs", "--all", cwd=lib)
    for name, blocker in [("curator/20300101-000000", "curator"), ("mine/x", "mine/x/y")]:
        with pytest.raises(StoreError, match=f"branch {blocker} ") as raised:
            branches.create_branch(store, name, main)
        assert "git branch -m" in str(raised.value)
        shown = git("for-each-ref", "--format=%(refname)", cwd=lib).stdout.split()
        assert f"refs/heads/{name}" not in shown
    assert branches.create_branch(store, "mine/z", main)
