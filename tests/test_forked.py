"""forked: work done in a child process comes back as bytes, a failure as None."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gitcurator import forked, locks


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


def test_an_interrupt_while_waiting_stops_the_child() -> None:
    # init's nested-repository walker ran on after an interrupt and wrote into the .git the
    # undo had removed.
    import signal

    child = forked.start(lambda: time.sleep(30) or b"")

    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            child.result()
    finally:
        signal.signal(signal.SIGALRM, old)
    assert child.reaped
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # already reaped: no such child


def test_a_reaped_child_is_not_signalled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    child = forked.start(lambda: b"done")
    assert child.result() == b"done"
    killed: list[int] = []
    monkeypatch.setattr(forked.os, "kill", lambda pid, sig: killed.append(pid))
    child.stop()  # its pid may be another process's by now
    assert killed == []


def test_work_beside_comes_back_once_and_a_block_left_early_stops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(forked.os, "cpu_count", lambda: 2)
    with forked.Beside(lambda: b"%d" % os.getpid()) as beside:
        child = beside.child
        assert child is not None and beside.result() == b"%d" % child.pid
        assert beside.result() is None  # taken once
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), forked.Beside(lambda: time.sleep(60) or b"") as b:
        pid = b.child.pid if b.child else 0
        raise KeyboardInterrupt
    assert time.monotonic() - started < 30
    with pytest.raises(ChildProcessError):  # ended and reaped, not left running
        os.waitpid(pid, 0)


def test_no_work_beside_on_one_core_or_when_not_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    with forked.Beside(lambda: b"x", wanted=False) as beside:
        assert beside.child is None and beside.result() is None
    monkeypatch.setattr(forked.os, "cpu_count", lambda: 1)
    with forked.Beside(lambda: b"x") as beside:
        assert beside.child is None and beside.result() is None


def test_a_child_ends_with_its_parent_and_lets_go_of_the_locks_it_shares(tmp_path: Path) -> None:
    # A pass SIGKILLed (the OOM killer, kill -9) while its reference scan ran beside it: the
    # orphaned child ran its work to the end holding the pass lock's flock (a fork shares
    # it), so the next pass was told another was running, by a pid long dead.
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from gitcurator import forked, locks\n"
        "forked.os.cpu_count = lambda: 2\n"
        "held = locks.pass_lock(Path(sys.argv[1]))\n"
        "with held, forked.Beside(lambda: time.sleep(30) or b'') as b:\n"
        "    print(b.child.pid if b.child else 0, flush=True)\n"
        "    time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert child
    parent.kill()
    parent.wait()
    parent.stdout.close()
    try:
        with locks.pass_lock(tmp_path, wait_seconds=5):
            pass
    except locks.PassBusy:
        # It ran on: alive, as the lock it holds says, so the pid is still its own to end.
        os.kill(child, signal.SIGKILL)
        raise
