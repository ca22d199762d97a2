"""`sync`: exchange the telemetry notes and curator branches with a git remote, merging counters.

One round: fetch the remote's notes (into a side ref) and curator branches, merge the notes
into the local ones under the notes lock, push the result by compare-and-swap. If someone
pushed in between, the push is refused and the round starts again, up to MAX_TRIES; the local
notes only ever grow, so giving up loses nothing. Until the first fetch succeeded nothing local
changes, which is what an unreachable remote or bad credentials leave behind.

History: when the histories diverged the result is a merge commit (local tip first, remote
tip second), so the next fetch of the remote is a fast-forward and `git log` of the notes ref
shows who synced when. When one side already contains the other, no commit is made at all: a
sync with nothing new moves no ref, here or there.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gitcurator.audit.passes import BRANCH_PREFIX
from gitcurator.errors import CuratorError
from gitcurator.store import ObjectID, Store
from gitcurator.store.diff import changed_files
from gitcurator.store.graph import is_ancestor
from gitcurator.store.notes import (
    NOTES_REF,
    NotesState,
    is_hex_id,
    read_blobs,
    read_notes,
    write_notes,
)
from gitcurator.store.objects import object_kind
from gitcurator.store.refs import delete_ref, local_refs, move_ref, ref_value, set_ref
from gitcurator.store.remote import Remote, RemoteError, resolve_remote
from gitcurator.store.transport import Connection
from gitcurator.sync.notes_merge import MergedNotes, NotesSide, blobs_needed, merge_notes
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import decode_record

MAX_TRIES = 5
BRANCHES = b"refs/heads/" + BRANCH_PREFIX.encode()


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


@dataclass(frozen=True, slots=True)
class _Step:
    tip: ObjectID | None  # the local notes tip after the merge
    merged: MergedNotes | None = None
    merge_commit: ObjectID | None = None
    updated_here: int = 0  # skill notes the remote changed here
    to_send: int = 0  # skill notes the remote gets from here


def _wanted(ref: bytes) -> bool:
    return ref == NOTES_REF or ref.startswith(BRANCHES)


def sync(
    store: Store,
    spec: str,
    *,
    progress: Callable[[bytes], None] | None = None,
    tries: int = MAX_TRIES,
    sleep: Callable[[float], None] = time.sleep,
) -> SyncResult:
    """Sync the notes and curator branches with the remote `spec` (a name, URL or path)."""
    remote = resolve_remote(store, spec)
    result = SyncResult(remote.name, remote.location)
    connection = Connection(store, remote, progress)
    try:
        # Fetch before anything else: an unreachable remote must leave everything as it was.
        fetched = connection.fetch(_wanted)
        result.bytes_received += fetched.pack_bytes
        flushed = ledger.flush(store)
        result.events_flushed = flushed.events
        result.warnings += flushed.warnings
        result.local_before = _hex(ref_value(store, NOTES_REF))
        result.remote_before = _hex(fetched.refs.get(NOTES_REF))
        seen = _seen_branches(store, remote)
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
            _check_notes_tip(store, remote, remote_tip)
            step = _merge_into_local(store, remote, remote_tip)
            _note_merge(result, step)
            updates = _branch_pushes(store, fetched.refs, seen)
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
        result.branches_fetched = _fetch_branches(store, fetched.refs, seen, result)
        # Remember the remote's branches this clone has or had: one that could not be
        # created here (locked) stays new, so the next sync fetches it.
        there = {
            r: v
            for r, v in fetched.refs.items()
            if r.startswith(BRANCHES) and (r in seen or ref_value(store, r) is not None)
        }
        there.update({r: local_refs(store, BRANCHES)[r] for r in pushed_branches})
        _remember_branches(store, remote, there)
    finally:
        connection.close()
    result.local_after = _hex(ref_value(store, NOTES_REF))
    return result


def _check_notes_tip(store: Store, remote: Remote, tip: ObjectID | None) -> None:
    """The remote's notes ref must point at a commit; anything else is refused before any
    ref here moves."""
    if tip is None:
        return
    kind = object_kind(store, tip)
    if kind != "commit":
        raise RemoteError(
            f"remote {remote.shown}: {NOTES_REF.decode()} points at a {kind} "
            f"({tip.decode()[:12]}), not a notes commit; nothing was changed here. Repair "
            "the remote's ref (see `git log` of it in a clone that still has it)"
        )


def _merge_into_local(store: Store, remote: Remote, remote_tip: ObjectID | None) -> _Step:
    """Merge the remote notes into the local ones, holding the notes lock so that no flush,
    pin, import or other sync writes the notes refs meanwhile. Returns the tip to push."""
    with ledger.notes_lock(store):
        if remote_tip is not None:
            set_ref(store, remote.side_ref, remote_tip)
        # A flush that died after its notes commit left a segment only its trailer marks as
        # folded: delete it now, before that commit leaves the first-parent line.
        ledger.drop_folded_segments(store, ledger.state_of(store))
        return _merge_locked(store, remote, remote_tip)


def _merge_locked(store: Store, remote: Remote, remote_tip: ObjectID | None) -> _Step:
    local_tip = ref_value(store, NOTES_REF)
    if remote_tip is None or remote_tip == local_tip:
        sent = len(read_notes(store).notes) if remote_tip is None and local_tip else 0
        return _Step(local_tip, to_send=sent)
    if local_tip is not None and is_ancestor(store, remote_tip, local_tip):
        # Our history already holds the remote's: push, no trees to read (0.5 s at 10k).
        return _Step(local_tip, to_send=len(_notes_changed(store, remote_tip, local_tip)))
    fast_forward = local_tip is None or is_ancestor(store, local_tip, remote_tip)
    if fast_forward and not _breaks_a_record(store, remote, local_tip, remote_tip):
        # Fast-forward: the remote's history holds ours. Only its new notes are looked at,
        # for the ones plain `git notes` wrote.
        if not move_ref(store, NOTES_REF, local_tip, remote_tip):
            raise CuratorError(f"{NOTES_REF.decode()} moved while syncing; run it again")
        ledger.forget_names(store)
        changed = _notes_changed(store, local_tip, remote_tip)
        warnings = [w for w in _foreign(store, remote, changed) if w]
        return _Step(
            remote_tip, MergedNotes({}, {}, {}, warnings=warnings), updated_here=len(changed)
        )
    local_state = read_notes(store) if local_tip is not None else NotesState(None)
    remote_state = read_notes(store, remote.side_ref)
    if remote_state.commit != remote_tip:
        # What we push must contain what the remote has: never merge a stale mirror.
        raise CuratorError(f"{remote.side_ref.decode()} moved while syncing; run it again")
    local_side, remote_side = _side(local_state), _side(remote_state)
    needed = blobs_needed(local_side, remote_side)
    blobs = read_blobs(store, [ObjectID(b.encode()) for b in sorted(needed)])
    merged = merge_notes(
        local_side,
        remote_side,
        {k.decode(): v for k, v in blobs.items()},
        ledger.encode_record,
    )
    updated = len(merged.changed_from(local_side))
    to_send = len(merged.changed_from(remote_side))
    # Diverged histories: one merge commit, local tip first (its first-parent line keeps the
    # Folded-Segment trailers a crashed flush is recognised by).
    parents = [local_tip, remote_tip]
    message = (
        f"gitcurator: sync with {remote.shown}\n\n"
        f"{updated} skill notes updated from the remote, {to_send} sent to it.\n"
    )
    state = NotesState(
        local_tip,
        {a: ObjectID(b.encode()) for a, b in merged.notes.items()},
        {n: ObjectID(k.encode()) for n, k in merged.keys.items()},
        {p: (mode, ObjectID(b.encode())) for p, (mode, b) in merged.others.items()},
    )
    commit = write_notes(
        store,
        state,
        merged.written,
        message,
        parents=[p for p in parents if p is not None],
    )
    ledger.forget_names(store)
    return _Step(commit, merged, commit, updated, to_send)


def _notes_changed(store: Store, old: ObjectID | None, new: ObjectID) -> dict[str, ObjectID]:
    """Annotated id -> note blob of the notes added or changed from `old` to `new`."""
    found = {}
    for path, blob in changed_files(store, old, new):
        annotated = path.replace(b"/", b"")
        if len(annotated) == 40 and is_hex_id(annotated) and not path.startswith(b"skills/"):
            found[annotated.decode()] = blob
    return found


def _breaks_a_record(
    store: Store, remote: Remote, local_tip: ObjectID | None, remote_tip: ObjectID
) -> bool:
    """Would fast-forwarding replace a readable record here with one that does not decode
    (someone overwrote it with plain `git notes`)? Then the histories are merged instead,
    which keeps the readable version as the note and the other under unreadable/."""
    if local_tip is None:
        return False
    changed = _notes_changed(store, local_tip, remote_tip)
    if not changed:
        return False
    local = read_notes(store)
    names = {k.decode(): n for n, k in read_notes(store, remote.side_ref).keys.items()}
    theirs = read_blobs(store, [b for a, b in changed.items() if a in names])
    for annotated, blob in changed.items():
        name, ours = names.get(annotated), local.notes.get(annotated)
        if name is None or ours is None or not isinstance(decode_record(name, theirs[blob]), str):
            continue
        if not isinstance(decode_record(name, read_blobs(store, [ours])[ours]), str):
            return True
    return False


def _foreign(store: Store, remote: Remote, changed: dict[str, ObjectID]) -> list[str]:
    """Warnings for new notes that annotate no skill's key (plain `git notes` wrote them)."""
    if not changed:
        return []
    keys = {k.decode() for k in read_notes(store, remote.side_ref).keys.values()}
    return [
        f"note on object {a} is not a gitcurator record (written by plain `git notes`?); "
        "skipped, and kept as it is"
        for a in sorted(changed)
        if a not in keys
    ]


