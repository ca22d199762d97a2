"""`sync`: one session with a git remote, in rounds, until the notes push goes through.

One round: fetch the remote's notes (into a side ref) and curator branches, merge the notes
into the local ones (sync.notes_exchange), push the result and the branches the remote lacks
(sync.branch_exchange) by compare-and-swap. If someone pushed in between, the push is refused
and the round starts again, up to MAX_TRIES; the local notes only ever grow, so giving up
loses nothing. Until the first fetch succeeded nothing local changes, which is what an
unreachable remote or bad credentials leave behind.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gitcurator.errors import CuratorError
from gitcurator.store import ObjectID, Store
from gitcurator.store.kept_objects import objects_kept
from gitcurator.store.notes import NOTES_REF
from gitcurator.store.refs import ref_value, set_ref
from gitcurator.store.remote import Remote, RemoteError, resolve_remote
from gitcurator.store.transport import Connection
from gitcurator.sync.branch_exchange import (
    BRANCHES,
    blocked_pushes,
    branch_pushes,
    fetch_branches,
    remember_branches,
    seen_branches,
)
from gitcurator.sync.notes_exchange import NotesStep, check_notes_tip, merge_into_local
from gitcurator.sync.skills_repo import DEFAULT_BRANCHES, check_local, check_remote
from gitcurator.telemetry import ledger

MAX_TRIES = 5


@dataclass(slots=True)
class SyncResult:
    """What one sync did, for people and for --json."""

    remote: str
    url: str
    local_before: str | None = None
    local_after: str | None = None
    remote_before: str | None = None
    remote_after: str | None = None
    records_updated: int = 0  # skill notes changed here by what the remote had
    records_sent: int = 0  # skill notes the remote gets from here
    merge_commit: str | None = None
    events_flushed: int = 0
    tries: int = 0
    branches_fetched: list[str] = field(default_factory=list)
    branches_pushed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    bytes_received: int = 0
    objects_sent: int = 0

    @property
    def notes_pushed(self) -> bool:
        return self.remote_after != self.remote_before

    @property
    def notes_fetched(self) -> bool:
        return self.local_after != self.local_before

    def to_json(self) -> dict[str, Any]:
        return {
            "remote": self.remote,
            "url": self.url,
            "notes": {
                "local_before": self.local_before,
                "local_after": self.local_after,
                "remote_before": self.remote_before,
                "remote_after": self.remote_after,
                "fetched": self.notes_fetched,
                "pushed": self.notes_pushed,
                "merge_commit": self.merge_commit,
            },
            "records_updated": self.records_updated,
            "records_sent": self.records_sent,
            "events_flushed": self.events_flushed,
            "tries": self.tries,
            "branches_fetched": self.branches_fetched,
            "branches_pushed": self.branches_pushed,
            "bytes_received": self.bytes_received,
            "objects_sent": self.objects_sent,
            "warnings": self.warnings,
        }


class RemoteKeptMoving(CuratorError):
    """Every try's push found that someone else had pushed first."""


def _wanted(ref: bytes) -> bool:
    return ref == NOTES_REF or ref.startswith(BRANCHES)


def sync(
    store: Store,
    spec: str,
    *,
    progress: Callable[[bytes], None] | None = None,
    tries: int = MAX_TRIES,
    sleep: Callable[[float], None] = time.sleep,
    force: bool = False,
) -> SyncResult:
    """Sync the notes and curator branches with the remote `spec` (a name, URL or path);
    either side not being a skills repository is refused unless `force`."""
    remote = resolve_remote(store, spec)
    if not force:
        check_local(store)
    result = SyncResult(remote.name, remote.location)
    connection = Connection(store, remote, progress)
    # The notes trees and records are read by a diff or the merge, then again by the push.
    with objects_kept(store.repo.object_store):
        try:
            _exchange(store, remote, connection, result, tries, sleep, force)
        finally:
            connection.close()
    result.local_after = _hex(ref_value(store, NOTES_REF))
    return result


