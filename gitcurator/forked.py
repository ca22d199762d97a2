"""Work done in a forked child process, its result (bytes) read back over a private pipe:
init's check workers (commands/parallel_checks) and the pack writer's second compressor
(store/pack_writer) run through it, so a big first commit uses every core.

Plain forks and pipes, not multiprocessing: a Pool's handler threads may fork a replacement
worker while they hold a lock, and that worker then waits for good. A child never returns
into the caller: it exits 0 after writing its result, 1 on any failure (its result is then
None, and the caller does that share itself).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Self


def can_fork() -> bool:
    """Whether forking is safe here: POSIX, and no other thread (a server calling in) that
    might hold a lock the child would then wait on for good."""
    import threading

    return hasattr(os, "fork") and threading.active_count() == 1


@dataclass(slots=True)
class Child:
    """A forked child at work: its pid and the pipe its result comes from."""

    pid: int
    fd: int
    reaped: bool = False

    def result(self) -> bytes | None:
        """The child's result once it is done (None if it failed); it is reaped and its
        pipe closed. An interrupt while waiting stops it first, so it never runs on."""
        try:
            with os.fdopen(self.fd, "rb") as pipe:
                data = pipe.read()
            _, status = os.waitpid(self.pid, 0)
        except BaseException:
            self.stop()
            raise
        self.reaped = True
        return data if os.waitstatus_to_exitcode(status) == 0 else None

    def stop(self) -> None:
        """End the child and reap it (after a failure or an interrupt); nothing once it is
        reaped, as its pid may be another process's by then."""
        if self.reaped:
            return
        self.reaped = True
        with contextlib.suppress(OSError):
            os.close(self.fd)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(self.pid, 0)


def start(work: Callable[[], bytes]) -> Child:
    """A child running `work`; call result() or stop() on it exactly once."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        code = 1
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _ends_with(parent)
            data = work()
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return Child(pid, read_end)


def _ends_with(parent: int) -> None:
    """End this child once `parent` is gone (SIGKILL, the OOM killer): it ran its work on,
    holding the flocks the fork shared (the pass lock) and writing caches for no command."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.05)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def another_core() -> bool:
    """Whether a child would run beside the caller: a second core, and forking is safe."""
    return (os.cpu_count() or 1) >= 2 and can_fork()


class Beside:
    """`work` run in a child beside the caller's own work, when `wanted` and another core
    may (else not at all), as a with-block: leaving it stops a child whose result was not
    taken (a failure or an interrupt meanwhile), so none runs on after its caller."""

    def __init__(self, work: Callable[[], bytes], wanted: bool = True) -> None:
        self.child = start(work) if wanted and another_core() else None

    def result(self) -> bytes | None:
        """The child's result, taken once; None when none ran or it failed (do it yourself)."""
        child, self.child = self.child, None
        return None if child is None else child.result()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.child is not None:
            self.child.stop()
            self.child = None
