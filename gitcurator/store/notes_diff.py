"""What differs between two versions of the telemetry notes, read from one tree diff.

`read_notes` walks every fan-out folder of a notes tree (0.8 s at 10,000 notes); a sync needs
only the entries the two sides disagree on, which the tree diff (store.diff) finds at the
cost of what changed. Each changed path is classified as read_notes classifies it: a note
(fan-out parts of hex that join to 40 hex digits), a key under `skills/`, or another entry
(`unreadable/...`, files git or a person put there). A path read_notes would read otherwise
(a tree where a note or a key should be) makes `notes_diff` return None: the caller then
reads both versions whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dulwich.objects import Commit, ObjectID, Tree, parse_tree

from gitcurator.errors import StoreError
from gitcurator.store.commits import commit_tree_of
from gitcurator.store.diff import diff_trees
from gitcurator.store.notes import KEYS_DIR, is_hex_id, notes_folder
from gitcurator.store.objects import TREE_MODE
from gitcurator.store.paths import git_path, text_path

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

Change = tuple[ObjectID | None, ObjectID | None]  # (before, after); None: absent on that side
OtherEntry = tuple[int, ObjectID]  # (mode, id)


@dataclass(slots=True)
class NotesDiff:
    """The entries that differ from one notes commit to another, by kind."""

    notes: dict[str, Change] = field(default_factory=dict)  # annotated id -> note blobs
    keys: dict[str, Change] = field(default_factory=dict)  # skill name -> key blobs
    others: dict[bytes, tuple[OtherEntry | None, OtherEntry | None]] = field(default_factory=dict)


def notes_diff(store: Store, old: ObjectID | None, new: ObjectID) -> NotesDiff | None:
    """The notes, keys and other entries that differ from notes commit `old` (None: no notes)
    to `new`; None when a changed path is not one read_notes reads as a file."""
    old_tree = commit_tree_of(store, old) if old is not None else None
    diff = diff_trees(store, old_tree, commit_tree_of(store, new))
    out = NotesDiff()
    for text, (was, now) in diff.files.items():
        path = git_path(text)
        kind, name = _classify(path)
        if kind == "note":
            # One note can sit at two paths (a tree changing its fan-out): join them.
            before, after = out.notes.get(name, (None, None))
            out.notes[name] = (was[0] if was else before, now[0] if now else after)
        elif kind == "key":
            out.keys[name] = (was[0] if was else None, now[0] if now else None)
        elif kind == "other":
            out.others[path] = (
                (was[1], was[0]) if was else None,
                (now[1], now[0]) if now else None,
            )
        else:
            return None
    # A folder where a note or key was (or the reverse) hides a tree read_notes would read.
    for folder in diff.added_dirs | diff.removed_dirs:
        kind, _ = _classify(git_path(folder))
        if kind in ("note", "key"):
            return None
    return out


def notes_keys(store: Store, commit_id: ObjectID) -> dict[str, ObjectID]:
    """Skill name -> key blob id of a notes commit, read from its `skills/` folder only."""
    commit = store.repo[commit_id]
    if not isinstance(commit, Commit):
        raise StoreError(f"{commit_id.decode()} is not a commit; it is not a notes ref")
    root = notes_folder(store, commit.tree)
    if KEYS_DIR not in root or root[KEYS_DIR][0] != TREE_MODE:
        return {}
    folder = root[KEYS_DIR][1]
    kind, raw = store.repo.object_store.get_raw(folder)
    if kind != Tree.type_num:
        notes_folder(store, folder)  # raises the error naming the damage
    # The raw entries, not a Tree's: iteritems sorts 10,000 named tuples (0.03 s a sync).
    entries = parse_tree(raw, store.repo.object_format.oid_length)
    return {text_path(name): ObjectID(sha) for name, _, sha in entries}


def _other(entry: tuple[ObjectID, int] | None) -> OtherEntry | None:
    return (entry[1], entry[0]) if entry is not None else None


def _classify(path: bytes) -> tuple[str, str]:
    """("note", annotated id), ("key", skill name), ("other", "") or ("odd", "")."""
    parts = path.split(b"/")
    if parts[0] == KEYS_DIR and len(parts) > 1:
        return ("key", text_path(parts[1])) if len(parts) == 2 else ("odd", "")
    joined = b""
    for part in parts[:-1]:
        joined += part
        if len(joined) == 40 and is_hex_id(joined):
            return "odd", ""  # a folder named like a note: read_notes takes it as one
        if len(joined) > 40 or not is_hex_id(joined):
            return "other", ""  # read_notes keeps such folders file by file
    joined += parts[-1]
    if len(joined) == 40 and is_hex_id(joined):
        return "note", joined.decode()
    return "other", ""
