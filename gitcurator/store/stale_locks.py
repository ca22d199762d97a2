"""Lock files beside what git and dulwich write (`<file>.lock`): one left by a killed process
is recognised and reported with the exact fix, or, for a loose object, cleared (loose objects
are written without their lock since store/loose_objects: this guards the other writers).

Git takes `<file>.lock` with O_EXCL before it writes a ref, the index or a loose object, and
renames it into place; a process killed in between leaves the lock, and every later writer of
that file fails with FileLocked. A loose object is written in milliseconds and its content is
named by its id, so a lock on one older than OBJECT_LOCK_CLEAR_SECONDS belongs to no live
writer and is removed; any other lock is only reported, since it may guard a live `git`.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from dulwich.file import FileLocked

from gitcurator.errors import StoreError

STALE_LOCK_SECONDS = 60.0  # older than this, a lock looks left by a killed process
OBJECT_LOCK_CLEAR_SECONDS = 600.0  # older than this, a loose object's lock is removed

_LOOSE_OBJECT = re.compile(r"(^|/)objects/[0-9a-f]{2}/[0-9a-f]{38,62}\.lock$")

P = ParamSpec("P")
T = TypeVar("T")


class LockLeft(StoreError):
    """A `.lock` file keeps gitcurator from writing a ref, the index or an object."""

    def __init__(self, lock: Path, age: float | None) -> None:
        if age is not None and age >= STALE_LOCK_SECONDS:
            what = f"is {_duration(age)} old and looks left by a killed process"
        else:
            what = "is held by another process writing the repository"
        super().__init__(
            f"the lock file {lock} {what}; check that no git or gitcurator command is "
            f"running, then remove it (`rm {lock}`) and run this again"
        )
        self.lock = lock


def lock_left(exc: FileLocked) -> LockLeft:
    """The error for dulwich's FileLocked: the lock file named, its age and the fix."""
    lock = _lock_path(exc)
    return LockLeft(lock, lock_age(lock))


def refuse_if_locked(path: Path) -> None:
    """LockLeft if `path.lock` exists: for a write that must not start at all (the work tree
    moving with the index) when its last step, writing `path`, would meet the lock."""
    lock = path.with_name(path.name + ".lock")
    age = lock_age(lock)
    if age is not None:
        raise LockLeft(lock, age)


def lock_age(lock: Path) -> float | None:
    """Seconds since `lock` was last written (None if it is gone)."""
    try:
        return max(0.0, time.time() - os.lstat(lock).st_mtime)
    except OSError:
        return None


def clears_stale_object_locks(write: Callable[P, T]) -> Callable[P, T]:
    """Wrap `write`, a function whose object writes are idempotent: a loose object's lock
    older than OBJECT_LOCK_CLEAR_SECONDS is removed and `write` runs once more; any other
    lock (or a second one) is a LockLeft naming it."""

    @functools.wraps(write)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return write(*args, **kwargs)
        except FileLocked as exc:
            if not _cleared(_lock_path(exc)):
                raise lock_left(exc) from None
        try:
            return write(*args, **kwargs)
        except FileLocked as exc:
            raise lock_left(exc) from None

    return guarded


def _cleared(lock: Path) -> bool:
    age = lock_age(lock)
    if not _LOOSE_OBJECT.search(lock.as_posix()):
        return False
    if age is None:
        return True  # gone meanwhile: its writer finished
    if age < OBJECT_LOCK_CLEAR_SECONDS:
        return False
    try:
        lock.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def _lock_path(exc: FileLocked) -> Path:
    return Path(os.fsdecode(exc.lockfilename))


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{int(seconds)} seconds"
    if seconds < 7200:
        return f"{int(seconds // 60)} minutes"
    return f"{int(seconds // 3600)} hours"
