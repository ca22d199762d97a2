"""A notes ref lock left by a gitcurator killed while it moved the ref is removed by the next
writer (its mark names a process that is gone); any other lock still stops the write."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.repos import git, run_cli

from gitcurator.statefiles import REF_WRITER

NOTES = "refs/notes/gitcurator"


def _dead_pid() -> int:
    """The pid of a process that has exited (and was reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def pending(repo: Path) -> Path:
    """`repo` with notes already written and one more use waiting for a flush."""
    r = str(repo)
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    assert run_cli("flush", "-C", r).code == 0
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    return repo


@pytest.fixture
def live_pid() -> Iterator[int]:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


def _left(repo: Path, mark: str | None) -> Path:
    """The notes ref's lock as a killed writer leaves it (dulwich had written the new id),
    with `mark` (None: none) in the writer's mark file."""
    lock = repo / ".git" / "refs" / "notes" / "gitcurator.lock"
    lock.write_text("0" * 40 + "\n")
    if mark is not None:
        (repo / ".git" / "gitcurator" / REF_WRITER).write_text(mark)
    return lock


def test_a_lock_a_killed_writer_left_is_removed_and_the_flush_goes_through(
    pending: Path,
) -> None:
    before = git("rev-parse", NOTES, cwd=pending).stdout
    lock = _left(pending, f"{_dead_pid()} {NOTES}\n")
    done = run_cli("flush", "-C", str(pending))
    assert done.code == 0, done
    assert git("rev-parse", NOTES, cwd=pending).stdout != before
    assert not lock.exists()
    assert not (pending / ".git" / "gitcurator" / REF_WRITER).exists()  # the flush's own mark
    assert git("fsck", "--strict", cwd=pending).returncode == 0


@pytest.mark.parametrize(
    "mark",
    [None, "live", "dead refs/notes/other\n", "not a mark", ""],
    ids=["no-mark", "live-writer", "another-ref", "damaged", "empty"],
)
def test_any_other_lock_still_stops_the_flush_naming_it(
    pending: Path, live_pid: int, mark: str | None
) -> None:
    if mark == "live":
        mark = f"{live_pid} {NOTES}\n"
    elif mark is not None and mark.startswith("dead"):
        mark = mark.replace("dead", str(_dead_pid()))
    before = git("rev-parse", NOTES, cwd=pending).stdout
    lock = _left(pending, mark)
    done = run_cli("flush", "-C", str(pending))
    assert done.code == 1, done
    assert f"the lock file {lock}" in done.err
    assert lock.exists()
    assert git("rev-parse", NOTES, cwd=pending).stdout == before


def test_a_write_leaves_no_mark_behind(pending: Path) -> None:
    assert run_cli("flush", "-C", str(pending)).code == 0
    assert not (pending / ".git" / "gitcurator" / REF_WRITER).exists()


def test_a_lock_made_long_after_a_dead_writers_mark_is_not_its_and_stays(pending: Path) -> None:
    """A mark left by a writer killed outside the lock's window, and a lock a live git took
    an hour later: the lock is not the dead writer's."""
    lock = _left(pending, f"{_dead_pid()} {NOTES}\n")
    hour_ago = time.time() - 3600
    os.utime(pending / ".git" / "gitcurator" / REF_WRITER, (hour_ago, hour_ago))
    done = run_cli("flush", "-C", str(pending))
    assert done.code == 1, done
    assert f"the lock file {lock}" in done.err
    assert lock.exists()
