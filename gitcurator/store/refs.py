"""Local refs: reading them, the one compare-and-swap every ref move goes through, and the
unconditional updates kept for mirrors of a remote."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from dulwich.file import FileLocked
from dulwich.objects import ObjectID
from dulwich.refs import Ref

from gitcurator.errors import CuratorError
from gitcurator.store.commits import signature_of
from gitcurator.store.stale_locks import STALE_LOCK_SECONDS, lock_age, lock_left

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


def ref_value(store: Store, ref: bytes) -> ObjectID | None:
    """A local ref's value (None if absent)."""
    try:
        return store.repo.refs[Ref(ref)]
    except KeyError:
        return None


def move_ref(
    store: Store, ref: bytes, old: ObjectID | None, new: ObjectID, reflog: str | None = None
) -> bool:
    """Compare-and-swap a local ref: set it to `new` only if it holds `old` (None: only if it
    does not exist yet); False if someone moved it (or, creating it, holds its lock); a lock
    on an existing ref, or an old one, is a LockLeft naming it. `reflog` is the message
    the ref's log records, by the store's identity (no log entry without one)."""
    refs = store.repo.refs
    who = signature_of(store).identity.as_bytes() if reflog is not None else None
    why = reflog.encode() if reflog is not None else None
    try:
        # dulwich treats old=None as "set unconditionally"; creation must not overwrite.
        if old is None:
            return bool(refs.add_if_new(Ref(ref), new, committer=who, message=why))
        return bool(refs.set_if_equals(Ref(ref), old, new, committer=who, message=why))
    except FileLocked as exc:
        if old is not None:
            # Moving an existing ref: "it moved, run again" would meet the same lock if a
            # killed process left it; the lock named with its fix is right either way.
            raise lock_left(exc) from None
        _raise_if_stale(exc)
        return False  # someone is creating this ref right now: as good as taken


def set_ref(store: Store, ref: bytes, new: ObjectID) -> None:
    """Set a local ref unconditionally (the side refs mirror the remote; they hold no work)."""
    try:
        store.repo.refs[Ref(ref)] = new
    except FileLocked as exc:
        _raise_if_stale(exc)
        raise CuratorError(
            f"{ref.decode()} is locked by another git process; run `gitcurator sync` again"
        ) from None


def _raise_if_stale(exc: FileLocked) -> None:
    """A ref lock older than a minute is no live git's: say so and how to clear it, rather
    than ask for a retry that would meet the same lock forever."""
    error = lock_left(exc)
    age = lock_age(error.lock)
    if age is not None and age >= STALE_LOCK_SECONDS:
        raise error from None


def delete_ref(store: Store, ref: bytes) -> None:
    """Remove a local ref if it exists (only mirrors of the remote are removed this way)."""
    with contextlib.suppress(KeyError, FileLocked):
        del store.repo.refs[Ref(ref)]


def local_refs(store: Store, prefix: bytes) -> dict[bytes, ObjectID]:
    """Local refs under `prefix` (full names) and their values."""
    return {
        prefix + name: sha
        for name, sha in store.repo.refs.as_dict(Ref(prefix.rstrip(b"/"))).items()
    }
