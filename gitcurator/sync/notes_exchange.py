"""The notes half of a sync: merge the remote's telemetry notes into the local ones.

Under the notes lock, so no flush, pin, import or other sync writes the notes refs meanwhile.
When one side already contains the other no commit is made (a sync with nothing new moves no
ref); when the histories diverged the result is one merge commit, local tip first, remote tip
second, so the next fetch of the remote is a fast-forward and `git log` of the notes ref shows
who synced when.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcurator.errors import CuratorError
from gitcurator.store import ObjectID, Store
from gitcurator.store.commits import commit_tree_of
from gitcurator.store.graph import is_ancestor
from gitcurator.store.notes import (
    FANOUT_THRESHOLD,
    NOTES_REF,
    NotesState,
    StoredEntries,
    is_hex_id,
    notes_folder,
    read_blobs,
    read_notes,
    write_notes,
)
from gitcurator.store.notes_diff import NotesDiff, notes_diff, notes_keys
from gitcurator.store.objects import TREE_MODE, object_kind
from gitcurator.store.ref_writer import move_notes_ref
from gitcurator.store.refs import ref_value, set_ref
from gitcurator.store.remote import Remote, RemoteError
from gitcurator.sync.notes_checks import (
    breaks_a_record,
    foreign_notes,
    lazy_keys,
    notes_changed,
)
from gitcurator.sync.notes_merge import MergedNotes, NotesSide, blobs_needed, merge_notes
from gitcurator.telemetry import ledger


@dataclass(frozen=True, slots=True)
class NotesStep:
    """What merging the remote's notes into the local ones did, and the tip to push."""

    tip: ObjectID | None  # the local notes tip after the merge
    merged: MergedNotes | None = None
    merge_commit: ObjectID | None = None
    updated_here: int = 0  # skill notes the remote changed here
    to_send: int = 0  # skill notes the remote gets from here


def check_notes_tip(store: Store, remote: Remote, tip: ObjectID | None) -> None:
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


def merge_into_local(store: Store, remote: Remote, remote_tip: ObjectID | None) -> NotesStep:
    """Merge the remote notes into the local ones, holding the notes lock so that no flush,
    pin, import or other sync writes the notes refs meanwhile. Returns the tip to push."""
    with ledger.notes_lock(store):
        if remote_tip is not None:
            set_ref(store, remote.side_ref, remote_tip)
        # A flush that died after its notes commit left a segment only its trailer marks as
        # folded: delete it now, before that commit leaves the first-parent line.
        ledger.drop_folded_segments(store)
        return _merge_locked(store, remote, remote_tip)


def _merge_locked(store: Store, remote: Remote, remote_tip: ObjectID | None) -> NotesStep:
    local_tip = ref_value(store, NOTES_REF)
    if remote_tip is None or remote_tip == local_tip:
        sent = len(read_notes(store).notes) if remote_tip is None and local_tip else 0
        return NotesStep(local_tip, to_send=sent)
    if local_tip is not None and is_ancestor(store, remote_tip, local_tip):
        # Our history already holds the remote's: push, no trees to read (0.5 s at 10k).
        return NotesStep(local_tip, to_send=len(notes_changed(store, remote_tip, local_tip)))
    fast_forward = local_tip is None or is_ancestor(store, local_tip, remote_tip)
    # The remote's keys, read once for both questions below (0.03 s each at 10,000 skills).
    remote_keys = lazy_keys(store, remote_tip)
    if fast_forward and not breaks_a_record(store, local_tip, remote_tip, remote_keys):
        # Fast-forward: the remote's history holds ours. Only its new notes are looked at,
        # for the ones plain `git notes` wrote.
        if not move_notes_ref(store, NOTES_REF, local_tip, remote_tip):
            raise CuratorError(f"{NOTES_REF.decode()} moved while syncing; run it again")
        ledger.forget_names(store)
        changed = notes_changed(store, local_tip, remote_tip)
        warnings = [w for w in foreign_notes(changed, remote_keys) if w]
        return NotesStep(
            remote_tip, MergedNotes({}, {}, {}, warnings=warnings), updated_here=len(changed)
        )
    # Only what differs from ours is read of theirs (one tree diff, not a walk of every
    # fan-out folder): merge_notes skips every entry the two sides hold alike anyway.
    differs = notes_diff(store, local_tip, remote_tip)
    if local_tip is not None and differs is not None and not differs.others:
        edited = _merge_by_edit(store, remote, local_tip, remote_tip, differs)
        if edited is not None:
            return edited
    local_state = read_notes(store) if local_tip is not None else NotesState(None)
    local_side = _side(local_state)
    if differs is None:
        remote_state = read_notes(store, remote.side_ref)
        if remote_state.commit != remote_tip:
            # What we push must contain what the remote has: never merge a stale mirror.
            raise CuratorError(f"{remote.side_ref.decode()} moved while syncing; run it again")
        remote_side = _side(remote_state)
        compared = set(local_side.notes) | set(remote_side.notes)
    else:
        remote_side = _differing_side(differs)
        compared = set(differs.notes)
    needed = blobs_needed(local_side, remote_side)
    blobs = read_blobs(store, [ObjectID(b.encode()) for b in sorted(needed)])
    merged = merge_notes(
        local_side,
        remote_side,
        {k.decode(): v for k, v in blobs.items()},
        ledger.encode_record,
    )
    theirs = remote_side.notes
    updated = sum(1 for a in compared if merged.notes.get(a) != local_side.notes.get(a))
    to_send = sum(1 for a in compared if merged.notes.get(a) not in (None, theirs.get(a)))
    # Diverged histories: one merge commit, local tip first (its first-parent line keeps the
    # Folded-Segment trailers a crashed flush is recognised by).
    parents = [local_tip, remote_tip]
    message = _merge_message(remote, updated, to_send)
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
    return NotesStep(commit, merged, commit, updated, to_send)


