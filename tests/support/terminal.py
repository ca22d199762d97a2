"""Run gitcurator as a real process whose stderr is a terminal (a pty), as a person's is."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class TerminalRun:
    code: int
    out: str  # stdout, captured through a pipe
    terminal: str  # everything written to the terminal (stderr)


def run_on_a_terminal(*args: str, cwd: Path | None = None, timeout: float = 120) -> TerminalRun:
    """`gitcurator ARGS` with stdout piped and stderr on a pty, the pty read as it fills
    (a full pty would block the process)."""
    leader, follower = pty.openpty()
    seen: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        with subprocess.Popen(
            [sys.executable, "-m", "gitcurator", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=follower,
        ) as proc:
            os.close(follower)
            out, _ = proc.communicate(timeout=timeout)
        reader.join(timeout=10)
    finally:
        os.close(leader)
    text = b"".join(seen).decode("utf-8", "replace")
    return TerminalRun(proc.returncode, out.decode("utf-8", "replace"), text)
