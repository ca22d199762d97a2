"""A SHA-256 repository is refused by name before anything is written: gitcurator's ids are
SHA-1, and its first `init` there left an index git could not read."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.repos import git, run_process, write_skill


def _sha256_repo(tmp_path: Path) -> Path:
    library = tmp_path / "lib"
    write_skill(library, "csv-clean")
    done = git("init", "-q", "--object-format=sha256", str(library), cwd=tmp_path, check=False)
    if done.returncode != 0:
        pytest.skip("this git makes no SHA-256 repositories")
    return library


def test_init_and_the_reading_commands_refuse_a_sha256_repository(tmp_path: Path) -> None:
    library = _sha256_repo(tmp_path)
    before = sorted(p.relative_to(library) for p in library.rglob("*"))
    done = run_process("init", str(library), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "SHA-256" in done.stderr and str(library.resolve()) in done.stderr
    assert sorted(p.relative_to(library) for p in library.rglob("*")) == before
    # Committed by plain git: every command still refuses, never exit 3.
    git("add", "-A", cwd=library)
    git("commit", "-qm", "skills", cwd=library)
    for args in (["list", "--json"], ["validate"], ["status"], ["run", "--dry-run"]):
        done = run_process(*args, "-C", str(library), cwd=tmp_path)
        assert done.returncode == 1 and "SHA-256" in done.stderr, (args, done.stderr)
    assert subprocess.run(["git", "fsck", "--strict"], cwd=library, check=False).returncode == 0


@pytest.mark.parametrize("empty", [True, False])
def test_sync_and_add_name_a_sha256_remote_instead_of_a_pack_damaged_in_transit(
    tmp_path: Path, empty: bool
) -> None:
    # Its pack is checksummed with SHA-256: the fetch said "damaged in transit, try again",
    # which no retry mends.
    remote = _sha256_repo(tmp_path)
    if not empty:
        git("add", "-A", cwd=remote)
        git("commit", "-qm", "skills", cwd=remote)
    mine = tmp_path / "mine"
    write_skill(mine, "pdf-extract")
    assert run_process("init", str(mine), "--quiet", cwd=tmp_path).returncode == 0
    for args in (["sync", str(remote)], ["add", str(remote), "csv-clean"]):
        done = run_process(*args, "-C", str(mine), cwd=tmp_path)
        assert done.returncode == 1, (args, done.stderr)
        assert "SHA-256" in done.stderr and "try again" not in done.stderr, (args, done.stderr)
    assert git("fsck", "--strict", cwd=mine).returncode == 0
