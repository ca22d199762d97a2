"""store.lock_files: every lock file dulwich creates is noted as ours until it is renamed into
place or removed, so the error handler can remove what an interrupt left."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from dulwich.file import GitFile

from gitcurator.locks import own_lock_files, remove_own_lock_files
from gitcurator.store import Store  # noqa: F401 -- importing the store guards dulwich's locks
from gitcurator.store.interrupts import signals_blocked


def test_a_lock_file_is_ours_until_it_is_renamed_into_place(tmp_path: Path) -> None:
    target = tmp_path / "ref"
    f = GitFile(target, "wb")
    f.write(b"new\n")
    assert own_lock_files() == [f"{target}.lock"]
    f.close()
    assert own_lock_files() == []
    assert target.read_bytes() == b"new\n"


def test_an_aborted_lock_file_is_forgotten(tmp_path: Path) -> None:
    f = GitFile(tmp_path / "ref", "wb")
    f.abort()
    assert own_lock_files() == []
    assert not (tmp_path / "ref.lock").exists()


def test_a_write_cut_short_leaves_its_lock_for_the_way_out(tmp_path: Path) -> None:
    # An interrupt between taking the lock and closing it: dulwich never gets to abort.
    target = tmp_path / "ref"
    target.write_bytes(b"old\n")
    f = GitFile(target, "wb")
    f.write(b"half")
    assert remove_own_lock_files() == [f"{target}.lock"]
    assert not (tmp_path / "ref.lock").exists()
    assert target.read_bytes() == b"old\n"  # never a partial write in place
    f._file.close()
    f._closed = True  # what dulwich's own abort would have done


def test_signals_wait_until_the_blocked_step_is_done() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt):
        with signals_blocked():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("the step")
        done.append("after the step")  # pragma: no cover -- the interrupt comes first
    assert done == ["the step"]


def test_ctrl_c_just_after_dulwich_creates_a_lock_leaves_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The window that left objects/xx/<id>.lock behind: the signal lands after dulwich's
    # os.open(O_EXCL) and before it has stored the file it opened.
    import dulwich.file

    from gitcurator.error_handler import guarded

    real_fdopen = os.fdopen

    def ctrl_c_then_fdopen(fd: int, *args: object, **kwargs: object) -> object:
        os.kill(os.getpid(), signal.SIGINT)
        return real_fdopen(fd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(dulwich.file.os, "fdopen", ctrl_c_then_fdopen)

    def write_a_ref() -> int:
        with GitFile(tmp_path / "ref", "wb") as f:
            f.write(b"new\n")
        return 0

    assert guarded(write_a_ref) == 130
    monkeypatch.undo()
    assert not (tmp_path / "ref.lock").exists()
    assert not (tmp_path / "ref").exists()
