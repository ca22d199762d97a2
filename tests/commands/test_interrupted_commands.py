"""Ctrl-C and SIGTERM at random points of real `merge`, `init`, `flush` and `sync` processes:
exit 130 (or 0, finished first), no lock file left in the clone or the remote, `git fsck
--strict` clean, nothing half-done, and the same command then succeeds."""

from __future__ import annotations

import random
import shutil
import signal
from pathlib import Path

from support.interrupts import NOW, curated_library, fsck, interrupt, lock_files
from support.remotes import clone, make_remote, refs, usage
from support.repos import git, run_cli, write_skill

SIGNALS = [signal.SIGINT, signal.SIGTERM]


def _attempts(tmp_path: Path, prepared: Path, seed: int) -> list[tuple[Path, float, int]]:
    """A fresh copy of `prepared` per attempt, a delay and a signal for each."""
    rng = random.Random(seed)
    delays = [0.0, 0.05, 0.15] + [rng.uniform(0, 0.8) for _ in range(3)]
    out = []
    for i, delay in enumerate(delays):
        copy = tmp_path / f"attempt-{i}"
        shutil.copytree(prepared, copy, symlinks=True)
        out.append((copy, delay, SIGNALS[i % 2]))
    return out


def _check_stopped(code: int, err: str, *repos: Path) -> None:
    assert code in (0, 130), err
    assert "internal error" not in err, err
    if code == 130:
        assert err.rstrip().endswith("gitcurator: interrupted"), err
    for repo in repos:
        assert lock_files(repo) == [], repo
        checked = fsck(repo)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def _stopped_some(codes: list[int]) -> None:
    assert codes.count(130) >= 2, f"exit codes {codes}: too few were stopped to tell"


def test_an_interrupted_merge_leaves_main_before_or_merged(tmp_path: Path) -> None:
    prepared = tmp_path / "prepared"
    curated_library(prepared, 40)
    ran = run_cli("run", "--now", NOW, "--json", "-C", str(prepared))
    assert ran.code == 0, ran
    run_id = git("branch", "--list", "curator/*", "--format=%(refname:short)", cwd=prepared)
    run_id = run_id.stdout.strip().removeprefix("curator/")
    before = git("rev-parse", "main", cwd=prepared).stdout
    codes = []
    for lib, delay, signum in _attempts(tmp_path, prepared, 1):
        done = interrupt("merge", run_id, "-C", str(lib), cwd=lib, delay=delay, signum=signum)
        codes.append(done.code)
        _check_stopped(done.code, done.err, lib)
        # The work tree and index always agree with main, whichever side of the merge it is.
        assert git("status", "--porcelain", cwd=lib).stdout == "", (delay, done)
        again = run_cli("merge", run_id, "-C", str(lib))
        assert again.code == 0 or "already merged" in again.err, again
        assert git("rev-parse", "main", cwd=lib).stdout != before
        assert git("status", "--porcelain", cwd=lib).stdout == ""
    _stopped_some(codes)


def test_an_interrupted_init_can_simply_be_run_again(tmp_path: Path) -> None:
    prepared = tmp_path / "prepared"
    for i in range(60):
        write_skill(prepared, f"family-{i % 5}/skill-{i:03d}")
    codes = []
    for lib, delay, signum in _attempts(tmp_path, prepared, 2):
        done = interrupt("init", str(lib), cwd=lib, delay=delay, signum=signum)
        codes.append(done.code)
        _check_stopped(done.code, done.err, *([lib] if (lib / ".git").exists() else []))
        again = run_cli("init", str(lib))
        assert again.code == 0, again
        assert git("status", "--porcelain", cwd=lib).stdout == "", (delay, done)
        assert git("ls-files", cwd=lib).stdout.count("/SKILL.md\n") == 60
    _stopped_some(codes)


def test_an_interrupted_flush_loses_and_doubles_nothing(tmp_path: Path) -> None:
    prepared = tmp_path / "prepared"
    names = curated_library(prepared, 40)
    for name in names:
        for at in ("2026-05-26T00:00:00Z", "2026-05-27T00:00:00Z"):
            assert run_cli("record", "use", name, "--at", at, "-C", str(prepared)).code == 0
    codes = []
    for lib, delay, signum in _attempts(tmp_path, prepared, 3):
        done = interrupt("flush", "-C", str(lib), cwd=lib, delay=delay, signum=signum)
        codes.append(done.code)
        _check_stopped(done.code, done.err, lib)
        assert run_cli("flush", "-C", str(lib)).code == 0
        counts = {name: count for name, (count, _last) in usage(lib).items()}
        expected = {name: 3 if i < 20 else 2 for i, name in enumerate(names)}
        assert counts == expected, (delay, done)
    _stopped_some(codes)


def test_an_interrupted_sync_leaves_clone_and_remote_whole(tmp_path: Path) -> None:
    prepared = tmp_path / "prepared"
    prepared.mkdir()
    bare = make_remote(prepared)
    mine = clone(bare, prepared / "mine")
    for name in ("x", "y", "z"):
        for day in range(10, 20):
            at = f"2026-01-{day}T10:00:00Z"
            assert run_cli("record", "use", name, "--at", at, "-C", str(mine)).code == 0
    assert run_cli("run", "--now", NOW, "-C", str(mine)).code == 0  # a curator branch too
    codes = []
    for copy, delay, signum in _attempts(tmp_path, prepared, 4):
        lib, remote = copy / "mine", copy / "remote.git"
        git("remote", "set-url", "origin", str(remote), cwd=lib)
        done = interrupt("sync", "-C", str(lib), cwd=lib, delay=delay, signum=signum)
        codes.append(done.code)
        _check_stopped(done.code, done.err, lib, remote)
        again = run_cli("sync", "-C", str(lib))
        assert again.code == 0, again
        assert refs(remote).get("refs/notes/gitcurator") == refs(lib)["refs/notes/gitcurator"]
        assert {n: c for n, (c, _) in usage(lib).items()} == {"x": 10, "y": 10, "z": 10}
    _stopped_some(codes)
