"""The notes tree edited where notes change: the root, the fan-out folders that hold them and
the `skills/` keys folder are rewritten, every other subtree is kept by its id.

A flush of 2,000 events used to rebuild the tree of 10,000 notes and 10,000 key blobs from
every entry. The edit gives the same tree as that rebuild when the tree is laid out as
store.notes writes it (one fan-out level past 256 notes, notes and keys as plain files); on
anything else (a fan-out switch, git's deeper fan-out, an odd entry) it answers None and the
caller rebuilds the whole tree.
"""

from __future__ import annotations

import itertools
import re
from binascii import unhexlify
from typing import TYPE_CHECKING

from dulwich.objects import ObjectID, Tree, parse_tree

from gitcurator.store.fanout_splice import RawBlob, spliced
from gitcurator.store.notes_tree_cache import kept
from gitcurator.store.objects import FILE_MODE, TREE_MODE
from gitcurator.store.raw_pack import BLOB, TREE, RawBatch

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

_Items = dict[bytes, tuple[int, bytes]]  # name -> (mode, id)


class TreeReader:
    """The trees an edit reads: a kept one (store.notes_tree_cache) when its content checks
    against its id, else the store's; each remembered, so that the edited tree's folders can
    be kept for the next write."""

    def __init__(self, store: Store, kept: dict[bytes, bytes]) -> None:
        self.store = store
        self.kept = kept
        self.read: dict[bytes, bytes] = {}
        self.root: _Items = {}

    def raw(self, tree_id: ObjectID) -> bytes | None:
        """A tree's content (None: not a tree in the store)."""
        raw = kept(self.kept, tree_id)
        if raw is None:
            try:
                kind, raw = self.store.repo.object_store.get_raw(tree_id)
            except KeyError:
                return None
            if kind != Tree.type_num:
                return None
        self.read[tree_id] = raw
        return raw

    def items(self, tree_id: ObjectID) -> _Items | None:
        """A tree's entries by name (None: not a tree in the store)."""
        raw = self.raw(tree_id)
        if raw is None:
            return None
        # parse_tree in C, not Tree objects: a flush reads ~20,000 entries of keys and fan-out.
        length = self.store.repo.object_format.oid_length
        return {name: (mode, sha) for name, mode, sha in parse_tree(raw, length)}

    def folders(self, batch: RawBatch) -> dict[bytes, bytes]:
        """Id -> content of the folders of the edited root: written, read, or kept before
        (and not read this time; checked when used, as every kept tree is)."""
        found = {}
        for mode, sha in self.root.values():
            if sha in batch.objects:
                raw: bytes | None = batch.objects[sha][1]
            else:
                raw = self.read.get(sha, self.kept.get(sha))
            if mode == TREE_MODE and raw is not None:
                found[sha] = raw
        return found


def edited_tree(
    trees: TreeReader,
    tree_id: ObjectID,
    notes: dict[bytes, RawBlob],
    keys: dict[str, RawBlob],
    keys_dir: bytes,
    fanout_threshold: int,
    batch: RawBatch,
) -> ObjectID | None:
    """The id of tree `tree_id` with `notes` (annotated hex id -> note blob) and `keys` (skill
    name -> key blob) set, its new trees and blobs added to `batch`; None when only a full
    rebuild gives the canonical tree."""
    root = trees.items(tree_id)
    if root is None:
        return None
    hex_dirs = {n for n, (m, _) in root.items() if _is_hex(n) and len(n) == 2 and m == TREE_MODE}
    hex_files = {n for n, (m, _) in root.items() if _is_hex(n) and len(n) == 40}
    if any(_is_hex(n) and n not in hex_dirs and n not in hex_files for n in root):
        return None  # a deeper fan-out than ours, or a hex name git would not write
    if hex_dirs and hex_files:
        return None
    if any(root[n][0] != FILE_MODE for n in hex_files):
        return None
    if hex_dirs:
        # Notes are only ever added or replaced, so a fanned-out tree stays fanned out.
        if not _set_fanned_out(trees, root, notes, batch):
            return None
    else:
        count = len(hex_files | set(notes))
        if count > fanout_threshold:
            return None  # the fan-out switches: the whole tree is rebuilt once
        for annotated, blob in notes.items():
            _put(root, annotated, FILE_MODE, blob, batch)
    if not _set_keys(trees, root, keys, keys_dir, batch):
        return None
    trees.root = root
    return _write(root, batch)


