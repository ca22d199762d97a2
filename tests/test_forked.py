"""forked: work done in a child process comes back as bytes, a failure as None."""

from __future__ import annotations

import os
import time

import pytest

from gitcurator import forked


def test_a_child_s_result_comes_back_and_it_is_reaped() -> None:
    child = forked.start(lambda: b"from pid %d" % os.getpid())
    assert child.result() == b"from pid %d" % child.pid
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, 0)


def test_a_child_that_fails_answers_none() -> None:
    def fails() -> bytes:
        raise RuntimeError("never seen by the caller")

    assert forked.start(fails).result() is None


def test_a_stopped_child_is_ended_and_reaped() -> None:
    def sleeps() -> bytes:
        time.sleep(60)
        return b""

    started = time.monotonic()
    child = forked.start(sleeps)
    child.stop()
    assert time.monotonic() - started < 30
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, 0)


def test_no_fork_beside_another_thread() -> None:
    import threading

    assert forked.can_fork()
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked.can_fork()
    finally:
        release.set()
        other.join()
