"""What a sync checks of the notes a remote brings before taking them as they are: which
notes a history changes, whether a fast-forward would replace a readable record with one that
does not decode, and which new notes annotate no skill (plain `git notes` wrote them)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

from gitcurator.store import ObjectID, Store
from gitcurator.store.diff import changed_files
from gitcurator.store.notes import is_hex_id, read_blobs, read_notes
from gitcurator.store.notes_diff import notes_diff, notes_keys
from gitcurator.telemetry.records import check_doc


def notes_changed(store: Store, old: ObjectID | None, new: ObjectID) -> dict[str, ObjectID]:
    """Annotated id -> note blob of the notes added or changed from `old` to `new`."""
    found = {}
    for path, blob in changed_files(store, old, new):
        annotated = path.replace(b"/", b"")
        if len(annotated) == 40 and is_hex_id(annotated) and not path.startswith(b"skills/"):
            found[annotated.decode()] = blob
    return found


def lazy_keys(store: Store, tip: ObjectID) -> Callable[[], dict[str, ObjectID]]:
    """notes_keys of `tip`, read at the first call and kept for the next."""
    return functools.cache(lambda: notes_keys(store, tip))


def breaks_a_record(
    store: Store,
    local_tip: ObjectID | None,
    remote_tip: ObjectID,
    remote_keys: Callable[[], dict[str, ObjectID]],
) -> bool:
    """Would fast-forwarding replace a readable record here with one that does not decode
    (someone overwrote it with plain `git notes`)? Then the histories are merged instead,
    which keeps the readable version as the note and the other under unreadable/."""
    if local_tip is None:
        return False
    changed = _changed_notes(store, local_tip, remote_tip)
    if not changed:
        return False
    names = {k.decode(): n for n, k in remote_keys().items()}
    theirs = read_blobs(store, [new for a, (_, new) in changed.items() if a in names])
    for annotated, (ours, blob) in changed.items():
        name = names.get(annotated)
        if name is None or ours is None or _readable(name, theirs[blob]):
            continue
        if _readable(name, read_blobs(store, [ours])[ours]):
            return True
    return False


def _readable(name: str, data: bytes) -> bool:
    """Whether `data` decodes as a record of `name`: decode_record's checks, without building
    the record (a fast-forward asks it of every note the remote changed: 1,500 at 10,000)."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return not check_doc(doc, name)


def _changed_notes(
    store: Store, old: ObjectID, new: ObjectID
) -> dict[str, tuple[ObjectID | None, ObjectID]]:
    """Annotated id -> (our note blob or None, the new one) of the notes `new` adds or
    changes; from the tree diff, or from our notes read whole when the tree is odd."""
    differs = notes_diff(store, old, new)
    if differs is not None:
        return {a: (was, now) for a, (was, now) in differs.notes.items() if now is not None}
    ours = read_notes(store).notes
    return {a: (ours.get(a), blob) for a, blob in notes_changed(store, old, new).items()}


def foreign_notes(
    changed: dict[str, ObjectID], remote_keys: Callable[[], dict[str, ObjectID]]
) -> list[str]:
    """Warnings for new notes that annotate no skill's key (plain `git notes` wrote them)."""
    if not changed:
        return []
    keys = {k.decode() for k in remote_keys().values()}
    return [
        f"note on object {a} is not a gitcurator record (written by plain `git notes`?); "
        "skipped, and kept as it is"
        for a in sorted(changed)
        if a not in keys
    ]
