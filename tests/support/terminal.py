"""Run gitcurator as a real process on a terminal (a pty), as a person's is: with only stderr
on it (progress bars), or stdout and stderr both (colour, the pager)."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class TerminalRun:
    code: int
    out: str  # stdout, captured through a pipe
    terminal: str  # everything written to the terminal (stderr)


def run_on_a_terminal(
    *args: str, cwd: Path | None = None, timeout: float = 120, env: Mapping[str, str] | None = None
) -> TerminalRun:
    """`gitcurator ARGS` with stdout piped and stderr on a pty, the pty read as it fills
    (a full pty would block the process), on a terminal that can draw a bar (CI's TERM may be
    dumb or unset) unless `env` says otherwise."""
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
            env={**os.environ, "TERM": "xterm-256color", **(env or {})},
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


def run_on_terminal(
    args: list[str],
    cwd: Path,
    env: Mapping[str, str | None] | None = None,
    timeout: float = 120,
    interrupt_after: float | None = None,
    interrupt_on: bytes | None = None,
) -> tuple[int, str]:
    """`gitcurator ARGS` on a pty with `env` changed (None removes a variable): its exit code
    and everything the terminal showed; sent SIGINT (Ctrl-C) after `interrupt_after` seconds,
    or as soon as the terminal shows `interrupt_on`."""
    # A terminal that takes colour unless a test says otherwise (CI may set no TERM).
    environ = {**os.environ, "TERM": "xterm-256color"}
    for key, value in (env or {}).items():
        if value is None:
            environ.pop(key, None)
        else:
            environ[key] = value
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "gitcurator", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env=environ,
    ) as proc:
        os.close(follower)
        if interrupt_after is not None:
            timer = threading.Timer(interrupt_after, proc.send_signal, [signal.SIGINT])
            timer.start()
        seen = b""
        while True:  # read as it comes: a full pty would block the process
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            seen += chunk
            if interrupt_on is not None and interrupt_on in seen:
                proc.send_signal(signal.SIGINT)
                interrupt_on = None
        code = proc.wait(timeout=timeout)
    os.close(leader)
    return code, seen.decode("utf-8", "replace").replace("\r\n", "\n")
