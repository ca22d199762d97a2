"""`sync` against remotes that never answer, over every transport: it ends at
$GITCURATOR_REMOTE_TIMEOUT plus process start-up, exits 1 saying so, and changes nothing
(real processes, real loopback servers; ssh through a stand-in that never speaks)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.remotes import T1, clone, make_remote, record, refs, usage
from support.repos import run_process
from support.slow_servers import SilentServer

ENV = "GITCURATOR_REMOTE_TIMEOUT"
TIMEOUT = 2
SLACK = 8  # starting Python and gitcurator, on a loaded two-core machine


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A clone with two uses recorded and not flushed yet (the journal holds them)."""
    done = clone(make_remote(tmp_path), tmp_path / "a")
    record(done, "x", 2, T1)
    return done


def _sync_bounded(repo: Path, url: str) -> str:
    before_refs, before_usage = refs(repo), usage(repo)
    started = time.monotonic()
    done = run_process("sync", url, "-C", str(repo))
    took = time.monotonic() - started
    assert took < TIMEOUT + SLACK, took
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr
    # Nothing stored is lost or moved: the events are still buffered, every ref as it was.
    assert usage(repo) == before_usage == {"x": (2, T1)}
    assert refs(repo) == before_refs
    return done.stderr


@pytest.mark.parametrize("scheme", ["git", "http"])
def test_a_silent_tcp_remote_ends_the_sync_at_the_timeout(
    repo: Path, scheme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, str(TIMEOUT))
    with SilentServer() as server:
        url = server.url(scheme)
        err = _sync_bounded(repo, url)
    assert f"cannot fetch from remote {url}: it said nothing for {TIMEOUT} s (${ENV})" in err


def test_a_silent_ssh_remote_ends_the_sync_at_the_timeout(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    silent = tmp_path / "silent-ssh"
    silent.write_text("#!/bin/sh\nexec sleep 120\n")
    silent.chmod(0o755)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(silent))
    monkeypatch.setenv(ENV, str(TIMEOUT))
    err = _sync_bounded(repo, "ssh://skills.example/srv/skills.git")
    assert f"it said nothing for {TIMEOUT} s (${ENV})" in err


@pytest.mark.parametrize("value", ["abc", "nan", "-1", "0"])
def test_a_bad_timeout_is_refused_by_name_on_any_transport(
    repo: Path, tmp_path: Path, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, value)
    for url in (str(tmp_path / "remote.git"), "git://127.0.0.1:9/skills.git"):
        err = _sync_bounded(repo, url)
        assert f"{ENV} is {value!r}; it must be a positive number of seconds" in err
