"""Telemetry notes: one JSON note per skill under refs/notes/gitcurator, written in one commit.

Each note annotates a small "key" blob (`gitcurator skill <name>\n`) whose id depends only on
the skill's name, so editing SKILL.md never orphans its record. The key blobs sit in the notes
tree itself under `skills/<name>` (git keeps such non-note entries as they are), which makes
them reachable from the notes ref: `git gc` keeps them, `git notes prune` finds them, and a
fetch of the notes ref brings them along.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dulwich.errors import ObjectFormatException
from dulwich.objects import Blob, Commit, ObjectID, Tree, parse_tree, sorted_tree_items

from gitcurator.errors import StoreError
from gitcurator.gitfiles.object_ids import object_hex
from gitcurator.store.commits import make_commit
from gitcurator.store.objects import FILE_MODE, TREE_MODE, ObjectBatch
from gitcurator.store.paths import text_path
from gitcurator.store.raw_pack import BLOB, RawBatch, object_id
from gitcurator.store.ref_writer import move_notes_ref
from gitcurator.store.refs import ref_value

if TYPE_CHECKING:
    from gitcurator.store.notes_tree import TreeReader
    from gitcurator.store.repository import Store

NOTES_REF = b"refs/notes/gitcurator"
KEYS_DIR = b"skills"
# git switches its notes tree to a two-level fan-out past this many notes; we do the same.
FANOUT_THRESHOLD = 256
_TREE_TYPE = 2  # git's type number of a tree


def key_text(name: str) -> bytes:
    """The content of the blob a skill's note annotates."""
    return f"gitcurator skill {name}\n".encode()


def key_id(name: str) -> str:
    """The hex object id of a skill's key blob, as `git hash-object` computes it."""
    return object_hex(BLOB, key_text(name))


@dataclass(slots=True)
class NotesState:
    """The notes ref as read: its commit, note blobs by annotated id, and other entries."""

    commit: ObjectID | None
    notes: dict[str, ObjectID] = field(default_factory=dict)
    keys: dict[str, ObjectID] = field(default_factory=dict)  # skill name -> key blob id
    others: dict[bytes, tuple[int, ObjectID]] = field(default_factory=dict)
    # False for `notes_tip`: only `commit` is known, and write_notes edits its tree in place
    # (the fields above are then empty, not "no notes").
    complete: bool = True


@dataclass(frozen=True, slots=True)
class StoredEntries:
    """Notes and keys to set to objects already stored: annotated id -> note blob id, skill
    name -> key blob id."""

    notes: dict[str, ObjectID] = field(default_factory=dict)
    keys: dict[str, ObjectID] = field(default_factory=dict)


def notes_tip(store: Store, ref: bytes = NOTES_REF) -> NotesState:
    """The notes ref's commit alone, for write_notes to edit that commit's tree where the new
    notes go instead of rebuilding all of it (read_notes walks every fan-out folder)."""
    return NotesState(ref_value(store, ref), complete=False)


def notes_commit(store: Store, ref: bytes = NOTES_REF) -> ObjectID | None:
    """The commit the notes ref points at (None before the first record)."""
    return ref_value(store, ref)


def read_notes(store: Store, ref: bytes = NOTES_REF) -> NotesState:
    """Read the notes tree at `ref` (any fan-out) without loading the note blobs."""
    commit_id = ref_value(store, ref)
    if commit_id is None:
        return NotesState(None)
    commit = store.repo[commit_id]
    if not isinstance(commit, Commit):
        raise StoreError(f"{ref.decode()} does not point at a commit; it is not a notes ref")
    state = NotesState(commit_id)
    _walk(store, commit.tree, b"", state)
    return state


def notes_folder(store: Store, tree_id: ObjectID) -> Tree:
    """The notes tree or folder `tree_id`; StoreError for an entry that names a folder and is
    not one (a notes ref written by hand), never an internal error."""
    tree = store.repo[tree_id]
    if not isinstance(tree, Tree):
        raise StoreError(
            f"the notes name object {tree_id.decode()} as a folder, but it is a "
            f"{tree.type_name.decode()}: the notes ref is damaged; find its last good commit "
            "with `git log refs/notes/gitcurator` and `git update-ref` it there"
        )
    return tree


def _walk(store: Store, tree_id: ObjectID, prefix: bytes, state: NotesState) -> None:
    for path_part, mode, sha in _folder_items(store, tree_id):
        path = prefix + path_part
        if prefix == b"" and path_part == KEYS_DIR and mode == TREE_MODE:
            for key, _mode, key_sha in _folder_items(store, sha):
                state.keys[text_path(key)] = key_sha
            continue
        hexpath = path.replace(b"/", b"")
        if mode == TREE_MODE and len(hexpath) < 40 and is_hex_id(hexpath):
            _walk(store, sha, path + b"/", state)
        elif len(hexpath) == 40 and is_hex_id(hexpath):
            state.notes[hexpath.decode()] = sha
        elif mode == TREE_MODE:
            # Other folders (`unreadable/`) are kept file by file: write_notes adds new files
            # to them, and a folder kept whole would be replaced by the one holding those.
            _walk_others(store, sha, path + b"/", state)
        else:
            state.others[path] = (mode, sha)


