"""locks.py: the one flock helper, the notes lock, and the pass lock (two passes never run at
once), with threads and with real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.interrupts import own_lock
from support.passes import curator_branches
from support.repos import run_process

from gitcurator.locks import (
    LockBusy,
    PassBusy,
    claim_lock_file,
    file_lock,
    notes_lock,
    own_lock_files,
    pass_lock,
    read_holder,
    release_lock_file,
    remove_own_lock_files,
)
from gitcurator.statefiles import NOTES_LOCK, PASS_LOCK, SCHEDULE_FILE

# A process that takes the pass lock of the folder in argv[1], says so, and holds it.
HOLDER = """
import sys, time
from pathlib import Path
from gitcurator.locks import pass_lock
with pass_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    time.sleep(120)
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A real process holding the pass lock of a state folder (killed at the end)."""
    state = tmp_path / "state"
    proc = _hold(state)
    yield state, proc
    _kill(proc)


def _hold(state: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(state)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "locked"
    return proc


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    if proc.stdout:
        proc.stdout.close()


# -- the helper and the notes lock -------------------------------------------------------

# A process that tries the notes lock of the folder in argv[1] for 0.2 s and says how it went.
TRY_NOTES = """
import sys
from pathlib import Path
from gitcurator.locks import notes_lock
try:
    with notes_lock(Path(sys.argv[1]), shared=sys.argv[2] == "shared", timeout=0.2):
        print("got it")
except TimeoutError:
    print("timed out")