def _side(state: NotesState) -> NotesSide:
    return NotesSide(
        {a: b.decode() for a, b in state.notes.items()},
        {n: k.decode() for n, k in state.keys.items()},
        {p: (mode, b.decode()) for p, (mode, b) in state.others.items()},
    )


def _note_merge(result: SyncResult, step: _Step) -> None:
    # A retry merges again; count what this clone took from the remote across tries.
    result.records_updated += step.updated_here
    if step.merge_commit is not None:
        result.merge_commit = step.merge_commit.decode()
    for warning in step.merged.warnings if step.merged else []:
        if warning not in result.warnings:
            result.warnings.append(warning)


def _seen_branches(store: Store, remote: Remote) -> set[bytes]:
    """The curator branches (full ref names) the remote had at the last sync."""
    mirror = remote.branch_mirror
    return {b"refs/heads/" + r[len(mirror) :] for r in local_refs(store, mirror)}


def _remember_branches(store: Store, remote: Remote, there: dict[bytes, ObjectID]) -> None:
    """Mirror the remote's curator branches as they are now (see Remote.branch_mirror)."""
    mirror = remote.branch_mirror
    wanted = {mirror + r[len(b"refs/heads/") :]: sha for r, sha in there.items()}
    here = {mirror + r[len(b"refs/heads/") :] for r in local_refs(store, BRANCHES)}
    # A branch gone from the remote is forgotten only once it is gone here too; until then
    # the memory keeps it from being pushed back.
    for ref in set(local_refs(store, mirror)) - set(wanted) - here:
        delete_ref(store, ref)
    for ref, sha in wanted.items():
        if ref_value(store, ref) != sha:
            with contextlib.suppress(CuratorError):  # only a memory; the next sync retries
                set_ref(store, ref, sha)