def _folder_items(store: Store, tree_id: ObjectID) -> list[tuple[bytes, int, ObjectID]]:
    """notes_folder(...).iteritems() read from the raw object: no Tree objects (the 257
    folders of 10,000 notes cost 0.12 s through them), the same entries in the same order."""
    try:
        # dulwich parses a loose tree as it reads it; a packed one is parsed here.
        kind, raw = store.repo.object_store.get_raw(tree_id)
        if kind != _TREE_TYPE:
            notes_folder(store, tree_id)  # names what the object is instead
        parsed = parse_tree(raw, sha_len=store.repo.object_format.oid_length)
    except (ValueError, ObjectFormatException) as exc:
        # A tree written by hand (`git hash-object --literally`): bad input, not exit 3.
        raise StoreError(
            f"object {tree_id.decode()} is named as a folder but is not a readable tree "
            f"({exc}): the notes ref is damaged; run `git fsck`, find its last good commit "
            "with `git log refs/notes/gitcurator` and `git update-ref` it there"
        ) from None
    names = [name for name, _mode, _sha in parsed]
    if names == sorted(set(names)) and all(mode != TREE_MODE for _n, mode, _s in parsed):
        # Files only, each name once and in byte order: git's order already (a fan-out
        # folder as git and gitcurator write it), with nothing for a dict to drop.
        return [(name, mode, ObjectID(sha)) for name, mode, sha in parsed]
    entries = {name: (mode, ObjectID(sha)) for name, mode, sha in parsed}
    return [(e.path, e.mode, e.sha) for e in sorted_tree_items(entries, False)]


def _walk_others(store: Store, tree_id: ObjectID, prefix: bytes, state: NotesState) -> None:
    for path_part, mode, sha in _folder_items(store, tree_id):
        if mode == TREE_MODE:
            _walk_others(store, sha, prefix + path_part + b"/", state)
        else:
            state.others[prefix + path_part] = (mode, sha)


def is_hex_id(text: bytes) -> bool:
    """Whether `text` is lower-case hex (a note path part, an object id)."""
    # Deleting every hex digit leaves nothing (in C: 10,000 notes' paths in 2 ms, not 60).
    return not text.translate(None, b"0123456789abcdef")


def read_blobs(store: Store, ids: list[ObjectID]) -> dict[ObjectID, bytes]:
    """The content of many blobs."""
    # The raw content is what a Blob object would give: 10,000 of them cost 0.2 s more.
    get_raw = store.repo.object_store.get_raw
    return {i: get_raw(i)[1] for i in ids}


def read_json_blobs(
    store: Store, ids: list[ObjectID]
) -> tuple[dict[ObjectID, tuple[Any, str]], dict[ObjectID, bytes]]:
    """The JSON objects many blobs hold, as json.loads reads them, each with its text on one
    line (the whitespace after each line break taken out: still JSON, the same document), and
    the content of the blobs it would not read so quickly (or not at all: the caller reads
    those itself, and says why). The JSON scanner is called directly: json.loads' own steps
    (the encoding guess, the whitespace checks) cost 10,000 notes 0.05-0.1 s more."""
    docs: dict[ObjectID, tuple[Any, str]] = {}
    others: dict[ObjectID, bytes] = {}
    scan = _json_scanner()
    for blob_id, data in read_blobs(store, ids).items():
        # An object opening with a byte json.loads reads as UTF-8 (no BOM, no NUL).
        if data[:1] == b"{" and data[1:2] not in (b"", b"\0"):
            try:
                text = data.decode("utf-8", "surrogatepass")
                doc, end = scan(text, 0)
                if not text[end:].strip(" \t\n\r"):
                    # A JSON string holds no raw line break: each one, and the blanks after
                    # it, stand between tokens.
                    docs[blob_id] = doc, _LINE_BREAKS.sub("", text[:end])
                    continue
            except (ValueError, StopIteration, RecursionError):
                pass
        others[blob_id] = data
    return docs, others


_LINE_BREAKS = re.compile(r"\n[ \t\r]*")


def _json_scanner() -> Callable[[str, int], tuple[Any, int]]:
    """json.loads' own scanner (the C one where there is one)."""
    import json.decoder
    import json.scanner

    make: Any = json.scanner.make_scanner  # typeshed names the class, not what it makes
    return make(json.decoder.JSONDecoder())  # type: ignore[no-any-return]


