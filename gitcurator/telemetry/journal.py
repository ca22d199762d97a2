"""The hot path: append usage events to a journal inside .git/, cheaply and without loss.

Imports only the standard library (no dulwich, no click): an agent calls this on every skill
load. Many processes may append at once; a flush (telemetry.ledger) later renames the journal
to a segment and folds it into the notes. A writer holds a shared lock on the journal while it
writes and checks that the file it locked is still the journal, so a flush that renamed it in
between never loses the line: the writer retries on the new journal.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time

from gitcurator.errors import StateFileError
from gitcurator.statefiles import (
    JOURNAL,
    SEGMENT_SUFFIX,
    SEGMENTS,
    ensure_folder,
    open_regular,
    unusable,
)
from gitcurator.telemetry.events import LINE_START, Event, parse_line

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# The flocks here are not gitcurator.locks.file_lock, on purpose: they are taken on the journal
# itself, on the very descriptor the line is written through (O_APPEND), and the writer checks
# after locking that this descriptor is still the file named journal. That pairing of a shared
# lock and an inode check with `rotate`'s rename and exclusive lock is the whole protocol that
# keeps a line from being lost; a lock on a separate lock file could not give it.


class JournalError(Exception):
    """The journal cannot be written (permissions, disk full)."""


def append(state: str | os.PathLike[str], line: bytes) -> None:
    """Append one line to the journal, safe against concurrent writers and a concurrent flush."""
    path = os.path.join(state, JOURNAL)
    try:
        if not os.path.isdir(state):
            from pathlib import Path  # only to make the folder: `record` need not import it

            ensure_folder(Path(state))
        _append(path, line)
    except StateFileError as exc:
        raise JournalError(str(exc)) from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot be written ({exc.strerror})") from None


def _append(path: str, line: bytes) -> None:
    for _ in range(100):
        # Never through a symlink: events must not be written into a link's target.
        fd = open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                if os.write(fd, line) != len(line):
                    raise JournalError(f"{path}: short write (disk full?)")
                return
        finally:
            os.close(fd)
    raise JournalError(f"{path}: kept being rotated while writing; is a flush looping?")


def rotate(state: Path) -> Path | None:
    """Move the journal aside as a new segment and wait for writers still inside it."""
    segments = state / SEGMENTS
    # 128 random bits, as uuid4's hex (importing uuid, and platform with it, costs ~3 ms).
    segment = segments / f"{time.time_ns():020d}-{os.urandom(16).hex()}{SEGMENT_SUFFIX}"
    try:
        segments.mkdir(parents=True, exist_ok=True)
        os.rename(state / JOURNAL, segment)
    except FileNotFoundError:
        return None
    except OSError as exc:
        # A state folder that takes no new names (read-only, immutable, full): the journal
        # stays where it is, every event in it, and the message says what to fix.
        raise unusable(segments, exc, folder=True) from None
    fd = os.open(segment, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # returns once every writer that locked it has finished
    finally:
        os.close(fd)
    return segment


def segment_files(state: Path) -> list[Path]:
    """Segments waiting to be folded, oldest first."""
    folder = state / SEGMENTS
    return sorted(folder.glob("*" + SEGMENT_SUFFIX)) if folder.is_dir() else []


def read_events(path: Path) -> tuple[list[Event], list[str]]:
    """The events of a journal or segment, and a problem line for each unreadable line."""
    events: list[Event] = []
    problems: list[str] = []
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):  # no journal, or no state folder
        return events, problems
    except OSError as exc:
        raise unusable(path, exc) from None
    # A folder or a FIFO planted at the journal's name: refused, naming it (reading a FIFO
    # hung every command, a folder was an internal error).
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise unusable(path, None)
    with os.fdopen(fd, "rb") as file:
        data = file.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        lines.pop()  # a line still being written by a concurrent writer: read it next time
    for number, raw in enumerate(lines, 1):
        event = parse_line(raw)
        if event is None:
            # A line that could not become a valid record must not block every later flush.
            problems.append(f"{path.name}:{number}: unreadable journal line skipped")
            # A torn line (a writer killed mid-write, a file cut short) has the next call's
            # whole line appended to it: keep that event, skip only the torn start.
            start = raw.rfind(LINE_START)
            event = parse_line(raw[start:]) if start > 0 else None
        if event is not None:
            events.append(event)
    return events, problems
