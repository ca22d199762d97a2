"""Helpers for the tests of work done in forked children beside a command (forked.Beside)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

# What a command runs from without any cache of ours: the journal and the host stay.
_KEPT = {"host", "journal.jsonl", "segments"}


def drop_caches(repo: Path) -> None:
    """Every cache gitcurator keeps in `repo`'s .git/gitcurator (as a fresh clone has none)."""
    state = repo / ".git" / "gitcurator"
    for path in state.iterdir():
        if path.name not in _KEPT and not path.name.endswith(".lock"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def fails_in_a_child(parent: int, work: Callable[..., object]) -> Callable[..., object]:
    """`work`, raising when called in any process but `parent` (a child that fails)."""

    def in_child_fails(*args: object, **kwargs: object) -> object:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return work(*args, **kwargs)

    return in_child_fails


def logged(log: Path, work: Callable[..., object]) -> Callable[..., object]:
    """`work`, appending the calling process's pid to `log` first (a child's memory is its
    own: the file tells which process did the work)."""

    def logging(*args: object, **kwargs: object) -> object:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return work(*args, **kwargs)

    return logging


def failing_in_children(monkeypatch: pytest.MonkeyPatch, *targets: tuple[object, str]) -> None:
    """Each (owner, attribute) made to fail when a child calls it (fails_in_a_child)."""
    for owner, name in targets:
        monkeypatch.setattr(owner, name, fails_in_a_child(os.getpid(), getattr(owner, name)))