def write_notes(
    store: Store,
    state: NotesState,
    records: dict[str, bytes],
    message: str,
    ref: bytes = NOTES_REF,
    keep: dict[bytes, bytes] | None = None,
    parents: list[ObjectID] | None = None,
    stored: StoredEntries | None = None,
) -> ObjectID:
    """Replace the notes of the skills in `records` (name -> JSON) in one notes commit.

    The ref moves by compare-and-swap from `state.commit`: a concurrent writer makes this
    raise StoreError instead of being overwritten. `keep` adds non-note entries (path -> id of
    an existing blob), for records that must be preserved beside their replacement. `parents`
    (default: `state.commit`) lets `sync` write a merge of the local and a remote history.
    `stored` sets notes and keys to objects already in the store (a sync's merge: the
    remote's versions), before `records`. A `notes_tip` state has its commit's tree edited
    where the notes change (the same tree as a rebuild); a state from read_notes, or one a
    caller assembled, is built whole.
    """
    stored = stored or StoredEntries()
    batch = RawBatch()
    tree_id = trees = None
    if not state.complete and not keep and state.commit is not None:
        tree_id, trees = _edited(store, state.commit, records, stored, batch)
    if tree_id is None:
        if not state.complete:
            expected, state = state.commit, read_notes(store, ref)
            if state.commit != expected:
                raise StoreError(
                    f"{ref.decode()} moved while gitcurator was writing it; run it again"
                )
        batch = RawBatch()
        tree_id = _rebuilt(state, records, keep, batch, stored)
    if parents is None:
        parents = [state.commit] if state.commit else []
    commit = make_commit(store, tree_id, parents, message)
    batch.add_object(commit)
    batch.store_in(store)
    if not move_notes_ref(store, ref, state.commit, commit.id):
        raise StoreError(f"{ref.decode()} moved while gitcurator was writing it; run it again")
    if trees is not None and trees.root and ref == NOTES_REF:
        from gitcurator.store.notes_tree_cache import keep as keep_trees

        keep_trees(store, trees.folders(batch))
    return commit.id


def _edited(
    store: Store,
    commit_id: ObjectID,
    records: dict[str, bytes],
    stored: StoredEntries,
    batch: RawBatch,
) -> tuple[ObjectID | None, TreeReader]:
    """The tree of notes commit `commit_id` with `records` set, edited in place (None when
    only a rebuild gives the canonical tree), and the reader that read its folders."""
    from gitcurator.store.notes_tree import TreeReader, edited_tree
    from gitcurator.store.notes_tree_cache import read_kept

    commit = store.repo[commit_id]
    if not isinstance(commit, Commit):
        raise StoreError(f"{commit_id.decode()} is not a commit; it is not a notes ref")
    notes: dict[bytes, tuple[bytes, bytes | None]] = {
        a.encode(): (blob, None) for a, blob in stored.notes.items()
    }
    keys: dict[str, tuple[bytes, bytes | None]] = {n: (k, None) for n, k in stored.keys.items()}
    for name, doc in records.items():
        text = key_text(name)
        keys[name] = key = (object_id(BLOB, text), text)
        notes[key[0]] = (object_id(BLOB, doc), doc)
    trees = TreeReader(store, read_kept(store))
    tree_id = edited_tree(trees, commit.tree, notes, keys, KEYS_DIR, FANOUT_THRESHOLD, batch)
    return tree_id, trees


def _rebuilt(
    state: NotesState,
    records: dict[str, bytes],
    keep: dict[bytes, bytes] | None,
    batch: RawBatch | ObjectBatch,
    stored: StoredEntries | None = None,
) -> ObjectID:
    """The whole notes tree built from `state` with `stored` and `records` set (git's
    layout)."""
    notes = dict(state.notes)
    keys = dict(state.keys)
    if stored is not None:
        notes.update(stored.notes)
        keys.update(stored.keys)
    for name, doc in records.items():
        key = Blob.from_string(key_text(name))
        batch.add_object(key)
        keys[name] = key.id
        blob = Blob.from_string(doc)
        batch.add_object(blob)
        notes[key.id.decode()] = blob.id
    fanout = len(notes) > FANOUT_THRESHOLD
    entries = [
        ((f"{h[:2]}/{h[2:]}" if fanout else h).encode(), sha, FILE_MODE) for h, sha in notes.items()
    ]
    entries += [(KEYS_DIR + b"/" + n.encode(), sha, FILE_MODE) for n, sha in keys.items()]
    entries += [(path, sha, mode) for path, (mode, sha) in state.others.items()]
    entries += [(path, ObjectID(sha), FILE_MODE) for path, sha in (keep or {}).items()]
    from dulwich.index import commit_tree  # dulwich.index costs a flush's edit ~9 ms to import

    tree_id: ObjectID = commit_tree(batch, entries)  # type: ignore[arg-type]
    return tree_id


def recent_messages(store: Store, start: ObjectID | None, limit: int = 50) -> list[str]:
    """Messages of the last `limit` commits of a notes history (first parents)."""
    found: list[str] = []
    current = start
    # A shallow clone (or a fetch of the notes at --depth 1) ends the history early.
    while current is not None and len(found) < limit and current in store.repo:
        commit = store.repo[current]
        if not isinstance(commit, Commit):
            break
        found.append(commit.message.decode("utf-8", "replace"))
        current = commit.parents[0] if commit.parents else None
    return found