def _merge_by_edit(
    store: Store, remote: Remote, local_tip: ObjectID, remote_tip: ObjectID, differs: NotesDiff
) -> NotesStep | None:
    """The merge written as an edit of the local notes tree: ours is read only where the two
    sides differ (and our keys folder), not walked whole (0.3-0.8 s at 10,000 notes), and
    only the folders holding what changed are rewritten. None when the merge keeps a version
    aside under unreadable/: the whole-tree path writes that."""
    local_keys = {n: k.decode() for n, k in notes_keys(store, local_tip).items()}
    ours = {a: was.decode() for a, (was, _) in differs.notes.items() if was is not None}
    local_side = NotesSide(ours, local_keys)
    remote_side = _differing_side(differs)
    needed = blobs_needed(local_side, remote_side)
    blobs = read_blobs(store, [ObjectID(b.encode()) for b in sorted(needed)])
    merged = merge_notes(
        local_side, remote_side, {k.decode(): v for k, v in blobs.items()}, ledger.encode_record
    )
    if merged.others:
        return None
    added = sum(1 for a, (was, _) in differs.notes.items() if was is None and a in merged.notes)
    if _small_but_fanned_out(store, local_tip, added):
        return None  # a rebuild lays it out flat, as the whole-tree merge always did
    theirs = remote_side.notes
    updated = sum(1 for a in differs.notes if merged.notes.get(a) != ours.get(a))
    to_send = sum(1 for a in differs.notes if merged.notes.get(a) not in (None, theirs.get(a)))
    stored = StoredEntries(
        {a: ObjectID(b.encode()) for a, b in merged.notes.items() if ours.get(a) != b},
        {n: ObjectID(k.encode()) for n, k in merged.keys.items() if local_keys.get(n) != k},
    )
    commit = write_notes(
        store,
        NotesState(local_tip, complete=False),  # its tree edited, the ref swapped from it
        merged.written,
        _merge_message(remote, updated, to_send),
        parents=[local_tip, remote_tip],
        stored=stored,
    )
    ledger.forget_names(store)
    return NotesStep(commit, merged, commit, updated, to_send)


def _small_but_fanned_out(store: Store, tip: ObjectID, added: int) -> bool:
    """Whether the notes tree of `tip` is fanned out although, with `added` more notes, it
    holds no more than git's flat limit (plain `git notes` fans out at about 100): an edit
    keeps a fan-out, the canonical layout of so few notes is flat."""
    root = notes_folder(store, commit_tree_of(store, tip))
    count = added
    for name, mode, sha in root.iteritems():
        if mode == TREE_MODE and len(name) == 2 and is_hex_id(name):
            count += len(notes_folder(store, sha))
            if count > FANOUT_THRESHOLD:
                return False
    return any(m == TREE_MODE and len(n) == 2 and is_hex_id(n) for n, m, _ in root.iteritems())


def _merge_message(remote: Remote, updated: int, to_send: int) -> str:
    return (
        f"gitcurator: sync with {remote.shown}\n\n"
        f"{updated} skill notes updated from the remote, {to_send} sent to it.\n"
    )


def _differing_side(differs: NotesDiff) -> NotesSide:
    """The remote's side of the merge as far as it differs from ours: its version of each
    note, key and other entry the diff names (an entry it lacks is simply not there)."""
    return NotesSide(
        {a: b.decode() for a, (_, b) in differs.notes.items() if b is not None},
        {n: b.decode() for n, (_, b) in differs.keys.items() if b is not None},
        {p: (e[0], e[1].decode()) for p, (_, e) in differs.others.items() if e is not None},
    )


def _side(state: NotesState) -> NotesSide:
    return NotesSide(
        {a: b.decode() for a, b in state.notes.items()},
        {n: k.decode() for n, k in state.keys.items()},
        {p: (mode, b.decode()) for p, (mode, b) in state.others.items()},
    )
