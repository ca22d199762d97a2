"""The locks of a clone: one flock helper, and the notes lock and the pass lock built on it.

An flock is dropped by the kernel when its holder exits, however it exits (kill -9 included),
so a lock left by a dead process is simply taken over; there is no stale-lock cleanup to get
wrong. Standard library only (plus gitcurator.errors, statefiles and timeutil, which are).

git's and dulwich's `<file>.lock` files are not flocks: whoever creates one must remove it.
The store notes each one this process creates and forgets it when it is released; the error
handler removes what is still noted when a command ends (an interrupt between the two).

The journal's own flocks (telemetry.journal) are a different mechanism and stay there.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from gitcurator.errors import CuratorError
from gitcurator.statefiles import NOTES_LOCK, PASS_LOCK, ensure_folder, open_regular
from gitcurator.timeutil import format_time, utc_now


class LockBusy(TimeoutError):
    """Another process still held the lock when the wait was over."""


@contextlib.contextmanager
def file_lock(
    path: Path, *, shared: bool = False, wait: float | None = None, poll: float = 0.02
) -> Iterator[int]:
    """Hold an flock on `path` (created, with its folder, if missing); yield its descriptor.

    `wait` None blocks until the lock is free; a number of seconds gives up after that long
    (0: one try) with LockBusy. The lock is released when the block ends. A symlink, folder
    or anything but a regular file at `path` is a StateFileError naming it and the fix.
    """
    ensure_folder(path.parent)
    # A shared lock needs no write access: a reader works on a lock file it may not write.
    fd = open_regular(path, (os.O_RDONLY if shared else os.O_RDWR) | os.O_CREAT)
    try:
        _acquire(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX, path, wait, poll)
        yield fd
    finally:
        os.close(fd)  # closing the last descriptor releases the flock


def _acquire(fd: int, kind: int, path: Path, wait: float | None, poll: float) -> None:
    if wait is None:
        fcntl.flock(fd, kind)
        return
    deadline = time.monotonic() + max(wait, 0)
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LockBusy(str(path)) from None
            time.sleep(min(poll, left))


# -- the notes lock ----------------------------------------------------------------------


@contextlib.contextmanager
def notes_lock(state: Path, *, shared: bool = False, timeout: float = 60.0) -> Iterator[None]:
    """The lock of the notes refs: exclusive for every writer (flush, pin, track, import,
    sync), shared for readers of notes + journal so they never see a flush half done.

    Raises LockBusy (a TimeoutError) after `timeout` seconds.
    """
    if shared and not (state / NOTES_LOCK).exists():
        # No writer has ever run here, so there is nothing to wait for; and a reader (a dry
        # run) must not create files.
        yield
        return
    with file_lock(state / NOTES_LOCK, shared=shared, wait=timeout):
        yield


# -- the pass lock -----------------------------------------------------------------------
# One curator pass at a time per clone. The holder writes its pid and start time into the
# lock file, only so that a pass which finds the lock taken can say who holds it. The lock is
# re-entrant within one thread: `maybe-run` holds it while it decides and records the
# schedule, and the pass it starts takes it again without blocking on itself.

_PASS_POLL_SECONDS = 0.1
_held = threading.local()


class PassBusy(CuratorError):
    """Another curator pass holds the pass lock of this clone."""

    def __init__(self, path: Path, pid: int | None, started_at: str | None) -> None:
        holder = f"pid {pid}" if pid else "pid unknown"
        holder += f", started {started_at}" if started_at else ""
        how = f"stop it (`kill {pid}`) if it is stuck" if pid else f"check who holds {path}"
        super().__init__(
            f"another curator pass is running ({holder}); wait for it to finish or {how}, "
            "then run this again"
        )
        self.holder = holder
        self.pid = pid
        self.started_at = started_at


@contextlib.contextmanager
def pass_lock(state_dir: Path, wait_seconds: float = 0) -> Iterator[None]:
    """Hold the pass lock of `state_dir`, waiting up to `wait_seconds` for another holder;
    raise PassBusy naming the holder if it is still held then."""
    path = state_dir / PASS_LOCK
    key = os.path.realpath(path)  # one file however the caller spelled its folder
    depth: dict[str, int] = _held.__dict__.setdefault("depth", {})
    if depth.get(key):
        depth[key] += 1
        try:
            yield
        finally:
            depth[key] -= 1
        return
    with contextlib.ExitStack() as stack:
        try:
            fd = stack.enter_context(file_lock(path, wait=wait_seconds, poll=_PASS_POLL_SECONDS))
        except LockBusy:
            pid, started = read_holder(path)
            raise PassBusy(path, pid, started) from None
        _write_holder(fd)
        depth[key] = 1
        try:
            yield
        finally:
            del depth[key]
            # Still locked here: nobody reads a half-cleared file as a live holder.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)


def _write_holder(fd: int) -> None:
    doc = {"pid": os.getpid(), "started_at": format_time(utc_now())}
    data = (json.dumps(doc) + "\n").encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)


def read_holder(path: Path) -> tuple[int | None, str | None]:
    """(pid, start time) the current holder wrote; Nones if unknown (it may be writing now)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        pid, started = doc.get("pid"), doc.get("started_at")
    except (OSError, ValueError, AttributeError):
        return None, None
    return (
        pid if isinstance(pid, int) and not isinstance(pid, bool) else None,
        started if isinstance(started, str) else None,
    )


# -- lock files this process created -------------------------------------------------------
# Noted with the inode they were created with: once a lock is renamed into place (released),
# its path may already hold another writer's new lock, which must be left alone. And with the
# thread that created it: a command ending in one thread (the MCP server, tests running the
# CLI in threads) must not take the locks another thread is writing through.

_own_lock_files: dict[str, tuple[int, int, int]] = {}


def claim_lock_file(path: str | bytes, fd: int) -> None:
    """Note that this thread created the lock file `path` (open as `fd`)."""
    info = os.fstat(fd)
    _own_lock_files[os.fsdecode(path)] = (info.st_dev, info.st_ino, threading.get_ident())


def release_lock_file(path: str | bytes) -> None:
    """Forget the lock file `path`: it was renamed into place or removed."""
    _own_lock_files.pop(os.fsdecode(path), None)


def own_lock_files() -> list[str]:
    """The lock files this thread created and has not released."""
    me = threading.get_ident()
    # dict.copy() runs in C under the GIL, so it cannot see another thread's insert half-way
    # (walking the dict itself raised "dictionary changed size during iteration" on the way
    # out of a command while the MCP server's threads wrote). No lock: a signal handler runs
    # this in the thread that may be inside claim_lock_file, and a lock would deadlock it.
    noted = _own_lock_files.copy()
    return sorted(path for path, (_, _, thread) in noted.items() if thread == me)


def remove_own_lock_files() -> list[str]:
    """Remove the lock files this thread created and did not release (only those still the
    very file it created); return the paths removed."""
    removed = []
    for path in own_lock_files():
        dev, ino, _ = _own_lock_files.pop(path, (0, 0, 0))
        with contextlib.suppress(OSError):
            info = os.lstat(path)
            if (info.st_dev, info.st_ino) == (dev, ino):
                os.unlink(path)
                removed.append(path)
    return removed
