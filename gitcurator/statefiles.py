"""The files gitcurator keeps in .git/gitcurator/: their names, and writing and reading them.

Every name of a file in that folder is defined here, once. Everything there is a cache or
per-clone state; a file that is missing or unreadable reads as None, so the caller rebuilds it
instead of failing. Nothing there is written through a symlink or into anything but a regular
file: a link planted there must not turn a write into one of the file it points to. Standard
library only (and gitcurator.errors, which is): the `record` hot path imports this module.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator

from gitcurator.errors import JSON_READ_ERRORS, StateFileError

# typing costs the `record` hot path milliseconds: its names only for the type checker; json
# and pathlib too (they load re, urllib.parse...): `record` passes path strings, and json is
# imported where a document is read or written.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

# The folder, in git's common dir: linked worktrees of one clone share it.
STATE_DIR = "gitcurator"

# The hot path: usage events as they are recorded, and the segments a flush moved aside.
JOURNAL = "journal.jsonl"
SEGMENTS = "segments"
SEGMENT_SUFFIX = ".jsonl"
NAMES_CACHE = "names.tsv"  # name -> skill, for the HEAD it names on its first line
HOST_FILE = "host"  # this clone's host id in the usage records

# Locks (flock; see gitcurator.locks).
NOTES_LOCK = "notes.lock"  # every writer of the notes refs
REF_WRITER = "ref-writer"  # the pid of the notes lock's holder while it moves a notes ref
PASS_LOCK = "pass.lock"  # one curator pass at a time
SCHEDULE_LOCK = "schedule.lock"  # a read and write of the schedule

# Per-clone state.
SCHEDULE_FILE = "schedule.json"  # when automatic passes last ran, whether they are paused

# What a person asked for: `gitcurator report --html` writes the health page here by default.
REPORT_HTML = "report.html"

# Caches, rebuilt when missing or damaged.
RECORDS_CACHE = "records-cache.json"  # usage records of one notes commit
HISTORY_CACHE = "history-cache.json"  # commits walked, with the paths each changed
# Every skill's row for HEAD, the notes, the pending events and the config it was computed
# from, its state judged again at each reading (curation/rows_cache): `list` and `status`.
ROWS_CACHE = "rows-cache.json"
# What a pass takes from the records beside the rows (each skill's recorded lifecycle state,
# the absorbed names, what could not be read), under the same rows key (curation/pass_records)
PASS_RECORDS_CACHE = "pass-records.json"
# `list --json`'s text, each state left open, for the rows key it was made under
# (commands/list_quick): read without dulwich, each state judged again at the reader's now.
LIST_TEXT = "list-json.txt"
TREE_CACHE = "tree-cache.json"  # the file listing of the last tree asked for
# find_skills of the last tree a pass read, by its id and the config's skills_dir and
# include: (curation/locations_cache)
LOCATIONS_CACHE = "skill-locations.json"
# HEAD's SKILL.md files and their `name:`s, for the tree it names (telemetry.names_index)
NAMES_INDEX = "names-index.json"
# what the names cache's lines were built from: HEAD's tree, the config, the absorbed names
NAMES_BUILT = "names-built.json"
ABSORBED_NAMES = "absorbed-names.json"  # absorbed name -> umbrella, for the notes commit it names
INDEX_LINKS_CACHE = "index-links.json"  # the index's submodule links, keyed by its checksum
# Each work-tree folder's stat data and what the nested-repository walk took from its listing
# (gitfiles/nested_walk): a folder whose stat data did not move is not listed again.
NESTED_WALK = "nested-walk.json"
# `name:SKILL.md blob` -> [description key, packed words] of the skills at HEAD: what the
# near-duplicate guard compares a new skill with, kept so a commit does not re-read and
# re-tokenise every SKILL.md (seconds at 10,000 skills). Content-addressed: never stale.
WORDS_CACHE = "similar-words.json"
# Notes commit -> the uses it added per skill (the health page's weeks); a commit never changes.
USAGE_DELTAS_CACHE = "usage-deltas.json"
CATALOGUE_CACHE = "catalogue-entries.json"  # SKILL.md blob -> [name, description] (the catalogue)
# The search index of the default branch's skills, keyed by its tree id (search.index_cache).
SEARCH_INDEX = "search-index.txt"
SEARCH_INDEX_LIVE = "search-index-live.txt"  # the same, of the live skills alone
# blob id -> the places a skill's Markdown or a reference file may name a skill (see
# references/scan): what `refs` and a pass's load step would otherwise re-read and re-scan;
# beside them the last graph built, under the digest of the tree's entries, the skills'
# locations, the reference_files globs and the absorbed names (curation/reference_cache).
REFERENCES_CACHE = "references-cache.json"
# validate's work-tree records and last whole-library result, and its per-skill results by
# content (commands/validate_cache)
VALIDATE_CACHE = "validate-cache.json"
VALIDATE_RESULTS = "validate-results.json"
# the last whole-library result and a stat fingerprint of the work tree it holds for
# (commands/validate_quick): an unchanged library's answer without reading the two above
VALIDATE_QUICK = "validate-quick.json"
# The notes tree's folders the last notes write left, as raw trees by id, each checked against
# its id before use (store/notes_tree_cache): the next flush edits them without reading them.
NOTES_TREES_CACHE = "notes-trees.bin"
# what that result was put together from, each skill's findings and name and each reference
# source's warnings, beside the fingerprint's stat data (commands/validate_base): the result
# after a few edits, with only the changed skills checked again (commands/validate_delta)
VALIDATE_BASE = "validate-base.json"

_read_only = False


def state_folder(common_dir: Path) -> Path:
    """gitcurator's per-clone state folder inside the git common dir `common_dir`."""
    return common_dir / STATE_DIR


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Within this block cache writes are skipped: a dry run leaves .git/ byte for byte."""
    global _read_only
    previous, _read_only = _read_only, True
    try:
        yield
    finally:
        _read_only = previous


def is_read_only() -> bool:
    """Inside read_only(): nothing will be written, so a cache's text need not be built."""
    return _read_only