def _exchange(
    store: Store,
    remote: Remote,
    connection: Connection,
    result: SyncResult,
    tries: int,
    sleep: Callable[[float], None],
    force: bool,
) -> None:
    """sync's exchange over an open connection, counted into `result`."""
    # Fetch before anything else: an unreachable remote must leave everything as it was.
    # The remote's default branch comes too when it shows nothing of gitcurator's: its
    # tree tells whether it is a skills repository at all.
    fetched = connection.fetch(_wanted, () if force else DEFAULT_BRANCHES)
    if not force:
        check_remote(store, remote, fetched.refs)
    result.bytes_received += fetched.pack_bytes
    flushed = ledger.flush(store)
    result.events_flushed = flushed.events
    result.warnings += flushed.warnings
    result.local_before = _hex(ref_value(store, NOTES_REF))
    result.remote_before = _hex(fetched.refs.get(NOTES_REF))
    seen = seen_branches(store, remote)
    pushed_branches: set[bytes] = set()
    last_refusal = "the remote moved since it was fetched"
    for attempt in range(1, tries + 1):
        result.tries = attempt
        if attempt > 1:
            # Jitter, so clones that collided do not collide again in step.
            sleep(random.uniform(0.05, 0.25) * attempt)
            fetched = connection.fetch(_wanted)
            result.bytes_received += fetched.pack_bytes
        remote_tip = fetched.refs.get(NOTES_REF)
        check_notes_tip(store, remote, remote_tip)
        step = merge_into_local(store, remote, remote_tip)
        _note_merge(result, step)
        updates = branch_pushes(store, fetched.refs, seen)
        if attempt == 1:
            result.warnings += blocked_pushes(store, fetched.refs, seen, remote.shown)
        if step.tip is not None and step.tip != remote_tip:
            updates[NOTES_REF] = (remote_tip, step.tip)
        if not updates:
            result.remote_after = _hex(remote_tip)
            break
        pushed = connection.push(updates)
        result.objects_sent += pushed.objects
        pushed_branches |= {r for r in pushed.updated if r != NOTES_REF}
        result.branches_pushed += sorted(
            r[len(b"refs/heads/") :].decode() for r in pushed.updated if r != NOTES_REF
        )
        for ref, why in sorted(pushed.refused.items()):
            if ref != NOTES_REF:
                result.warnings.append(f"{ref.decode()} was not pushed: {why}")
        if NOTES_REF not in updates:
            result.remote_after = _hex(remote_tip)
            break
        if NOTES_REF in pushed.refused and NOTES_REF not in pushed.moved:
            raise RemoteError(
                f"remote {remote.shown} refused {NOTES_REF.decode()}: "
                f"{pushed.refused[NOTES_REF]}; your notes hold everything merged so far "
                "(nothing was lost)"
            )
        last_refusal = pushed.refused.get(NOTES_REF, last_refusal)
        if NOTES_REF in pushed.updated:
            assert step.tip is not None
            with ledger.notes_lock(store):
                set_ref(store, remote.side_ref, step.tip)
            result.remote_after = step.tip.decode()
            result.records_sent = step.to_send
            break
    else:
        raise RemoteKeptMoving(
            f"remote {remote.shown} kept moving: the push of the notes was refused on each "
            f"of {tries} tries (last: {last_refusal}); your notes hold everything merged "
            "so far (nothing was lost). Run `gitcurator sync` again in a moment"
        )
    created, warnings = fetch_branches(store, fetched.refs, seen, result.remote)
    result.branches_fetched = created
    result.warnings += warnings
    remember_branches(store, remote, fetched.refs, seen, pushed_branches)


def _note_merge(result: SyncResult, step: NotesStep) -> None:
    # A retry merges again; count what this clone took from the remote across tries.
    result.records_updated += step.updated_here
    if step.merge_commit is not None:
        result.merge_commit = step.merge_commit.decode()
    for warning in step.merged.warnings if step.merged else []:
        if warning not in result.warnings:
            result.warnings.append(warning)


def _hex(sha: ObjectID | None) -> str | None:
    return sha.decode() if sha is not None else None
