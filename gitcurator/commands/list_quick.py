"""`list --json` answered from the text the last full run kept (`statefiles.LIST_TEXT`),
without dulwich, PyYAML or the rows: the warm path of scripts and agents listing skills.

The text is kept under the rows key (`curation/rows_key`: HEAD, the notes commit, the pending
events, the config and shallow files), read here from git's own files (`gitfiles/`), plus
the git config files (they may move the work tree or refuse the repository) and the work
tree's root the store found. Each state that moves with the clock is left open in the text
and judged again at the reader's now: a row whose idleness counts from `anchor` is stale from
`anchor + stale_from` on, `stale_from` found through `inventory.rows_at` itself when the text
was kept (so the rule has one home). The warnings about nested repositories are found again
at every run (the index's links, the walk of the work tree); when the walk finds a folder
with its own `.git` (its ignore rules need dulwich), or anything here is not as expected, the
answer is None and `list` runs in full.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from gitcurator import __version__
from gitcurator.commands.library_notes import folder_notes
from gitcurator.curation.rows_key import KeyParts, digest, key_parts, latest_at
from gitcurator.errors import JSON_READ_ERRORS, CuratorError
from gitcurator.gitfiles.index_links import index_links
from gitcurator.gitfiles.nested_walk import git_folders
from gitcurator.gitfiles.refs import Unsure, head_commit, ref_commit
from gitcurator.gitfiles.repo_paths import RepoPaths, discover
from gitcurator.output import JsonText, Result
from gitcurator.statefiles import (
    INDEX_LINKS_CACHE,
    LIST_TEXT,
    STATE_DIR,
    open_regular,
    read_regular,
    write_cache,
)
from gitcurator.timeutil import utc_now

_FORMAT = 1
# config.CONFIG_FILE and store.notes.NOTES_REF, spelled here because importing gitcurator.config
# loads the skill model and the schemas (0.1 s) and the store dulwich
# (tests/commands/test_list_quick.py holds them equal).
CONFIG_FILE = ".gitcurator.yaml"
NOTES_REF = "refs/notes/gitcurator"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
# JSON_READ_ERRORS: a kept text nested deep enough is a RecursionError, not a ValueError.
_FAILURES: tuple[type[Exception], ...] = (
    OSError,
    *JSON_READ_ERRORS,
    TypeError,
    KeyError,
    IndexError,
    Unsure,
    CuratorError,
)


@dataclass(frozen=True, slots=True)
class Seen:
    """What a quick attempt read, for the full run to keep its text under."""

    paths: RepoPaths | None
    extras: tuple[tuple[str, bytes | None], ...] = ()


def quick_list(start: Path) -> tuple[Result | None, Seen]:
    """`list --json` from the kept text when it holds, else None; and what was read."""
    try:
        paths = discover(os.fspath(start))
        if paths is None:
            return None, Seen(None)
        seen = Seen(paths, _extras(paths))
        return _answer(paths, seen), seen
    except _FAILURES:
        return None, Seen(None)


def _answer(paths: RepoPaths, seen: Seen) -> Result | None:
    state = Path(paths.common) / STATE_DIR
    kept = _read_text(state / LIST_TEXT)
    if kept is None:
        return None
    header, body = kept
    config = Path(paths.root) / CONFIG_FILE
    if _includes(seen):
        return None
    parts = key_parts(state, Path(paths.common), config, lambda: _commits(paths))
    if dict(parts.parts)["config"] is None and os.path.lexists(config):
        return None  # a config file that is no file: the full run says what is wrong
    if header.get("key") != list_key(parts, seen.extras) or header.get("root") != paths.root:
        return None
    newest, stale_from = header["newest_event"], header["stale_from"]
    notes, links, anchors = header["notes"], header["links"], header["anchors"]
    if not (type(newest) is str and (stale_from is None or type(stale_from) is int)):
        return None
    if not (_strings(notes) and _strings(links) and _ints(anchors)):
        return None
    now = utc_now()
    if newest > latest_at(now):  # an event the clock now leaves out was counted
        return None
    pieces = body.split("\0")
    if len(pieces) != len(anchors) + 1:
        return None
    nested = _nested(paths, state, links)
    if nested is None:
        return None
    text = _joined(pieces, _states(anchors, stale_from, _micros(now)))
    return Result(text="", doc=JsonText(text), notes=(*notes, *nested))


def list_key(parts: KeyParts, extras: Sequence[tuple[str, bytes | None]]) -> str:
    """The key the kept text is read and written under."""
    return digest(f"list {_FORMAT} {__version__}", (*parts.parts, *extras))


def keep_text(
    seen: Seen,
    parts: KeyParts,
    root: Path,
    newest: str,
    texts: Sequence[tuple[str, str]],
    fixed: Sequence[str | None],
    anchors: Sequence[int | None],
    stale_from: int | None,
    notes: Sequence[str],
    links: Sequence[str],
) -> str:
    """The rows' JSON (each row's `texts` around its state) with each state that moves with
    the clock (`fixed` None, an idle anchor) left open as a marker; kept for the next
    quick_list when what it was read under is known."""
    rows = (
        head + ("\0" if state is None else f'"{state}"') + tail
        for (head, tail), state in zip(texts, fixed, strict=True)
    )
    body = "[" + ", ".join(rows) + "]"
    if seen.paths is None or str(root) != seen.paths.root or _includes(seen):
        return body
    header: dict[str, Any] = {
        "key": list_key(parts, seen.extras),
        "root": seen.paths.root,
        "newest_event": newest,
        "stale_from": stale_from,
        "notes": list(notes),
        "links": list(links),
        "anchors": [a for a in anchors if a is not None],
    }
    try:
        header["body"] = _body_digest(body.encode("utf-8"))
    except UnicodeEncodeError:  # a file name that is not UTF-8: this text is not kept
        return body
    write_cache(Path(seen.paths.common) / STATE_DIR / LIST_TEXT, _line(header) + body)
    return body


def filled(body: str, states: Sequence[str]) -> str:
    """The text `keep_text` returned with each open state written as `states` says."""
    return _joined(body.split("\0"), states)


def _joined(pieces: list[str], states: Sequence[str]) -> str:
    out = [pieces[0]]
    for state, piece in zip(states, pieces[1:], strict=True):
        out += (f'"{state}"', piece)
    return "".join(out)


def _states(anchors: list[int], stale_from: int | None, now: int) -> list[str]:
    """Each open row's state at `now` (microseconds from the epoch)."""
    if stale_from is None:
        return ["active"] * len(anchors)
    return ["stale" if now - anchor >= stale_from else "active" for anchor in anchors]


