"""One curator pass at a time per clone: an flock on `.git/gitcurator/pass.lock`.

The kernel drops an flock when its holder exits, however it exits (kill -9 included), so a
lock left by a dead pass is simply taken over; there is no stale-lock cleanup to get wrong.
The holder writes its pid and start time into the file, only so that a pass which finds the
lock taken can say who holds it.

The lock is re-entrant within one thread: `maybe-run` holds it while it decides and records
the schedule, and the pass it starts takes it again without blocking on itself.
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
from gitcurator.timeutil import format_time, utc_now

LOCK_FILE = "pass.lock"
_POLL_SECONDS = 0.1

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
    path = state_dir / LOCK_FILE
    key = os.path.realpath(path)  # one file however the caller spelled its folder
    depth: dict[str, int] = _held.__dict__.setdefault("depth", {})
    if depth.get(key):
        depth[key] += 1
        try:
            yield
        finally:
            depth[key] -= 1
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _acquire(fd, path, wait_seconds)
        _write_holder(fd)
        depth[key] = 1
        try:
            yield
        finally:
            del depth[key]
            # Still locked here: nobody reads a half-cleared file as a live holder.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing the last descriptor releases the flock


def _acquire(fd: int, path: Path, wait_seconds: float) -> None:
    deadline = time.monotonic() + max(wait_seconds, 0)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                pid, started = read_holder(path)
                raise PassBusy(path, pid, started) from None
            time.sleep(min(_POLL_SECONDS, max(deadline - time.monotonic(), 0)))


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
