"""The notes ref's history: which skills' notes each notes commit changed, and when.

Every flush, pin and pass writes one notes commit, so the notes' first-parent line is a series
of snapshots of the usage records; a record's counters only grow, so what one commit added is
its new note less its old one. The health page folds those differences into uses per week
(`health/usage_weeks`). Only the notes that changed are read: one tree diff per commit.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from dulwich.objects import Commit, ObjectID

from gitcurator.store.diff import TreeDiffer
from gitcurator.store.notes import NOTES_REF, is_hex_id
from gitcurator.store.refs import ref_value
from gitcurator.timeutil import format_time

if TYPE_CHECKING:
    from gitcurator.store.repository import Store


@dataclass(frozen=True, slots=True)
class NoteChange:
    """One skill's note in one notes commit: the blob before (None: new) and after."""

    annotated: str  # hex id of the key blob the note annotates
    before: ObjectID | None
    after: ObjectID


@dataclass(frozen=True, slots=True)
class NotesCommit:
    """A notes commit, its time (canonical UTC) and the notes it added or changed (left
    empty for a commit the caller said it knows)."""

    commit: str
    time: str
    changes: tuple[NoteChange, ...]


def notes_history(
    store: Store,
    since: str,
    known: Container[str] = frozenset(),
    limit: int = 1000,
    ref: bytes = NOTES_REF,
) -> list[NotesCommit]:
    """The notes commits on `ref`'s first-parent line committed at `since` or later (at most
    `limit`, newest first), each with the notes it changed against its first parent; commits
    in `known` (hex ids) are listed without being diffed."""
    found: list[NotesCommit] = []
    differ = TreeDiffer(store)
    sha = ref_value(store, ref)
    # A shallow clone (the notes fetched at --depth 1) ends the history at a missing commit,
    # tree or parent: the page shows the weeks it has.
    while sha is not None and len(found) < limit and sha in store.repo:
        commit = store.repo[sha]
        if not isinstance(commit, Commit):
            break
        try:
            time = format_time(datetime.fromtimestamp(commit.commit_time, UTC))
        except (OverflowError, ValueError, OSError):  # a forged time past the year 9999
            sha = commit.parents[0] if commit.parents else None  # it counts in no week
            continue
        if time < since:
            break
        if commit.parents and commit.parents[0] not in store.repo:
            break  # its changes cannot be told from its parent's notes
        if sha.decode() in known:
            found.append(NotesCommit(sha.decode(), time, ()))
            sha = commit.parents[0] if commit.parents else None
            continue
        parent = store.repo[commit.parents[0]] if commit.parents else None
        old_tree = parent.tree if isinstance(parent, Commit) else None
        try:
            diff = differ.diff(old_tree, commit.tree)
        except KeyError:  # a tree a partial clone lacks
            break
        changes = []
        for path, (was, now) in sorted(diff.files.items()):
            hexpath = path.replace("/", "")
            if now is None or len(hexpath) != 40 or not is_hex_id(hexpath.encode()):
                continue  # a key blob, a note removed, a file that is no note
            changes.append(NoteChange(hexpath, was[0] if was else None, now[0]))
        found.append(NotesCommit(sha.decode(), time, tuple(changes)))
        sha = commit.parents[0] if commit.parents else None
    return found
