"""Steps that must happen together or not at all: Ctrl-C and SIGTERM held until they are done."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

_deferring = False


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT), and SIGTERM where it stops the process the same way, until the
    block is done, then raise KeyboardInterrupt.

    For steps that must happen together or not at all: the work tree moving with its branch
    ref (seconds at thousands of skills), a merge and the archive times it records. Nested
    blocks defer to the outermost; outside the main thread, or where SIGINT is ignored, it is
    a no-op.
    """
    global _deferring
    if (
        _deferring
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: object) -> None:
        if not caught:
            # The one line a person sees while the step finishes; output.py does the writing.
            from gitcurator.output import warn

            warn("gitcurator: finishing this step first, then stopping")
        caught.append(signum)

    # SIGTERM is held only where a handler turns it into KeyboardInterrupt (the entry point
    # installs one); left at its default it ends the process outright, as SIGKILL does.
    held = [signal.SIGINT]
    if callable(signal.getsignal(signal.SIGTERM)):
        held.append(signal.SIGTERM)
    previous = {signum: signal.signal(signum, hold) for signum in held}
    _deferring = True
    try:
        yield
    finally:
        _deferring = False
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if caught:
        raise KeyboardInterrupt


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Keep Ctrl-C and SIGTERM pending (blocked in the kernel) for the few instructions of
    the block; they arrive, as KeyboardInterrupt, when it ends.

    For steps too small to announce and too tight for a Python handler: creating a lock file
    and noting that we own it, renaming it into place. Where threads cannot block signals
    (no pthread_sigmask), it is a no-op.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
