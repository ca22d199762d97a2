"""Builders for interrupt tests (and bench/bench_interrupts.py): start gitcurator as a real
process, stop it with a signal once it is running our code, and look for what it left.

Standard library only, so the bench can use it too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

CREATED = "2026-01-01T00:00:00Z"  # when curated_library's skills were committed
RECENT = "2026-05-25T00:00:00Z"  # when its used half was last used
NOW = "2026-06-01T00:00:00Z"  # the --now of a pass over it: the unused half is archived

# From spawning to our handlers, Python starts and imports; a signal then ends the process
# as Python's defaults do, before gitcurator could do anything about it.
_READY_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class Stopped:
    """How a process stopped by a signal ended: its exit code and what it wrote."""

    code: int
    out: str
    err: str
    signalled: bool  # False if it finished before the signal was sent


def start(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`python -m gitcurator ARGS` as a real process, Ctrl-C reaching it as from a terminal."""
    return subprocess.Popen(
        [sys.executable, "-m", "gitcurator", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Run from a background job (`&`, nohup, some CI runners), the child would inherit
        # SIGINT ignored, and Ctrl-C would test nothing.
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def handlers_installed(pid: int) -> bool:
    """Whether the process catches SIGTERM, i.e. gitcurator's entry point has started."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt"))
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def wait_until_running(proc: subprocess.Popen[str]) -> None:
    """Return once `proc` runs gitcurator's code (or has already ended)."""
    deadline = time.monotonic() + _READY_TIMEOUT
    while proc.poll() is None and not handlers_installed(proc.pid):
        if time.monotonic() > deadline:
            raise TimeoutError(f"gitcurator (pid {proc.pid}) did not start")
        time.sleep(0.002)


def stop_after(proc: subprocess.Popen[str], delay: float, signum: int = signal.SIGINT) -> Stopped:
    """Send `signum` `delay` seconds after `proc` started running our code; how it ended."""
    wait_until_running(proc)
    time.sleep(delay)
    signalled = proc.poll() is None
    if signalled:
        os.kill(proc.pid, signum)
    out, err = proc.communicate(timeout=120)
    return Stopped(proc.returncode, out, err, signalled)


def interrupt(
    *args: str,
    cwd: Path,
    delay: float,
    signum: int = signal.SIGINT,
    env: dict[str, str] | None = None,
) -> Stopped:
    """Run `gitcurator ARGS` and send it `signum` after `delay` seconds of running."""
    return stop_after(start(*args, cwd=cwd, env=env), delay, signum)


def lock_files(repo: Path) -> list[str]:
    """Every `*.lock` git or dulwich left under .git (the flock files of .git/gitcurator are
    kept on purpose: an flock dies with its holder)."""
    git_dir = repo / ".git" if (repo / ".git").is_dir() else repo
    return sorted(
        p.relative_to(git_dir).as_posix()
        for p in git_dir.rglob("*.lock")
        if p.relative_to(git_dir).parts[0] != "gitcurator"
    )


def fsck(repo: Path) -> subprocess.CompletedProcess[str]:
    """`git fsck --strict` of `repo` (dangling objects of an interrupted write are fine)."""
    return subprocess.run(
        ["git", "fsck", "--strict", "--no-dangling", "--no-progress"],
        cwd=repo,
        capture_output=True,
        text=True,
    )


def curated_library(root: Path, skills: int) -> list[str]:
    """A library of `skills` skills committed months ago and handed to the curator, the
    first half used recently: every `run --now NOW` archives the other half."""
    # Imported here: the bench uses the helpers above without the test suite's builders.
    from support.repos import run_cli, write_skill

    names = [f"skill-{i:03d}" for i in range(skills)]
    for i, name in enumerate(names):
        write_skill(root, f"family-{i % 5}/{name}")
    with mock.patch.dict(os.environ, {"GIT_AUTHOR_DATE": CREATED, "GIT_COMMITTER_DATE": CREATED}):
        assert run_cli("init", str(root), "-q").code == 0
    assert run_cli("track", *names, "--origin", "agent", "-C", str(root)).code == 0
    used = names[: skills // 2]
    assert run_cli("record", "use", *used, "--at", RECENT, "-C", str(root)).code == 0
    assert run_cli("flush", "-C", str(root)).code == 0
    return names


def own_lock(path: Path) -> Path:
    """Create the lock file `path` as the store does and note it as this process's own."""
    from gitcurator.locks import claim_lock_file

    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL)
    claim_lock_file(str(path), fd)
    os.close(fd)
    return path