def _branch_pushes(
    store: Store, remote_refs: dict[bytes, ObjectID], seen: set[bytes]
) -> dict[bytes, tuple[ObjectID | None, ObjectID]]:
    """Local curator branches the remote lacks and never had (a pass to review as a pull
    request); one the remote had and deleted (merged there, or dropped) is not sent back."""
    return {
        ref: (None, sha)
        for ref, sha in local_refs(store, BRANCHES).items()
        if ref not in remote_refs and ref not in seen
    }


def _fetch_branches(
    store: Store, remote_refs: dict[bytes, ObjectID], seen: set[bytes], result: SyncResult
) -> list[str]:
    """Create the remote's curator branches that are new to this clone; never move an
    existing one, and never bring back one deleted here since the last sync."""
    created = []
    for ref, sha in sorted(remote_refs.items()):
        if not ref.startswith(BRANCHES):
            continue
        name = ref[len(b"refs/heads/") :].decode()
        mine = ref_value(store, ref)
        if mine is None:
            if ref in seen:
                continue  # deleted here after the last sync: the person's decision stands
            if move_ref(store, ref, None, sha):
                created.append(name)
            else:
                result.warnings.append(
                    f"{name} could not be created here (another process holds its lock); "
                    "sync again to fetch it"
                )
        elif mine != sha:
            result.warnings.append(
                f"{name} differs here and on remote {result.remote}; neither was changed "
                "(compare the two with git)"
            )
    return created


def _hex(sha: ObjectID | None) -> str | None:
    return sha.decode() if sha is not None else None
