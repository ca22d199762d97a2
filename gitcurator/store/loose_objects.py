"""Loose objects written as git writes them: into a temporary file of the writer's own, then
renamed into place, never through `<object>.lock`.

dulwich takes `objects/xx/<id>.lock` with O_EXCL, and a process killed while it held one
(SIGKILL, the OOM killer, a power cut) left every later writer of that object failing until
the lock was ten minutes old (store/stale_locks). An object is named by its content, so two
writers of it write the same bytes and either rename may land: no lock is needed, and a live
writer's own lock is left alone.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from dulwich.object_store import DiskObjectStore
from dulwich.objects import ShaFile

from gitcurator.store.stale_locks import OBJECT_LOCK_CLEAR_SECONDS, lock_age

_READ_ONLY = 0o444  # as git and dulwich leave an object file


def install(object_store: Any) -> None:
    """Make `object_store`'s add_object write loose objects so (a store that is not a plain
    folder on disk, or one shared between users, keeps dulwich's own)."""
    if type(object_store) is not DiskObjectStore or object_store.shared_perm:
        return
    object_store.add_object = lambda obj: add_loose(object_store, obj)  # type: ignore[method-assign]


def add_loose(object_store: DiskObjectStore, obj: ShaFile) -> None:
    """Write `obj` as a loose object unless it is there (then its mtime is freshened, as
    dulwich does, so a concurrent `git gc` does not prune it before a ref holds it); a
    folder that takes no file (read-only, a file or a dangling link in its place, a full
    disk) is a StoreError naming it."""
    path = object_store._get_shafile_path(obj.id)
    try:
        _write(object_store, obj, path)
    except OSError as exc:
        from gitcurator.store.pack_writer import unwritable  # an error's import

        raise unwritable(os.path.dirname(path), exc) from None


def _write(object_store: DiskObjectStore, obj: ShaFile, path: str) -> None:
    folder = os.path.dirname(path)
    try:
        os.utime(path, None)
        return
    except (FileNotFoundError, PermissionError):
        pass  # not there, or another user's: written below (which gives it a fresh mtime)
    os.makedirs(folder, exist_ok=True)
    _tidy_old_lock(path + ".lock")
    data = obj.as_legacy_object(compression_level=object_store.loose_compression_level)
    fd, temporary = tempfile.mkstemp(prefix="tmp_obj_", dir=folder)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            if object_store.fsync_object_files:
                os.fsync(file.fileno())
        os.chmod(temporary, _READ_ONLY)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _tidy_old_lock(lock: str) -> None:
    """A lock on this object older than any live writer's is a killed one's: removed, as git
    prunes its stale temporary objects (a younger one is left to its writer)."""
    age = lock_age(Path(lock))
    if age is not None and age >= OBJECT_LOCK_CLEAR_SECONDS:
        with contextlib.suppress(OSError):
            os.unlink(lock)
