"""Run the CLI as a process whose stdout and stderr are a real terminal (a pty)."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path


def run_on_terminal(
    args: list[str],
    cwd: Path,
    env: Mapping[str, str | None] | None = None,
    timeout: float = 120,
    interrupt_after: float | None = None,
) -> tuple[int, str]:
    """`gitcurator ARGS` on a pty with `env` changed (None removes a variable): its exit code
    and everything the terminal showed; sent SIGINT (Ctrl-C) after `interrupt_after` seconds."""
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
        code = proc.wait(timeout=timeout)
    os.close(leader)
    return code, seen.decode("utf-8", "replace").replace("\r\n", "\n")
