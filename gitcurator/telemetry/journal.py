"""The hot path: append usage events to a journal inside .git/, cheaply and without loss.

Imports only the standard library (no dulwich, no click): an agent calls this on every skill
load. Many processes may append at once; `flush` (telemetry.py) later renames the journal to a
segment and folds it into the notes. A writer holds a shared lock on the journal while it
writes and checks that the file it locked is still the journal, so a flush that renamed it in
between never loses the line: the writer retries on the new journal.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

STATE_DIR = "gitcurator"
JOURNAL = "journal.jsonl"
SEGMENTS = "segments"
NAMES_CACHE = "names.tsv"
HOST_FILE = "host"
LOCK_FILE = "notes.lock"


class JournalError(Exception):
    """The journal cannot be written (permissions, disk full)."""


def find_gitdir(start: Path) -> tuple[Path, Path]:
    """(work tree root, git dir) for `start`, following a `.git` file (worktrees, submodules)."""
    here = start.absolute()
    for folder in (here, *here.parents):
        dotgit = folder / ".git"
        if dotgit.is_dir():
            return folder, dotgit
        if dotgit.is_file():
            text = dotgit.read_text(encoding="utf-8").strip()
            if text.startswith("gitdir:"):
                target = Path(text[len("gitdir:") :].strip())
                return folder, target if target.is_absolute() else (folder / target).resolve()
    raise FileNotFoundError(str(start))


def common_dir(gitdir: Path) -> Path:
    """Where refs and objects live (differs from gitdir in a linked worktree)."""
    pointer = gitdir / "commondir"
    if pointer.exists():
        target = Path(pointer.read_text(encoding="utf-8").strip())
        return target if target.is_absolute() else (gitdir / target).resolve()
    return gitdir


def read_head(gitdir: Path) -> str | None:
    """The commit id HEAD resolves to, read from the ref files (None without commits)."""
    text = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
    if not text.startswith("ref:"):
        return text or None
    return read_ref(common_dir(gitdir), text[4:].strip())


def read_ref(commondir: Path, ref: str) -> str | None:
    """A ref's commit id from its loose file or packed-refs."""
    loose = commondir / ref
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
        value = loose.read_text(encoding="utf-8").strip()
        if value.startswith("ref:"):
            return read_ref(commondir, value[4:].strip())
        return value or None
    with contextlib.suppress(FileNotFoundError):
        for line in (commondir / "packed-refs").read_text(encoding="utf-8").splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    return None


def state_dir(gitdir: Path) -> Path:
    """gitcurator's per-clone state: journal, segments, caches, schedule, host id."""
    return common_dir(gitdir) / STATE_DIR


def host_id(state: Path) -> str:
    """This clone's host id, chosen once (hostname plus random suffix) and kept in .git/."""
    path = state / HOST_FILE
    # A damaged id file (not UTF-8, not an id) is replaced below, never a reason to fail.
    with contextlib.suppress(FileNotFoundError, UnicodeDecodeError):
        value = path.read_text(encoding="utf-8").strip()
        if re.fullmatch(r"[A-Za-z0-9._-]{1,64}", value):
            return value
    import secrets
    import socket

    base = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname())[:48] or "host"
    value = f"{base}-{secrets.token_hex(3)}"
    state.mkdir(parents=True, exist_ok=True)
    tmp = state / f"{HOST_FILE}.{_unique()}.tmp"
    tmp.write_text(value + "\n", encoding="utf-8")
    try:
        # link() fails if another process chose first; theirs wins and both agree.
        os.link(tmp, path)
    except FileExistsError:
        existing = path.read_bytes().decode("utf-8", "replace").strip()
        if re.fullmatch(r"[A-Za-z0-9._-]{1,64}", existing):
            value = existing
        else:
            os.replace(tmp, path)  # a damaged id file: replace it, never keep using it
    finally:
        tmp.unlink(missing_ok=True)
    return value


def _unique() -> str:
    """A temporary-file suffix no other process or thread uses (pid alone is shared by threads)."""
    return f"{os.getpid()}.{os.urandom(6).hex()}"


