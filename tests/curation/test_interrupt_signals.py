"""Ctrl-C, SIGTERM and SIGKILL at random points of a real `gitcurator run`: exit 130 (or 0,
finished first), no lock file left, `git fsck --strict` clean, and the next pass succeeds."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest
from support.interrupts import NOW, curated_library, fsck, interrupt, lock_files
from support.repos import git, run_cli

RUN = ("run", "--now", NOW)


def _delays(seed: int, count: int, span: float) -> list[float]:
    # The first few land while the command is still importing and loading, the rest spread
    # over the pass; seeded, so a failure can be replayed.
    rng = random.Random(seed)
    return [0.0, 0.02, 0.08] + [rng.uniform(0, span) for _ in range(count - 3)]


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    curated_library(root, 40)
    return root


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_anywhere_in_a_pass_exits_130_and_leaves_no_lock(
    lib: Path, signum: signal.Signals
) -> None:
    main_before = git("rev-parse", "main", cwd=lib).stdout
    stopped = 0
    for delay in _delays(int(signum), 8, 1.2):
        done = interrupt(*RUN, "-C", str(lib), cwd=lib, delay=delay, signum=signum)
        assert done.code in (0, 130), (delay, done)
        assert "internal error" not in done.err, (delay, done.err)
        if done.code == 130:
            stopped += 1
            assert done.err.rstrip().endswith("gitcurator: interrupted"), done.err
        assert lock_files(lib) == [], delay
        assert git("rev-parse", "main", cwd=lib).stdout == main_before
    assert stopped >= 3, f"only {stopped} runs were stopped; the test is too lax"
    checked = fsck(lib)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    final = run_cli(*RUN, "-C", str(lib))
    assert final.code == 0, final
    assert git("status", "--porcelain", cwd=lib).stdout == ""


def test_after_a_sigkill_the_next_pass_succeeds_or_names_the_fix(lib: Path) -> None:
    for delay in _delays(9, 6, 1.2):
        interrupt(*RUN, "-C", str(lib), cwd=lib, delay=delay, signum=signal.SIGKILL)
        after = run_cli(*RUN, "-C", str(lib))
        # A lock the kill left is no live writer's to the pass: it says which file and how.
        assert after.code in (0, 1), (delay, after)
        if after.code == 1:
            assert "`rm " in after.err, after.err
            for lock in lock_files(lib):
                (lib / ".git" / lock).unlink()
            assert run_cli(*RUN, "-C", str(lib)).code == 0
        checked = fsck(lib)
        assert checked.returncode == 0, checked.stdout + checked.stderr
