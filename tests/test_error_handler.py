"""The one error handler: every exception becomes a message and an exit code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.interrupts import own_lock

from gitcurator.error_handler import guarded
from gitcurator.errors import ConfigError, UsageError


def _raise(exc: BaseException) -> int:
    raise exc


@pytest.mark.parametrize(
    ("exc", "code", "line"),
    [
        (ConfigError("bad yaml"), 1, "gitcurator: error: bad yaml\n"),
        (UsageError("bad flag"), 2, "gitcurator: error: bad flag\n"),
        (KeyboardInterrupt(), 130, "gitcurator: interrupted\n"),
    ],
)
def test_errors_and_interrupts(
    capsys: pytest.CaptureFixture[str], exc: BaseException, code: int, line: str
) -> None:
    assert guarded(lambda: _raise(exc)) == code
    assert capsys.readouterr() == ("", line)


def test_a_bug_exits_3_with_a_crash_log(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded(lambda: _raise(RuntimeError("kaboom"))) == 3
    err = capsys.readouterr().err
    assert err.startswith("gitcurator: internal error: RuntimeError: kaboom\n")
    log = re.search(r"details: (\S+)", err)
    assert log and "kaboom" in Path(log.group(1)).read_text()
    Path(log.group(1)).unlink()  # in the session's TMPDIR, which must end empty


def test_the_code_of_a_command_that_returns(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded(lambda: 1) == 1
    assert capsys.readouterr() == ("", "")


def _cleanup_fails_after_ctrl_c(cleanup_error: Exception) -> int:
    try:
        raise KeyboardInterrupt
    finally:
        raise cleanup_error  # e.g. closing a pack while a view into it is still alive


@pytest.mark.parametrize(
    "cleanup_error",
    [BufferError("cannot close exported pointers exist"), ConfigError("half-written")],
    ids=["bug", "error"],
)
def test_an_error_raised_while_unwinding_from_ctrl_c_is_still_an_interrupt(
    capsys: pytest.CaptureFixture[str], cleanup_error: Exception
) -> None:
    assert guarded(lambda: _cleanup_fails_after_ctrl_c(cleanup_error)) == 130
    assert capsys.readouterr() == ("", "gitcurator: interrupted\n")


def test_lock_files_an_interrupted_command_created_are_removed(tmp_path: Path) -> None:
    lock = tmp_path / "index.lock"

    def interrupted_write() -> int:
        own_lock(lock)
        raise KeyboardInterrupt

    assert guarded(interrupted_write) == 130
    assert not lock.exists()


def test_an_object_missing_from_the_store_is_the_repository_s_state_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sha = b"5c62ded141a499df6fb2894ef68790ffd060feeb"
    assert guarded(lambda: _raise(KeyError(sha))) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"gitcurator: error: object {sha.decode()} is not in this repository")
    assert "git fsck" in err


# A str key is a lookup of ours (a skill or JSON key that merely looks like a sha, say),
# never dulwich's missing object, which it names in bytes.
@pytest.mark.parametrize(
    "key", ["name", b"not-an-object-id", ("a", "b"), "5c62ded141a499df6fb2894ef68790ffd060feeb"]
)
def test_any_other_key_error_is_still_a_bug(
    capsys: pytest.CaptureFixture[str], key: object
) -> None:
    assert guarded(lambda: _raise(KeyError(key))) == 3
    log = re.search(r"details: (\S+)", capsys.readouterr().err)
    assert log
    Path(log.group(1)).unlink()
