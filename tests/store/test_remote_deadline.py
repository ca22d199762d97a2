"""store.remote_deadline: $GITCURATOR_REMOTE_TIMEOUT read strictly, and the ssh reader that
gives up on a silent remote."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gitcurator.errors import ConfigError
from gitcurator.store.remote_deadline import (
    DEFAULT_TIMEOUT,
    ENV,
    MAX_TIMEOUT,
    SilenceBoundSSHVendor,
    remote_timeout,
    timed_out,
)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        (None, DEFAULT_TIMEOUT),
        ("", DEFAULT_TIMEOUT),
        ("5", 5.0),
        (" 2.5 ", 2.5),
        (str(MAX_TIMEOUT), MAX_TIMEOUT),
    ],
)
def test_the_timeout_comes_from_the_environment(value: str | None, seconds: float) -> None:
    env = {} if value is None else {ENV: value}
    assert remote_timeout(env) == seconds


@pytest.mark.parametrize(
    "value", ["abc", "nan", "-1", "0", "inf", "-inf", "1e999", "30s", "1e10", "86401"]
)
def test_a_value_that_is_not_a_positive_finite_number_is_refused_by_name(value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        remote_timeout({ENV: value})
    message = str(caught.value)
    assert message.startswith(f"{ENV} is {value!r}") and "positive number of seconds" in message
    assert caught.value.exit_code == 1


def test_an_ssh_remote_that_says_nothing_is_killed_at_the_timeout(tmp_path: Path) -> None:
    silent = tmp_path / "silent-ssh"
    silent.write_text("#!/bin/sh\nexec sleep 60\n")
    silent.chmod(0o755)
    wrapper = SilenceBoundSSHVendor(0.5).run_command(
        "skills.example", b"git-upload-pack '/x'", ssh_command=str(silent)
    )
    started = time.monotonic()
    with pytest.raises(TimeoutError) as caught:
        wrapper.read(4)
    assert time.monotonic() - started < 3
    assert wrapper.proc.wait(timeout=5) != 0, "the ssh process is gone"
    assert timed_out(caught.value)


def test_an_ssh_remote_that_answers_is_read_whole(tmp_path: Path) -> None:
    talker = tmp_path / "talking-ssh"
    talker.write_text("#!/bin/sh\nprintf '0006a\\n0000'\n")
    talker.chmod(0o755)
    wrapper = SilenceBoundSSHVendor(5).run_command("h", b"cmd", ssh_command=str(talker))
    assert wrapper.read(4) == b"0006" and wrapper.read(2) == b"a\n" and wrapper.read() == b"0000"
    wrapper.close()