def event_line(
    kind: str,
    names: list[str],
    at: str,
    host: str,
    source: str | None = None,
    event_id: str | None = None,
) -> bytes:
    """One journal line: every name of one `record` call, written in a single write().

    `source` (who reported it: cli, api, claude-code, codex, hermes, mcp) and `event_id` (the
    agent's own id for the event, so a hook and a backfill of it count once) are written only
    when given, so lines from before they existed and lines without them read alike.
    """
    doc: dict[str, object] = {"v": 1, "k": kind, "t": at, "h": host, "n": names}
    if source is not None:
        doc["s"] = source
    if event_id is not None:
        doc["i"] = event_id
    return (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def append(state: Path, line: bytes) -> None:
    """Append one line to the journal, safe against concurrent writers and a concurrent flush."""
    state.mkdir(parents=True, exist_ok=True)
    path = state / JOURNAL
    for _ in range(100):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
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
    import uuid

    segments = state / SEGMENTS
    segments.mkdir(parents=True, exist_ok=True)
    segment = segments / f"{time.time_ns():020d}-{uuid.uuid4().hex}.jsonl"
    try:
        os.rename(state / JOURNAL, segment)
    except FileNotFoundError:
        return None
    fd = os.open(segment, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # returns once every writer that locked it has finished
    finally:
        os.close(fd)
    return segment


def segment_files(state: Path) -> list[Path]:
    """Segments waiting to be folded, oldest first."""
    folder = state / SEGMENTS
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


class Event(NamedTuple):
    kind: str
    names: tuple[str, ...]
    at: str
    host: str
    source: str | None = None
    event_id: str | None = None


def read_events(path: Path) -> tuple[list[Event], list[str]]:
    """The events of a journal or segment, and a problem line for each unreadable line."""
    events: list[Event] = []
    problems: list[str] = []
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return events, problems
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        lines.pop()  # a line still being written by a concurrent writer: read it next time
    for number, raw in enumerate(lines, 1):
        event = _parse(raw)
        if event is None:
            # A line that could not become a valid record must not block every later flush.
            problems.append(f"{path.name}:{number}: unreadable journal line skipped")
            # A torn line (a writer killed mid-write, a file cut short) has the next call's
            # whole line appended to it: keep that event, skip only the torn start.
            start = raw.rfind(_LINE_START)
            event = _parse(raw[start:]) if start > 0 else None
        if event is not None:
            events.append(event)
    return events, problems


_LINE_START = b'{"v":'  # how every line event_line() writes begins


def _parse(raw: bytes) -> Event | None:
    try:
        doc = json.loads(raw)
        if not isinstance(doc["n"], list):
            raise TypeError("names must be a list")
        event = Event(doc["k"], tuple(doc["n"]), doc["t"], doc["h"], doc.get("s"), doc.get("i"))
    except (ValueError, KeyError, TypeError):
        return None
    return event if _valid(event) else None


# The usage-record schema's rules for a skill name, a host id and a time, checked here so a
# damaged line is skipped on reading instead of failing the notes write of a whole flush.
_SKILL = re.compile(r"[^\sA-Z_/\\.-](?:-?[^\sA-Z_/\\.-])*")
_HOST = re.compile(r"[A-Za-z0-9._-]{1,64}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
SOURCE = re.compile(r"[a-z][a-z0-9-]{0,31}")
MAX_EVENT_ID = 200


def invalid_name_hint(names: list[str]) -> str:
    """For unknown names that no skill could ever have, why: a folder `list` shows under such
    a name (`My Skill`, `PDF-Tools`) takes no usage, pins or origins until it is renamed."""
    bad = [n for n in names if len(n) > 64 or _SKILL.fullmatch(n) is None]
    if not bad:
        return ""
    shown = ", ".join(repr(n) for n in bad)
    return (
        f"; {shown} {'is not a valid skill name' if len(bad) == 1 else 'are not valid skill names'}"
        " (lower-case letters, digits and single hyphens); a skill folder so named takes no "
        "usage, pins or origins until it is renamed (see `gitcurator validate`)"
    )


# `create` and `edit`: a skill an agent wrote or edited (seen by its hook or plugin).
KINDS = ("use", "view", "create", "edit")


def _valid(event: Event) -> bool:
    return (
        event.kind in KINDS
        and isinstance(event.at, str)
        and _TIME.fullmatch(event.at) is not None
        and isinstance(event.host, str)
        and _HOST.fullmatch(event.host) is not None
        and (
            event.source is None
            or (isinstance(event.source, str) and bool(SOURCE.fullmatch(event.source)))
        )
        and (
            event.event_id is None
            or (isinstance(event.event_id, str) and 0 < len(event.event_id) <= MAX_EVENT_ID)
        )
        and all(
            isinstance(n, str) and len(n) <= 64 and _SKILL.fullmatch(n) is not None
            for n in event.names
        )
    )


@contextlib.contextmanager
def exclusive(state: Path, timeout: float = 60.0) -> Iterator[None]:
    """The lock every writer of the notes ref holds (flush, pin, track, import, sync)."""
    with _notes_lock(state, fcntl.LOCK_EX, timeout):
        yield


@contextlib.contextmanager
def shared(state: Path, timeout: float = 60.0) -> Iterator[None]:
    """Held by readers of notes + journal, so they never see a flush half done."""
    with _notes_lock(state, fcntl.LOCK_SH, timeout):
        yield


@contextlib.contextmanager
def _notes_lock(state: Path, kind: int, timeout: float) -> Iterator[None]:
    if kind == fcntl.LOCK_SH and not (state / LOCK_FILE).exists():
        # No writer has ever run here, so there is nothing to wait for; and a reader (a dry
        # run) must not create files.
        yield
        return
    state.mkdir(parents=True, exist_ok=True)
    fd = os.open(state / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, kind | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(str(state / LOCK_FILE)) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)


def lookup_names(state: Path, head: str | None, names: list[str]) -> dict[str, str] | None:
    """Each asked name's skill from the cache for commit `head` (unknown names are left out),
    or None if the cache is for another commit.

    The cache is searched as text rather than parsed: at 10,000 skills building the whole
    dict costs ~3 ms a call, finding a few lines ~0.1 ms.
    """
    try:
        text = (state / NAMES_CACHE).read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None  # no cache, or a damaged one: the caller rebuilds it
    if not text.startswith(f"head {head}\n"):
        return None
    found: dict[str, str] = {}
    for name in names:
        if not name or any(c in name for c in "\t\n\r"):
            continue  # never a skill name; it must not match across lines of the cache
        needle = f"\n{name}"
        at = text.find(needle)
        while at != -1:
            end = at + len(needle)
            after = text[end : end + 1]  # "" at the end of a cache cut short
            if after == "\n":
                found[name] = name
                break
            if after == "\t":
                stop = text.find("\n", end)
                if stop != -1:
                    found[name] = text[end + 1 : stop]
                break
            at = text.find(needle, end)
    return found


def write_names(state: Path, head: str | None, names: dict[str, str]) -> None:
    """Cache the name → skill map for commit `head` (atomically replaced)."""
    from gitcurator.statefiles import write_atomic

    lines = [f"head {head}"] + [
        name if target == name else f"{name}\t{target}" for name, target in sorted(names.items())
    ]
    write_atomic(state / NAMES_CACHE, "\n".join(lines) + "\n")
