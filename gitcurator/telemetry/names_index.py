"""HEAD's skill files and their frontmatter names, moved to a new HEAD by diffing trees.

The names cache is rebuilt from three inputs: which SKILL.md (and venv marker) files HEAD's
tree holds, the `name:` of each SKILL.md blob, and the absorbed names of the records. Listing
10,000 folders and loading 10,000 records to get them cost seconds after every commit; this
module keeps each input keyed by what it was read from (a tree id, blob ids, a notes commit),
so a commit that edits ten skills costs a diff of the folders that changed and ten parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.skills.folder_names import SKILL_FILE, SKILL_FILE_LOWER, VENV_MARKER
from gitcurator.statefiles import (
    ABSORBED_NAMES,
    NAMES_INDEX,
    read_json,
    write_cache_json,
)
from gitcurator.store import ObjectID, Store
from gitcurator.telemetry.records import absorbed_of

if TYPE_CHECKING:
    from gitcurator.telemetry.records import UsageRecord

# The only files skills.document.find_skills looks at: the rest of a tree cannot change
# which folders are skills (tests/telemetry/test_names_index.py holds it to that).
LOOKED_AT = frozenset({SKILL_FILE, SKILL_FILE_LOWER, VENV_MARKER})
_VERSION = 1
_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")  # SHA-1 or SHA-256


def looked_at(path: str) -> bool:
    """Whether find_skills reads `path` (a SKILL.md, skill.md or venv marker)."""
    return path.rpartition("/")[2] in LOOKED_AT


@dataclass(slots=True)
class SkillFiles:
    """The files of one tree find_skills looks at, and the `name:` of their SKILL.md blobs."""

    tree: str | None
    files: dict[str, str]  # path -> blob id
    titles: dict[str, str]  # SKILL.md blob id -> its `name:` ("" when none or unparsable)
    since: str | None = None  # the tree of the index these were moved from
    # Whether the files or the titles differ from those of tree `since` (True when there was
    # no index before): the names built from them may differ too.
    moved: bool = True


def skill_files(
    store: Store, tree: ObjectID | None, progress: Progress = NO_PROGRESS
) -> SkillFiles:
    """The index for `tree` (None: no commits), from the cached one moved by a tree diff."""
    path = store.state_dir() / NAMES_INDEX
    key = tree.decode() if tree is not None else None
    old = _read(read_json(path))
    if old is not None and old.tree == key and not _untitled(old):
        old.since, old.moved = key, False
        return old
    files = _moved_files(store, old, tree)
    if files is None:
        files = _listed_files(store, tree)
    titles = dict(old.titles) if old else {}
    wanted = sorted({b for p, b in files.items() if _is_skill_md(p) and b not in titles})
    for blob in counted(wanted, "indexing skill names", progress):
        title = _title(store, blob)
        if title is not None:
            titles[blob] = title
    kept = {b: titles[b] for p, b in files.items() if _is_skill_md(p) and b in titles}
    moved = old is None or not _same_names(old, files, kept)
    index = SkillFiles(key, files, kept, old.tree if old else None, moved)
    write_cache_json(
        path, {"version": _VERSION, "tree": key, "files": files, "titles": index.titles}
    )
    return index


def remember(store: Store, tree: ObjectID, files: dict[str, str], titles: dict[str, str]) -> None:
    """Keep the index of `tree` from its listing (path -> blob id) and the `name:`s already
    parsed (blob id -> name): init has both, and the first rebuild would otherwise read back
    the 20,000 trees and 10,000 blobs it wrote a moment ago (seconds, in dulwich)."""
    kept = {p: b for p, b in files.items() if looked_at(p)}
    known: dict[str, str] = {}
    for path, blob in kept.items():
        if _is_skill_md(path):
            title = titles[blob] if blob in titles else _title(store, blob)
            if title is not None:
                known[blob] = title
    write_cache_json(
        store.state_dir() / NAMES_INDEX,
        {"version": _VERSION, "tree": tree.decode(), "files": kept, "titles": known},
    )


def _is_skill_md(path: str) -> bool:
    return path.rpartition("/")[2] in (SKILL_FILE, SKILL_FILE_LOWER)


def _title(store: Store, blob: str) -> str | None:
    """A SKILL.md blob's `name:` ("" without one); None when the blob is not here (a fetch
    that did not bring it: known by its folder name until it is, and not cached)."""
    try:
        data = store.read_blob(ObjectID(blob.encode()))
    except KeyError:
        return None
    # Here, not at the top: skills.document imports PyYAML, which a flush never needs.
    from gitcurator.skills.document import SkillParseError, parse_skill_md

    try:
        return parse_skill_md(data).name or ""
    except SkillParseError:
        return ""


def _untitled(index: SkillFiles) -> bool:
    """Whether a SKILL.md blob had no `name:` read (it was not here): it is tried again."""
    titles = index.titles
    return any(b not in titles for p, b in index.files.items() if _is_skill_md(p))


def _same_names(old: SkillFiles, files: dict[str, str], titles: dict[str, str]) -> bool:
    """Whether the names built from (files, titles) are those built from `old`: the same
    paths, and every SKILL.md whose blob changed (or whose name was unread) keeps its `name:`."""
    if old.files.keys() != files.keys():
        return False
    for path, blob in files.items():
        before = old.files[path]
        if (
            (before != blob or before not in old.titles)
            and _is_skill_md(path)
            and (blob not in titles or old.titles.get(before) != titles[blob])
        ):
            return False
    return True


def _moved_files(
    store: Store, old: SkillFiles | None, tree: ObjectID | None
) -> dict[str, str] | None:
    """The old index's files moved to `tree` by a diff, or None when it cannot be (no old
    index, or its tree is gone: a gc after a reset)."""
    from gitcurator.store.diff import diff_trees

    if old is None or old.tree is None or tree is None:
        return None
    try:
        diff = diff_trees(store, ObjectID(old.tree.encode()), tree)
    except (KeyError, ValueError, AssertionError):
        return None
    files = dict(old.files)
    for path, (_before, after) in diff.files.items():
        if not looked_at(path):
            continue
        if after is None:
            files.pop(path, None)
        else:
            files[path] = after[0].decode()
    return files


def _listed_files(store: Store, tree: ObjectID | None) -> dict[str, str]:
    from gitcurator.store.diff import diff_trees

    if tree is None:
        return {}
    listing = diff_trees(store, None, tree)
    return {
        p: after[0].decode() for p, (_b, after) in listing.files.items() if after and looked_at(p)
    }


def _read(doc: object) -> SkillFiles | None:
    """The stored index, or None when it is missing, damaged or of another version."""
    if not isinstance(doc, dict) or doc.get("version") != _VERSION:
        return None
    tree, files, titles = doc.get("tree"), doc.get("files"), doc.get("titles")
    if not (tree is None or _is_id(tree)) or not isinstance(files, dict):
        return None
    if not isinstance(titles, dict):
        return None
    # Types only, per entry (a full check of 20,000 ids cost more than the diff): an id that
    # is no object reads as a missing blob, and the tree id above is checked.
    if not all(type(p) is str and type(b) is str for p, b in files.items()):
        return None
    if not all(type(b) is str and type(t) is str for b, t in titles.items()):
        return None
    return SkillFiles(tree, files, titles)


def _is_id(value: object) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def absorbed_names(store: Store) -> tuple[str | None, dict[str, str]]:
    """(notes commit, absorbed name -> umbrella) of the records in the notes: from a small
    cache keyed by the notes commit, else from the records (loaded once per notes commit)."""
    from gitcurator.telemetry.gitdir import read_ref

    # Read as git stores it, without loading the notes module (store.notes.NOTES_REF).
    key = read_ref(Path(store.repo.commondir()), "refs/notes/gitcurator")
    path = store.state_dir() / ABSORBED_NAMES
    doc = read_json(path)
    if isinstance(doc, dict) and doc.get("version") == _VERSION and doc.get("notes") == key:
        absorbed = doc.get("absorbed")
        if isinstance(absorbed, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in absorbed.items()
        ):
            return key, absorbed
    from gitcurator.telemetry import notes_records

    records = notes_records.load_notes(store).records
    absorbed = absorbed_of(records)
    keep_absorbed(store, key, absorbed)
    return key, absorbed


def keep_absorbed(store: Store, notes: str | None, absorbed: dict[str, str]) -> None:
    """Cache the absorbed names of the records of notes commit `notes` (a flush knows them)."""
    write_cache_json(
        store.state_dir() / ABSORBED_NAMES,
        {"version": _VERSION, "notes": notes, "absorbed": dict(sorted(absorbed.items()))},
    )


def move_absorbed(
    store: Store, before: bytes | None, after: str, records: dict[str, UsageRecord]
) -> None:
    """Move the absorbed-names cache from notes commit `before` to `after`, which changed only
    `records` (a flush): nothing is cached when the old one is not `before`'s."""
    doc = read_json(store.state_dir() / ABSORBED_NAMES)
    old = before.decode() if before is not None else None
    if not isinstance(doc, dict) or doc.get("version") != _VERSION or doc.get("notes") != old:
        return
    absorbed = doc.get("absorbed")
    if not isinstance(absorbed, dict):
        return
    for name, record in records.items():
        if record.absorbed_into:
            absorbed[name] = record.absorbed_into
        else:
            absorbed.pop(name, None)
    keep_absorbed(store, after, absorbed)
