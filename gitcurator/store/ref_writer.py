"""The notes ref's writer marked beside gitcurator's state while it moves the ref, so that a
`<ref>.lock` a killed writer left can be told from a live git's.

dulwich moves a ref through `<ref>.lock`; a gitcurator killed in that window (SIGKILL, the
OOM killer) leaves the lock, and every later flush, pass and sync refused to write until a
person removed it. The mark (`statefiles.REF_WRITER`: the writer's pid and the ref) is
written before the move and removed after it, always under the notes lock, so a lock found
with the mark of a process that is gone is that writer's and is removed. Any other lock (no
mark, another ref's mark, a live pid) may be a live git's, and move_ref reports it as before.
Every compare-and-swap of a notes ref goes through move_notes_ref.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from dulwich.objects import ObjectID

from gitcurator.statefiles import REF_WRITER, read_regular, write_cache
from gitcurator.store.refs import move_ref

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def move_notes_ref(store: Store, ref: bytes, old: ObjectID | None, new: ObjectID) -> bool:
    """refs.move_ref of a notes `ref` by a holder of the notes lock: first the lock a killed
    gitcurator left on it is removed, then this process is marked as its writer while it
    moves the ref (a mark that cannot be written only leaves a later lock to a person)."""
    mark = store.state_dir() / REF_WRITER
    lock = Path(store.repo.commondir(), *(ref.decode() + ".lock").split("/"))
    _clear_left_lock(mark, lock, ref)
    write_cache(mark, f"{os.getpid()} {ref.decode()}\n")
    try:
        return move_ref(store, ref, old, new)
    finally:
        with contextlib.suppress(OSError):
            mark.unlink()


def _clear_left_lock(mark: Path, lock: Path, ref: bytes) -> None:
    """Remove `lock` when `mark` names `ref` and a process that is gone, and the lock was
    made right after the mark: its writer was killed while dulwich held the lock (our own
    pid counts as alive). A mark outlives a writer killed outside that window, and a lock
    made later than it (a live git's) is not that writer's."""
    try:
        made = os.lstat(lock).st_mtime - os.lstat(mark).st_mtime
    except OSError:
        return  # no lock, or no mark
    if not -_SLACK <= made <= _SLACK:
        return
    pid = _writer(read_regular(mark, 4096), ref)
    if pid is None or _alive(pid):
        return
    with contextlib.suppress(FileNotFoundError):
        lock.unlink()


# Seconds between the mark and the lock its writer took: the two are made milliseconds apart
# (file systems with coarse times round both down).
_SLACK = 2.0


def _writer(text: bytes | None, ref: bytes) -> int | None:
    """The pid a mark names for `ref` (None for no mark, another ref's, or a damaged one)."""
    fields = (text or b"").split()
    if len(fields) != 2 or fields[1] != ref or not fields[0].isdigit():
        return None
    pid = int(fields[0])
    return pid if 0 < pid < 2**31 else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True
