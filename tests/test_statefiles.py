"""statefiles.py and the locks on it: nothing under .git/gitcurator is opened through a
symlink or as anything but a regular file, and a state folder that cannot be written stops
the writing commands with the path (exit 1) while the reading commands still work."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support.repos import run_cli

from gitcurator.errors import StateFileError
from gitcurator.locks import file_lock
from gitcurator.statefiles import (
    JOURNAL,
    NOTES_LOCK,
    PASS_LOCK,
    SCHEDULE_LOCK,
    STATE_DIR,
    read_only,
    write_atomic,
    write_cache,
    write_cache_json,
    write_json,
)


def _state(repo: Path) -> Path:
    return repo / ".git" / STATE_DIR


@pytest.mark.parametrize(
    ("name", "command"),
    [
        (PASS_LOCK, ["run"]),
        (NOTES_LOCK, ["pin", "pdf-extract"]),
        (SCHEDULE_LOCK, ["pause"]),
        (JOURNAL, ["record", "use", "pdf-extract"]),
    ],
)
def test_a_symlinked_state_file_leaves_its_target_intact(
    repo: Path, tmp_path: Path, name: str, command: list[str]
) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\x00bytes\n")
    link = _state(repo) / name
    link.unlink(missing_ok=True)
    link.symlink_to(victim)
    done = run_cli(*command, "-C", str(repo))
    assert done.code == 1, done
    assert f"{link} is a symbolic link" in done.err
    assert f"`rm {link}`" in done.err
    assert victim.read_bytes() == b"precious\x00bytes\n"
    assert link.is_symlink()


def test_a_folder_where_a_lock_should_be_is_exit_1(repo: Path) -> None:
    folder = _state(repo) / PASS_LOCK
    folder.unlink(missing_ok=True)
    folder.mkdir()
    done = run_cli("run", "-C", str(repo))
    assert done.code == 1, done
    assert f"{folder} is a folder where gitcurator keeps a file" in done.err


def test_file_lock_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "x.lock"
    os.mkfifo(fifo)
    with pytest.raises(StateFileError, match="not a regular file"), file_lock(fifo):
        pass


def test_atomic_writes_replace_a_symlinked_target_never_its_target(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"theirs\n")
    target = tmp_path / "state" / "schedule.json"
    target.parent.mkdir()
    target.symlink_to(victim)
    write_json(target, {"a": 1})
    assert victim.read_bytes() == b"theirs\n"
    assert not target.is_symlink() and target.read_text() == '{"a":1}'
    assert sorted(p.name for p in target.parent.iterdir()) == ["schedule.json"]


def test_atomic_writes_never_follow_a_planted_temporary_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"theirs\n")
    target = tmp_path / "cache.json"
    planted = tmp_path / "cache.json.planted.tmp"
    planted.symlink_to(victim)
    monkeypatch.setattr("gitcurator.statefiles.temporary_path", lambda path: planted)
    with pytest.raises(StateFileError):
        write_atomic(target, "mine")
    assert victim.read_bytes() == b"theirs\n"
    assert not target.exists()


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("a file where the folder should be")
    write_cache(tmp_path / "state" / "cache.json", "{}")  # no error
    with pytest.raises(StateFileError, match="a file where gitcurator needs a folder"):
        write_atomic(tmp_path / "state" / "schedule.json", "{}")


def test_a_dry_run_neither_writes_nor_encodes_a_cache(tmp_path: Path) -> None:
    # A value JSON cannot encode: encoding it raises, so only a text never built passes.
    unencodable = {"rows": {1, 2}}
    with read_only():
        write_cache_json(tmp_path / "cache.json", unencodable)
    assert not (tmp_path / "cache.json").exists()
    with pytest.raises(TypeError):
        write_cache_json(tmp_path / "cache.json", unencodable)


def test_an_unwritable_state_folder_stops_writers_but_not_readers(repo: Path) -> None:
    # Tests run as root, whom chmod does not stop: a file where the folder should be is a
    # state folder that cannot be created or written.
    r = str(repo)
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    assert run_cli("flush", "-C", r).code == 0
    state = _state(repo)
    shutil.rmtree(state)
    state.write_bytes(b"in the way\n")
    for reader in (["list"], ["status"], ["show", "pdf-extract"], ["run", "--dry-run"]):
        done = run_cli(*reader, "-C", r)
        assert done.code == 0, (reader, done)
    assert "pdf-extract" in run_cli("list", "-C", r).out
    for writer in (["record", "use", "pdf-extract"], ["flush"], ["run"], ["pin", "pdf-extract"]):
        done = run_cli(*writer, "-C", r)
        assert done.code == 1, (writer, done)
        assert f"{state} is a file where gitcurator needs a folder" in done.err, writer
    assert state.read_bytes() == b"in the way\n"
