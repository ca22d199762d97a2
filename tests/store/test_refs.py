"""store.refs: the one compare-and-swap every ref move goes through, and mirror updates."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.passes import commit
from support.stores import rev

from gitcurator.errors import CuratorError
from gitcurator.store import Store, refs

REF = b"refs/heads/side"


def test_a_ref_moves_only_from_the_value_the_caller_saw(lib: Path, store: Store) -> None:
    first = rev(lib, "HEAD")
    second = commit(lib, "second", allow_empty=True).encode()
    assert refs.move_ref(store, REF, None, first)
    assert not refs.move_ref(store, REF, None, second), "creation never overwrites"
    assert not refs.move_ref(store, REF, second, first), "a stale old value loses"
    assert refs.ref_value(store, REF) == first
    assert refs.move_ref(store, REF, first, second)
    assert refs.ref_value(store, REF) == second


def test_a_ref_another_git_process_holds_is_as_good_as_moved(lib: Path, store: Store) -> None:
    head = rev(lib, "HEAD")
    (lib / ".git" / "refs" / "heads" / "side.lock").write_text("")
    assert not refs.move_ref(store, REF, None, head)
    with pytest.raises(CuratorError, match="locked by another git process"):
        refs.set_ref(store, REF, head)
    refs.delete_ref(store, REF)  # nothing to delete, and locked: no error
    assert refs.ref_value(store, REF) is None


def test_a_reflog_entry_is_written_only_when_asked_for(lib: Path, store: Store) -> None:
    head = rev(lib, "HEAD")
    assert refs.move_ref(store, REF, None, head, reflog="gitcurator: make side")
    log = (lib / ".git" / "logs" / "refs" / "heads" / "side").read_text()
    assert "Test Author <author@example.com>" in log and log.endswith("gitcurator: make side\n")
    assert refs.move_ref(store, b"refs/heads/quiet", None, head)
    assert not (lib / ".git" / "logs" / "refs" / "heads" / "quiet").exists()


def test_mirrors_are_set_listed_and_deleted_unconditionally(lib: Path, store: Store) -> None:
    head = rev(lib, "HEAD")
    refs.set_ref(store, b"refs/mirror/a", head)
    refs.set_ref(store, b"refs/mirror/b/c", head)
    assert refs.local_refs(store, b"refs/mirror/") == {
        b"refs/mirror/a": head,
        b"refs/mirror/b/c": head,
    }
    refs.delete_ref(store, b"refs/mirror/a")
    assert refs.local_refs(store, b"refs/mirror/") == {b"refs/mirror/b/c": head}
