"""Reading an agent's logs from where the last ingest stopped: streaming, whole lines only.

A log is read line by line from a remembered offset (a 1 GB transcript is never in memory; a
line longer than MAX_LINE is skipped as it streams by). A last line without its newline is
being written: it is left for the next ingest. Offsets are remembered per file in the clone's
state folder (.git/gitcurator/ingest/<agent>.json) with the file's inode and the `--since`
they were read with, so a rotated file or an earlier `--since` is read again; what is read
twice counts once anyway (event ids).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gitcurator.statefiles import read_json, write_json

FOLDER = "ingest"
MAX_LINE = 16 << 20


def complete_lines(path: Path, start: int) -> Iterator[tuple[int, bytes]]:
    """(offset after the line, line) for each whole line of `path` from `start`."""
    with path.open("rb") as f:
        f.seek(start)
        pos = start
        while True:
            line = f.readline(MAX_LINE + 1)
            if not line:
                return
            if not line.endswith(b"\n"):
                if len(line) <= MAX_LINE:
                    return  # torn: still being written
                pos = _skip_rest(f, pos + len(line))  # overlong: never held whole
                if pos < 0:
                    return
                continue
            pos += len(line)
            yield pos, line


def _skip_rest(f: Any, pos: int) -> int:
    while True:
        piece = f.readline(MAX_LINE)
        if not piece:
            return -1
        pos += len(piece)
        if piece.endswith(b"\n"):
            return pos


class Cursors:
    """Where each log was read up to, for one agent."""

    def __init__(self, state: Path, agent: str) -> None:
        self.path = state / FOLDER / f"{agent}.json"
        doc = read_json(self.path)
        self.files: dict[str, Any] = doc if isinstance(doc, dict) else {}

    def start(self, log: Path, since: str | None) -> int:
        """The offset to read `log` from (0 when it changed or an earlier --since is asked)."""
        entry = self.files.get(str(log))
        try:
            info = log.stat()
        except OSError:
            return 0
        if not isinstance(entry, dict) or entry.get("inode") != info.st_ino:
            return 0
        offset = entry.get("offset")
        read_since = entry.get("since")
        covered = read_since is None or (since is not None and since >= read_since)
        if not isinstance(offset, int) or offset > info.st_size or not covered:
            return 0
        return offset

    def done(self, log: Path, offset: int, since: str | None) -> None:
        """Remember that `log` was read up to `offset` with `since`."""
        self.files[str(log)] = {"inode": log.stat().st_ino, "offset": offset, "since": since}

    def save(self) -> None:
        """Write the offsets (atomically)."""
        write_json(self.path, self.files)