def temporary_path(path: Path) -> Path:
    """A file beside `path` that no other process or thread writes (threads share the pid)."""
    return path.with_name(f"{path.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")


def ensure_folder(folder: Path) -> None:
    """Create `folder` (and its parents) if missing; StateFileError naming it and the fix if
    it cannot be (a file in its place, a read-only parent, a full disk)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unusable(folder, exc, folder=True) from None


# Never through a symlink: a link planted in .git/gitcurator would have gitcurator truncate or
# write whatever it points to (as root: any file). O_NONBLOCK: a FIFO there must not hang us.
_SAFE = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def open_regular(path: Path | str, flags: int, mode: int = 0o644) -> int:
    """A descriptor on `path` opened with `flags`, never through a symlink and only if it is
    a regular file; StateFileError naming the path and the fix otherwise."""
    try:
        fd = os.open(path, flags | _SAFE, mode)
    except OSError as exc:
        raise unusable(path, exc) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise unusable(path, None)
    return fd


def unusable(path: Path | str, exc: OSError | None, *, folder: bool = False) -> StateFileError:
    """The error for a state file (or `folder`) gitcurator cannot use: what is wrong, the fix."""
    from pathlib import Path  # an error's import: `record` passes a string, and seldom fails

    path = Path(path)
    chain = [path, *path.parents] if folder else list(path.parents)
    blocker = next((p for p in chain if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        path, what = blocker, "a file where gitcurator needs a folder"
    elif path.is_symlink():
        what = "a symbolic link; gitcurator never writes its state through a link"
        return StateFileError(f"{path} is {what}: remove the link (`rm {path}`) and run this again")
    elif not folder and path.is_dir():
        what = "a folder where gitcurator keeps a file"
    elif path.exists() and exc is None:
        what = "not a regular file"
    else:
        why = exc.strerror if exc is not None else "unknown"
        return StateFileError(
            f"{path} cannot be written ({why}); make {path.parent} writable (or free disk "
            "space) and run this again"
        )
    return StateFileError(
        f"{path} is {what}: move it aside (`mv {path} {path}.old`) and run this again"
    )


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace `path` with `text` (str as UTF-8) so readers see the old or the new file, never
    a half.

    Neither the temporary file nor `path` is followed if it is a symlink: the link itself is
    replaced by the new file.
    """
    if _read_only:
        return
    ensure_folder(path.parent)
    if path.is_dir() and not path.is_symlink():
        raise unusable(path, None)
    tmp = temporary_path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _SAFE, 0o644)
    except FileExistsError as exc:  # something planted at the temporary name
        raise unusable(tmp, exc) from None
    except OSError as exc:  # a read-only folder, a full disk: name the file, not the temporary
        raise unusable(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):  # the disk filled while writing: say so, not exit 3
            raise unusable(path, exc) from None
        raise


def write_cache(path: Path, text: str | bytes) -> None:
    """write_atomic for a cache: one that cannot be written (a read-only or missing state
    folder, a full disk) is skipped, so reading commands still work; it is rebuilt later."""
    with contextlib.suppress(StateFileError, OSError):
        write_atomic(path, text)


def write_cache_json(path: Path, doc: object) -> None:
    """write_json for a cache: skipped when it cannot be written (see write_cache)."""
    if _read_only:  # nothing is written, so the text is not built (a cold dry run's 50 ms)
        return
    import json

    write_cache(path, json.dumps(doc, separators=(",", ":")))


def read_json(path: Path) -> Any:
    """The JSON document in `path`, or None if it is missing or not JSON."""
    # A document nested 100,000 deep is damage too, not a crash.
    data = read_regular(path)
    if data is None:
        return None
    import json

    try:
        return json.loads(data.decode("utf-8"))
    except JSON_READ_ERRORS:
        return None


def read_cache_json(path: Path, opening: bytes = b"") -> Any:
    """The JSON document of the cache `path`, or None if it is missing, not JSON, a link (a
    cache is this clone's own file, never another's), not a regular file, or does not begin
    with `opening` (a key written first: another key's document is not parsed)."""
    data = read_cache_bytes(path, opening)
    if data is None:
        return None
    import json

    try:
        return json.loads(data)
    except JSON_READ_ERRORS:  # UnicodeDecodeError is a ValueError
        return None


def read_cache_bytes(path: Path, opening: bytes = b"") -> bytes | None:
    """The bytes of the cache `path` as read_cache_json takes them (a regular file, never
    through a link, beginning with `opening`: the rest of another key's file is not read),
    None otherwise."""
    try:
        fd = open_regular(path, os.O_RDONLY)
    except StateFileError:
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            data = file.read(len(opening))
            return data + file.read() if data == opening else None
    except OSError:
        return None


def read_regular(path: Path, size: int = -1) -> bytes | None:
    """The bytes of `path` (its first `size`, when given) if it is a regular file (a link to
    one is read, as a dotfile folder may hold the registry), else None: a FIFO planted at a
    cache's name hung every command reading it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                return None
            return file.read(size)
    except OSError:
        return None


def write_json(path: Path, doc: object) -> None:
    """Write a compact JSON document atomically (ASCII, so surrogate-escaped paths survive)."""
    import json

    write_atomic(path, json.dumps(doc, separators=(",", ":")))
