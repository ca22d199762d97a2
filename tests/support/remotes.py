"""Shared builders for sync tests: bare remotes, clones, records."""

from __future__ import annotations

from pathlib import Path

from gitcurator.library import open_repo
from gitcurator.store.notes import NOTES_REF
from gitcurator.telemetry import ledger, recording
from support.repos import CliResult, git, run_cli, write_skill

NOTES = NOTES_REF.decode()


T1, T2, T3 = "2026-01-01T10:00:00Z", "2026-01-02T10:00:00Z", "2026-01-03T10:00:00Z"


def make_remote(tmp_path: Path, name: str = "remote.git") -> Path:
    """A bare repository holding a skills library (x, y, z) with no telemetry yet."""
    library = tmp_path / "library"
    for skill in ("x", "y", "z"):
        write_skill(library, skill)
    assert run_cli("init", str(library), "--quiet").code == 0
    bare = tmp_path / name
    git("clone", "--quiet", "--bare", str(library), str(bare), cwd=tmp_path)
    return bare


def clone(url: str | Path, dest: Path) -> Path:
    """A plain `git clone`, as a user on a new machine makes one."""
    git("clone", "--quiet", str(url), str(dest), cwd=dest.parent)
    return dest


def record(repo: Path, name: str, count: int, at: str, kind: str = "use") -> None:
    for _ in range(count):
        recording.record(kind, [name], repo=repo, at=at)


def usage(repo: Path) -> dict[str, tuple[int, str | None]]:
    """(use_count, last_used_at) per skill, as every reading command sees them."""
    with open_repo(repo) as r:
        loaded = ledger.load(r.store)
    return {n: (rec.use_count, rec.last_used_at) for n, rec in sorted(loaded.records.items())}


def refs(path: Path) -> dict[str, str]:
    """Every ref of a repository, read by real git."""
    out = git("for-each-ref", "--format=%(refname) %(objectname)", cwd=path).stdout
    return {ref: sha for ref, sha in (line.split(" ", 1) for line in out.splitlines())}


def sync(repo: Path, *args: str) -> CliResult:
    return run_cli("sync", *args, "-C", str(repo))