def _micros(moment: datetime) -> int:
    """Microseconds from the epoch, as inventory.rows_at counts `now`."""
    return (moment - _EPOCH) // _MICROSECOND


def _commits(paths: RepoPaths) -> tuple[bytes | None, bytes | None]:
    head = head_commit(paths.gitdir, paths.common)
    notes = ref_commit(paths.common, NOTES_REF)
    return (None if head is None else head.encode()), (None if notes is None else notes.encode())


def _extras(paths: RepoPaths) -> tuple[tuple[str, bytes | None], ...]:
    """The git config files: what the store opens the repository through. An `include` of
    another file (whose changes no key would see) is marked, and never answered from."""
    config = read_regular(Path(paths.common) / "config")
    worktree = read_regular(Path(paths.gitdir) / "config.worktree")
    found: tuple[tuple[str, bytes | None], ...] = (("git-config", config), ("git-wt", worktree))
    if any(data and b"include" in data.lower() for _, data in found):
        found += (("include", b""),)
    return found


def _includes(seen: Seen) -> bool:
    """Whether the git config includes another file (then no text is read or kept)."""
    return any(label == "include" for label, _ in seen.extras)


def _nested(paths: RepoPaths, state: Path, links: list[str]) -> tuple[str, ...] | None:
    """The warnings about nested repositories, as nested_notes gives them; None when a
    folder holds a `.git` of its own (whether it is ignored is dulwich's to say)."""
    alt = os.environ.get("GIT_INDEX_FILE")  # as store/index_gitlinks reads it
    index = os.path.abspath(alt) if alt else os.path.join(paths.gitdir, "index")
    staged = index_links(index, state / INDEX_LINKS_CACHE)
    if staged is None or git_folders(Path(paths.root), state):
        return None
    return folder_notes(sorted(staged.union(links)))


def _read_text(path: Path) -> tuple[dict[str, Any], str] | None:
    """The kept text's header and body, or None (missing, a link, damaged, another format)."""
    try:
        fd = open_regular(path, os.O_RDONLY)
    except CuratorError:
        return None
    with os.fdopen(fd, "rb") as file:
        data = file.read()
    first, _, rest = data.partition(b"\n")
    header = json.loads(first)
    if not isinstance(header, dict) or header.get("format") != _FORMAT:
        return None
    if header.get("body") != _body_digest(rest):  # truncated, or damaged in another way
        return None
    return header, rest.decode("utf-8")


def _body_digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def _line(header: dict[str, Any]) -> str:
    return json.dumps({"format": _FORMAT, **header}, separators=(",", ":")) + "\n"


def _strings(values: object) -> bool:
    return isinstance(values, list) and all(type(v) is str for v in values)


def _ints(values: object) -> bool:
    return isinstance(values, list) and all(type(v) is int for v in values)
