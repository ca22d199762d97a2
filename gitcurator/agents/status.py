"""What each connected agent last sent, and the skill names it asked for that the library lacks.

Kept in the clone's state folder (.git/gitcurator/agents/): `<agent>.json` holds the last event
(replaced atomically, last writer wins), `<agent>.unknown` one line per unknown name (appended,
so concurrent hooks never lose a count; it stops growing at 1 MB). Failures of a hook go to
.git/gitcurator/hook.log, which is started afresh past 1 MB.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from pathlib import Path

from gitcurator.statefiles import read_json, write_json

FOLDER = "agents"
HOOK_LOG = "hook.log"
_CAP = 1 << 20
# O_NOFOLLOW: a hook.log or .unknown symlinked elsewhere is never written through.
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW


def folder(state: Path) -> Path:
    """Where the agents' status files live."""
    return state / FOLDER


def note_delivery(state: Path, agent: str, at: str, what: str, unknown: list[str]) -> None:
    """Remember the last event from `agent` and count the unknown names it sent."""
    where = folder(state)
    where.mkdir(parents=True, exist_ok=True)
    if what:
        write_json(where / f"{agent}.json", {"last_event_at": at, "last_event": what})
    if unknown:
        path = where / f"{agent}.unknown"
        size = 0
        with contextlib.suppress(FileNotFoundError):
            size = path.stat().st_size
        # A backfill brings its unknown loads at once: only what fits under the cap is kept.
        lines, room = [], _CAP - size
        for name in unknown:
            line = f"{_shown(name)}\n".encode("utf-8", "replace")
            room -= len(line)
            if room < 0:
                break
            lines.append(line)
        if not lines:
            return
        fd = os.open(path, _APPEND, 0o644)
        try:
            os.write(fd, b"".join(lines))
        finally:
            os.close(fd)


def _shown(name: str) -> str:
    """An unknown name as one safe line: an agent's name may hold a newline (two counts) or
    a terminal escape (`connect --list` prints it), and be megabytes long."""
    if not name.isprintable():
        name = name.encode("unicode_escape").decode("ascii")
    return name if len(name) <= 200 else name[:200] + "..."


def last_event(state: Path, agent: str) -> dict[str, str] | None:
    """The last event `agent` delivered ({last_event_at, last_event}), if any."""
    doc = read_json(folder(state) / f"{agent}.json")
    return doc if isinstance(doc, dict) else None


def unknown_names(state: Path, agent: str) -> Counter[str]:
    """How often `agent` asked for each name the library does not have."""
    try:
        text = (folder(state) / f"{agent}.unknown").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Counter()
    return Counter(line for line in text.splitlines() if line)


def log_failure(state: Path | None, agent: str, at: str, message: str) -> None:
    """One line in hook.log (or stderr when there is no repository to log into)."""
    line = f"{at} {agent}: {' '.join(message.split())[:2000]}\n"
    if state is None:
        os.write(2, f"gitcurator hook: {line}".encode("utf-8", "replace"))
        return
    state.mkdir(parents=True, exist_ok=True)
    path = state / HOOK_LOG
    with contextlib.suppress(FileNotFoundError):
        if path.stat().st_size > _CAP:
            os.replace(path, state / f"{HOOK_LOG}.1")
    fd = os.open(path, _APPEND, 0o644)
    try:
        os.write(fd, line.encode("utf-8", "replace"))
    finally:
        os.close(fd)