def _set_fanned_out(
    trees: TreeReader, root: _Items, notes: dict[bytes, RawBlob], batch: RawBatch
) -> bool:
    by_dir: dict[bytes, dict[bytes, RawBlob]] = {}
    for annotated, blob in notes.items():
        by_dir.setdefault(annotated[:2], {})[annotated[2:]] = blob
    for folder, entries in sorted(by_dir.items()):
        old = root.get(folder)
        if old is not None and old[0] != TREE_MODE:
            return False
        raw = trees.raw(ObjectID(old[1])) if old is not None else None
        edit = spliced(raw, entries) if raw is not None else None
        if edit is not None:
            for sha, content in edit[1]:
                if content is not None:
                    batch.add_raw(BLOB, content, sha)
            root[folder] = (TREE_MODE, batch.add_raw(TREE, edit[0]))
            continue
        items = trees.items(ObjectID(old[1])) if old is not None else {}
        if items is None or any(len(n) != 38 or m != FILE_MODE for n, (m, _) in items.items()):
            return False  # a deeper fan-out, or an entry of another kind: rebuild
        if items and not _is_hex(b"".join(items)):
            return False  # (a folder made here, for its first note, is empty)
        for rest, blob in entries.items():
            _put(items, rest, FILE_MODE, blob, batch)
        root[folder] = (TREE_MODE, _write(items, batch))
    return True


def _set_keys(
    trees: TreeReader, root: _Items, keys: dict[str, RawBlob], keys_dir: bytes, batch: RawBatch
) -> bool:
    old = root.get(keys_dir)
    if old is not None and old[0] != TREE_MODE:
        return False
    if any(b"/" in n.encode() or not n for n in keys):
        return False
    if old is not None and _has_keys(trees.raw(ObjectID(old[1])), keys):
        return True  # every key already there (a flush into existing records): unchanged
    items = trees.items(ObjectID(old[1])) if old is not None else {}
    if items is None or any(m != FILE_MODE for m, _ in items.values()):
        return False
    changed = False
    for name, blob in keys.items():
        raw = name.encode()
        if b"/" in raw or not raw:
            return False
        if items.get(raw) != (FILE_MODE, blob[0]):
            _put(items, raw, FILE_MODE, blob, batch)
            changed = True
    if changed or (old is None and keys):
        root[keys_dir] = (TREE_MODE, _write(items, batch))
    return True


# A keys folder's entries (files only): read as a set of whole entries, not parsed (10,000
# keys: ~4 ms instead of ~10), when they tile the folder's bytes exactly as git reads them.
_KEY_ENTRY = re.compile(rb"100644 [^\x00]*\x00.{20}", re.DOTALL)


def _has_keys(raw: bytes | None, keys: dict[str, RawBlob]) -> bool:
    """Whether folder `raw` holds every key of `keys` as a file with that blob id."""
    if raw is None:
        return False
    entries = _KEY_ENTRY.findall(raw)
    if sum(map(len, entries)) != len(raw):
        return False  # another kind of entry somewhere: the parsed edit decides
    names = [e[7 : e.index(b"\x00")] for e in entries]
    if any(a >= b for a, b in itertools.pairwise(names)):
        return False  # out of order or a name twice: the parsed edit writes a clean folder
    present = set(entries)
    return all(
        b"100644 " + n.encode() + b"\x00" + unhexlify(blob[0]) in present
        for n, blob in keys.items()
    )


def _put(items: _Items, name: bytes, mode: int, blob: RawBlob, batch: RawBatch) -> None:
    if items.get(name) != (mode, blob[0]):
        items[name] = (mode, blob[0])
        if blob[1] is not None:
            batch.add_raw(BLOB, blob[1], blob[0])


def _write(items: _Items, batch: RawBatch) -> ObjectID:
    # git's order is the names' byte order, a folder's name taken as `name/`; the text is
    # built at C speed (dulwich's Tree.add and its serializer cost ~10 µs an entry).
    if any(mode == TREE_MODE for mode, _ in items.values()):
        order = sorted(items, key=lambda n: n + b"/" if items[n][0] == TREE_MODE else n)
    else:
        order = sorted(items)
    raw = b"".join(b"%o %s\0%s" % (items[n][0], n, unhexlify(items[n][1])) for n in order)
    return batch.add_raw(TREE, raw)


def _is_hex(text: bytes) -> bool:
    return bool(text) and not text.translate(None, b"0123456789abcdef")
