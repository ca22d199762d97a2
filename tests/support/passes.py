"""Shared builders for tests of passes, merges and rollbacks: a pass made, a tree snapshot."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from support.repos import git, run_cli

NOW = "2026-01-01T00:00:00Z"
RUN = "20260101-000000"


def make_pass(
    repo: Path,
    run_id: str = RUN,
    folders: tuple[str, ...] = ("pdf-extract",),
    *,
    now: str = NOW,
    batches: int = 1,
) -> str:
    """A curator branch as `gitcurator run` writes it, made with real git: archive commit(s)
    moving `folders` to .archive/, then the report commit. Returns to main; gives the tip."""
    git("checkout", "-q", "-b", f"curator/{run_id}", cwd=repo)
    groups = [folders[i::batches] for i in range(batches)] if folders else []
    for group in groups:
        for folder in group:
            (repo / ".archive" / folder).parent.mkdir(parents=True, exist_ok=True)
            git("mv", folder, f".archive/{folder}", cwd=repo)
        names = [f.rsplit("/", 1)[-1] for f in group]
        trailers = "\n".join([f"Curator-Run: {run_id}"] + [f"Curator-Archived: {n}" for n in names])
        git(
            "commit",
            "-q",
            "-m",
            f"curator: archive {len(group)} unused skills\n\n{trailers}",
            cwd=repo,
        )
    transitions = [
        {
            "skill": f.rsplit("/", 1)[-1],
            "path": f,
            "from": "active",
            "to": "archived",
            "reason": "idle",
            "archived_path": f".archive/{f}",
        }
        for f in folders
    ]
    return commit_report(repo, run_id, {"run_id": run_id, "now": now, "transitions": transitions})


def commit_report(repo: Path, run_id: str, doc: dict[str, Any]) -> str:
    """On the checked-out curator branch: the report commit holding `doc` as run.json, as a
    pass ends its branch. Returns to main; gives the tip."""
    runs = repo / ".curator" / "runs" / run_id
    runs.mkdir(parents=True, exist_ok=True)
    (runs / "REPORT.md").write_text(f"# Curator pass {run_id}\n")
    (runs / "run.json").write_text(json.dumps(doc))
    git("add", ".curator", cwd=repo)
    report = f".curator/runs/{run_id}/REPORT.md"
    git(
        "commit",
        "-q",
        "-m",
        f"curator: report for run {run_id}\n\nCurator-Run: {run_id}\nCurator-Report: {report}",
        cwd=repo,
    )
    tip = git("rev-parse", "HEAD", cwd=repo).stdout.strip()
    git("checkout", "-q", "main", cwd=repo)
    return tip


def snapshot(repo: Path) -> dict[str, Any]:
    """Every ref, the index file's bytes and every work-tree file (content and mode)."""
    files = {}
    for dirpath, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            full = Path(dirpath) / name
            data = os.readlink(full).encode() if full.is_symlink() else full.read_bytes()
            files[str(full.relative_to(repo))] = (
                hashlib.sha1(data).hexdigest(),
                full.lstat().st_mode,
            )
    return {
        "refs": git("for-each-ref", "--format=%(refname) %(objectname)", cwd=repo).stdout,
        "head": (repo / ".git" / "HEAD").read_text(),
        "index": (repo / ".git" / "index").read_bytes(),
        "files": files,
    }


def commit(repo: Path, message: str, *, allow_empty: bool = False) -> str:
    """`git add -A` and `git commit` (with nothing to commit too, if `allow_empty`); the id."""
    git("add", "-A", cwd=repo)
    git("commit", "-q", *(["--allow-empty"] if allow_empty else []), "-m", message, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo).stdout.strip()


def assert_clean_and_sound(repo: Path) -> None:
    assert git("status", "--porcelain", cwd=repo).stdout == ""
    fsck = git("fsck", "--strict", cwd=repo, check=False)
    assert fsck.returncode == 0, fsck.stderr


def show(repo: Path, name: str) -> dict[str, Any]:
    result = run_cli("show", name, "--json", "-C", str(repo))
    assert result.code == 0, result
    doc: dict[str, Any] = json.loads(result.out)
    return doc


def curator_branches(repo: Path) -> list[str]:
    """The curator/* branches of `repo`, by short name."""
    out = git("for-each-ref", "--format=%(refname:short)", "refs/heads/curator/", cwd=repo)
    return out.stdout.split()