"""


def _try_notes_lock(state: Path, how: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", TRY_NOTES, str(state), how], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_exclusive_notes_lock_keeps_out_a_second_holder(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with notes_lock(state):
        assert _try_notes_lock(state, "exclusive") == "timed out"
        assert _try_notes_lock(state, "shared") == "timed out"
    with notes_lock(state, timeout=0.2):
        pass  # released on exit


def test_shared_notes_locks_share_and_a_reader_creates_no_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with notes_lock(state, shared=True):
        pass
    assert not state.exists(), "a reader (a dry run) must not create files"
    with notes_lock(state):
        pass
    with notes_lock(state, shared=True):
        assert _try_notes_lock(state, "shared") == "got it"
        assert _try_notes_lock(state, "exclusive") == "timed out"
    assert (state / NOTES_LOCK).exists()


def test_file_lock_creates_its_folder_and_gives_up_after_wait(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b.lock"
    with file_lock(path) as fd:
        assert path.exists() and fd >= 0
        started = time.monotonic()
        other = threading.Thread(target=lambda: _expect_busy(path))
        other.start()
        other.join()
        assert time.monotonic() - started >= 0.2
    with file_lock(path, wait=0):
        pass


def _expect_busy(path: Path) -> None:
    # flock is per open file: another descriptor in this process is refused like a process
    with pytest.raises(LockBusy), file_lock(path, wait=0.2):
        pass


def test_a_blocking_file_lock_waits_for_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    order: list[str] = []
    with file_lock(path):
        waiter = threading.Thread(target=lambda: _take_and_note(path, order))
        waiter.start()
        time.sleep(0.2)
        order.append("released")
    waiter.join(timeout=30)
    assert order == ["released", "taken"]


def _take_and_note(path: Path, order: list[str]) -> None:
    with file_lock(path):
        order.append("taken")


# -- the pass lock -----------------------------------------------------------------------


def test_holder_is_written_and_cleared(tmp_path: Path) -> None:
    with pass_lock(tmp_path):
        pid, started = read_holder(tmp_path / PASS_LOCK)
        assert pid == os.getpid()
        assert started is not None and started.endswith("Z")
    assert (tmp_path / PASS_LOCK).read_text() == ""
    assert read_holder(tmp_path / PASS_LOCK) == (None, None)


def test_creates_the_state_folder(tmp_path: Path) -> None:
    state = tmp_path / "a" / "b"
    with pass_lock(state):
        assert (state / PASS_LOCK).exists()


def test_reentrant_in_one_thread(tmp_path: Path) -> None:
    with pass_lock(tmp_path), pass_lock(tmp_path / "." / ""):
        pass
    with pass_lock(tmp_path):  # released after the outer one ends, not the inner one
        pass


def test_another_thread_is_refused(tmp_path: Path) -> None:
    errors: list[BaseException] = []

    def second() -> None:
        try:
            with pass_lock(tmp_path):
                pass
        except PassBusy as exc:
            errors.append(exc)

    with pass_lock(tmp_path):
        thread = threading.Thread(target=second)
        thread.start()
        thread.join()
    assert len(errors) == 1
    assert f"pid {os.getpid()}" in str(errors[0])


def test_released_on_exceptions(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), pass_lock(tmp_path):
        raise RuntimeError("the pass broke")
    with pass_lock(tmp_path):
        pass


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", (None, None)),
        ("garbage", (None, None)),
        ("[1]", (None, None)),
        ('{"pid": "12", "started_at": 5}', (None, None)),
        ('{"pid": true}', (None, None)),
        ('{"pid": 12, "started_at": "2026-11-30T08:00:00Z"}', (12, "2026-11-30T08:00:00Z")),
    ],
)
def test_read_holder_is_forgiving(tmp_path: Path, text: str, expected: tuple[object, ...]) -> None:
    (tmp_path / PASS_LOCK).write_text(text)
    assert read_holder(tmp_path / PASS_LOCK) == expected


def test_busy_message_says_what_to_do() -> None:
    known = PassBusy(Path("/r/.git/gitcurator/pass.lock"), 42, "2026-11-30T08:00:00Z")
    assert str(known) == (
        "another curator pass is running (pid 42, started 2026-11-30T08:00:00Z); wait for it "
        "to finish or stop it (`kill 42`) if it is stuck, then run this again"
    )
    unknown = PassBusy(Path("/r/.git/gitcurator/pass.lock"), None, None)
    assert "(pid unknown)" in str(unknown)
    assert "/r/.git/gitcurator/pass.lock" in str(unknown)


# -- real processes -----------------------------------------------------------------------


def test_second_process_is_refused_at_once(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    state, proc = holder
    start = time.monotonic()
    with pytest.raises(PassBusy) as caught, pass_lock(state):
        pass
    assert time.monotonic() - start < 1
    assert caught.value.pid == proc.pid
    assert f"another curator pass is running (pid {proc.pid}, started " in str(caught.value)


def test_waits_up_to_wait_seconds(holder: tuple[Path, subprocess.Popen[str]]) -> None:
    state, _ = holder
    start = time.monotonic()
    with pytest.raises(PassBusy), pass_lock(state, wait_seconds=0.5):
        pass
    assert 0.4 < time.monotonic() - start < 5


def test_waiter_gets_the_lock_when_the_holder_ends(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    state, proc = holder
    threading.Timer(0.3, lambda: os.kill(proc.pid, signal.SIGTERM)).start()
    with pass_lock(state, wait_seconds=30):
        assert read_holder(state / PASS_LOCK)[0] == os.getpid()


def test_lock_of_a_killed_process_is_taken_over(tmp_path: Path) -> None:
    state = tmp_path / "state"
    proc = _hold(state)
    with pytest.raises(PassBusy), pass_lock(state):
        pass
    _kill(proc)  # kill -9: no chance to clean up; the file still names the dead holder
    assert read_holder(state / PASS_LOCK)[0] == proc.pid
    with pass_lock(state):
        assert read_holder(state / PASS_LOCK)[0] == os.getpid()


def test_run_is_refused_while_another_pass_runs_then_takes_over(agent_repo: Path) -> None:
    """The CLI end to end: `gitcurator run` as a real process against a real holder."""
    state = agent_repo / ".git" / "gitcurator"
    proc = _hold(state)
    try:
        refused = run_process("run", "--now", "2030-01-01T00:00:00Z", "-C", str(agent_repo))
        assert refused.returncode == 1, refused
        assert f"another curator pass is running (pid {proc.pid}, started " in refused.stderr
        assert f"`kill {proc.pid}`" in refused.stderr
        assert curator_branches(agent_repo) == []

        waiting = run_process("maybe-run", "--json", "-C", str(agent_repo))
        assert waiting.returncode == 0, waiting  # maybe-run skips: it is no failure
        doc = json.loads(waiting.stdout)
        assert doc["ran"] is False
        assert doc["reason"].startswith(f"another curator pass is running (pid {proc.pid}")
        assert not (state / SCHEDULE_FILE).exists()  # not even the clock was started
    finally:
        _kill(proc)  # SIGKILL: the kernel drops the flock
    taken = run_process("run", "--now", "2030-01-01T00:00:00Z", "-C", str(agent_repo))
    assert taken.returncode == 0, taken
    assert curator_branches(agent_repo) == ["curator/20300101-000000"]


# -- lock files this process created ---------------------------------------------------------


def test_an_unreleased_lock_file_is_removed_on_the_way_out(tmp_path: Path) -> None:
    lock = own_lock(tmp_path / "main.lock")
    assert own_lock_files() == [str(lock)]
    assert remove_own_lock_files() == [str(lock)]
    assert not lock.exists()
    assert own_lock_files() == []


def test_a_released_lock_file_is_left_alone(tmp_path: Path) -> None:
    lock = own_lock(tmp_path / "main.lock")
    release_lock_file(str(lock))
    assert remove_own_lock_files() == []
    assert lock.exists()


def test_a_lock_another_writer_took_after_ours_was_renamed_is_not_ours(tmp_path: Path) -> None:
    lock, target = own_lock(tmp_path / "main.lock"), tmp_path / "main"
    os.replace(lock, target)  # ours is in place; an interrupt came before we forgot it
    lock.write_text("another writer's\n")
    assert remove_own_lock_files() == []
    assert lock.read_text() == "another writer's\n"


def test_a_thread_removes_only_the_lock_files_it_created(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.lock"

    worker = threading.Thread(target=own_lock, args=(theirs,))
    worker.start()
    worker.join()
    assert remove_own_lock_files() == []
    assert theirs.exists()


def test_the_lock_files_are_listed_while_another_thread_notes_new_ones(tmp_path: Path) -> None:
    # The MCP server's threads write through dulwich while one command ends in another.
    fd = os.open(own_lock(tmp_path / "mine.lock"), os.O_RDONLY)
    stop, noted = threading.Event(), []

    def note_locks() -> None:
        # A bounded churn of notes and releases: the dict changes size all the time.
        turn = 0
        while not stop.is_set():
            path = str(tmp_path / f"{turn % 64}.lock")
            if turn % 128 < 64:
                claim_lock_file(path, fd)
                noted.append(path)
            else:
                release_lock_file(path)
            turn += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    worker = threading.Thread(target=note_locks)
    worker.start()
    try:
        for _ in range(5000):
            assert own_lock_files() == [str(tmp_path / "mine.lock")]
    finally:
        stop.set()
        worker.join()
        sys.setswitchinterval(old)
        for path in set(noted):
            release_lock_file(path)
        os.close(fd)
    assert remove_own_lock_files() == [str(tmp_path / "mine.lock")]
